/*
 * ddeleted -s: a row per filesystem, the library's summary of the scan
 * with df's figures, and with --du what du reaches and what neither
 * explains.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "ddeleted.h"

/* One summary row: fs's figures, s's counts, with du what du reaches. */
static void
sumrow(const struct ds_root *r, const char *mount, size_t mlen,
    const char *fstype, size_t flen, const struct ds_delfs *fs,
    const struct ds_delsum *s, int du, struct del_sumrow *o)
{
	memset(o, 0, sizeof(*o));
	o->mount = mount;
	o->mount_len = mlen;
	o->fstype = fstype;
	o->fstype_len = flen;
	o->s = *s;
	/*
	 * df's figures: f_blocks, f_blocks - f_bfree and f_bavail in
	 * f_frsize units.  Without a mount (memfd, SysV shm live on the
	 * kernel's internal tmpfs) they describe no filesystem a person
	 * can see, so they are left out.
	 */
	if ((o->have_df = fs->have_statfs && mount != NULL)) {
		o->used = fs->blocks >= fs->bfree ?
		    (fs->blocks - fs->bfree) * fs->frsize : 0;
		o->size = fs->blocks * fs->frsize;
		o->avail = fs->bavail * fs->frsize;
	}
	if (!du || mount == NULL)
		return;
	if ((o->du_error = ds_du(r, mount, fs->dev, &o->reachable,
	    &o->du_errors)) < 0)
		return;
	o->have_reach = 1;
	if ((o->have_unexplained = o->have_df))
		o->unexplained = (int64_t)o->used - (int64_t)o->reachable -
		    (int64_t)s->held;
}

/*
 * Filesystem k asked for holds nothing deleted (no row of sum) and was
 * not asked for before: it gets a row of zeros, truly.
 */
static int
want_alone(const struct ds_deleted *d, const struct ds_delsum *sum,
    size_t n, const struct del_want *w, size_t k)
{
	size_t i;

	if (!w[k].ok)
		return 0;
	for (i = 0; i < n; i++)
		if (d->fs[sum[i].fs].dev == w[k].fs.dev)
			return 0;
	for (i = 0; i < k; i++)
		if (w[i].ok && w[i].fs.dev == w[k].fs.dev)
			return 0;
	return 1;
}

int
del_sumrows(const struct ds_root *r, const struct ds_deleted *d,
    const struct del_want *w, size_t nw, int du, struct del_sumrows *out)
{
	struct ds_delsum *sum, none;
	size_t n, i, k;
	int e, have_ms;

	memset(out, 0, sizeof(*out));
	if ((e = ds_deleted_summary(d, &sum, &n)) < 0)
		return e;
	if ((out->row = calloc(n + nw + 1, sizeof(*out->row))) == NULL) {
		free(sum);
		return -ENOMEM;
	}
	have_ms = ds_mountinfo_read(r, "proc/self/mountinfo", &out->ms) == 0;
	for (i = 0; i < n; i++) {
		const struct ds_delfs *fs = &d->fs[sum[i].fs];

		sumrow(r, fs->mount != DS_DEL_NONE ?
		    ds_deleted_str(d, fs->mount) : NULL, fs->mount_len,
		    fs->fstype != DS_DEL_NONE ?
		    ds_deleted_str(d, fs->fstype) : NULL, fs->fstype_len,
		    fs, &sum[i], du, &out->row[out->n++]);
	}
	memset(&none, 0, sizeof(none));
	for (k = 0; k < nw; k++) {
		const struct ds_mount *m = NULL;
		const char *mnt = w[k].path, *fst = NULL;

		if (!want_alone(d, sum, n, w, k))
			continue;
		if (have_ms)
			m = ds_mount_by_dev(&out->ms, major(w[k].fs.dev),
			    minor(w[k].fs.dev));
		if (m != NULL) {
			mnt = m->mnt;
			fst = m->fstype;
		}
		sumrow(r, mnt, strlen(mnt), fst, fst != NULL ? strlen(fst) : 0,
		    &w[k].fs, &none, du, &out->row[out->n++]);
	}
	free(sum);
	return 0;
}

void
del_sumrows_free(struct del_sumrows *rs)
{
	free(rs->row);
	ds_mounts_free(&rs->ms);
	memset(rs, 0, sizeof(*rs));
}
