/*
 * ddeleted: files deleted but still held open or mapped, the space they
 * hold per filesystem, and why df and du disagree.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <sys/sysmacros.h>

#include "util/util.h"
#include "ddeleted.h"

static const char synopsis[] =
    "ddeleted [-aHhs] [--du] [--min-size bytes] [-O cols] [-o fmt] [-R dir]\n"
    "                [-w file] [mountpoint ...]\n"
    "       ddeleted [-Hn] [-o fmt] [-R dir] --truncate pid:fd";

static const char options[] =
    "  -a            also memory-backed files (tmpfs, memfd, SysV shm)\n"
    "  -s, --summary one row per filesystem (disk ones first)\n"
    "  --du          with -s: what du reaches, and what neither explains\n"
    "  --min-size n  only files holding n bytes or more (K M G T)\n"
    "  --truncate pid:fd\n"
    "                free a deleted file's space through its descriptor\n"
    "  -n, --dry-run with --truncate: say what would be freed, change nothing\n";

static const struct tool_info info = { synopsis, options, TOOL_N_DRYRUN };

/* A string, or missing when NULL. */
static void
w_strn(struct ds_writer *w, const char *s, size_t len)
{
	if (s == NULL)
		ds_w_null(w);
	else
		ds_w_strn(w, s, len);
}

/* A number, or missing. */
static void
w_u64_if(struct ds_writer *w, int have, uint64_t v)
{
	if (have)
		ds_w_u64(w, v);
	else
		ds_w_null(w);
}

/* A string of d's pool, NULL for none. */
#define POOLED(d, off) ((off) == DS_DEL_NONE ? NULL : ds_deleted_str(d, off))

struct opts {
	struct tool t;
	char **argv;		/* mountpoint operands */
	int argc;
	const char *trunc;	/* --truncate's PID:FD */
	int tpid, tfd;
	int sum, du, all, dry;
	uint64_t min;
	struct ds_deleted d;
	struct del_want *wt;	/* the operands, as filesystems */
};

/*
 * Processes whose descriptors could not be read.  Live, that is this
 * user's lack of root; in a capture, the capturing user's (meta's uid),
 * whoever reads it now.
 */
static void
denied_note(struct opts *o)
{
	struct ds_buf scratch = { 0 };
	struct ds_deleted *d = &o->d;
	uint64_t uid;
	int e;

	if (o->t.r.nsamples == 0) {
		warnx("not root: the descriptors of %zu of %zu processes "
		    "could not be read; only your own are listed", d->denied,
		    d->procs);
		return;
	}
	e = ds_capture_u64(&o->t.r, "uid", &scratch, &uid);
	ds_buf_free(&scratch);
	if (e == 0 && uid != 0)
		warnx("the capture was taken without root (uid %" PRIu64 "): "
		    "the descriptors of %zu of %zu processes are not in it; "
		    "other users' deleted files are missing", uid, d->denied,
		    d->procs);
	else if (e < 0)
		warnx("the capture does not say its user (no uid in its meta): "
		    "the descriptors of %zu of %zu processes are not in it; "
		    "their deleted files are missing", d->denied, d->procs);
	else
		warnx("the descriptors of %zu of %zu processes are not in the "
		    "capture; their deleted files are missing", d->denied,
		    d->procs);
}

/* Operands statted, processes scanned, filtered: 1 if an operand failed. */
static int
gather(struct opts *o)
{
	struct ds_deleted *d = &o->d;
	int k, e, status = 0;

	if ((o->wt = calloc((size_t)o->argc + 1, sizeof(*o->wt))) == NULL)
		err(1, NULL);
	for (k = 0; k < o->argc; k++)
		if ((e = del_want_stat(&o->t.r, o->argv[k], &o->wt[k])) < 0) {
			tool_warnc(e, "%s", o->argv[k]);
			status = 1;
		}
	if ((e = ds_deleted_scan(&o->t.r, d)) < 0)
		tool_errc(1, e, "%s/proc", strcmp(o->t.r.path, "/") == 0 ? "" :
		    o->t.r.path);
	if (d->denied > 0)
		denied_note(o);
	if (d->unconfirmed > 0)
		warnx("%zu mappings marked deleted could not be confirmed "
		    "(map_files needs root); not listed", d->unconfirmed);
	del_filter(d, o->wt, (size_t)o->argc, o->min, o->all || o->sum);
	ds_deleted_sort(d);
	return status;
}

/* The report's writer; -O applies to the listing and the summary. */
static void
report_open(struct opts *o, struct ds_writer *w, enum del_cols which,
    int select)
{
	const struct ds_col *cols;
	size_t ncols;
	int e;

	cols = del_columns(which, &ncols);
	if ((e = ds_writer_init(w, o->t.out, o->t.fmt, cols, ncols,
	    o->t.header, "ddeleted")) < 0)
		tool_errc(1, e, "writer");
	if (select)
		tool_writer(&o->t, w);
	tool_report_begin(&o->t, w);
}

static void
report_close(struct opts *o, struct ds_writer *w)
{
	tool_report_end(&o->t, w);
	ds_writer_free(w);
	ds_deleted_free(&o->d);
	del_want_free(o->wt, (size_t)o->argc);
	free(o->wt);
}

/* --du's columns: what du reaches, and what neither explains. */
static void
du_cols(struct ds_writer *w, const struct del_sumrow *r)
{
	if (r->du_error == -EXDEV)
		warnx("%s: another filesystem is mounted over it, or it is a "
		    "btrfs subvolume; reachable not computed", r->mount);
	else if (r->du_error < 0)
		tool_warnc(r->du_error, "%s", r->mount);
	else if (r->have_reach && r->du_errors > 0)
		warnx("%s: %" PRIu64 " entries could not be read; reachable "
		    "is short", r->mount, r->du_errors);
	w_u64_if(w, r->have_reach, r->reachable);
	if (r->have_unexplained)
		ds_w_i64(w, r->unexplained);
	else
		ds_w_null(w);
}

/* -s: one row per filesystem; --du adds du's columns. */
static void
summary(struct opts *o)
{
	struct del_sumrows rs;
	struct ds_writer w;
	size_t i;
	int e;

	report_open(o, &w, o->du ? DEL_COLS_SUM_DU : DEL_COLS_SUM, 1);
	if ((e = del_sumrows(&o->t.r, &o->d, o->wt, (size_t)o->argc,
	    o->du, &rs)) < 0)
		tool_errc(1, e, "summary");
	for (i = 0; i < rs.n; i++) {
		const struct del_sumrow *r = &rs.row[i];

		w_strn(&w, r->mount, r->mount_len);
		w_strn(&w, r->fstype, r->fstype_len);
		w_u64_if(&w, r->have_df, r->size);
		w_u64_if(&w, r->have_df, r->used);
		w_u64_if(&w, r->have_df, r->avail);
		ds_w_u64(&w, r->s.held);
		ds_w_u64(&w, r->s.files);
		ds_w_u64(&w, r->s.holders);
		if (o->du)
			du_cols(&w, r);
		(void)ds_w_row_end(&w);
	}
	del_sumrows_free(&rs);
	report_close(o, &w);
}

/* The default: one row per holder of a deleted file. */
static void
list(struct opts *o)
{
	struct ds_users users = { 0 };
	const struct ds_deleted *d = &o->d;
	const char *user;
	struct ds_writer w;
	char num[32];
	size_t i;

	report_open(o, &w, DEL_COLS_LIST, 1);
	for (i = 0; i < d->n; i++) {
		const struct ds_delfile *f = &d->f[i];

		ds_w_u64(&w, (uint64_t)f->pid);
		user = f->uid == UINT32_MAX ? NULL :
		    ds_user_name(&users, &o->t.r, f->uid);
		w_strn(&w, user, user != NULL ? strlen(user) : 0);
		w_strn(&w, POOLED(d, f->comm), f->comm_len);
		snprintf(num, sizeof(num), "%d", f->fd);
		ds_w_str(&w, f->fd < 0 ? "mem" : num);
		ds_w_u64(&w, f->size);
		/* st_blocks counts 512-byte units whatever the block size. */
		ds_w_u64(&w, f->blocks * 512);
		snprintf(num, sizeof(num), "%u:%u", major(f->dev),
		    minor(f->dev));
		ds_w_str(&w, num);
		ds_w_u64(&w, f->ino);
		w_strn(&w, POOLED(d, f->mount), f->mount_len);
		w_strn(&w, POOLED(d, f->fstype), f->fstype_len);
		ds_w_str(&w, f->memory ? "memory" : "disk");
		w_strn(&w, POOLED(d, f->path), f->path_len);
		(void)ds_w_row_end(&w);
	}
	ds_users_free(&users);
	report_close(o, &w);
}

static void
truncate_one(struct opts *o)
{
	const char *arg = o->trunc;
	int dry = o->dry;
	struct ds_delprobe p;
	struct ds_writer w;
	uint64_t freed;
	int e;

	if ((e = ds_deleted_probe(&o->t.r, o->tpid, o->tfd, &p)) == -EXDEV)
		errx(1, "%s: proc is not procfs; not truncated", arg);
	if (e < 0)
		tool_errc(1, e, "%s", arg);
	/* Every check before the write: a refusal ends the run. */
	switch (ds_deltrunc_verdict(&p, geteuid() == 0)) {
	case DS_TRUNC_NOT_REGULAR:
		errx(1, "%s: %s: not a regular file; not truncated", arg,
		    p.path);
	case DS_TRUNC_LINKED:
		errx(1, "%s: %s: not deleted (%" PRIu64 " links); not "
		    "truncated", arg, p.path, p.nlink);
	case DS_TRUNC_MEMORY:
		errx(1, "%s: %s: memory-backed, it holds no disk space; not "
		    "truncated", arg, p.path);
	case DS_TRUNC_MAPPED:
		errx(1, "%s: %s: mapped by process %d, which truncation can "
		    "crash; not truncated", arg, p.path, p.map.pid);
	case DS_TRUNC_MAPPED_MAYBE:
		errx(1, "%s: %s: process %d maps an inode of that number and "
		    "its map_files cannot be read to tell (needs root); "
		    "truncation can crash it; not truncated", arg, p.path,
		    p.map.pid);
	case DS_TRUNC_MAPS_UNREAD:
		errx(1, "%s: %s: the mappings of %zu processes (process %d "
		    "first) cannot be read without root, and truncating a "
		    "file one of them maps can crash it; not truncated", arg,
		    p.path, p.map.unreadable, p.map.unreadable_pid);
	case DS_TRUNC_GO:
		break;
	}
	if (p.map.unreadable > 0)
		warnx("%s: the mappings of %zu processes (process %d first) "
		    "cannot be read even by root; they are not checked", arg,
		    p.map.unreadable, p.map.unreadable_pid);
	warnx("%s: %s: %s to 0 bytes; its contents (%" PRIu64
	    " bytes) %s", arg, p.path, dry ? "would truncate" : "truncating",
	    p.size, dry ? "would be lost (dry run: nothing done)" : "are lost");
	if (!(p.fi.have & DS_FDI_FLAGS))
		warnx("%s: open flags unknown: if the writer did not use "
		    "O_APPEND it carries on at its old offset, leaving a "
		    "sparse file", arg);
	else if (!(p.fi.flags & O_APPEND))
		warnx("%s: not opened with O_APPEND: the writer carries on at "
		    "offset %" PRIu64 ", leaving a sparse file", arg,
		    p.fi.pos);
	/* A dry run: what the allocation would free, the file untouched. */
	freed = p.blocks * 512;
	if (!dry && (e = ds_deleted_truncate(&o->t.r, o->tpid, o->tfd, &p,
	    &freed)) < 0)
		tool_errc(1, e, "%s: truncate", arg);
	report_open(o, &w, DEL_COLS_TRUNC, 0);
	ds_w_u64(&w, (uint64_t)o->tpid);
	ds_w_u64(&w, (uint64_t)o->tfd);
	ds_w_u64(&w, p.size);
	ds_w_u64(&w, freed);
	ds_w_str(&w, p.path);
	(void)ds_w_row_end(&w);
	report_close(o, &w);
}

static void
options_parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_DU = 256, OPT_MIN, OPT_TRUNC };
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, 's' },
		{ "du", no_argument, NULL, OPT_DU },
		{ "min-size", required_argument, NULL, OPT_MIN },
		{ "truncate", required_argument, NULL, OPT_TRUNC },
		{ "dry-run", no_argument, NULL, 'n' },
		TOOL_LONGOPTS
	};
	int ch, e;

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ans", longopts,
	    NULL)) != -1) {
		if (tool_option(&o->t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			o->all = 1;
			break;
		case 's':
			o->sum = 1;
			break;
		case OPT_DU:
			o->du = o->sum = 1;
			break;
		case OPT_MIN:
			if ((e = tool_parse_size(optarg, &o->min)) < 0)
				tool_usage("--min-size '%s': %s", optarg,
				    e == -ERANGE ? "out of range" :
				    "not a size (bytes, or K M G T)");
			break;
		case OPT_TRUNC:
			if (del_parse_pidfd(optarg, &o->tpid, &o->tfd) < 0)
				tool_usage("--truncate '%s': not PID:FD", optarg);
			o->trunc = optarg;
			break;
		default:
			usage();
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
}

int
main(int argc, char **argv)
{
	/* Static: -O help exits inside tool_writer with it all held. */
	static struct opts o;
	int status;

	tool_init(&o.t, argv, &info);
	options_parse(&o, argc, argv);
	o.dry = o.t.dry_run;
	if (o.trunc != NULL && o.argc > 0)
		tool_usage("--truncate takes no mountpoint operand ('%s')",
		    o.argv[0]);
	if (o.trunc != NULL && o.sum)
		tool_usage("--truncate does not go with -s or --du");
	if (o.dry && o.trunc == NULL)
		tool_usage("-n goes with --truncate");
	tool_start(&o.t);
	/* A capture recorded the deleted files' stat, not the trees du walks. */
	if (o.du && o.t.r.nsamples > 0)
		errx(1, "--du: a capture holds no files to measure (%s); "
		    "-s gives what it recorded", o.t.r.path);
	/* A capture: the files held open at its end, its last sample. */
	tool_root_last(&o.t);
	if (o.trunc != NULL) {
		/* A tree's proc/PID/fd/N may lead anywhere, the real /proc too. */
		if (!o.t.r.live)
			errx(1, "--truncate acts only on the live system, not "
			    "under %s", o.t.r.path);
		truncate_one(&o);
		tool_exit(0);
	}
	/* Prometheus gets the per-filesystem figures an alert needs. */
	if (o.t.fmt == DS_FMT_PROM)
		o.sum = 1;
	status = gather(&o);
	(o.sum ? summary : list)(&o);
	tool_exit(status);
}
