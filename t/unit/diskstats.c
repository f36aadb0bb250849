/* The /proc/diskstats parser on every kernel's format. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "oracle.h"
#include "tap.h"

static int
parse(const char *text, struct ds_diskstats *s)
{
	return ds_diskstats_parse(text, strlen(text), s);
}

int
main(void)
{
	struct ds_diskstats s = { 0 };
	const struct ds_disk *d;

	/* 2.6-era: 11 counters for disks, 4 for partitions. */
	is_int(parse("   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	    "   8       1 sda1 100 200 300 400\n", &s), 0, "2.6 format");
	is_int((int)s.n, 2, "two devices");
	d = &s.disk[0];
	is_int(d->ncounters, 11, "11 counters");
	is_u64(d->v[DS_RD_IOS], 1, "reads");
	is_u64(d->v[DS_TIME_IN_QUEUE], 11, "weighted ticks");
	ok(!DS_HAVE(d, DS_DC_IOS), "no discards on 11-counter line");
	ok(!DS_HAVE(d, DS_FL_IOS), "no flushes on 11-counter line");
	d = &s.disk[1];
	is_str(d->name, "sda1", "partition name");
	is_int(d->ncounters, 4, "4 counters");
	is_u64(d->v[DS_RD_IOS], 100, "4-field reads");
	is_u64(d->v[DS_RD_SECTORS], 200, "4-field read sectors");
	is_u64(d->v[DS_WR_IOS], 300, "4-field writes");
	is_u64(d->v[DS_WR_SECTORS], 400, "4-field write sectors");
	ok(!DS_HAVE(d, DS_RD_MERGES), "4-field: merges not invented");
	ok(!DS_HAVE(d, DS_RD_TICKS), "4-field: ticks not invented");

	is_int(parse(" 259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
	    &s), 0, "4.18 format");
	is_int(s.disk[0].ncounters, 15, "15 counters");
	is_u64(s.disk[0].v[DS_DC_TICKS], 15, "discard ticks");
	ok(!DS_HAVE(&s.disk[0], DS_FL_IOS), "no flushes on 15");

	is_int(parse(" 253 0 dm-0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
	    &s), 0, "5.5 format");
	is_int(s.disk[0].ncounters, 17, "17 counters");
	is_u64(s.disk[0].v[DS_FL_IOS], 16, "flushes");
	is_u64(s.disk[0].v[DS_FL_TICKS], 17, "flush ticks");
	is_int((int)s.disk[0].major, 253, "major");
	is_int((int)s.disk[0].minor, 0, "minor");

	is_int(parse(" 8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n",
	    &s), 0, "future kernel with more counters");
	is_int((int)s.n, 1, "future line kept");
	is_u64(s.disk[0].v[DS_FL_TICKS], 17, "known counters read");

	is_int(parse(" 8 0 sda 18446744073709551615 2 3 4 5 6 7 8 9 10 11\n",
	    &s), 0, "max counter");
	is_u64(s.disk[0].v[DS_RD_IOS], UINT64_MAX, "UINT64_MAX kept exact");

	/* Damage: skipped and counted, the good lines kept. */
	is_int(parse(" 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 16 sdb 1 2 3 4 5 6 7 8 9\n"			/* 9 counters */
	    " 8 32 sdc 1 2 3 x 5 6 7 8 9 10 11\n"		/* non-number */
	    " 8 48 sdd 18446744073709551616 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 64 sde -1 2 3 4 5 6 7 8 9 10 11\n"
	    "\n"
	    " 8 80 sdf 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 96 sdg 1 2 3", &s), 0, "damaged file parses");
	is_int((int)s.n, 2, "two good devices");
	is_str(s.disk[0].name, "sda", "first good");
	is_str(s.disk[1].name, "sdf", "second good after damage");
	is_int((int)s.bad, 5, "five bad lines counted (blank line is not)");
	is_int((int)s.first_bad, 2, "first bad line number");

	is_int(parse("", &s), 0, "empty file");
	is_int((int)s.n, 0, "no devices");
	is_int((int)s.bad, 0, "nothing bad");

	{
		char big[4096];
		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		memcpy(big, " 8 0 ", 5);
		is_int(parse(big, &s), 0, "one huge line");
		is_int((int)s.bad, 1, "huge line counted bad");
	}
	is_int(parse(" 8 0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    " 1 2 3 4 5 6 7 8 9 10 11\n", &s), 0, "long name");
	is_int((int)s.bad, 1, "name past 63 bytes refused");
	{
		static const char nul[] = " 8 0 sda 1 2 3 4\0 5 6 7 8 9 10 11\n";
		is_int(ds_diskstats_parse(nul, sizeof(nul) - 1, &s), 0,
		    "NUL inside a line");
		is_int((int)s.n, 0, "line with NUL refused");
	}
	is_int(parse(" 4294967296 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &s), 0,
	    "major too large");
	is_int((int)s.n, 0, "major past 32 bits refused");

	/* Many devices: the array grows. */
	{
		static char many[20000 * 40];
		size_t i, o = 0;
		for (i = 0; i < 20000; i++)
			o += (size_t)snprintf(many + o, sizeof(many) - o,
			    "7 %zu loop%zu 1 0 2 0 0 0 0 0 0 1 1\n", i, i);
		is_int(parse(many, &s), 0, "20000 devices");
		is_int((int)s.n, 20000, "all kept");
		is_str(s.disk[19999].name, "loop19999", "last one");
	}
	ds_diskstats_free(&s);
	return tap_done();
}
