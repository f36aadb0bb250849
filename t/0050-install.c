#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <diskstat.h>

static const struct ds_col cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "rd_ms", DS_T_U64, DS_P_COUNTER, "read_seconds_total",
	    "Time spent reading.", 3, 0, 0 },
};

/* A root holding only proc/diskstats with text; 0 or -1. */
static int
tree(char *dir, const char *text)
{
	char path[4096];
	FILE *f;

	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/proc", dir);
	if (mkdir(path, 0700) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/proc/diskstats", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

static void
untree(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/proc/diskstats", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

/* argv[1]: the directory to make the root in (default /tmp). */
int
main(int argc, char **argv)
{
	const char *text =
	    "   8       0 sda 1 2 3 4 5 6 7 8 0 10 11\n"
	    "   8       1 sda1 10 20 30 40\n"
	    " 259 0 nvme0n1 9 9 9 1466 9 9 9 9 0 9 9 9 9 9 9 9 9\n"
	    "garbage\n";
	char dir[4096];
	struct ds_diskstats s = { 0 };
	struct ds_buf window = { 0 };
	struct ds_writer *w;
	struct ds_root r;
	size_t i;
	int e;

	snprintf(dir, sizeof(dir), "%s/root.XXXXXX", argc > 1 ? argv[1] : "/tmp");
	if (tree(dir, text) < 0 || ds_root_open(&r, dir) < 0) {
		untree(dir);
		return 1;
	}
	e = ds_diskstats_read(&r, &window, &s);
	ds_root_close(&r);
	ds_buf_free(&window);
	untree(dir);
	if (e < 0)
		return 1;
	printf("%zu disks, %zu bad, first bad line %zu\n", s.n, s.bad,
	    s.first_bad);
	/* The writer is opaque: made and deleted by the library. */
	if ((w = ds_writer_new(stdout, DS_FMT_PROM, cols, 2, 1, "prog")) == NULL) {
		ds_diskstats_free(&s);
		return 1;
	}
	for (i = 0; i < s.n; i++) {
		ds_w_str(w, s.disk[i].name);
		ds_w_u64(w, s.disk[i].v[DS_RD_TICKS]);
		ds_w_row_end(w);
	}
	e = ds_w_report_end(w);
	ds_writer_delete(w);
	ds_diskstats_free(&s);
	return e < 0;
}
