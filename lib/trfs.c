/*
 * The judgement's filesystem rules: space and inodes used, and space
 * held by deleted files still open.
 */
#include <errno.h>

#include "triage.h"

#define FS_WARN		0.90	/* use: time to act */
#define FS_CRIT		0.98	/* writes fail or are about to */
#define HELD_MIN	(1u << 20)	/* deleted-open bytes worth a row */
#define HELD_SHARE_INFO	0.01	/* of the filesystem: worth a row */
#define HELD_SHARE_WARN	0.10	/* of it: space a restart would give back */

static int
row_held(const struct ds_tr_fs *fs, struct ds_findings *out)
{
	struct ds_finding *f;
	double size = fs->have_stat ? (double)ds_fs_size(&fs->st) : 0;
	double use = fs->have_stat ? ds_fs_use(&fs->st) : 0;
	double share = size > 0 ? (double)fs->held / size : 0;
	size_t i;

	if (!fs->have_deleted || fs->held < HELD_MIN ||
	    (share < HELD_SHARE_INFO && use < FS_WARN))
		return 0;
	if ((f = ds_tr_add(out, share >= HELD_SHARE_WARN || use >= FS_WARN ?
	    DS_TR_WARN : DS_TR_INFO, "deleted-held", fs->mount,
	    (double)fs->held, "bytes")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "%s held by %llu deleted "
	    "%s of %llu %s (%.1f%% of the fs; df counts it, du cannot):",
	    HUMAN(fs->held), (unsigned long long)fs->held_files,
	    plural(fs->held_files, "file", "files"),
	    (unsigned long long)fs->held_procs, plural(fs->held_procs,
	    "process", "processes"), share * 100);
	for (i = 0; i < fs->nholder && i < TOP_N; i++) {
		const struct ds_tr_holder *h = &fs->holder[i];

		if (h->fd >= 0)
			ds_tr_more(f->evidence, sizeof(f->evidence), " pid %d "
			    "%s fd %d %s (ddeleted --truncate %d:%d, or "
			    "restart it);", h->pid, h->comm ? h->comm : "?",
			    h->fd, HUMAN(h->bytes), h->pid, h->fd);
		else
			ds_tr_more(f->evidence, sizeof(f->evidence),
			    " pid %d %s mapped %s (restart it);", h->pid,
			    h->comm ? h->comm : "?", HUMAN(h->bytes));
	}
	ds_tr_say(f->next, sizeof(f->next), "ddeleted -s");
	return 0;
}

int
ds_tr_fs_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i;

	for (i = 0; i < in->nfs; i++) {
		const struct ds_tr_fs *fs = &in->fs[i];
		double use, iuse;

		if (fs->have_stat && fs->st.blocks > 0) {
			use = ds_fs_use(&fs->st);
			if (use >= FS_WARN || fs->st.bavail == 0) {
				if ((f = ds_tr_add(out, use >= FS_CRIT ||
				    fs->st.bavail == 0 ? DS_TR_CRIT :
				    DS_TR_WARN, "fs-full", fs->mount, use,
				    "ratio")) == NULL)
					return -ENOMEM;
				ds_tr_say(f->evidence, sizeof(f->evidence),
				    "%.1f%% used (df's Use%%): %s used of %s, "
				    "%s available to users%s", use * 100,
				    HUMAN(ds_fs_used(&fs->st)),
				    HUMAN(ds_fs_size(&fs->st)),
				    HUMAN(ds_fs_avail(&fs->st)), fs->memory ?
				    " (memory-backed)" : "");
				ds_tr_say(f->next, sizeof(f->next),
				    "ddeleted -s");
			}
			iuse = ds_fs_iuse(&fs->st);
			if (iuse >= FS_WARN) {
				if ((f = ds_tr_add(out, iuse >= FS_CRIT ?
				    DS_TR_CRIT : DS_TR_WARN, "fs-inodes",
				    fs->mount, iuse, "ratio")) == NULL)
					return -ENOMEM;
				ds_tr_say(f->evidence, sizeof(f->evidence),
				    "%.1f%% of inodes used: %llu free of %llu",
				    iuse * 100,
				    (unsigned long long)fs->st.ffree,
				    (unsigned long long)fs->st.files);
				ds_tr_say(f->next, sizeof(f->next),
				    "ddeleted -s");
			}
		}
		if (row_held(fs, out) < 0)
			return -ENOMEM;
	}
	return 0;
}
