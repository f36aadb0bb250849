/*
 * ddeleted: files deleted but still held open or mapped, the space they
 * hold per filesystem, and why df and du disagree.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <sys/sysmacros.h>

#include "util/util.h"

static const struct ds_col rowcols[] = {
	{ "pid", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "user", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "command", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fd", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "allocated", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "dev", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "inode", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "mount", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fstype", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "class", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "path", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

static const struct ds_col sumcols[] = {
	{ "mount", DS_T_STR, DS_P_LABEL, "mount", NULL, 0, 0, 0 },
	{ "fstype", DS_T_STR, DS_P_LABEL, "fstype", NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_GAUGE, "size_bytes",
	    "Size of the filesystem (statfs blocks).", 0, 0, DS_C_BYTES },
	{ "used", DS_T_U64, DS_P_GAUGE, "used_bytes",
	    "Space in use as df shows it: statfs blocks minus free.", 0, 0, DS_C_BYTES },
	{ "avail", DS_T_U64, DS_P_GAUGE, "avail_bytes",
	    "Space available to unprivileged users.", 0, 0, DS_C_BYTES },
	{ "held", DS_T_U64, DS_P_GAUGE, "held_bytes",
	    "Space allocated to deleted files still open or mapped, each "
	    "inode once.", 0, 0, DS_C_BYTES },
	{ "files", DS_T_U64, DS_P_GAUGE, "files",
	    "Deleted inodes still open or mapped.", 0, 0, 0 },
	{ "holders", DS_T_U64, DS_P_GAUGE, "holders",
	    "Processes holding deleted files open or mapped.", 0, 0, 0 },
	{ "reachable", DS_T_U64, DS_P_GAUGE, "reachable_bytes",
	    "Space allocated to files reachable by name (du -sx).", 0, 0, DS_C_BYTES },
	{ "unexplained", DS_T_I64, DS_P_GAUGE, "unexplained_bytes",
	    "Used minus reachable minus held.", 0, 0, DS_C_BYTES },
};

static const struct ds_col trcols[] = {
	{ "pid", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fd", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "freed", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "path", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))

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

/* "1048576", "512K", "10M", "2G": bytes, powers of 1024. */
static int
parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v, mul = 1;
	int e;

	if ((e = ds_parse_u64(s, &end, &v)) < 0)
		return e;
	switch (*end) {
	case '\0':
		break;
	case 'K': case 'k':
		mul = 1ULL << 10;
		end++;
		break;
	case 'M': case 'm':
		mul = 1ULL << 20;
		end++;
		break;
	case 'G': case 'g':
		mul = 1ULL << 30;
		end++;
		break;
	case 'T': case 't':
		mul = 1ULL << 40;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end != '\0' || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

static void
w_pooled(struct ds_writer *w, const struct ds_deleted *d, size_t off,
    size_t len)
{
	if (off == DS_DEL_NONE)
		ds_w_null(w);
	else
		ds_w_strn(w, ds_deleted_str(d, off), len);
}

/* The operands: filesystems asked for, by device and by name. */
struct want {
	const char *path;
	char *abs;		/* a relative operand made absolute */
	uint64_t dev;
	int ok;
	struct ds_delfs fs;
};

/* dir (relative) below the current directory, or NULL and errno. */
static char *
abs_path(const char *dir)
{
	char *cwd, *p;
	size_t n;

	if ((cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	n = strlen(cwd) + strlen(dir) + 2;
	if ((p = malloc(n)) != NULL)
		snprintf(p, n, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/",
		    dir);
	free(cwd);
	return p;
}

static int
wanted(const struct want *wt, int nwt, const struct ds_deleted *d,
    const struct ds_delfile *f)
{
	int i;

	if (nwt == 0)
		return 1;
	for (i = 0; i < nwt; i++) {
		if (wt[i].ok && wt[i].dev == f->dev)
			return 1;
		if (f->mount != DS_DEL_NONE &&
		    strcmp(ds_deleted_str(d, f->mount), wt[i].path) == 0)
			return 1;
	}
	return 0;
}

static void
summary_row(struct tool *t, struct ds_writer *w, const char *mount,
    size_t mlen, const char *fstype, size_t flen, const struct ds_delfs *fs,
    const struct ds_delsum *s, int du)
{
	uint64_t used = 0, reach = 0, errs = 0;
	int have_used = fs->have_statfs && mount != NULL;
	int e;

	if (mount != NULL)
		ds_w_strn(w, mount, mlen);
	else
		ds_w_null(w);
	if (fstype != NULL)
		ds_w_strn(w, fstype, flen);
	else
		ds_w_null(w);
	/*
	 * df's figures: f_blocks, f_blocks - f_bfree and f_bavail in
	 * f_frsize units.  Without a mount (memfd, SysV shm live on the
	 * kernel's internal tmpfs) they describe no filesystem a person
	 * can see, so they are left out.
	 */
	if (have_used) {
		used = fs->blocks >= fs->bfree ?
		    (fs->blocks - fs->bfree) * fs->frsize : 0;
		ds_w_u64(w, fs->blocks * fs->frsize);
		ds_w_u64(w, used);
		ds_w_u64(w, fs->bavail * fs->frsize);
	} else {
		ds_w_null(w);
		ds_w_null(w);
		ds_w_null(w);
	}
	ds_w_u64(w, s->held);
	ds_w_u64(w, s->files);
	ds_w_u64(w, s->holders);
	if (!du)
		return;
	if (mount == NULL) {
		ds_w_null(w);
		ds_w_null(w);
		return;
	}
	if ((e = ds_du(&t->r, mount, fs->dev, &reach, &errs)) < 0) {
		if (e == -EXDEV)
			warnx("%s: another filesystem is mounted over it, or "
			    "it is a btrfs subvolume; reachable not computed",
			    mount);
		else
			tool_warnc(e, "%s", mount);
		ds_w_null(w);
		ds_w_null(w);
		return;
	}
	if (errs > 0)
		warnx("%s: %" PRIu64 " entries could not be read; reachable "
		    "is short", mount, errs);
	ds_w_u64(w, reach);
	if (have_used)
		ds_w_i64(w, (int64_t)used - (int64_t)reach - (int64_t)s->held);
	else
		ds_w_null(w);
}

static void
summary(struct tool *t, struct ds_writer *w, const struct ds_deleted *d,
    struct want *wt, int nwt, int du)
{
	struct ds_delsum *sum, none;
	struct ds_mounts ms = { 0 };
	size_t n, i, j;
	int e, k, have_ms;

	if ((e = ds_deleted_summary(d, &sum, &n)) < 0)
		tool_errc(1, e, "summary");
	have_ms = ds_mounts_self(&t->r, &ms) == 0;
	for (i = 0; i < n; i++) {
		const struct ds_delfs *fs = &d->fs[sum[i].fs];

		summary_row(t, w, fs->mount != DS_DEL_NONE ?
		    ds_deleted_str(d, fs->mount) : NULL, fs->mount_len,
		    fs->fstype != DS_DEL_NONE ?
		    ds_deleted_str(d, fs->fstype) : NULL, fs->fstype_len,
		    fs, &sum[i], du);
		ds_w_row_end(w);
	}
	/* Filesystems asked for that hold nothing deleted: zeros, truly. */
	memset(&none, 0, sizeof(none));
	for (k = 0; k < nwt; k++) {
		const struct ds_mount *m = NULL;
		const char *mnt = wt[k].path, *fst = NULL;

		if (!wt[k].ok)
			continue;
		for (i = 0; i < n; i++)
			if (d->fs[sum[i].fs].dev == wt[k].dev)
				break;
		for (j = 0; j < (size_t)k; j++)
			if (wt[j].ok && wt[j].dev == wt[k].dev)
				break;
		if (i < n || j < (size_t)k)
			continue;
		if (have_ms)
			m = ds_mount_by_dev(&ms, major(wt[k].dev),
			    minor(wt[k].dev));
		if (m != NULL) {
			mnt = m->mnt;
			fst = m->fstype;
		}
		summary_row(t, w, mnt, strlen(mnt), fst,
		    fst != NULL ? strlen(fst) : 0, &wt[k].fs, &none, du);
		ds_w_row_end(w);
	}
	ds_mounts_free(&ms);
	free(sum);
}

static void
rows(struct tool *t, struct ds_writer *w, struct ds_deleted *d)
{
	struct ds_users users = { 0 };
	char num[32];
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct ds_delfile *f = &d->f[i];

		ds_w_u64(w, (uint64_t)f->pid);
		if (f->uid == UINT32_MAX)
			ds_w_null(w);
		else
			ds_w_str(w, ds_user_name(&users, &t->r, f->uid));
		w_pooled(w, d, f->comm, f->comm_len);
		if (f->fd < 0) {
			ds_w_str(w, "mem");
		} else {
			snprintf(num, sizeof(num), "%d", f->fd);
			ds_w_str(w, num);
		}
		ds_w_u64(w, f->size);
		/* st_blocks counts 512-byte units whatever the block size. */
		ds_w_u64(w, f->blocks * 512);
		snprintf(num, sizeof(num), "%u:%u", major(f->dev),
		    minor(f->dev));
		ds_w_str(w, num);
		ds_w_u64(w, f->ino);
		w_pooled(w, d, f->mount, f->mount_len);
		w_pooled(w, d, f->fstype, f->fstype_len);
		ds_w_str(w, f->memory ? "memory" : "disk");
		w_pooled(w, d, f->path, f->path_len);
		ds_w_row_end(w);
	}
	ds_users_free(&users);
}

static int
parse_pidfd(const char *s, int *pid, int *fd)
{
	const char *colon = strchr(s, ':'), *end;
	uint64_t v;

	if (colon == NULL || ds_parse_u64(s, &end, &v) < 0 || end != colon ||
	    s[0] < '0' || s[0] > '9' || v == 0 || v > INT32_MAX)
		return -EINVAL;
	*pid = (int)v;
	if (colon[1] < '0' || colon[1] > '9' || ds_strtou64(colon + 1, &v) < 0 ||
	    v > INT32_MAX)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

static void
truncate_one(struct tool *t, const char *arg, int pid, int fd, int dry)
{
	struct ds_delprobe p;
	struct ds_writer w;
	uint64_t freed;
	int e;

	if ((e = ds_deleted_probe(&t->r, pid, fd, &p)) == -EXDEV)
		errx(1, "%s: proc is not procfs; not truncated", arg);
	if (e < 0)
		tool_errc(1, e, "%s", arg);
	if (!p.regular)
		errx(1, "%s: %s: not a regular file; not truncated", arg,
		    p.path);
	if (p.nlink != 0)
		errx(1, "%s: %s: not deleted (%" PRIu64 " links); not "
		    "truncated", arg, p.path, p.nlink);
	if (p.memory)
		errx(1, "%s: %s: memory-backed, it holds no disk space; not "
		    "truncated", arg, p.path);
	if (p.map.mapped == DS_MAPPED)
		errx(1, "%s: %s: mapped by process %d, which truncation can "
		    "crash; not truncated", arg, p.path, p.map.pid);
	if (p.map.mapped == DS_MAPPED_MAYBE)
		errx(1, "%s: %s: process %d maps an inode of that number and "
		    "its map_files cannot be read to tell (needs root); "
		    "truncation can crash it; not truncated", arg, p.path,
		    p.map.pid);
	/*
	 * Maps that cannot be read: without root, other users' processes,
	 * any of which may map the file.  Root is refused only by
	 * processes protected from it (the supervisor of an outer
	 * namespace), which the scan cannot see either; say so and go on.
	 */
	if (p.map.unreadable > 0 && geteuid() != 0)
		errx(1, "%s: %s: the mappings of %zu processes (process %d "
		    "first) cannot be read without root, and truncating a "
		    "file one of them maps can crash it; not truncated", arg,
		    p.path, p.map.unreadable, p.map.unreadable_pid);
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
	if (!dry && (e = ds_deleted_truncate(&t->r, pid, fd, &p, &freed)) < 0)
		tool_errc(1, e, "%s: truncate", arg);
	if ((e = ds_writer_init(&w, t->out, t->fmt, trcols, NCOLS(trcols),
	    t->header, "ddeleted")) < 0)
		tool_errc(1, e, "writer");
	tool_report_begin(t, &w);
	ds_w_u64(&w, (uint64_t)pid);
	ds_w_u64(&w, (uint64_t)fd);
	ds_w_u64(&w, p.size);
	ds_w_u64(&w, freed);
	ds_w_str(&w, p.path);
	ds_w_row_end(&w);
	tool_report_end(t, &w);
	ds_writer_free(&w);
}

int
main(int argc, char **argv)
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
	struct ds_deleted d = { 0 };
	struct ds_writer w;
	struct tool t;
	/* Static: -O help exits inside tool_writer with it still held. */
	static struct want *wt;
	const char *trunc = NULL;
	uint64_t min = 0;
	size_t i, j;
	int ch, e, sum = 0, du = 0, tpid = 0, tfd = 0, k, status = 0, all = 0;

	tool_init(&t, argv, &info);
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ans", longopts,
	    NULL)) != -1) {
		if (tool_option(&t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			all = 1;
			break;
		case 's':
			sum = 1;
			break;
		case OPT_DU:
			du = sum = 1;
			break;
		case OPT_MIN:
			if ((e = parse_size(optarg, &min)) < 0)
				tool_usage("--min-size '%s': %s", optarg,
				    e == -ERANGE ? "out of range" :
				    "not a size (bytes, or K M G T)");
			break;
		case OPT_TRUNC:
			if (parse_pidfd(optarg, &tpid, &tfd) < 0)
				tool_usage("--truncate '%s': not PID:FD", optarg);
			trunc = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (trunc != NULL && argc > 0)
		tool_usage("--truncate takes no mountpoint operand ('%s')",
		    argv[0]);
	if (trunc != NULL && sum)
		tool_usage("--truncate does not go with -s or --du");
	if (t.dry_run && trunc == NULL)
		tool_usage("-n goes with --truncate");
	tool_start(&t);
	if (trunc != NULL) {
		/* A tree's proc/PID/fd/N may lead anywhere, the real /proc too. */
		if (!t.r.live)
			errx(1, "--truncate acts only on the live system, not "
			    "under %s", t.r.path);
		truncate_one(&t, trunc, tpid, tfd, t.dry_run);
		tool_exit(0);
	}
	/* Prometheus gets the per-filesystem figures an alert needs. */
	if (t.fmt == DS_FMT_PROM)
		sum = 1;

	if ((wt = calloc((size_t)argc + 1, sizeof(*wt))) == NULL)
		err(1, NULL);
	for (k = 0; k < argc; k++) {
		wt[k].path = argv[k];
		/*
		 * Live, a relative operand is relative to the current
		 * directory, as for df(1); the library resolves paths from
		 * the root, so prefix the current directory (getcwd, not
		 * realpath(3), which pulls getgroups into a static link).
		 * Under -R the operands are paths inside the tree, relative
		 * or not.
		 */
		if (t.r.live && argv[k][0] != '/') {
			if ((wt[k].abs = abs_path(argv[k])) == NULL) {
				tool_warnc(-errno, "%s", argv[k]);
				status = 1;
				continue;
			}
			wt[k].path = wt[k].abs;
		}
		if ((e = ds_delfs_stat(&t.r, wt[k].path, &wt[k].fs)) < 0) {
			tool_warnc(e, "%s", argv[k]);
			status = 1;
			continue;
		}
		wt[k].ok = 1;
		wt[k].dev = wt[k].fs.dev;
	}

	if ((e = ds_deleted_scan(&t.r, &d)) < 0)
		tool_errc(1, e, "%s", tool_path(&t, "proc"));
	if (d.denied > 0)
		warnx("not root: the descriptors of %zu of %zu processes "
		    "could not be read; only your own are listed", d.denied,
		    d.procs);
	if (d.unconfirmed > 0)
		warnx("%zu mappings marked deleted could not be confirmed "
		    "(map_files needs root); not listed", d.unconfirmed);

	/*
	 * Filters: operands and --min-size on the space held.  The rows
	 * answer df against du, so memory-backed files (shared /dev/zero
	 * mappings, memfd, SysV shm, tmpfs) only with -a; the summary has
	 * every filesystem, disk ones first.
	 */
	for (i = j = 0; i < d.n; i++)
		if (d.f[i].blocks * 512 >= min &&
		    wanted(wt, argc, &d, &d.f[i]) &&
		    (all || sum || !d.f[i].memory))
			d.f[j++] = d.f[i];
	d.n = j;
	ds_deleted_sort(&d);

	if ((e = ds_writer_init(&w, t.out, t.fmt, sum ? sumcols : rowcols,
	    sum ? NCOLS(sumcols) - (du ? 0 : 2) : NCOLS(rowcols), t.header,
	    "ddeleted")) < 0)
		tool_errc(1, e, "writer");
	tool_writer(&t, &w);
	tool_report_begin(&t, &w);
	if (sum)
		summary(&t, &w, &d, wt, argc, du);
	else
		rows(&t, &w, &d);
	tool_report_end(&t, &w);
	ds_writer_free(&w);
	ds_deleted_free(&d);
	for (k = 0; k < argc; k++)
		free(wt[k].abs);
	free(wt);
	tool_exit(status);
}
