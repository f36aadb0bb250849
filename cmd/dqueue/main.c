/*
 * dqueue: block queue settings per device, listed, checked against
 * wanted values, and set with a read-back that proves the kernel kept
 * what it was given.  Its columns, operands, arguments and messages
 * are beside this file (dqueue.h); this runs each mode and writes rows.
 */
#include "util/util.h"
#include "dqueue.h"

#define EXIT_DIFFERS 3		/* --check: some setting does not hold */

enum mode { LIST, LONG, CHECK, SET };

struct ctx {
	struct tool t;
	struct ds_blockdevs disks;
	struct dq_targets tg;
	struct dq_settings st;
	struct ds_buf scratch, text;
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

/* A message, with -errno e's text unless e is 0; the run has failed. */
#define fail(c, e, ...) ((e) != 0 ? tool_warnc((e), __VA_ARGS__) : \
	warnx(__VA_ARGS__), (c)->status = 1)

/* A writer for the rows of l, without -O and the table options. */
static void
writer(struct ctx *c, struct ds_writer *w, const struct dq_listing *l)
{
	int e;

	if ((e = ds_writer_init(w, c->t.out, c->t.fmt, l->cols, l->ncols,
	    c->t.header, "dqueue")) < 0)
		tool_errc(1, e, "writer");
}

/* A writer for the rows of l as the options ask, its report begun. */
static void
begin(struct ctx *c, struct ds_writer *w, const struct dq_listing *l)
{
	tool_writer_open(&c->t, w, l->cols, l->ncols, "dqueue");
	tool_report_begin(&c->t, w);
}

/* Operands to devices, in the order given; a message for each that fails. */
static void
targets(struct ctx *c, int argc, char **argv)
{
	struct ds_devsel sel;
	size_t k;
	int e;

	if (ds_devsel_init(&sel, argv, (size_t)argc) < 0 ||
	    dq_targets_pick(&c->t.r, &c->disks, &sel, &c->scratch,
	    &c->tg) < 0)
		err(1, NULL);
	for (k = 0; k < c->tg.nops; k++)
		if ((e = c->tg.err[k]) == -ENOENT || e == -EINVAL)
			fail(c, 0, "%s: %s", sel.op[k].arg, sel.op[k].glob ?
			    "no device matches" : "no such block device");
		else if (e < 0)
			fail(c, e, "%s", sel.op[k].arg);
	ds_devsel_free(&sel);
}

/* A row's device and its cells (the row left open). */
static void
cells(struct ctx *c, struct ds_writer *w, const char *dev,
    const struct ds_queue *q, const struct dq_listing *l)
{
	uint64_t v = 0;
	size_t i;
	int e;

	ds_w_str(w, dev);
	for (i = 0; i < l->ncells; i++) {
		if ((e = dq_cell_value(q, &l->cells[i], &c->text, &v)) < 0)
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
	int prom = c->t.fmt == DS_FMT_PROM;
	const struct dq_listing *l = prom ? &dq_list_info : &dq_list_plain;
	struct ds_writer w, w2;
	struct ds_queue q = { 0 };
	size_t i;
	int e;

	if (prom) {
		/* -O picks gauges; the info family is one of its own. */
		writer(c, &w, l);
		tool_writer_open(&c->t, &w2, dq_list_gauge.cols,
		    dq_list_gauge.ncols, "dqueue");
	} else
		tool_writer_open(&c->t, &w, l->cols, l->ncols, "dqueue");
	tool_report_begin(&c->t, &w);
	for (i = 0; i < c->tg.n; i++) {
		const struct dq_target *tg = &c->tg.t[i];

		if ((e = ds_queue_read(&c->t.r, tg->disk, tg->name,
		    &c->scratch, &q)) < 0) {
			fail(c, e, "%s", tg->name);
			continue;
		}
		/* What could not be read, each said once. */
		if (dq_say_problems(&q, tg->name) > 0)
			c->status = 1;
		cells(c, &w, tg->name, &q, l);
		if (prom) {
			ds_w_u64(&w, 1);	/* info */
			cells(c, &w2, tg->name, &q, &dq_list_gauge);
			(void)ds_w_row_end(&w2);
		}
		(void)ds_w_row_end(&w);
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

	begin(c, &w, &dq_list_long);
	for (i = 0; i < c->tg.n; i++) {
		const char *dev = c->tg.t[i].name;

		/* On failure fs is empty: no rows. */
		if ((e = ds_queue_files(&c->t.r, c->tg.t[i].disk, &c->scratch,
		    &fs)) < 0)
			fail(c, e, "%s: queue", dev);
		for (k = 0; k < fs.n; k++) {
			if ((e = dq_qfile_err(&fs.f[k])) < 0)
				fail(c, e, "%s: %s", dev, fs.f[k].name);
			ds_w_str(&w, dev);
			ds_w_str(&w, fs.f[k].name);
			ds_w_str(&w, fs.f[k].value);
			ds_w_u64(&w, (uint64_t)fs.f[k].writable);
			(void)ds_w_row_end(&w);
		}
	}
	ds_qfiles_free(&fs);
	tool_report_end(&c->t, &w);
	ds_writer_free(&w);
}

static void
check(struct ctx *c)
{
	struct ds_writer w;
	size_t i, k, differ = 0;
	int e;

	begin(c, &w, &dq_check_rows);
	for (i = 0; i < c->tg.n; i++)
		for (k = 0; k < c->st.n; k++) {
			const char *dev = c->tg.t[i].name, *a = c->st.s[k].attr;

			e = ds_qset_check(&c->t.r, c->tg.t[i].disk, a,
			    c->st.s[k].value, &c->scratch, &c->text);
			if (e == -ENOENT || e == DS_QC_DAMAGED)
				fail(c, 0, "%s: %s: %s", dev, a, e < 0 ?
				    "no such attribute" :
				    "malformed scheduler line");
			else if (e < 0)
				fail(c, e, "%s: %s", dev, a);
			else if (e == DS_QC_DIFFERS) {
				differ++;
				ds_w_str(&w, dev);
				ds_w_str(&w, a);
				ds_w_str(&w, c->st.s[k].value);
				ds_w_str(&w, c->text.data);
				(void)ds_w_row_end(&w);
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
 * Every setting of every device validated before the first write; a
 * refusal anywhere writes nothing.  Then each device in turn: written
 * in order, every setting read back after its last write.
 */
static void
set(struct ctx *c)
{
	struct ds_writer w;
	struct ds_qs_item *it;
	size_t i, k, n = c->st.n;
	int o = 0, e;

	if ((it = dq_settings_request(&c->st, c->tg.n)) == NULL)
		err(1, NULL);
	for (i = 0; i < c->tg.n; i++)
		if (ds_qset_prepare(&c->t.r, c->tg.t[i].disk, it + i * n, n,
		    &c->scratch) < 0) {
			c->status = 1;
			dq_say_setting(&c->t.r, c->tg.t[i].disk,
			    c->tg.t[i].name, dq_refusal(it + i * n, n),
			    &c->scratch);
		}
	if (c->status != 0)
		warnx("nothing was written");
	writer(c, &w, &dq_set_rows);
	for (i = 0; i < c->tg.n && c->status == 0 && !(o & DQ_STOPPED);
	    i++) {
		const struct dq_target *tg = &c->tg.t[i];
		struct ds_qs_item *d = it + i * n;

		if ((e = (c->dry ? ds_qset_dry : ds_qset_apply)(&c->t.r,
		    tg->disk, d, n, &c->scratch)) < 0)
			tool_errc(1, e, "%s", tg->name);
		for (k = 0; k < n; k++)
			dq_say_setting(&c->t.r, tg->disk, tg->name, &d[k],
			    &c->scratch);
		o |= dq_outcome(d, n);
		if (i == 0)
			tool_report_begin(&c->t, &w);
		/* One row per setting: device attribute old new status. */
		for (k = 0; k < n; k++) {
			ds_w_str(&w, tg->name);
			ds_w_str(&w, d[k].attr);
			ds_w_str(&w, d[k].old[0] != '\0' ? d[k].old : NULL);
			ds_w_str(&w, dq_set_new(&d[k]));
			ds_w_str(&w, ds_qs_state_name(d[k].state));
			(void)ds_w_row_end(&w);
		}
	}
	if (c->status == 0 && c->tg.n == 0)
		tool_report_begin(&c->t, &w);
	if (c->status == 0)
		tool_report_end(&c->t, &w);
	ds_writer_free(&w);
	if ((e = dq_say_summary(o, &c->tg, i, it, n)) < 0)
		err(1, NULL);
	if (e > 0)
		c->status = 1;
	free(it);
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
	int ch, e, aflag = 0;

	while ((ch = getopt_long(*argc, *argv, TOOL_OPTS "an", longopts,
	    NULL)) != -1) {
		if (tool_option(&c->t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'T':
			c->allow_tree = 1;
			break;
		case 'C':
		case 'S':
			if (mode != LIST && mode != (ch == 'C' ? CHECK : SET))
				tool_usage("--check and --set exclude each "
				    "other");
			mode = ch == 'C' ? CHECK : SET;
			/* attr=value[,attr=value...], appended to c->st. */
			if ((e = dq_settings_parse(&c->st, optarg)) == -EINVAL)
				usage();
			else if (e < 0)
				err(1, NULL);
			break;
		default:
			usage();
		}
	}
	*argc -= optind;
	*argv += optind;
	c->dry = c->t.dry_run;
	if (aflag && mode != LIST)
		tool_usage("-a lists; it does not go with --check or --set");
	return aflag ? LONG : mode;
}

int
main(int argc, char **argv)
{
	struct ctx c;
	enum mode mode;
	int e;

	memset(&c, 0, sizeof(c));
	tool_init(&c.t, argv, &info);
	mode = parse_args(&c, &argc, &argv);
	if ((mode == CHECK || mode == SET) && argc == 0)
		tool_usage("--%s needs a device", mode == CHECK ? "check" :
		    "set");
	if ((mode == CHECK || mode == SET) && c.t.fmt_set &&
	    c.t.fmt == DS_FMT_PROM)
		tool_usage("-o prom is for listings, not --check or --set");
	if ((c.dry || c.allow_tree) && mode != SET)
		tool_usage("-n and --allow-tree go with --set");
	tool_start(&c.t);
	/* A capture's settings are those it ended with: its last sample. */
	tool_root_last(&c.t);
	if (mode == SET && c.t.r.nsamples > 0)
		errx(1, "--set: %s is a capture, a record of settings, not a "
		    "system to change", c.t.r.path);
	/* A tree given by -R may lead anywhere: writes go to this system. */
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
		check(&c);	/* a device not there is an error */
	else if (c.status == 0)
		set(&c);	/* nothing written unless all were found */
	dq_targets_free(&c.tg);
	dq_settings_free(&c.st);
	ds_blockdevs_free(&c.disks);
	ds_buf_free(&c.scratch);
	ds_buf_free(&c.text);
	ds_root_close(&c.t.r);
	tool_exit(c.status);
}
