/*
 * Setting queue attributes: the granularity rule shared by --set and
 * --check, a request validated, applied and read back on a tree, and
 * one setting checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static void
put(const char *dir, const char *name, const char *text)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if ((f = fopen(p, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

/* One setting checked, and a request refused. */
static void
request_tests(struct ds_root *r, const char *q)
{
	struct ds_qs_item it[3];
	struct ds_buf b = { 0 }, got = { 0 };
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/iosched", q);
	ok(system(cmd) == 0, "iosched/");
	put(q, "scheduler", "[mq-deadline] none\n");
	put(q, "read_ahead_kb", "0128\n");
	put(q, "iosched/read_expire", "252\n");
	is_int(ds_qset_check(r, "sda", "read_ahead_kb", "128", &b, &got),
	    DS_QC_HOLDS, "0128 holds 128");
	is_int(ds_qset_check(r, "sda", "read_ahead_kb", "256", &b, &got),
	    DS_QC_DIFFERS, "differs from 256");
	is_str(got.data, "128", "got: comparable form");
	is_int(ds_qset_check(r, "sda", "read_expire", "250", &b, &got),
	    DS_QC_HOLDS, "jiffies rounding holds");
	is_int(ds_qset_check(r, "sda", "scheduler", "deadline", &b, &got),
	    DS_QC_HOLDS, "alias holds");
	is_int(ds_qset_check(r, "sda", "nomerges", "0", &b, &got), -ENOENT,
	    "no such attribute");
	put(q, "scheduler", "[none] [bfq]\n");
	is_int(ds_qset_check(r, "sda", "scheduler", "none", &b, &got),
	    DS_QC_DAMAGED, "two brackets: damaged");

	/* A scheduler the disk does not offer. */
	put(q, "scheduler", "[mq-deadline] none\n");
	memset(it, 0, sizeof(it));
	it[0].attr = "scheduler", it[0].value = "kyber";
	is_int(ds_qset_prepare(r, "sda", it, 1, &b), -EINVAL, "refused");
	is_int(it[0].why, DS_QSV_SCHED, "why: not a scheduler it offers");
	ds_buf_free(&b);
	ds_buf_free(&got);
}

int
main(void)
{
	char top[] = "/tmp/ds-queueset.XXXXXX", q[200], cmd[600];
	struct ds_qs_item it[3];
	struct ds_buf b = { 0 };
	struct ds_root r;

	/* ms -> jiffies -> ms, both rounded up as the kernel does. */
	is_u64(ds_jiffies_round_ms(250, 250), 252, "250 ms at HZ=250: 63 jiffies, 252 ms");
	is_u64(ds_jiffies_round_ms(250, 1000), 250, "250 ms at HZ=1000: exact");
	is_u64(ds_jiffies_round_ms(250, 100), 250, "250 ms at HZ=100: 25 jiffies");
	is_u64(ds_jiffies_round_ms(1, 100), 10, "1 ms at HZ=100: one jiffy, 10 ms");
	is_u64(ds_jiffies_round_ms(250, 300), 250, "250 ms at HZ=300: 75 jiffies");
	is_u64(ds_jiffies_round_ms(251, 300), 254, "251 ms at HZ=300: 76 jiffies, 254 ms");
	is_u64(ds_jiffies_round_ms(0, 250), 0, "0 stays 0");
	ok(ds_queue_value_holds("read_expire", "250", "252"), "read_expire 250 holds at 252");
	ok(ds_queue_value_holds("iosched/write_expire", "5000", "5000"), "equal holds");
	ok(!ds_queue_value_holds("read_expire", "250", "253"), "253 is no rounding of 250");
	ok(!ds_queue_value_holds("read_expire", "250", "260"), "nor 260");
	ok(!ds_queue_value_holds("read_ahead_kb", "250", "252"), "read_ahead_kb is exact");
	ok(ds_queue_value_holds("timeout_sync", "1", "4"), "bfq timeout_sync 1 ms at HZ=250: 4");
	ok(ds_queue_value_holds("scheduler", "deadline", "[mq-deadline] none"), "scheduler alias holds");
	ok(ds_queue_attr_jiffies("io_timeout") && !ds_queue_attr_jiffies("fifo_batch"),
	    "io_timeout in jiffies, fifo_batch not");
	is_str(ds_qs_state_name(DS_QS_ROUNDED), "rounded", "state names");

	if (mkdtemp(top) == NULL)
		return printf("Bail out! mkdtemp\n"), 1;
	snprintf(q, sizeof(q), "%s/sys/block/sda/queue", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", q);
	if (system(cmd) != 0)
		return printf("Bail out! mkdir\n"), 1;
	put(q, "scheduler", "[none] mq-deadline\n");
	put(q, "read_ahead_kb", "128\n");
	put(q, "nr_requests", "64\n");
	is_int(ds_root_open(&r, top), 0, "root");

	memset(it, 0, sizeof(it));
	it[0].attr = "read_ahead_kb", it[0].value = "256";
	it[1].attr = "bogus", it[1].value = "1";
	is_int(ds_qset_prepare(&r, "sda", it, 2, &b), -ENOENT, "unknown attribute refused");
	is_int(it[1].why, DS_QSV_NOATTR, "why: no such attribute");
	it[1].attr = "nr_requests", it[1].value = "x";
	is_int(ds_qset_prepare(&r, "sda", it, 2, &b), -EINVAL, "not a number refused");
	is_int(it[1].why, DS_QSV_SYNTAX, "why: syntax");
	it[1].value = "64";
	it[2].attr = "scheduler", it[2].value = "mq-deadline";
	is_int(ds_qset_prepare(&r, "sda", it, 3, &b), 0, "valid request");
	is_str(it[0].attr, "scheduler", "scheduler moved first");
	is_str(it[1].attr, "read_ahead_kb", "others keep their order");
	is_int(ds_qset_apply(&r, "sda", it, 3, &b), 0, "applied");
	is_int(it[0].state, DS_QS_SET, "scheduler written, read back");
	is_int(it[1].state, DS_QS_SET, "read_ahead_kb written");
	is_int(it[2].state, DS_QS_ALREADY, "nr_requests already there");

	/* A value the kernel turns into another: stop, the rest untried. */
	put(q, "read_ahead_kb", "128\n");
	memset(it, 0, sizeof(it));
	it[0].attr = "nr_requests", it[0].value = "32";
	it[1].attr = "read_ahead_kb", it[1].value = "512";
	is_int(ds_qset_prepare(&r, "sda", it, 2, &b), 0, "valid request 3");
	snprintf(cmd, sizeof(cmd), "rm %s/nr_requests && mkdir %s/nr_requests", q, q);
	ok(system(cmd) == 0, "nr_requests made unwritable after validation");
	is_int(ds_qset_apply(&r, "sda", it, 2, &b), 0, "applied 3");
	is_int(it[0].state, DS_QS_FAILED, "refused write: failed");
	is_int(it[1].state, DS_QS_SKIPPED, "the rest not tried");
	snprintf(cmd, sizeof(cmd), "rmdir %s/nr_requests", q);
	ok(system(cmd) == 0, "cleanup");
	put(q, "nr_requests", "64\n");
	put(q, "read_ahead_kb", "128\n");

	memset(it, 0, sizeof(it));
	it[0].attr = "read_ahead_kb", it[0].value = "0256";
	it[1].attr = "nr_requests", it[1].value = "64";
	is_int(ds_qset_prepare(&r, "sda", it, 2, &b), 0, "valid request 2");
	is_int(ds_qset_apply(&r, "sda", it, 2, &b), 0, "applied 2");
	is_int(it[0].state, DS_QS_SET, "read_ahead_kb set");
	is_str(it[0].now, "256", "read back 256");
	is_str(it[0].old, "128", "was 128");
	is_int(it[1].state, DS_QS_ALREADY, "nr_requests already 64");
	is_int(it[1].written, 0, "not written");

	request_tests(&r, q);
	ds_root_close(&r);
	ds_buf_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
