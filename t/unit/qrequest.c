/*
 * A --check or --set request (lib/queueset.c): attr=value parsed, one
 * setting checked, and a set's outcome, summary and messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstat.h"
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

int
main(void)
{
	char top[] = "/tmp/ds-unit-qrequest.XXXXXX", q[200], cmd[600];
	struct ds_qsettings st = { 0 };
	struct ds_qs_item *rq, it[3];
	struct ds_buf bad = { 0 }, b = { 0 }, got = { 0 };
	enum ds_qsp_why why;
	struct ds_root r;

	/* attr=value[,...]: blanks cut, empty items skipped. */
	is_int(ds_qsettings_parse(&st, " nr_requests = 64 ,,iosched/read_expire=250\n",
	    &why, &bad), 0, "parsed");
	is_int((int)st.n, 2, "two settings");
	is_str(st.s[0].attr, "nr_requests", "name cut");
	is_str(st.s[0].value, "64", "value cut");
	is_str(st.s[1].attr, "iosched/read_expire", "iosched/ kept");
	is_str(st.s[1].value, "250", "newline cut");
	is_int(ds_qsettings_parse(&st, "scheduler=none", &why, &bad), 0,
	    "a second --set appends");
	is_int((int)st.n, 3, "three");
	is_int(ds_qsettings_parse(&st, "a=1,nope", &why, &bad), -EINVAL,
	    "no =");
	ok(why == DS_QSP_NOEQ, "why: not attr=value");
	is_str(bad.data, "nope", "the item");
	is_int(ds_qsettings_parse(&st, " x = ", &why, &bad), -EINVAL, "empty");
	ok(why == DS_QSP_EMPTY, "why: empty value");
	is_str(bad.data, "x", "the name, cut");
	is_int(ds_qsettings_parse(&st, "Read=1", &why, &bad), -EINVAL, "name");
	ok(why == DS_QSP_NAME, "why: not an attribute name");
	is_int(ds_qsettings_parse(&st, "iosched/=1", &why, &bad), -EINVAL,
	    "iosched/ alone");
	ds_qsettings_free(&st);
	is_int(ds_qsettings_parse(&st, "read_ahead_kb=256,nr_requests=32",
	    &why, &bad), 0, "request settings");
	rq = ds_qsettings_request(&st, 2);
	ok(rq != NULL && strcmp(rq[1].attr, "nr_requests") == 0 &&
	    strcmp(rq[1].value, "32") == 0 && rq[1].state == DS_QS_PENDING,
	    "the request: items in order, pending");
	ok(rq != NULL && strcmp(rq[2].attr, "read_ahead_kb") == 0 &&
	    strcmp(rq[3].value, "32") == 0, "the second disk's copy");
	is_str(ds_qsp_why_name(DS_QSP_EMPTY), "empty value", "why named");

	/* One setting checked on a tree. */
	if (mkdtemp(top) == NULL)
		return printf("Bail out! mkdtemp\n"), 1;
	snprintf(q, sizeof(q), "%s/sys/block/sda/queue", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/iosched", q);
	if (system(cmd) != 0)
		return printf("Bail out! mkdir\n"), 1;
	put(q, "scheduler", "[mq-deadline] none\n");
	put(q, "read_ahead_kb", "0128\n");
	put(q, "iosched/read_expire", "252\n");
	is_int(ds_root_open(&r, top), 0, "root");
	is_int(ds_qset_check(&r, "sda", "read_ahead_kb", "128", &b, &got),
	    DS_QC_HOLDS, "0128 holds 128");
	is_int(ds_qset_check(&r, "sda", "read_ahead_kb", "256", &b, &got),
	    DS_QC_DIFFERS, "differs from 256");
	is_str(got.data, "128", "got: comparable form");
	is_int(ds_qset_check(&r, "sda", "read_expire", "250", &b, &got),
	    DS_QC_HOLDS, "jiffies rounding holds");
	is_int(ds_qset_check(&r, "sda", "scheduler", "deadline", &b, &got),
	    DS_QC_HOLDS, "alias holds");
	is_int(ds_qset_check(&r, "sda", "nomerges", "0", &b, &got), -ENOENT,
	    "no such attribute");
	put(q, "scheduler", "[none] [bfq]\n");
	is_int(ds_qset_check(&r, "sda", "scheduler", "none", &b, &got),
	    DS_QC_DAMAGED, "two brackets: damaged");

	/* Refusal and messages. */
	put(q, "scheduler", "[mq-deadline] none\n");
	memset(it, 0, sizeof(it));
	it[0].attr = "scheduler", it[0].value = "kyber";
	is_int(ds_qset_prepare(&r, "sda", it, 1, &b), -EINVAL, "refused");
	ok(ds_qset_refusal(it, 1) == &it[0], "the refused item");
	is_int(ds_qset_msg(&r, "sda", "sda", &it[0], &b, &got), 1, "said");
	is_str(got.data, "sda: scheduler: kyber: Invalid argument "
	    "(available: mq-deadline none)", "with the schedulers offered");
	it[0].why = DS_QSV_READONLY;
	ds_qset_msg(&r, "sda", "sda1", &it[0], &b, &got);
	is_str(got.data, "sda1: scheduler: read-only attribute", "read-only");
	ok(ds_qset_refusal(&it[1], 0) == NULL, "none refused");

	it[0] = item("nr_requests", "0", DS_QS_CHANGED, 1, "64", "4");
	it[1] = item("read_ahead_kb", "256", DS_QS_SET, 1, "128", "256");
	it[2] = item("nomerges", "2", DS_QS_SKIPPED, 0, "0", "");
	is_int(ds_qset_msg(&r, "sda", "sda", &it[0], &b, &got), 1, "changed");
	is_str(got.data, "sda: nr_requests: wrote 0, read back 4 (was 64): "
	    "the kernel changed the value", "changed the value");
	is_int(ds_qset_msg(&r, "sda", "sda", &it[1], &b, &got), 0,
	    "set: nothing to say");
	is_int(ds_qset_outcome(it, 2), DS_QSO_STOPPED,
	    "changed but not the last write: stopped");
	is_int(ds_qset_outcome(&it[1], 1), 0, "set: neither");
	is_int(ds_qset_outcome(it, 3), DS_QSO_STOPPED | DS_QSO_HALTED,
	    "skipped: halted");
	b.len = 0;
	is_int(ds_qset_applied(&b, "sda", it, 3), 0, "applied");
	is_str(b.data, "sda nr_requests=4 (asked 0), sda read_ahead_kb=256",
	    "what the kernel holds, in order");
	it[1] = item("read_ahead_kb", "256", DS_QS_CHANGED, 1, "128", "128");
	is_int(ds_qset_outcome(it, 2), DS_QSO_STOPPED | DS_QSO_HALTED,
	    "the last write does not hold: halted");
	ds_qset_msg(&r, "sda", "sda", &it[1], &b, &got);
	is_str(got.data, "sda: read_ahead_kb: wrote 256, read back 128 (was "
	    "128): the kernel kept the old value", "kept the old value");
	it[1] = item("read_ahead_kb", "256", DS_QS_CHANGED, 0, "128", "512");
	ds_qset_msg(&r, "sda", "sda", &it[1], &b, &got);
	is_str(got.data, "sda: read_ahead_kb: 128 before, 512 after the last "
	    "write: the kernel changed the value", "not written, changed");
	it[1] = item("read_ahead_kb", "256", DS_QS_FAILED, 0, "128", "");
	it[1].err = -EBUSY;
	ds_qset_msg(&r, "sda", "sda", &it[1], &b, &got);
	is_str(got.data, "sda: read_ahead_kb: 256: Device or resource busy",
	    "failed: the kernel's errno");

	free(rq);
	ds_qsettings_free(&st);
	ds_root_close(&r);
	ds_buf_free(&b);
	ds_buf_free(&bad);
	ds_buf_free(&got);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
