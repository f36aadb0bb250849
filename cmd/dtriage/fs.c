/*
 * The filesystems of the window: each block filesystem once, its space,
 * and who holds deleted-open space on it, from a scan of every
 * process's descriptors and mappings.
 */
#include <sys/sysmacros.h>

#include "util/util.h"
#include "dtriage/dtriage.h"

static int
cmp_holder(const void *x, const void *y)
{
	const struct ds_tr_holder *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->fd > b->fd) - (a->fd < b->fd);
}

/*
 * The holders of deleted-open disk files (memory-backed left out) on
 * filesystem fs of d, largest first: *out allocated, comm into d's pool.
 */
int
fs_holders(const struct ds_deleted *d, size_t fs, struct ds_tr_holder **out,
    size_t *n)
{
	struct ds_tr_holder *h;
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < d->n; i++)
		k += d->f[i].fs == fs && !d->f[i].memory;
	if (k == 0)
		return 0;
	if ((h = calloc(k, sizeof(*h))) == NULL)
		return -ENOMEM;
	for (i = k = 0; i < d->n; i++) {
		const struct ds_delfile *f = &d->f[i];

		if (f->fs != fs || f->memory)
			continue;
		h[k].pid = f->pid;
		h[k].fd = f->fd;
		h[k].comm = ds_deleted_str(d, f->comm);
		/* st_blocks is in 512-byte units whatever the block size. */
		h[k].bytes = f->blocks * 512;
		k++;
	}
	qsort(h, k, sizeof(*h), cmp_holder);
	*out = h;
	*n = k;
	return 0;
}

/*
 * Fill fs's deleted-open figures from a scan and its summary: the row
 * of the same st_dev, its holders allocated (free fs->holder).
 */
int
fs_held(struct ds_tr_fs *fs, const struct ds_deleted *d,
    const struct ds_delsum *sum, size_t nsum)
{
	struct ds_tr_holder *h;
	size_t k;

	fs->have_deleted = 1;
	for (k = 0; k < nsum; k++) {
		if (d->fs[sum[k].fs].dev != fs->st.dev)
			continue;
		fs->held = sum[k].held;
		fs->held_files = sum[k].files;
		fs->held_procs = sum[k].holders;
		if (fs_holders(d, sum[k].fs, &h, &fs->nholder) < 0)
			return -ENOMEM;
		fs->holder = h;
		return 0;
	}
	return 0;
}

/* The block filesystems, each once, with their deleted-open space. */
size_t
filesystems(struct tr *x, struct ds_mounts *ms, struct ds_deleted *del,
    struct ds_tr_fs **out)
{
	struct ds_delsum *sum = NULL;
	struct ds_tr_fs *fs;
	size_t i, j, n = 0, nsum = 0;
	int have_del;

	*out = NULL;
	if (ds_mountinfo_read(&x->t.r, "proc/self/mountinfo", ms) < 0)
		return 0;
	have_del = ds_deleted_scan(&x->t.r, del) == 0 &&
	    ds_deleted_summary(del, &sum, &nsum) == 0;
	if ((fs = calloc(ms->n ? ms->n : 1, sizeof(*fs))) == NULL)
		tool_errc(1, -ENOMEM, "filesystems");
	for (i = 0; i < ms->n; i++) {
		const struct ds_mount *m = &ms->m[i];

		for (j = 0; j < n; j++)
			if (fs[j].st.dev == makedev(m->major, m->minor))
				break;
		if (!ds_fs_on_disk(m->fstype, m->major) || j < n ||
		    ds_fsstat_read(&x->t.r, m->mnt, &fs[n].st) < 0)
			continue;
		fs[n].mount = m->mnt;
		fs[n].fstype = m->fstype;
		fs[n].have_stat = 1;
		if (have_del && fs_held(&fs[n], del, sum, nsum) < 0)
			tool_errc(1, -ENOMEM, "holders");
		n++;
	}
	free(sum);
	*out = fs;
	return n;
}
