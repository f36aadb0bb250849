/*
 * cmd/dxstat/warn.c: what dxstat tells besides its rows: damaged lines
 * (once per change with dx_warn_bad_new, as the sampling loop tells
 * them), a line of more values than its format, what a report read by
 * lines tells after it (the files themselves are t/unit/dxstat-files.c's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dxstat/dxstat.h"
#include "stderr.h"
#include "tap.h"

static void
test_bad(void)
{
	struct ds_diskstats s = { 0 };
	struct dx_badseen seen = { 0, 0 };
	char got[512];

	stderr_begin();
	dx_warn_bad("f", &s);
	is_str(stderr_end(got, sizeof(got)), "", "no damaged line: nothing");
	s.bad = 1;
	s.first_bad = 4;
	stderr_begin();
	dx_warn_bad("f", &s);
	s.bad = 3;
	dx_warn_bad("/tree/proc/diskstats", &s);
	is_str(stderr_end(got, sizeof(got)),
	    "dxstat: f: line 4: not a diskstats line (1 line skipped)\n"
	    "dxstat: /tree/proc/diskstats: line 4: not a diskstats line "
	    "(3 lines skipped)\n", "one line: singular; three: plural");
	/* Once per change: 3 at line 4, again, none, 3 at 4, 3 at 5. */
	stderr_begin();
	dx_warn_bad_new("f", &s, &seen);
	dx_warn_bad_new("f", &s, &seen);
	is_str(stderr_end(got, sizeof(got)), "dxstat: f: line 4: not a "
	    "diskstats line (3 lines skipped)\n", "the same damage again: "
	    "told once");
	stderr_begin();
	s.bad = 0;
	dx_warn_bad_new("f", &s, &seen);
	is_str(stderr_end(got, sizeof(got)), "", "none: nothing");
	stderr_begin();
	s.bad = 3;
	dx_warn_bad_new("f", &s, &seen);
	is_str(stderr_end(got, sizeof(got)), "", "and not remembered: the "
	    "same damage after it is still not new");
	stderr_begin();
	s.first_bad = 5;
	dx_warn_bad_new("f", &s, &seen);
	is_str(stderr_end(got, sizeof(got)), "dxstat: f: line 5: not a "
	    "diskstats line (3 lines skipped)\n", "another first line: told");
	is_int((int)seen.first_bad, 5, "and remembered");
}

static void
test_extra(void)
{
	char l11[] = "8 0 sda 1 2 3 4 5 6 7 8 9 10 11";
	char l13[] = "8 0 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13";
	char l18[] = "8 0 sdc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18";
	struct ds_disk d;
	char got[512];

	stderr_begin();
	if (ds_disk_parse_line(l11, &d) < 0)
		exit(1);
	is_int(dx_warn_extra(&d), 0, "11 values: nothing to tell");
	if (ds_disk_parse_line(l13, &d) < 0)
		exit(1);
	is_int(dx_warn_extra(&d), 1, "13 values: told");
	if (ds_disk_parse_line(l18, &d) < 0)
		exit(1);
	is_int(dx_warn_extra(&d), 0, "18 values: a kernel format");
	is_str(stderr_end(got, sizeof(got)), "dxstat: sdb: 13 values where "
	    "the kernel prints 11: read as that format, the rest unused "
	    "(said once)\n", "the one sentence");
}

/*
 * After a report read by lines: the earlier file's damage, the devices
 * listed again, the later's damage, a file only read; nothing for none.
 */
static void
test_rows(void)
{
	struct ds_rows rs;
	struct ds_older o, only;
	char got[1024];

	memset(&rs, 0, sizeof(rs));
	memset(&o, 0, sizeof(o));
	memset(&only, 0, sizeof(only));
	rs.what = "b";
	stderr_begin();
	dx_warn_rows(&rs, NULL);
	is_str(stderr_end(got, sizeof(got)), "", "nothing to tell: nothing");
	rs.o = &o;
	o.what = "a";
	o.pend.bad = 1;
	o.pend.first_bad = 2;
	o.twice = 2;
	o.first_twice = 9;
	rs.bad.bad = 4;
	rs.bad.first_bad = 3;
	stderr_begin();
	dx_warn_rows(&rs, NULL);
	is_str(stderr_end(got, sizeof(got)),
	    "dxstat: a: line 2: not a diskstats line (1 line skipped)\n"
	    "dxstat: b: line 9: a device listed again (2 lines skipped)\n"
	    "dxstat: b: line 3: not a diskstats line (4 lines skipped)\n",
	    "the earlier's damage, devices listed again, the later's damage");
	rs.o = NULL;
	only.what = "c";
	only.pend.bad = 1;
	only.pend.first_bad = 5;
	stderr_begin();
	dx_warn_rows(&rs, &only);
	is_str(stderr_end(got, sizeof(got)),
	    "dxstat: b: line 3: not a diskstats line (4 lines skipped)\n"
	    "dxstat: c: line 5: not a diskstats line (1 line skipped)\n",
	    "a file only read (a reboot): its damage last");
}

/* A name with a control byte reaches stderr escaped, on one line. */
static void
test_escaped(void)
{
	struct ds_diskstats s = { 0 };
	char got[512];

	s.bad = 2;
	s.first_bad = 7;
	stderr_begin();
	dx_warn_bad("a\nb\tc", &s);
	is_str(stderr_end(got, sizeof(got)), "dxstat: a\\nb\\tc: line 7: not a "
	    "diskstats line (2 lines skipped)\n", "escaped");
}

int
main(void)
{
	program_invocation_short_name = "dxstat";
	test_bad();
	test_extra();
	test_rows();
	test_escaped();
	return tap_done();
}
