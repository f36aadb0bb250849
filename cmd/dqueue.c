/*
 * dqueue: block queue settings per device, listed, checked against
 * wanted values, and set with a read-back that proves the kernel kept
 * what it was given.
 */
#include "tool.h"

#define EXIT_DIFFERS 3		/* --check: some setting does not hold */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define STR(n) { n, DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 }

enum mode { LIST, LONG, CHECK, SET };

/* The listing's columns are the library's (ds_qlist_plain and _info). */
static const struct ds_col long_cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "attribute", DS_T_STR, DS_P_LABEL, "attribute", NULL, 0, 0, 0 },
	STR("value"),
	{ "writable", DS_T_U64, DS_P_GAUGE, "attribute_writable",
	    "1 when the attribute file's mode allows writing.", 0, 0, 0 },
};

static const struct ds_col check_cols[] = {
	STR("device"), STR("attribute"), STR("want"), STR("got"),
};

static const struct ds_col set_cols[] = {
	STR("device"), STR("attribute"), STR("old"), STR("new"), STR("status"),
};

struct ctx {
	struct tool t;
	struct ds_blockdevs disks;
	struct ds_qtargets tg;
	struct ds_qsettings st;
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

static void
usage(void)
{
	fprintf(stderr, "usage: %s\n", synopsis);
	exit(2);
}

/* Operands to devices, in the order given; a message for each that fails. */
static void
targets(struct ctx *c, int argc, char **argv)
{
	struct ds_devsel sel;
	size_t k;
	int e;

	if (ds_devsel_init(&sel, argv, (size_t)argc) < 0 ||
	    ds_qtargets_pick(&c->t.r, &c->disks, &sel, &c->scratch,
	    &c->tg) < 0)
		err(1, NULL);
	for (k = 0; k < c->tg.nops; k++) {
		if ((e = c->tg.err[k]) == 0)
			continue;
		if (e == -ENOENT || e == -EINVAL)
			warnx("%s: %s", sel.op[k].arg, sel.op[k].glob ?
			    "no device matches" : "no such block device");
		else
			tool_warnc(e, "%s", sel.op[k].arg);
		c->status = 1;
	}
	ds_devsel_free(&sel);
}

/* Say what is wrong with attributes that could not be read. */
static void
queue_warn(struct ctx *c, const char *dev, const struct ds_queue *q)
{
	int a, e;

	/* Missing queue/ (-ENOENT) is a captured tree that left it out. */
	if (q->qerr != 0 && q->qerr != -ENOENT) {
		tool_warnc(q->qerr, "%s: queue", dev);
		c->status = 1;
	}
	for (a = 0; a < DS_QA_N; a++) {
		if ((e = ds_queue_attr_err(q, a)) == 0)
			continue;
		if (e == -EINVAL)
			warnx("%s: %s: %s", dev, ds_qattr_name(a),
			    ds_qattr_numeric(a) ? "not a number" :
			    a == DS_QA_SCHEDULER ? "malformed scheduler line" :
			    "unexpected contents");
		else
			tool_warnc(e, "%s: %s", dev, ds_qattr_name(a));
		c->status = 1;
	}
}

/* A row's device and its cells (the row left open). */
static void
cells(struct ctx *c, struct ds_writer *w, const char *dev,
    const struct ds_queue *q, const struct ds_qlisting *l)
{
	uint64_t v = 0;
	size_t i;
	int e;

	ds_w_str(w, dev);
	for (i = 0; i < l->ncells; i++) {
		if ((e = ds_queue_cell(q, &l->cells[i], &c->text, &v)) < 0)
			err(1, NULL);
		if (e == 0)
			ds_w_null(w);
		else if (e == 1)
			ds_w_str(w, c->text.data);
		else
			ds_w_u64(w, v);
	}
}

static void
list(struct ctx *c)
{
	struct ds_writer w, w2;
	struct ds_queue q = { 0 };
	int prom = c->t.fmt == DS_FMT_PROM, e;
	size_t i;

	const struct ds_qlisting *l = prom ? &ds_qlist_info : &ds_qlist_plain;

	ds_writer_init(&w, c->t.out, c->t.fmt, l->cols, l->ncols, c->t.header,
	    "dqueue");
	if (prom) {
		ds_writer_init(&w2, c->t.out, c->t.fmt, ds_qlist_gauge.cols,
		    ds_qlist_gauge.ncols, c->t.header, "dqueue");
		/* -O picks gauges; the info family is one of its own. */
		tool_writer(&c->t, &w2);
	} else
		tool_writer(&c->t, &w);
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->tg.n; i++) {
		const struct ds_qtarget *tg = &c->tg.t[i];

		if ((e = ds_queue_read(&c->t.r, tg->disk, tg->name,
		    &c->scratch, &q)) < 0) {
			tool_warnc(e, "%s", tg->name);
			c->status = 1;
			continue;
		}
		queue_warn(c, tg->name, &q);
		cells(c, &w, tg->name, &q, l);
		if (prom) {
			ds_w_u64(&w, 1);	/* info */
			cells(c, &w2, tg->name, &q, &ds_qlist_gauge);
			ds_w_row_end(&w2);
		}
		ds_w_row_end(&w);
	}
	ds_queue_free(&q);
	if (prom) {
		/* The info family first, then the gauges, into one stream. */
		w2.out = w.out;
		if ((e = ds_w_report_end(&w)) < 0 ||
		    (e = ds_w_report_end(&w2)) < 0)
			w.error = e;
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
	for (i = 0; i < c->tg.n; i++) {
		const char *dev = c->tg.t[i].name;

		if ((e = ds_queue_files(&c->t.r, c->tg.t[i].disk, &c->scratch,
		    &fs)) < 0) {
			tool_warnc(e, "%s: queue", dev);
			c->status = 1;
			continue;
		}
		for (k = 0; k < fs.n; k++) {
			if ((e = ds_qfile_err(&fs.f[k])) < 0) {
				tool_warnc(e, "%s: %s", dev, fs.f[k].name);
				c->status = 1;
			}
			ds_w_str(&w, dev);
			ds_w_str(&w, fs.f[k].name);
			ds_w_str(&w, fs.f[k].value);
			ds_w_u64(&w, (uint64_t)fs.f[k].writable);
			ds_w_row_end(&w);
		}
	}
	ds_qfiles_free(&fs);
	tool_report_end(&c->t, &w);
	ds_writer_free(&w);
}

/* attr=value[,attr=value...], appended to c->st; usage() when malformed. */
static void
settings(struct ctx *c, const char *arg)
{
	static const char *const why[] = {
		[DS_QSP_NOEQ] = "not attr=value",
		[DS_QSP_EMPTY] = "empty value",
		[DS_QSP_NAME] = "not an attribute name",
	};
	enum ds_qsp_why w;
	int e;

	if ((e = ds_qsettings_parse(&c->st, arg, &w, &c->text)) == -EINVAL) {
		warnx("%s: %s", c->text.data, why[w]);
		usage();
	}
	if (e < 0)
		err(1, NULL);
}

static void
check(struct ctx *c)
{
	struct ds_writer w;
	size_t i, k, differ = 0;
	int e;

	ds_writer_init(&w, c->t.out, c->t.fmt, check_cols, NELEM(check_cols),
	    c->t.header, "dqueue");
	tool_writer(&c->t, &w);
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->tg.n; i++) {
		for (k = 0; k < c->st.n; k++) {
			const char *dev = c->tg.t[i].name, *a = c->st.s[k].attr;

			e = ds_qset_check(&c->t.r, c->tg.t[i].disk, a,
			    c->st.s[k].value, &c->scratch, &c->text);
			if (e == DS_QC_DIFFERS) {
				differ++;
				ds_w_str(&w, dev);
				ds_w_str(&w, a);
				ds_w_str(&w, c->st.s[k].value);
				ds_w_str(&w, c->text.data);
				ds_w_row_end(&w);
			} else if (e != DS_QC_HOLDS) {
				if (e == -ENOENT || e == DS_QC_DAMAGED)
					warnx("%s: %s: %s", dev, a, e < 0 ?
					    "no such attribute" :
					    "malformed scheduler line");
				else
					tool_warnc(e, "%s: %s", dev, a);
				c->status = 1;
			}
		}
	}
	/* All holding is silence, so a cron job mails nothing. */
	if (differ > 0 || c->t.outfile != NULL)
		tool_report_end(&c->t, &w);
	ds_writer_free(&w);
	if (c->status == 0 && differ > 0)
		c->status = EXIT_DIFFERS;
}

/* Say what went wrong with a setting; 1 when there was something. */
static int
say(struct ctx *c, const struct ds_qtarget *tg, const struct ds_qs_item *it)
{
	int e = it == NULL ? 0 : ds_qset_msg(&c->t.r, tg->disk, tg->name, it,
	    &c->scratch, &c->text);

	if (e < 0)
		err(1, NULL);
	if (e > 0)
		warnx("%s", c->text.data);
	return e;
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
	size_t i, k, n = c->st.n;
	int o = 0;

	if ((it = calloc(c->tg.n ? c->tg.n : 1, sizeof(*it))) == NULL)
		err(1, NULL);
	for (i = 0; i < c->tg.n; i++) {
		if ((it[i] = ds_qsettings_request(&c->st)) == NULL)
			err(1, NULL);
		if (ds_qset_prepare(&c->t.r, c->tg.t[i].disk, it[i], n,
		    &c->scratch) < 0) {
			say(c, &c->tg.t[i], ds_qset_refusal(it[i], n));
			c->status = 1;
		}
	}
	if (c->status != 0)
		warnx("nothing was written");
	ds_writer_init(&w, c->t.out, c->t.fmt, set_cols, NELEM(set_cols),
	    c->t.header, "dqueue");
	for (i = 0; i < c->tg.n && c->status == 0 && !(o & DS_QSO_STOPPED);
	    i++) {
		const struct ds_qtarget *tg = &c->tg.t[i];

		(c->dry ? ds_qset_dry : ds_qset_apply)(&c->t.r, tg->disk,
		    it[i], n, &c->scratch);
		for (k = 0; k < n; k++)
			say(c, tg, &it[i][k]);
		if (ds_qset_applied(&applied, tg->name, it[i], n) < 0)
			err(1, NULL);
		o |= ds_qset_outcome(it[i], n);
		if (i == 0)
			tool_report_begin(&c->t, &w);
		set_rows(&w, tg->name, it[i], n);
	}
	if (c->status == 0) {
		if (c->tg.n == 0)
			tool_report_begin(&c->t, &w);
		tool_report_end(&c->t, &w);
	}
	ds_writer_free(&w);
	if (o & DS_QSO_STOPPED) {
		c->status = 1;
		if (applied.len == 0)
			warnx("%s; nothing was applied", o & DS_QSO_HALTED ?
			    "stopped" : "not every setting holds");
		else if (o & DS_QSO_HALTED)
			warnx("stopped after applying: %s", applied.data);
		else
			warnx("not every setting holds; applied: %s",
			    applied.data);
	}
	for (i = 0; i < c->tg.n; i++)
		free(it[i]);
	free(it);
	ds_buf_free(&applied);
}

/* Options and operands to a mode; usage() for what does not go together. */
static enum mode
parse_args(struct ctx *c, int *argc, char ***argv)
{
	static const struct option longopts[] = {
		{ "check", required_argument, NULL, 'C' },
		{ "set", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "allow-tree", no_argument, NULL, 'T' },
		TOOL_LONGOPTS
	};
	enum mode mode = LIST;
	int ch, aflag = 0;

	while ((ch = getopt_long(*argc, *argv, TOOL_OPTS "an", longopts,
	    NULL)) != -1) {
		if (tool_option(&c->t, ch, optarg, usage))
			continue;
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'n':
			c->dry = 1;
			break;
		case 'T':
			c->allow_tree = 1;
			break;
		case 'C':
		case 'S':
			if (mode != LIST && mode != (ch == 'C' ? CHECK : SET)) {
				warnx("--check and --set exclude each other");
				usage();
			}
			mode = ch == 'C' ? CHECK : SET;
			settings(c, optarg);
			break;
		case TOOL_HELP:
			tool_help(synopsis, options);
			break;
		default:
			usage();
		}
	}
	*argc -= optind;
	*argv += optind;
	if (aflag && mode != LIST) {
		warnx("-a lists; it does not go with --check or --set");
		usage();
	}
	return aflag ? LONG : mode;
}

int
main(int argc, char **argv)
{
	struct ctx c;
	enum mode mode;
	int e;

	memset(&c, 0, sizeof(c));
	tool_init(&c.t, argv);
	mode = parse_args(&c, &argc, &argv);
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
		tool_errc(1, e, "%s/sys/block", strcmp(c.t.r.path, "/") == 0 ?
		    "" : c.t.r.path);
	targets(&c, argc, argv);
	if (mode == LIST)
		list(&c);
	else if (mode == LONG)
		list_long(&c);
	else if (mode == CHECK)
		/* A device that is not there is an error, not a difference. */
		check(&c);
	else if (c.status == 0)
		/* Nothing is written unless every device was found. */
		set(&c);
	ds_qtargets_free(&c.tg);
	ds_qsettings_free(&c.st);
	ds_blockdevs_free(&c.disks);
	ds_buf_free(&c.scratch);
	ds_buf_free(&c.text);
	ds_root_close(&c.t.r);
	tool_exit(c.status);
}
