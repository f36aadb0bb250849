/*
 * What dqueue says: the attributes a listing could not read, a setting
 * refused, failed or changed, the refusal and outcome that stop a set,
 * and the last word of a stopped set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqueue/dqueue.h"
#include "heard.h"
#include "tap.h"

static struct ds_qs_item
item(const char *attr, const char *value, enum ds_qs_state st, int written,
    const char *old, const char *now)
{
	struct ds_qs_item it;

	memset(&it, 0, sizeof(it));
	it.attr = attr;
	it.value = value;
	it.state = st;
	it.written = written;
	snprintf(it.want, sizeof(it.want), "%s", value);
	snprintf(it.old, sizeof(it.old), "%s", old);
	snprintf(it.now, sizeof(it.now), "%s", now);
	return it;
}

/* A listing's problems, one line each; a -a file's error worth saying. */
static void
listing_tests(void)
{
	struct ds_queue q;
	struct ds_qfile f = { 0 };

	memset(&q, 0, sizeof(q));
	q.qerr = q.err[DS_QA_ROTATIONAL] = q.err[DS_QA_HOLDERS] = -EACCES;
	q.err[DS_QA_NR_REQUESTS] = -EINVAL;
	q.err[DS_QA_SCHEDULER] = -EINVAL;
	q.err[DS_QA_NOMERGES] = -ENODATA;
	is_int(dq_say_problems(&q, "sda"), 4, "four said");
	is_str(heard(), "sda: queue: Permission denied\n"
	    "sda: scheduler: malformed scheduler line\n"
	    "sda: nr_requests: not a number\n"
	    "sda: holders: Permission denied\n",
	    "queue/ once first, then each attribute in order");
	q.qerr = -ENOENT;
	q.err[DS_QA_NR_REQUESTS] = q.err[DS_QA_SCHEDULER] = 0;
	q.err[DS_QA_HOLDERS] = 0;
	is_int(dq_say_problems(&q, "sda"), 1, "one said");
	is_str(heard(), "sda: rotational: Permission denied\n",
	    "queue/ missing: quiet, its attributes said");
	q.err[DS_QA_WRITE_CACHE] = -EINVAL;
	q.err[DS_QA_ROTATIONAL] = 0;
	is_int(dq_say_problems(&q, "sdb"), 1, "text attribute");
	is_str(heard(), "sdb: write_cache: unexpected contents\n",
	    "unexpected contents");
	memset(&q, 0, sizeof(q));
	is_int(dq_say_problems(&q, "sda"), 0, "all read: nothing");
	is_str(heard(), "", "silence");
	f.err = -EINVAL;
	is_int(dq_qfile_err(&f), 0, "no value to show: quiet");
	f.err = -ENODATA;
	is_int(dq_qfile_err(&f), 0, "empty file: quiet");
	f.err = -EACCES;
	is_int(dq_qfile_err(&f), -EACCES, "EACCES said");
}

/* Refusals, with the schedulers a disk offers read from the tree. */
static void
refusal_tests(const struct ds_root *r)
{
	struct ds_qs_item it[2];
	struct ds_buf b = { 0 };

	memset(it, 0, sizeof(it));
	it[0].attr = "scheduler", it[0].value = "kyber";
	is_int(ds_qset_prepare(r, "sda", it, 1, &b), -EINVAL, "refused");
	ok(dq_refusal(it, 1) == &it[0], "the refused item");
	is_int(dq_say_setting(r, "sda", "sda", &it[0], &b), 1, "said");
	is_str(heard(), "sda: scheduler: kyber: Invalid argument "
	    "(available: mq-deadline none)\n", "with the schedulers offered");
	it[0].why = DS_QSV_READONLY;
	dq_say_setting(r, "sda", "sda1", &it[0], &b);
	is_str(heard(), "sda1: scheduler: read-only attribute\n", "read-only");
	it[0].why = DS_QSV_NOATTR;
	it[0].attr = "bogus";
	dq_say_setting(r, "sda", "sda", &it[0], &b);
	is_str(heard(), "sda: bogus: no such attribute\n", "no such attribute");
	ok(dq_refusal(&it[1], 0) == NULL, "none refused");
	is_int(dq_say_setting(r, "sda", "sda", NULL, &b), 0, "NULL: nothing");
	ds_buf_free(&b);
}

/* Settings that do not hold, the outcome, and the last word. */
static void
outcome_tests(const struct ds_root *r)
{
	struct dq_target t[2] = { { "sda", "sda" }, { "sdb", "sdb" } };
	struct dq_targets tg = { t, 2, 2, NULL, 0 };
	struct ds_qs_item it[3];
	struct ds_buf b = { 0 };

	it[0] = item("nr_requests", "0", DS_QS_CHANGED, 1, "64", "4");
	it[1] = item("read_ahead_kb", "256", DS_QS_SET, 1, "128", "256");
	it[2] = item("nomerges", "2", DS_QS_SKIPPED, 0, "0", "");
	is_int(dq_say_setting(r, "sda", "sda", &it[0], &b), 1, "changed");
	is_str(heard(), "sda: nr_requests: wrote 0, read back 4 (was 64): "
	    "the kernel changed the value\n", "changed the value");
	is_int(dq_say_setting(r, "sda", "sda", &it[1], &b), 0,
	    "set: nothing to say");
	is_str(heard(), "", "silence");
	is_int(dq_outcome(it, 2), DQ_STOPPED,
	    "changed but not the last write: stopped");
	is_int(dq_outcome(&it[1], 1), 0, "set: neither");
	is_int(dq_outcome(it, 3), DQ_STOPPED | DQ_HALTED, "skipped: halted");
	is_int(dq_say_summary(DQ_STOPPED | DQ_HALTED, &tg, 1, it, 3), 1,
	    "summary");
	is_str(heard(), "stopped after applying: sda nr_requests=4 (asked 0), "
	    "sda read_ahead_kb=256\n", "what the kernel holds, in order");
	is_int(dq_say_summary(DQ_STOPPED, &tg, 1, it + 2, 1), 1,
	    "nothing applied");
	is_str(heard(), "not every setting holds; nothing was applied\n",
	    "nothing was applied");
	is_int(dq_say_summary(0, &tg, 1, it, 3), 0, "not stopped: silence");
	it[1] = item("read_ahead_kb", "256", DS_QS_CHANGED, 1, "128", "128");
	is_int(dq_outcome(it, 2), DQ_STOPPED | DQ_HALTED,
	    "the last write does not hold: halted");
	dq_say_setting(r, "sda", "sda", &it[1], &b);
	is_str(heard(), "sda: read_ahead_kb: wrote 256, read back 128 (was "
	    "128): the kernel kept the old value\n", "kept the old value");
	it[1] = item("read_ahead_kb", "256", DS_QS_CHANGED, 0, "128", "512");
	dq_say_setting(r, "sda", "sda", &it[1], &b);
	is_str(heard(), "sda: read_ahead_kb: 128 before, 512 after the last "
	    "write: the kernel changed the value\n", "not written, changed");
	it[1] = item("read_ahead_kb", "256", DS_QS_CHANGED, 1, "128", "");
	it[1].err = -EIO;
	dq_say_setting(r, "sda", "sda", &it[1], &b);
	is_str(heard(), "sda: read_ahead_kb: reading back: Input/output "
	    "error\n", "not read back");
	it[1] = item("read_ahead_kb", "256", DS_QS_FAILED, 0, "128", "");
	it[1].err = -EBUSY;
	dq_say_setting(r, "sda", "sda", &it[1], &b);
	is_str(heard(), "sda: read_ahead_kb: 256: Device or resource busy\n",
	    "failed: the kernel's errno");
	/* Two disks: the second's settings follow the first's. */
	it[0] = item("nr_requests", "32", DS_QS_SET, 1, "64", "32");
	it[1] = item("nr_requests", "32", DS_QS_CHANGED, 1, "64", "4");
	is_int(dq_say_summary(DQ_STOPPED, &tg, 2, it, 1), 1, "two disks");
	is_str(heard(), "not every setting holds; applied: sda nr_requests=32, "
	    "sdb nr_requests=4 (asked 32)\n", "joined by \", \"");
	ds_buf_free(&b);
}

int
main(void)
{
	char top[] = "/tmp/ds-unit-dqueue-messages.XXXXXX", p[200], cmd[600];
	struct ds_root r;
	FILE *fp;

	if (heard_init() < 0)
		return printf("Bail out! stderr to a file\n"), 1;
	listing_tests();
	if (mkdtemp(top) == NULL)
		return printf("Bail out! mkdtemp\n"), 1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/block/sda/queue", top);
	if (system(cmd) != 0)
		return printf("Bail out! mkdir\n"), 1;
	snprintf(p, sizeof(p), "%s/sys/block/sda/queue/scheduler", top);
	if ((fp = fopen(p, "w")) != NULL) {
		fputs("[mq-deadline] none\n", fp);
		fclose(fp);
	}
	is_int(ds_root_open(&r, top), 0, "root");
	refusal_tests(&r);
	outcome_tests(&r);
	ds_root_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
