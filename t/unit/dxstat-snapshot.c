/*
 * cmd/dxstat/snapshot.c, -s: proc/diskstats verbatim behind a header of
 * its uptime (no time line for a tree: it was not read now), the file
 * that failed named, and the text written raw with the newline it
 * lacked.  The id lines are t/unit/devid.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dxstat/dxstat.h"
#include "tap.h"
#include "tree.h"

/* head and text through a writer of no columns, as dxstat -s does. */
static void
test_write(const struct ds_buf *head, const struct ds_buf *text)
{
	struct ds_writer wr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL || ds_writer_init(&wr, f, DS_FMT_TSV, NULL, 0, 0,
	    "dxstat") < 0)
		exit(1);
	dx_snap_write(&wr, head, text);
	ok(ds_w_report_end(&wr) == 0, "snap_write: written");
	ds_writer_free(&wr);
	fclose(f);
	ok(strncmp(buf, head->data, head->len) == 0 &&
	    strncmp(buf + head->len, "8 0 sda ", 8) == 0 &&
	    len == head->len + text->len + 1 && buf[len - 1] == '\n',
	    "header, text, and the newline it lacked");
	free(buf);
}

static void
test_take(void)
{
	struct ds_buf w = { 0 }, sc = { 0 }, head = { 0 };
	struct ds_root r;
	const char *rel;
	int e;

	if (ds_root_open(&r, tree_top) < 0)
		exit(1);
	e = dx_snap_take(&r, &w, &sc, &head, &rel);
	is_int(e, -ENOENT, "snap_take: no proc/diskstats");
	is_str(rel, "proc/diskstats", "and which file");
	tree_put("proc/diskstats", "8 0 sda 1 0 8 1 2 0 16 2 0 3 3\n"
	    "bad\n8 16 sdb 4 0 32 4 0 0 0 0 0 4 4");
	e = dx_snap_take(&r, &w, &sc, &head, &rel);
	is_int(e, -ENOENT, "snap_take: no proc/uptime");
	is_str(rel, "proc/uptime", "and which file");
	tree_put("proc/uptime", "350735.47 1000.00\n");
	head.len = 0;
	e = dx_snap_take(&r, &w, &sc, &head, &rel);
	is_int(e, 0, "snap_take");
	ok(rel == NULL, "no file failed");
	is_str(head.data, "uptime 350735.470000000\n", "header: uptime only");
	ok(w.len == strlen(w.data) && strcmp(w.data + w.len - 5, "0 4 4") == 0,
	    "the text as read, its last line without a newline");
	test_write(&head, &w);
	ds_buf_free(&head);
	ds_buf_free(&w);
	ds_buf_free(&sc);
	ds_root_close(&r);
}

int
main(void)
{
	char cmd[320];

	tree_make("ds-dxstat-snapshot");
	tree_put("proc", NULL);
	test_take();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
