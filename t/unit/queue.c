/* Queue attributes: the scheduler line, values compared, a device tree. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static void
put(const char *dir, const char *rel, const char *text, mode_t mode)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
}

static void
dir(const char *top, const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	mkdir(p, 0755);
}

static int
eq(const char *attr, const char *want, const char *got)
{
	return ds_queue_value_eq(attr, want, got);
}

int
main(void)
{
	char top[] = "/tmp/ds-unit-queue.XXXXXX", disk[64], rel[256], c[64];
	struct ds_sched s;
	struct ds_root r;
	struct ds_blockdevs b = { 0 };
	struct ds_buf buf = { 0 };
	struct ds_queue q = { 0 };
	struct ds_qfiles fs = { 0 };
	size_t i;

	/* The scheduler line, in every order kernels have printed. */
	is_int(ds_sched_parse("none [mq-deadline] kyber bfq\n", &s), 0,
	    "6.x line parses");
	is_str(s.active, "mq-deadline", "active is the bracketed one");
	is_int((int)s.n, 4, "four available");
	is_str(s.name[0], "none", "kernel order kept (none first)");
	is_str(s.name[1], "mq-deadline", "bracket removed from the list");
	is_int(ds_sched_parse("mq-deadline kyber [bfq] none\n", &s), 0,
	    "old line, none last, parses");
	is_str(s.active, "bfq", "old line: active bfq");
	is_str(s.name[3], "none", "old line: none last");
	is_int(ds_sched_parse("[none] mq-deadline\n", &s), 0, "[none] first");
	is_str(s.active, "none", "[none] is active");
	is_int(ds_sched_parse("noop deadline [cfq] \n", &s), 0,
	    "legacy single-queue line");
	is_str(s.active, "cfq", "legacy: cfq");
	is_int(ds_sched_parse("none\n", &s), 0, "bio-based on old kernels");
	is_str(s.active, "", "no bracket: no active scheduler");
	is_int((int)s.n, 1, "no bracket: none listed");
	is_int(ds_sched_parse("", &s), 0, "empty line");
	is_int((int)s.n, 0, "empty: nothing");
	is_int(ds_sched_parse("[none] [bfq]", &s), -EINVAL, "two active");
	is_int(ds_sched_parse("none [mq-deadline kyber", &s), -EINVAL,
	    "unclosed bracket");
	is_int(ds_sched_parse("none mq-deadline]", &s), -EINVAL,
	    "stray closing bracket");
	is_int(ds_sched_parse("[]", &s), -EINVAL, "empty brackets");
	is_int(ds_sched_parse("[bfq]x", &s), -EINVAL, "junk after bracket");
	is_int(ds_sched_parse("a b c d e f g h i j k l m n o p q", &s),
	    -EINVAL, "more names than DS_SCHED_MAX");
	is_int(ds_sched_parse("abcdefghijabcdefghijabcdefghijabc", &s),
	    -EINVAL, "a name too long");

	/* Values compared as the kernel means them. */
	ok(eq("scheduler", "mq-deadline", "none [mq-deadline] kyber"),
	    "scheduler: bracketed name");
	ok(eq("scheduler", "deadline", "none [mq-deadline] kyber"),
	    "scheduler: deadline is mq-deadline");
	ok(eq("scheduler", " none\n", "[none] mq-deadline"),
	    "scheduler: blanks around");
	ok(!eq("scheduler", "none", "none [mq-deadline] kyber"),
	    "scheduler: none listed but not active differs");
	ok(!eq("scheduler", "noop", "[none] mq-deadline"),
	    "scheduler: noop is not none (the kernel refuses it)");
	ok(eq("nr_requests", "0128", "128\n"), "numbers: 0128 is 128");
	ok(!eq("nr_requests", "0", "4\n"), "numbers: 0 is not 4");
	ok(eq("write_cache", "write  back ", "write back\n"),
	    "text: runs of blanks are one");
	ok(!eq("write_cache", "write through", "write back"), "text differs");
	ok(eq("io_poll_delay", "-1", "-1\n"), "signed text compares as text");
	is_int(ds_queue_value_canon("nr_requests", " 007 ", c, sizeof(c)), 0,
	    "canon");
	is_str(c, "7", "canon: 007 is 7");
	is_int(ds_queue_value_canon("scheduler", "x [bfq] y", c, sizeof(c)),
	    0, "canon of a line");
	is_str(c, "bfq", "canon: active scheduler");
	is_int(ds_queue_value_canon("scheduler", "[mq-deadline]", c, 4),
	    -ENAMETOOLONG, "canon: too small");
	is_int(ds_queue_value_canon("scheduler", "[x] [y]", c, sizeof(c)),
	    -EINVAL, "canon: two bracketed schedulers are malformed");
	is_int(ds_queue_value_canon("scheduler", "none [bfq", c, sizeof(c)),
	    -EINVAL, "canon: an unclosed bracket is malformed");
	is_int(ds_queue_value_canon("scheduler", "bfq", c, sizeof(c)), 0,
	    "canon: a bare name is fine");

	/* A tree: sda (bfq), its partition sda1, a bio-based zram0. */
	if (mkdtemp(top) == NULL)
		return 1;
	dir(top, "sys");
	dir(top, "sys/block");
	dir(top, "sys/block/sda");
	dir(top, "sys/block/sda/queue");
	dir(top, "sys/block/sda/queue/iosched");
	dir(top, "sys/block/sda/mq");
	dir(top, "sys/block/sda/mq/0");
	dir(top, "sys/block/sda/mq/1");
	put(top, "sys/block/sda/mq/stray", "", 0444);
	dir(top, "sys/block/sda/holders");
	dir(top, "sys/block/sda/slaves");
	dir(top, "sys/block/sda/sda1");
	put(top, "sys/block/sda/sda1/partition", "1\n", 0444);
	dir(top, "sys/block/sda/sda1/holders");
	dir(top, "sys/block/sda/sda1/holders/md1");
	dir(top, "sys/block/sda/sda1/holders/dm-3");
	dir(top, "sys/block/zram0");
	dir(top, "sys/block/zram0/queue");
	put(top, "sys/block/sda/queue/rotational", "1\n", 0644);
	put(top, "sys/block/sda/queue/scheduler",
	    "mq-deadline kyber [bfq] none\n", 0644);
	put(top, "sys/block/sda/queue/nr_requests", "64\n", 0644);
	put(top, "sys/block/sda/queue/read_ahead_kb", "x12\n", 0644);
	put(top, "sys/block/sda/queue/logical_block_size", "512\n", 0444);
	put(top, "sys/block/sda/queue/write_cache", "write back\n", 0644);
	put(top, "sys/block/sda/queue/zoned", "\n", 0444);
	put(top, "sys/block/sda/queue/iosched/slice_idle", "8\n", 0644);
	put(top, "sys/block/zram0/queue/read_ahead_kb", "128\n", 0644);

	is_int(ds_root_open(&r, top), 0, "open tree");
	is_int(ds_blockdevs_read(&r, &b), 0, "disks");
	is_int(ds_queue_resolve(&r, &b, "sda", disk, sizeof(disk)), 0,
	    "resolve a disk");
	is_str(disk, "sda", "a disk is its own queue");
	is_int(ds_queue_resolve(&r, &b, "sda1", disk, sizeof(disk)), 0,
	    "resolve a partition");
	is_str(disk, "sda", "a partition uses its disk's queue");
	is_int(ds_queue_resolve(&r, &b, "sdb", disk, sizeof(disk)), -ENOENT,
	    "unknown device");
	is_int(ds_queue_resolve(&r, &b, "queue", disk, sizeof(disk)), -ENOENT,
	    "queue/ is not a partition: no partition file");
	is_int(ds_queue_resolve(&r, &b, "../sda", disk, sizeof(disk)),
	    -EINVAL, "a path is not a name");
	is_int(ds_queue_resolve(&r, &b, "..", disk, sizeof(disk)), -EINVAL,
	    "dot-dot is not a name");

	is_int(ds_queue_read(&r, "sda", "sda", &buf, &q), 0, "read sda");
	is_int(q.err[DS_QA_ROTATIONAL], 0, "rotational read");
	is_u64(q.v[DS_QA_ROTATIONAL], 1, "rotational 1");
	is_str(q.sched.active, "bfq", "scheduler bfq");
	is_u64(q.v[DS_QA_NR_REQUESTS], 64, "nr_requests 64");
	is_int(q.err[DS_QA_READ_AHEAD_KB], -EINVAL, "x12 is not a number");
	is_int(q.err[DS_QA_MAX_SECTORS_KB], -ENOENT, "missing file: -ENOENT");
	is_str(q.write_cache, "write back", "write_cache text, newline cut");
	is_int(q.err[DS_QA_ZONED], -ENODATA,
	    "an empty file (cp of a refused read) is no value, not damage");
	is_u64(q.v[DS_QA_NR_HW_QUEUES], 2, "two mq/N directories, the file not counted");
	is_int(q.err[DS_QA_HOLDERS], 0, "holders listed");
	is_int((int)q.holders.n, 0, "sda: no holders");
	is_int(ds_queue_read(&r, "sda", "sda1", &buf, &q), 0, "read sda1");
	is_int((int)q.holders.n, 2, "sda1: two holders");
	is_str(q.holders.name[0], "dm-3", "holders sorted");
	is_int(q.err[DS_QA_SLAVES], -ENOENT, "sda1: no slaves/ directory");
	is_u64(q.v[DS_QA_NR_REQUESTS], 64, "sda1: its disk's nr_requests");
	is_int(ds_queue_read(&r, "zram0", NULL, &buf, &q), 0, "read zram0");
	is_int(q.err[DS_QA_SCHEDULER], -ENOENT, "bio-based: no scheduler");
	is_int(q.err[DS_QA_NR_HW_QUEUES], -ENOENT, "bio-based: no mq/");
	is_u64(q.v[DS_QA_READ_AHEAD_KB], 128, "zram0 read_ahead_kb");
	is_int(ds_queue_read(&r, "nope", NULL, &buf, &q), -ENOENT,
	    "no such disk");
	is_int(q.qerr, 0, "queue/ opened");
	dir(top, "sys/block/vdq");
	put(top, "sys/block/vdq/queue", "x\n", 0444);
	is_int(ds_queue_read(&r, "vdq", NULL, &buf, &q), 0,
	    "read a disk whose queue/ is a file");
	is_int(q.qerr, -ENOTDIR, "queue/ a file: qerr -ENOTDIR");
	is_int(q.err[DS_QA_SCHEDULER], -ENOTDIR, "and every attribute of it");
	dir(top, "sys/block/vde");
	dir(top, "sys/block/vde/queue");
	put(top, "sys/block/vde/queue/scheduler", "", 0644);
	is_int(ds_queue_read(&r, "vde", NULL, &buf, &q), 0, "read vde");
	is_int(q.err[DS_QA_SCHEDULER], -ENODATA,
	    "an empty scheduler file: no value (a FIFO is damage: t/4000)");
	ds_queue_free(&q);

	is_int(ds_queue_files(&r, "sda", &buf, &fs), 0, "files of sda");
	is_int((int)fs.n, 8, "seven queue files and one tunable");
	is_str(fs.f[0].name, "logical_block_size", "sorted");
	is_int(fs.f[0].writable, 0, "0444 is read-only");
	is_int(fs.f[1].writable, 1, "0644 is writable");
	is_str(fs.f[fs.n - 1].name, "iosched/slice_idle", "iosched/ last");
	is_str(fs.f[fs.n - 1].value, "8", "tunable value");
	for (i = 0; i < fs.n; i++)
		if (strcmp(fs.f[i].name, "scheduler") == 0)
			is_str(fs.f[i].value, "mq-deadline kyber [bfq] none",
			    "raw scheduler line");
	is_int(ds_queue_files(&r, "zram0", &buf, &fs), 0, "zram0: no iosched/");
	is_int((int)fs.n, 1, "zram0: one file");
	ds_qfiles_free(&fs);

	is_int(ds_queue_attr_path(&r, "sda", "nr_requests", rel, sizeof(rel)),
	    0, "attr path");
	is_str(rel, "nr_requests", "attr path: queue file");
	is_int(ds_queue_attr_path(&r, "sda", "slice_idle", rel, sizeof(rel)),
	    0, "bare tunable name");
	is_str(rel, "iosched/slice_idle", "bare tunable: iosched/");
	is_int(ds_queue_attr_path(&r, "sda", "iosched/nr_requests", rel,
	    sizeof(rel)), -ENOENT, "iosched/ prefix does not fall back");
	is_int(ds_queue_attr_path(&r, "sda", "../../../etc", rel, sizeof(rel)),
	    -EINVAL, "no paths");
	is_int(ds_queue_attr_path(&r, "sda", "Nr", rel, sizeof(rel)), -EINVAL,
	    "[a-z0-9_] only");
	is_int(ds_queue_attr_path(&r, "sda", "iosched", rel, sizeof(rel)),
	    -ENOENT, "a directory is not an attribute");
	is_int(ds_queue_attr_writable(&r, "sda", "logical_block_size"), 0,
	    "read-only by mode");
	is_int(ds_queue_attr_writable(&r, "sda", "nr_requests"), 1,
	    "writable by mode");
	is_int(ds_queue_attr_write(&r, "sda", "nr_requests", "  32 \n"), 0,
	    "write");
	is_int(ds_queue_attr_read(&r, "sda", "nr_requests", &buf), 0,
	    "read back");
	is_str(buf.data, "32", "written trimmed, read trimmed");
	is_int(ds_queue_attr_write(&r, "sda", "max_sectors_kb", "1"), -ENOENT,
	    "write never creates a file");
	/* The disk is a path component: one that walks out is refused. */
	is_int(ds_queue_attr_read(&r, "../block/sda", "nr_requests", &buf),
	    -EINVAL, "read: a disk holding '/' is refused");
	is_int(ds_queue_attr_read(&r, "..", "nr_requests", &buf), -EINVAL,
	    "read: disk \"..\" is refused");
	is_int(ds_queue_attr_writable(&r, "../block/sda", "nr_requests"),
	    -EINVAL, "writable: a disk holding '/' is refused");
	is_int(ds_queue_attr_write(&r, "../block/sda", "nr_requests", "64"),
	    -EINVAL, "write: a disk holding '/' is refused");
	is_int(ds_queue_attr_read(&r, "sda", "nr_requests", &buf), 0,
	    "read after the refused write");
	is_str(buf.data, "32", "the refused write changed nothing");
	is_int(ds_queue_attr_write(&r, ".", "nr_requests", "64"), -EINVAL,
	    "write: disk \".\" is refused");

	ds_blockdevs_free(&b);
	ds_buf_free(&buf);
	ds_root_close(&r);
	{
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", top);
	}
	return tap_done();
}
