/*
 * dqueue: block queue settings per device, listed, checked against
 * wanted values, and set with a read-back that proves the kernel kept
 * what it was given.
 */
#include "util/util.h"

#define EXIT_DIFFERS 3		/* --check: some setting does not hold */

enum mode { LIST, LONG, CHECK, SET };

/* The listing: one row per device. */
static const struct ds_col list_cols[] = {
	{ "device", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "rotational", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "scheduler", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "schedulers", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE },
	{ "nr_requests", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "read_ahead_kb", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_KB },
	{ "max_sectors_kb", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_KB },
	{ "max_hw_sectors_kb", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_KB },
	{ "logical_block_size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_BYTES },
	{ "physical_block_size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_BYTES },
	{ "minimum_io_size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_BYTES },
	{ "optimal_io_size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_BYTES },
	{ "nomerges", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "nr_hw_queues", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "write_cache", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "discard_max_bytes", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE | DS_C_BYTES },
	{ "wbt_lat_usec", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "zoned", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_WIDE },
	{ "holders", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "slaves", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/* Which ds_qattr each listing column after "device" shows. */
static const enum ds_qattr list_attr[] = {
	DS_QA_ROTATIONAL, DS_QA_SCHEDULER, DS_QA_SCHEDULER, DS_QA_NR_REQUESTS,
	DS_QA_READ_AHEAD_KB, DS_QA_MAX_SECTORS_KB, DS_QA_MAX_HW_SECTORS_KB,
	DS_QA_LOGICAL_BLOCK_SIZE, DS_QA_PHYSICAL_BLOCK_SIZE,
	DS_QA_MINIMUM_IO_SIZE, DS_QA_OPTIMAL_IO_SIZE, DS_QA_NOMERGES,
	DS_QA_NR_HW_QUEUES, DS_QA_WRITE_CACHE, DS_QA_DISCARD_MAX_BYTES,
	DS_QA_WBT_LAT_USEC, DS_QA_ZONED, DS_QA_HOLDERS, DS_QA_SLAVES,
};

/*
 * Prometheus: the writer puts every label column on every metric of a
 * row, so the text settings go on one info metric of their own and the
 * numbers are gauges labelled by device alone.  Two writers, flushed
 * one after the other, keep the families apart.
 */
static const struct ds_col info_cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "scheduler", DS_T_STR, DS_P_LABEL, "scheduler", NULL, 0, 0, 0 },
	{ "schedulers", DS_T_STR, DS_P_LABEL, "schedulers", NULL, 0, 0, 0 },
	{ "rotational", DS_T_U64, DS_P_LABEL, "rotational", NULL, 0, 0, 0 },
	{ "write_cache", DS_T_STR, DS_P_LABEL, "write_cache", NULL, 0, 0, 0 },
	{ "zoned", DS_T_STR, DS_P_LABEL, "zoned", NULL, 0, 0, 0 },
	{ "holders", DS_T_STR, DS_P_LABEL, "holders", NULL, 0, 0, 0 },
	{ "slaves", DS_T_STR, DS_P_LABEL, "slaves", NULL, 0, 0, 0 },
	{ "info", DS_T_U64, DS_P_GAUGE, "info",
	    "Queue settings of a block device as labels; always 1.", 0, 0, 0 },
};

static const struct ds_col gauge_cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "rotational", DS_T_U64, DS_P_GAUGE, "rotational",
	    "1 when the kernel treats the device as rotational.", 0, 0, 0 },
	{ "nr_requests", DS_T_U64, DS_P_GAUGE, "nr_requests",
	    "Requests the scheduler may hold per hardware queue.", 0, 0, 0 },
	{ "read_ahead_bytes", DS_T_U64, DS_P_GAUGE, "read_ahead_bytes",
	    "Read-ahead window (read_ahead_kb * 1024).", 0, 0, 0 },
	{ "max_sectors_bytes", DS_T_U64, DS_P_GAUGE, "max_sectors_bytes",
	    "Largest request the block layer builds (max_sectors_kb * 1024).",
	    0, 0, 0 },
	{ "max_hw_sectors_bytes", DS_T_U64, DS_P_GAUGE,
	    "max_hw_sectors_bytes",
	    "Largest request the hardware takes (max_hw_sectors_kb * 1024).",
	    0, 0, 0 },
	{ "logical_block_size", DS_T_U64, DS_P_GAUGE,
	    "logical_block_size_bytes", "Smallest addressable unit.", 0, 0, 0 },
	{ "physical_block_size", DS_T_U64, DS_P_GAUGE,
	    "physical_block_size_bytes",
	    "Smallest unit the device writes without read-modify-write.", 0,
	    0, 0 },
	{ "minimum_io_size", DS_T_U64, DS_P_GAUGE, "minimum_io_size_bytes",
	    "Preferred minimum request size.", 0, 0, 0 },
	{ "optimal_io_size", DS_T_U64, DS_P_GAUGE, "optimal_io_size_bytes",
	    "Preferred request size for sustained I/O; 0 when not reported.",
	    0, 0, 0 },
	{ "nomerges", DS_T_U64, DS_P_GAUGE, "nomerges",
	    "0 merges allowed, 1 only simple one-hit merges, 2 none.", 0, 0, 0 },
	{ "nr_hw_queues", DS_T_U64, DS_P_GAUGE, "nr_hw_queues",
	    "Hardware (blk-mq) queues of the device.", 0, 0, 0 },
	{ "discard_max_bytes", DS_T_U64, DS_P_GAUGE, "discard_max_bytes",
	    "Largest discard request issued; 0 when discard is off.", 0, 0, 0 },
	{ "wbt_lat_usec", DS_T_U64, DS_P_GAUGE, "wbt_latency_seconds",
	    "Writeback throttling latency target; 0 when off.", 6, 0, 0 },
};

static const struct ds_col long_cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "attribute", DS_T_STR, DS_P_LABEL, "attribute", NULL, 0, 0, 0 },
	{ "value", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "writable", DS_T_U64, DS_P_GAUGE, "attribute_writable",
	    "1 when the attribute file's mode allows writing.", 0, 0, 0 },
};

static const struct ds_col check_cols[] = {
	{ "device", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "attribute", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "want", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "got", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

static const struct ds_col set_cols[] = {
	{ "device", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "attribute", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "old", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "new", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "status", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A device operand resolved: its name and the disk owning its queue. */
struct target {
	char *name;
	char disk[DS_DISK_NAME_MAX * 4];
};

struct setting {
	char *attr;
	char *value;
};

struct ctx {
	struct tool t;
	struct ds_blockdevs disks;
	struct target *tg;
	size_t ntg, captg;
	struct setting *st;
	size_t nst, capst;
	struct ds_buf scratch;
	struct ds_buf text;
	int status;		/* 1 once anything went wrong */
	int dry;		/* -n: validate and say, write nothing */
	int allow_tree;		/* --allow-tree: --set may write under -R */
};

static const char synopsis[] =
    "dqueue [-aHh] [-O cols] [-o fmt] [-R dir] [-w file] [device|glob ...]\n"
    "       dqueue [-H] [-o fmt] [-R dir] [-w file] --check attr=value[,...]\n"
    "              device|glob ...\n"
    "       dqueue [-Hn] [-o fmt] [-R dir] [-w file] [--allow-tree]\n"
    "              --set attr=value[,...] device|glob ...";

static const char options[] =
    "  -a            every queue attribute, one row each\n"
    "  --check attr=value[,...]\n"
    "                exit 3 when a device differs (0: all as given)\n"
    "  --set attr=value[,...]\n"
    "                validate all, write, read every setting back\n"
    "  -n, --dry-run with --set: say what would be written, change nothing\n"
    "  --allow-tree  let --set write under -R DIR (a tree, not this system)\n";

static const struct tool_info info = { synopsis, options, TOOL_N_DRYRUN };

static void
add_target(struct ctx *c, const char *name, const char *disk)
{
	struct target *tg;

	if (c->ntg == c->captg) {
		size_t cap = c->captg ? c->captg * 2 : 16;
		if ((tg = realloc(c->tg, cap * sizeof(*tg))) == NULL)
			err(1, NULL);
		c->tg = tg;
		c->captg = cap;
	}
	tg = &c->tg[c->ntg++];
	if ((tg->name = strdup(name)) == NULL)
		err(1, NULL);
	snprintf(tg->disk, sizeof(tg->disk), "%s", disk);
}

/*
 * Operands to devices, in the order given: a glob or a /dev/mapper/
 * name matches whole disks (sys/block; dm devices by their dm name), a
 * plain name may also be a partition, which shows its disk's queue.
 * No operand: every whole disk.
 */
static void
targets(struct ctx *c, int argc, char **argv)
{
	struct ds_devsel sel;
	char dm[256];
	size_t i, k;
	int e;

	if (argc == 0) {
		for (i = 0; i < c->disks.n; i++)
			add_target(c, c->disks.name[i], c->disks.name[i]);
		return;
	}
	if (ds_devsel_init(&sel, argv, (size_t)argc) < 0)
		err(1, NULL);
	for (k = 0; k < sel.n; k++) {
		char disk[DS_DISK_NAME_MAX * 4];
		struct ds_devop *op = &sel.op[k];

		if (op->glob || op->dm) {
			for (i = 0; i < c->disks.n; i++) {
				const char *n = c->disks.name[i];
				int hasdm = op->dm &&
				    strncmp(n, "dm-", 3) == 0 &&
				    ds_dm_name(&c->t.r, n, &c->scratch, dm,
				    sizeof(dm)) == 0;

				if (ds_devop_match(op, n,
				    hasdm ? dm : NULL)) {
					add_target(c, n, n);
					op->matched = 1;
				}
			}
			if (!op->matched) {
				warnx("%s: %s", op->arg, op->glob ?
				    "no device matches" :
				    "no such block device");
				c->status = 1;
			}
			continue;
		}
		e = ds_queue_resolve(&c->t.r, &c->disks, op->pat, disk,
		    sizeof(disk));
		if (e < 0) {
			if (e == -ENOENT || e == -EINVAL)
				warnx("%s: no such block device", op->arg);
			else
				tool_warnc(e, "%s", op->arg);
			c->status = 1;
			continue;
		}
		op->matched = 1;
		add_target(c, op->pat, disk);
	}
	ds_devsel_free(&sel);
}

/* Names joined by sep into c->text; NULL when the list is missing. */
static const char *
join(struct ctx *c, char **names, size_t n, const char *sep)
{
	size_t i;

	c->text.len = 0;
	if (ds_buf_reserve(&c->text, 1) < 0)
		err(1, NULL);
	c->text.data[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(names[i]), sl = i > 0 ? strlen(sep) : 0;

		if (ds_buf_reserve(&c->text, l + sl) < 0)
			err(1, NULL);
		memcpy(c->text.data + c->text.len, sep, sl);
		memcpy(c->text.data + c->text.len + sl, names[i], l);
		c->text.len += l + sl;
		c->text.data[c->text.len] = '\0';
	}
	return c->text.data;
}

static const char *
schedulers(struct ctx *c, const struct ds_sched *s)
{
	char *names[DS_SCHED_MAX];
	size_t i;

	for (i = 0; i < s->n; i++)
		names[i] = (char *)s->name[i];
	return join(c, names, s->n, " ");
}

/* Say what is wrong with an attribute that could not be read. */
static void
attr_warn(struct ctx *c, const char *dev, enum ds_qattr a, int e)
{
	switch (e) {
	case 0:
	case -ENOENT:
	case -ENODATA:
		/* Missing, or not applicable to this queue: just "-". */
		return;
	case -EINVAL:
		warnx("%s: %s: %s", dev, ds_qattr_name(a),
		    ds_qattr_numeric(a) ? "not a number" :
		    a == DS_QA_SCHEDULER ? "malformed scheduler line" :
		    "unexpected contents");
		break;
	default:
		tool_warnc(e, "%s: %s", dev, ds_qattr_name(a));
	}
	c->status = 1;
}

/* One cell of the listing for attribute a. */
static void
list_cell(struct ctx *c, struct ds_writer *w, const struct ds_queue *q,
    enum ds_qattr a, int avail, uint64_t mul)
{
	if (q->err[a] != 0) {
		ds_w_null(w);
		return;
	}
	switch (a) {
	case DS_QA_SCHEDULER:
		if (avail)
			ds_w_str(w, schedulers(c, &q->sched));
		else if (q->sched.active[0] == '\0')
			ds_w_null(w);	/* old kernels: bio-based "none" */
		else
			ds_w_str(w, q->sched.active);
		break;
	case DS_QA_WRITE_CACHE:
		ds_w_str(w, q->write_cache);
		break;
	case DS_QA_ZONED:
		ds_w_str(w, q->zoned);
		break;
	case DS_QA_HOLDERS:
		ds_w_str(w, join(c, q->holders.name, q->holders.n, ","));
		break;
	case DS_QA_SLAVES:
		ds_w_str(w, join(c, q->slaves.name, q->slaves.n, ","));
		break;
	default:
		if (mul > 1 && q->v[a] > UINT64_MAX / mul)
			ds_w_null(w);
		else
			ds_w_u64(w, q->v[a] * mul);
	}
}

static void
list(struct ctx *c)
{
	struct ds_writer w, w2;
	struct ds_queue q = { 0 };
	int prom = c->t.fmt == DS_FMT_PROM, e;
	size_t i, k;

	if (prom) {
		ds_writer_init(&w, c->t.out, c->t.fmt, info_cols,
		    NELEM(info_cols), c->t.header, "dqueue");
		ds_writer_init(&w2, c->t.out, c->t.fmt, gauge_cols,
		    NELEM(gauge_cols), c->t.header, "dqueue");
		/* -O picks gauges; the info family is one of its own. */
		tool_writer(&c->t, &w2);
	} else {
		ds_writer_init(&w, c->t.out, c->t.fmt, list_cols,
		    NELEM(list_cols), c->t.header, "dqueue");
		tool_writer(&c->t, &w);
	}
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->ntg; i++) {
		const struct target *tg = &c->tg[i];

		e = ds_queue_read(&c->t.r, tg->disk, tg->name, &c->scratch, &q);
		if (e < 0) {
			tool_warnc(e, "%s", tg->name);
			c->status = 1;
			continue;
		}
		/*
		 * queue/ that cannot be opened fails every attribute in it
		 * the same way: say it once.  Missing (-ENOENT) is a
		 * captured tree that left it out: just "-".
		 */
		if (q.qerr != 0 && q.qerr != -ENOENT) {
			tool_warnc(q.qerr, "%s: queue", tg->name);
			c->status = 1;
		}
		for (k = 0; k < DS_QA_N; k++)
			if (q.qerr == 0 || q.err[k] != q.qerr ||
			    k == DS_QA_NR_HW_QUEUES || k == DS_QA_HOLDERS ||
			    k == DS_QA_SLAVES)
				attr_warn(c, tg->name, k, q.err[k]);
		if (!prom) {
			ds_w_str(&w, tg->name);
			for (k = 0; k < NELEM(list_attr); k++)
				list_cell(c, &w, &q, list_attr[k],
				    k == 2, 1);
			ds_w_row_end(&w);
			continue;
		}
		ds_w_str(&w, tg->name);
		list_cell(c, &w, &q, DS_QA_SCHEDULER, 0, 1);
		list_cell(c, &w, &q, DS_QA_SCHEDULER, 1, 1);
		list_cell(c, &w, &q, DS_QA_ROTATIONAL, 0, 1);
		list_cell(c, &w, &q, DS_QA_WRITE_CACHE, 0, 1);
		list_cell(c, &w, &q, DS_QA_ZONED, 0, 1);
		list_cell(c, &w, &q, DS_QA_HOLDERS, 0, 1);
		list_cell(c, &w, &q, DS_QA_SLAVES, 0, 1);
		ds_w_u64(&w, 1);
		ds_w_row_end(&w);
		ds_w_str(&w2, tg->name);
		list_cell(c, &w2, &q, DS_QA_ROTATIONAL, 0, 1);
		list_cell(c, &w2, &q, DS_QA_NR_REQUESTS, 0, 1);
		/* kB in sysfs is KiB: the kernel shifts by 10. */
		list_cell(c, &w2, &q, DS_QA_READ_AHEAD_KB, 0, 1024);
		list_cell(c, &w2, &q, DS_QA_MAX_SECTORS_KB, 0, 1024);
		list_cell(c, &w2, &q, DS_QA_MAX_HW_SECTORS_KB, 0, 1024);
		list_cell(c, &w2, &q, DS_QA_LOGICAL_BLOCK_SIZE, 0, 1);
		list_cell(c, &w2, &q, DS_QA_PHYSICAL_BLOCK_SIZE, 0, 1);
		list_cell(c, &w2, &q, DS_QA_MINIMUM_IO_SIZE, 0, 1);
		list_cell(c, &w2, &q, DS_QA_OPTIMAL_IO_SIZE, 0, 1);
		list_cell(c, &w2, &q, DS_QA_NOMERGES, 0, 1);
		list_cell(c, &w2, &q, DS_QA_NR_HW_QUEUES, 0, 1);
		list_cell(c, &w2, &q, DS_QA_DISCARD_MAX_BYTES, 0, 1);
		list_cell(c, &w2, &q, DS_QA_WBT_LAT_USEC, 0, 1);
		ds_w_row_end(&w2);
	}
	ds_queue_free(&q);
	if (prom) {
		/* The info family first, then the gauges, into one stream. */
		if (ds_w_report_end(&w) == 0)
			(void)ds_w_report_end_into(&w2, &w);
		ds_writer_free(&w2);
	}
	tool_report_end(&c->t, &w);
	ds_writer_free(&w);
}

static void
list_long(struct ctx *c)
{
	struct ds_qfiles fs = { 0 };
	struct ds_writer w;
	size_t i, k;
	int e;

	ds_writer_init(&w, c->t.out, c->t.fmt, long_cols, NELEM(long_cols),
	    c->t.header, "dqueue");
	tool_writer(&c->t, &w);
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->ntg; i++) {
		const struct target *tg = &c->tg[i];

		if ((e = ds_queue_files(&c->t.r, tg->disk, &c->scratch,
		    &fs)) < 0) {
			tool_warnc(e, "%s: queue", tg->name);
			c->status = 1;
			continue;
		}
		for (k = 0; k < fs.n; k++) {
			const struct ds_qfile *f = &fs.f[k];

			/*
			 * EINVAL on read: the kernel has no value to show;
			 * ENODATA: an empty file in a captured tree, likewise.
			 */
			if (f->err < 0 && f->err != -EINVAL &&
			    f->err != -EOPNOTSUPP && f->err != -ENODEV &&
			    f->err != -ENODATA) {
				tool_warnc(f->err, "%s: %s", tg->name,
				    f->name);
				c->status = 1;
			}
			ds_w_str(&w, tg->name);
			ds_w_str(&w, f->name);
			ds_w_str(&w, f->value);
			ds_w_u64(&w, (uint64_t)f->writable);
			ds_w_row_end(&w);
		}
	}
	ds_qfiles_free(&fs);
	tool_report_end(&c->t, &w);
	ds_writer_free(&w);
}

/* attr=value[,attr=value...], appended to c->st; usage() when malformed. */
static void
parse_settings(struct ctx *c, const char *arg)
{
	char *s, *item, *save = NULL, *eq;

	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (item = strtok_r(s, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		struct setting *st;
		char *a, *v, *end;

		if ((eq = strchr(item, '=')) == NULL) {
			warnx("%s: not attr=value", item);
			usage();
		}
		*eq = '\0';
		a = item;
		v = eq + 1;
		while (*a == ' ' || *a == '\t')
			a++;
		for (end = eq; end > a && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		while (*v == ' ' || *v == '\t')
			v++;
		for (end = v + strlen(v); end > v &&
		    (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n');)
			*--end = '\0';
		if (*v == '\0') {
			warnx("%s: empty value", a);
			usage();
		}
		/* Queue attributes are named in [a-z0-9_]. */
		end = strncmp(a, "iosched/", 8) == 0 ? a + 8 : a;
		if (*end == '\0' || end[strspn(end,
		    "abcdefghijklmnopqrstuvwxyz0123456789_")] != '\0') {
			warnx("%s: not an attribute name", a);
			usage();
		}
		if (c->nst == c->capst) {
			size_t cap = c->capst ? c->capst * 2 : 8;
			if ((st = realloc(c->st, cap * sizeof(*st))) == NULL)
				err(1, NULL);
			c->st = st;
			c->capst = cap;
		}
		st = &c->st[c->nst++];
		if ((st->attr = strdup(a)) == NULL ||
		    (st->value = strdup(v)) == NULL)
			err(1, NULL);
	}
	free(s);
}

/* The comparable form of a value into c->text; 0 or -errno. */
static int
canon_err(struct ctx *c, const char *attr, const char *value)
{
	size_t need = strlen(value) + 32;
	int e;

	c->text.len = 0;
	if (ds_buf_reserve(&c->text, need) < 0)
		err(1, NULL);
	if ((e = ds_queue_value_canon(attr, value, c->text.data, need)) < 0)
		snprintf(c->text.data, need, "%s", value);
	return e;
}

/* The comparable form of a value read back (as read when damaged). */
static const char *
canon(struct ctx *c, const char *attr, const char *value)
{
	canon_err(c, attr, value);
	return c->text.data;
}

static void
check(struct ctx *c)
{
	struct ds_writer w;
	char rel[256];
	size_t i, k, differ = 0;
	int e;

	ds_writer_init(&w, c->t.out, c->t.fmt, check_cols, NELEM(check_cols),
	    c->t.header, "dqueue");
	tool_writer(&c->t, &w);
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->ntg; i++) {
		const struct target *tg = &c->tg[i];

		for (k = 0; k < c->nst; k++) {
			const struct setting *st = &c->st[k];

			e = ds_queue_attr_path(&c->t.r, tg->disk, st->attr,
			    rel, sizeof(rel));
			if (e == 0)
				e = ds_queue_attr_read(&c->t.r, tg->disk, rel,
				    &c->scratch);
			if (e < 0) {
				if (e == -ENOENT)
					warnx("%s: %s: no such attribute",
					    tg->name, st->attr);
				else
					tool_warnc(e, "%s: %s", tg->name,
					    st->attr);
				c->status = 1;
				continue;
			}
			/* A damaged line differs from nothing: an error. */
			if (strcmp(st->attr, "scheduler") == 0 &&
			    canon_err(c, st->attr,
			    c->scratch.data) == -EINVAL) {
				warnx("%s: %s: malformed scheduler line",
				    tg->name, st->attr);
				c->status = 1;
				continue;
			}
			if (ds_queue_value_holds(st->attr, st->value,
			    c->scratch.data))
				continue;
			differ++;
			ds_w_str(&w, tg->name);
			ds_w_str(&w, st->attr);
			ds_w_str(&w, st->value);
			ds_w_str(&w, canon(c, st->attr, c->scratch.data));
			ds_w_row_end(&w);
		}
	}
	/* All holding is silence, so a cron job mails nothing. */
	if (differ > 0 || c->t.outfile != NULL)
		tool_report_end(&c->t, &w);
	ds_writer_free(&w);
	if (c->status == 0 && differ > 0)
		c->status = EXIT_DIFFERS;
}

/*
 * Remember an applied setting for the message a failure ends with:
 * "dev attr=value", and what was asked when the kernel stored another.
 */
static void
applied_add(struct ds_buf *b, const char *dev, const char *attr,
    const char *value, const char *asked)
{
	size_t l = strlen(dev) + strlen(attr) + strlen(value) +
	    (asked != NULL ? strlen(asked) + 9 : 0) + 4;
	int n;

	if (ds_buf_reserve(b, l) < 0)
		err(1, NULL);
	n = snprintf(b->data + b->len, l + 1, "%s%s %s=%s", b->len > 0 ?
	    ", " : "", dev, attr, value);
	b->len += (size_t)n;
	if (asked != NULL)
		b->len += (size_t)snprintf(b->data + b->len, l + 1 - (size_t)n,
		    " (asked %s)", asked);
}

/* Why a setting was refused before anything was written. */
static void
refused(struct ctx *c, const char *dev, const char *disk,
    const struct ds_qs_item *it)
{
	struct ds_sched s;

	switch (it->why) {
	case DS_QSV_NOATTR:
		warnx("%s: %s: no such attribute", dev, it->attr);
		break;
	case DS_QSV_READONLY:
		warnx("%s: %s: read-only attribute", dev, it->attr);
		break;
	case DS_QSV_SYNTAX:
		warnx("%s: %s: %s: not a value this attribute takes", dev,
		    it->attr, it->value);
		break;
	case DS_QSV_SCHED:
		if (ds_queue_attr_read(&c->t.r, disk, "scheduler",
		    &c->scratch) < 0 || ds_sched_parse(c->scratch.data, &s) < 0)
			s.n = 0;
		warnx("%s: %s: %s: %s (available: %s)", dev, it->attr,
		    it->value, strerror(EINVAL), schedulers(c, &s));
		break;
	default:
		tool_warnc(it->err, "%s: %s", dev, it->attr);
	}
}

/* The message for a setting that does not hold after the last write. */
static void
not_held(struct ctx *c, const char *dev, const char *disk,
    const struct ds_qs_item *it, struct ds_buf *applied)
{
	struct ds_sched s;

	switch (it->state) {
	case DS_QS_FAILED:
		if (strcmp(it->attr, "scheduler") == 0) {
			if (ds_sched_parse(it->old, &s) < 0 ||
			    ds_queue_attr_read(&c->t.r, disk, "scheduler",
			    &c->scratch) < 0 ||
			    ds_sched_parse(c->scratch.data, &s) < 0)
				s.n = 0;
			warnx("%s: %s: %s: %s (available: %s)", dev, it->attr,
			    it->value, strerror(-it->err), schedulers(c, &s));
		} else
			tool_warnc(it->err, "%s: %s: %s", dev, it->attr,
			    it->value);
		return;
	case DS_QS_CHANGED:
		break;
	default:
		return;
	}
	if (it->now[0] == '\0') {
		tool_warnc(it->err, "%s: %s: reading back", dev, it->attr);
		return;
	}
	if (!it->written) {
		warnx("%s: %s: %s before, %s after the last write: the kernel "
		    "changed the value", dev, it->attr, it->old, it->now);
		return;
	}
	if (ds_queue_value_eq(it->attr, it->old, it->now)) {
		warnx("%s: %s: wrote %s, read back %s (was %s): the kernel kept "
		    "the old value", dev, it->attr, it->value, it->now, it->old);
		return;
	}
	warnx("%s: %s: wrote %s, read back %s (was %s): the kernel changed the "
	    "value", dev, it->attr, it->value, it->now, it->old);
	applied_add(applied, dev, it->attr, it->now, it->value);
}

/* The settings as one disk's request, for the library. */
static struct ds_qs_item *
request(struct ctx *c)
{
	struct ds_qs_item *it;
	size_t k;

	if ((it = calloc(c->nst ? c->nst : 1, sizeof(*it))) == NULL)
		err(1, NULL);
	for (k = 0; k < c->nst; k++) {
		it[k].attr = c->st[k].attr;
		it[k].value = c->st[k].value;
	}
	return it;
}

/* One row per setting: device attribute old new status. */
static void
set_rows(struct ds_writer *w, const char *dev, const struct ds_qs_item *it,
    size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		ds_w_str(w, dev);
		ds_w_str(w, it[k].attr);
		ds_w_str(w, it[k].old[0] != '\0' ? it[k].old : NULL);
		ds_w_str(w, it[k].state == DS_QS_WOULD ? it[k].want :
		    it[k].state == DS_QS_ALREADY && it[k].now[0] == '\0' ?
		    it[k].old : it[k].now[0] != '\0' ? it[k].now : NULL);
		ds_w_str(w, ds_qs_state_name(it[k].state));
		ds_w_row_end(w);
	}
}

/*
 * Every setting of every device validated before the first write; a
 * refusal anywhere writes nothing.  Then each device in turn: written
 * in order, every setting read back after its last write.
 */
static void
set(struct ctx *c)
{
	struct ds_writer w;
	struct ds_buf applied = { 0 };
	struct ds_qs_item **it;
	size_t i, k;
	int stopped = 0, halted = 0;

	if ((it = calloc(c->ntg ? c->ntg : 1, sizeof(*it))) == NULL)
		err(1, NULL);
	for (i = 0; i < c->ntg; i++) {
		it[i] = request(c);
		if (ds_qset_prepare(&c->t.r, c->tg[i].disk, it[i], c->nst,
		    &c->scratch) < 0) {
			for (k = 0; k < c->nst && it[i][k].why == DS_QSV_OK;)
				k++;
			refused(c, c->tg[i].name, c->tg[i].disk, &it[i][k]);
			c->status = 1;
		}
	}
	if (c->status != 0)
		warnx("nothing was written");
	ds_writer_init(&w, c->t.out, c->t.fmt, set_cols, NELEM(set_cols),
	    c->t.header, "dqueue");
	for (i = 0; i < c->ntg && c->status == 0 && !stopped; i++) {
		const struct target *tg = &c->tg[i];

		if (c->dry)
			ds_qset_dry(&c->t.r, tg->disk, it[i], c->nst,
			    &c->scratch);
		else
			ds_qset_apply(&c->t.r, tg->disk, it[i], c->nst,
			    &c->scratch);
		for (k = 0; k < c->nst; k++) {
			if (it[i][k].state == DS_QS_SKIPPED ||
			    it[i][k].state == DS_QS_FAILED)
				halted = 1;
			if (it[i][k].state == DS_QS_SET ||
			    it[i][k].state == DS_QS_ROUNDED)
				applied_add(&applied, tg->name, it[i][k].attr,
				    it[i][k].now, NULL);
			else
				not_held(c, tg->name, tg->disk, &it[i][k],
				    &applied);
			if (it[i][k].state == DS_QS_CHANGED ||
			    it[i][k].state == DS_QS_FAILED)
				stopped = 1;
		}
		/* The last write not holding ends the request too. */
		for (k = c->nst; k > 0 && !it[i][k - 1].written;)
			k--;
		if (k > 0 && it[i][k - 1].state == DS_QS_CHANGED)
			halted = 1;
		if (i == 0)
			tool_report_begin(&c->t, &w);
		set_rows(&w, tg->name, it[i], c->nst);
	}
	if (c->status == 0) {
		if (c->ntg == 0)
			tool_report_begin(&c->t, &w);
		tool_report_end(&c->t, &w);
	}
	ds_writer_free(&w);
	if (stopped) {
		c->status = 1;
		if (applied.len == 0)
			warnx("%s; nothing was applied", halted ? "stopped" :
			    "not every setting holds");
		else if (halted)
			warnx("stopped after applying: %s", applied.data);
		else
			warnx("not every setting holds; applied: %s",
			    applied.data);
	}
	for (i = 0; i < c->ntg; i++)
		free(it[i]);
	free(it);
	ds_buf_free(&applied);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", required_argument, NULL, 'C' },
		{ "set", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "allow-tree", no_argument, NULL, 'T' },
		TOOL_LONGOPTS
	};
	struct ctx c;
	enum mode mode = LIST;
	int ch, e, aflag = 0;
	size_t i;

	memset(&c, 0, sizeof(c));
	tool_init(&c.t, argv, &info);
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "an", longopts,
	    NULL)) != -1) {
		if (tool_option(&c.t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'T':
			c.allow_tree = 1;
			break;
		case 'C':
		case 'S':
			if (mode != LIST && mode != (ch == 'C' ? CHECK : SET)) {
				warnx("--check and --set exclude each other");
				usage();
			}
			mode = ch == 'C' ? CHECK : SET;
			parse_settings(&c, optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	c.dry = c.t.dry_run;
	if (aflag) {
		if (mode != LIST) {
			warnx("-a lists; it does not go with --check or --set");
			usage();
		}
		mode = LONG;
	}
	if ((mode == CHECK || mode == SET) && argc == 0) {
		warnx("--%s needs a device", mode == CHECK ? "check" : "set");
		usage();
	}
	if ((mode == CHECK || mode == SET) && c.t.fmt_set &&
	    c.t.fmt == DS_FMT_PROM) {
		warnx("-o prom is for listings, not --check or --set");
		usage();
	}
	if ((c.dry || c.allow_tree) && mode != SET) {
		warnx("-n and --allow-tree go with --set");
		usage();
	}
	tool_start(&c.t);
	/* A tree given by -R may lead anywhere: writes go to the live system. */
	if (mode == SET && !c.dry && !c.t.r.live && !c.allow_tree)
		errx(1, "--set writes only to the live system, not under %s "
		    "(--allow-tree to write into the tree, -n to see what "
		    "would be written)", c.t.r.path);
	if ((e = ds_blockdevs_read(&c.t.r, &c.disks)) < 0)
		tool_errc(1, e, "%s", tool_path(&c.t, "sys/block"));
	targets(&c, argc, argv);
	switch (mode) {
	case LIST:
		list(&c);
		break;
	case LONG:
		list_long(&c);
		break;
	case CHECK:
		/* A device that is not there is an error, not a difference. */
		check(&c);
		break;
	case SET:
		/* Nothing is written unless every device was found. */
		if (c.status == 0)
			set(&c);
		break;
	}
	for (i = 0; i < c.ntg; i++)
		free(c.tg[i].name);
	free(c.tg);
	for (i = 0; i < c.nst; i++) {
		free(c.st[i].attr);
		free(c.st[i].value);
	}
	free(c.st);
	ds_blockdevs_free(&c.disks);
	ds_buf_free(&c.scratch);
	ds_buf_free(&c.text);
	ds_root_close(&c.t.r);
	tool_exit(c.status);
}
