#include <stdio.h>
#include <string.h>
#include <diskstat.h>

static const struct ds_col cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "rd_ms", DS_T_U64, DS_P_COUNTER, "read_seconds_total",
	    "Time spent reading.", 3, 0, 0 },
};

int
main(void)
{
	const char *text =
	    "   8       0 sda 1 2 3 4 5 6 7 8 0 10 11\n"
	    "   8       1 sda1 10 20 30 40\n"
	    " 259 0 nvme0n1 9 9 9 1466 9 9 9 9 0 9 9 9 9 9 9 9 9\n"
	    "garbage\n";
	struct ds_diskstats s = { 0 };
	struct ds_writer w;
	size_t i;
	int e;

	if ((e = ds_diskstats_parse(text, strlen(text), &s)) < 0)
		return 1;
	printf("%zu disks, %zu bad, first bad line %zu\n", s.n, s.bad,
	    s.first_bad);
	ds_writer_init(&w, stdout, DS_FMT_PROM, cols, 2, 1, "prog");
	for (i = 0; i < s.n; i++) {
		ds_w_str(&w, s.disk[i].name);
		ds_w_u64(&w, s.disk[i].v[DS_RD_TICKS]);
		ds_w_row_end(&w);
	}
	e = ds_w_report_end(&w);
	ds_writer_free(&w);
	ds_diskstats_free(&s);
	return e < 0;
}
