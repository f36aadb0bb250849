/*
 * cmd/dwho/notes.c: each note once, in order, none when nothing is to
 * be said; a scan's damage noted (the first), its unreadable entries
 * (the most of a report); io.stat's bad lines unless a file came first.
 */
#include <stdio.h>
#include <string.h>

#include "dwho/dwho.h"
#include "tap.h"

static void
test_notes(void)
{
	struct whonotes n = { 0 };
	char msg[512];

	is_int(who_note(&n, 0, msg, sizeof(msg)), 0, "notes: none");
	n.source = "-g: a source";
	n.bad = 1;
	n.first_bad = 9;
	n.unreadable = 2;
	is_int(who_note(&n, 0, msg, sizeof(msg)), 1, "notes: one");
	is_str(msg, "-g: a source", "notes: the source first");
	who_note(&n, 0, msg, sizeof(msg));
	is_str(msg, "1 malformed proc/PID/stat or io file (first: pid 9): "
	    "shown as - or skipped", "notes: the damage, singular");
	who_note(&n, 1, msg, sizeof(msg));
	ok(strstr(msg, "of 2 processes are unreadable (/proc/PID/io refused "
	    "even to root)") != NULL, "notes: unreadable, as root");
	is_int(who_note(&n, 0, msg, sizeof(msg)), 0, "notes: each once");
	n.off_delay = 1;
	who_note(&n, 0, msg, sizeof(msg));
	ok(strstr(msg, "delay accounting is off, %iodelay is -:") == msg,
	    "notes: delay accounting off, said when it is found");
	is_int(who_note(&n, 0, msg, sizeof(msg)), 0, "notes: all said");
}

/* A scan's damage and an io.stat sample's, into the notes. */
static void
test_scan(void)
{
	struct whonotes n = { 0 };
	struct ds_procs ps = { 0 };
	struct ds_cgios cs = { 0 };

	ps.bad = 2;
	ps.first_bad = 77;
	ps.unreadable = 5;
	who_note_scan(&n, &ps, 0);
	ok(n.bad == 2 && n.first_bad == 77 && n.unreadable == 0,
	    "a scan not reported: its damage, not its unreadable");
	ps.bad = 9;
	ps.first_bad = 88;
	who_note_scan(&n, &ps, 1);
	ok(n.bad == 2 && n.first_bad == 77 && n.unreadable == 5,
	    "the first damage stays; a report's unreadable counts");
	ps.unreadable = 3;
	who_note_scan(&n, &ps, 1);
	is_int(n.unreadable, 5, "the most unreadable of any report");
	cs.bad = 4;
	who_note_cgios(&n, &cs);
	ok(n.bad == 2 && !n.bad_iostat, "io.stat's after a damaged file: not");
	memset(&n, 0, sizeof(n));
	who_note_cgios(&n, &cs);
	ok(n.bad == 4 && n.bad_iostat, "io.stat's bad lines noted as such");
}

int
main(void)
{
	test_notes();
	test_scan();
	return tap_done();
}
