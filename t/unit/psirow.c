/*
 * lib/psirow.c: the columns of a report (the cgroup column only for a
 * cgroup; in prom a family per resource, kind and value, named and
 * converted to base units, for the resources asked for, in their
 * order), the message for each kind of note a sample makes, and for a
 * trigger that does not parse or check.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static void
test_columns(void)
{
	static const enum ds_psi_res order[] = { DS_PSI_IO, DS_PSI_CPU };
	struct ds_psi_cols pc;

	is_int(ds_psi_columns(0, order, 2, &pc), 8, "table: 8 columns");
	is_str(pc.col[1].name, "resource", "no cgroup column");
	is_str(pc.col[7].name, "stall%", "stall% last");
	is_int(ds_psi_columns(DS_PSICOL_CGROUP, order, 2, &pc), 9,
	    "with cgroup: 9");
	is_str(pc.col[1].name, "cgroup", "cgroup second");
	ok(pc.col[1].prom == DS_P_NONE, "not a label outside prom");

	is_int(ds_psi_columns(DS_PSICOL_PROM, order, 2, &pc),
	    1 + 2 * DS_PSI_NKINDS * DS_PSI_PER_LINE, "prom: time + families");
	is_str(pc.col[1].name, "io_some_avg10_ratio", "first family");
	is_str(pc.col[1].metric, "io_some_avg10_ratio", "metric = name");
	ok(pc.col[1].prom == DS_P_GAUGE && pc.col[1].scale == 0.01,
	    "avg10: a gauge, percent to ratio");
	is_str(pc.col[4].name, "io_some_stall_seconds_total", "the total");
	ok(pc.col[4].prom == DS_P_COUNTER && pc.col[4].div10 == 6 &&
	    pc.col[4].type == DS_T_U64, "total: a counter, us to s");
	is_str(pc.col[4].help, "PSI io some: cumulative stall time, seconds.",
	    "total's help");
	is_str(pc.col[5].help, "PSI io some: share of the last interval "
	    "stalled, from the total (0 to 1).", "share's help");
	is_str(pc.col[6].name, "io_full_avg10_ratio", "then full");
	is_str(pc.col[11].name, "cpu_some_avg10_ratio", "then cpu, as asked");

	ds_psi_columns(DS_PSICOL_PROM | DS_PSICOL_CGROUP, order, 1, &pc);
	ok(pc.n == 2 + DS_PSI_NKINDS * DS_PSI_PER_LINE &&
	    pc.col[1].prom == DS_P_LABEL, "prom cgroup: a label");
	is_str(pc.col[1].metric, "cgroup", "labelled cgroup");
}

static void
test_notes(void)
{
	struct ds_buf b = { 0 };
	struct ds_psi_note n;

	n = (struct ds_psi_note){ NULL, DS_PSI_IO, 0,
	    { 1, 7, DS_PSI_WHY_MISSING, 3 } };
	is_int(ds_psi_note_msg(&n, &b), 1, "malformed line: a message");
	is_str(b.data, "proc/pressure/io: line 7: no total (1 line skipped)",
	    "malformed line: the line and why");
	n = (struct ds_psi_note){ NULL, DS_PSI_IO, 0,
	    { 3, 2, DS_PSI_WHY_REPEAT, 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "proc/pressure/io: line 2: a second line of its kind "
	    "(3 lines skipped)", "three bad lines: the first, the count");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL,
	    { 2, 1, DS_PSI_WHY_TWICE, 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "cgroup /a: memory.pressure: line 1: avg10 twice (2 lines "
	    "skipped, no line to report)", "no good line: the first, the count");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL,
	    { 1, 1, DS_PSI_WHY_DECIMALS, 1 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "cgroup /a: memory.pressure: line 1: avg60 has more "
	    "decimals than the kernel prints (1 line skipped, no line to "
	    "report)",
	    "the one line bad");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "cgroup /a: memory.pressure: malformed, no line to "
	    "report", "nothing to report");
	n = (struct ds_psi_note){ NULL, DS_PSI_IRQ, -ENOENT, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "proc/pressure/irq: not in this kernel (6.1+ with "
	    "CONFIG_IRQ_TIME_ACCOUNTING)", "no irq");
	n = (struct ds_psi_note){ "/a", DS_PSI_IO, -ENODEV, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "cgroup /a: io.pressure: pressure accounting is off "
	    "for this cgroup: echo 1 > cgroup.pressure", "accounting off");
	n = (struct ds_psi_note){ NULL, DS_PSI_CPU, -EOPNOTSUPP, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "proc/pressure/cpu: PSI is disabled in this kernel: "
	    "boot with psi=1", "PSI off");
	n = (struct ds_psi_note){ NULL, DS_PSI_IO, -EACCES, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "proc/pressure/io: Permission denied", "an errno");
	n = (struct ds_psi_note){ "/deep", -1, -ELOOP, { 0 } };
	ds_psi_note_msg(&n, &b);
	ok(strncmp(b.data, "cgroup /deep: subtree skipped: nested deeper "
	    "than ", 45) == 0, "too deep: %s", b.data);
	n = (struct ds_psi_note){ "/x", -1, -EMFILE, { 0 } };
	ds_psi_note_msg(&n, &b);
	is_str(b.data, "cgroup /x: subtree skipped: Too many open files",
	    "a subtree left out");
	is_int((int)b.len, (int)strlen(b.data), "len kept");
	ds_buf_free(&b);
}

static void
test_trigger(void)
{
	struct ds_buf b = { 0 };
	struct ds_psi_trigger t;

	is_int(ds_psi_trigger_msg("io:some:150ms/2s", &t, &b), 0, "fine");
	ok(t.res == DS_PSI_IO && t.kind == DS_PSI_SOME &&
	    t.stall_us == 150000 && t.window_us == 2000000, "parsed");
	is_int(ds_psi_trigger_msg("disk:some:1s/2s", &t, &b), 1, "bad part");
	ok(strncmp(b.data, "resource 'disk': ", 17) == 0, "names it: %s",
	    b.data);
	is_int(ds_psi_trigger_msg("io", &t, &b), 1, "bad shape");
	is_str(b.data, "not RESOURCE:KIND:STALL/WINDOW (e.g. io:some:150ms/2s)",
	    "shape: why");
	is_int(ds_psi_trigger_msg("io:some:3s/2s", &t, &b), 1, "stall > win");
	is_str(b.data, "the stall must be more than 0 and at most the window",
	    "the check's message");
	is_int(ds_psi_trigger_msg("io:some:1s/3s", &t, &b), 0,
	    "privileged: any window in range");
	ds_buf_free(&b);
}

int
main(void)
{
	test_columns();
	test_notes();
	test_trigger();
	return tap_done();
}
