/*
 * What a listing of queues reads with: names joined, the error of an
 * attribute worth a message, a disk's scheduler line and its files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	char top[] = "/tmp/ds-unit-queue-listing.XXXXXX", p[200], cmd[600];
	char *names[] = { "dm-0", "dm-1" };
	struct ds_queue q;
	struct ds_qfiles fs = { 0 };
	struct ds_sched s;
	struct ds_buf t = { 0 }, b = { 0 };
	struct ds_root r;
	FILE *fp;

	/* Joined names. */
	is_int(ds_qnames_join(names, 2, ",", &t), 0, "join");
	is_str(t.data, "dm-0,dm-1", "joined by ,");
	is_int(ds_qnames_join(names, 0, ",", &t), 0, "join none");
	is_str(t.data, "", "none: empty");
	is_int(ds_sched_parse("none [bfq] kyber", &s), 0, "line");
	is_int(ds_sched_join(&s, &t), 0, "schedulers joined");
	is_str(t.data, "none bfq kyber", "by one space, unbracketed");

	/* Errors worth a message: not missing, not queue/'s own again. */
	memset(&q, 0, sizeof(q));
	q.err[DS_QA_NOMERGES] = -ENODATA;
	q.err[DS_QA_ROTATIONAL] = -ENOENT;
	q.err[DS_QA_NR_REQUESTS] = -EINVAL;
	is_int(ds_queue_attr_err(&q, DS_QA_NOMERGES), 0, "ENODATA: quiet");
	is_int(ds_queue_attr_err(&q, DS_QA_ROTATIONAL), 0, "ENOENT: quiet");
	is_int(ds_queue_attr_err(&q, DS_QA_NR_REQUESTS), -EINVAL, "said");
	q.qerr = q.err[DS_QA_ZONED] = q.err[DS_QA_SLAVES] = -EACCES;
	is_int(ds_queue_attr_err(&q, DS_QA_ZONED), 0, "queue/'s error: once");
	is_int(ds_queue_attr_err(&q, DS_QA_SLAVES), -EACCES,
	    "slaves live outside queue/: said");
	is_int(ds_queue_attr_err(&q, DS_QA_N), 0, "out of range");

	/* The scheduler line of a disk. */
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
	is_int(ds_queue_sched_read(&r, "sda", &b, &s), 0, "read");
	is_str(s.active, "mq-deadline", "active");
	is_int((int)s.n, 2, "two available");
	is_int(ds_queue_sched_read(&r, "sdb", &b, &s), -ENOENT, "no disk");
	is_int(ds_queue_files(&r, "sda", &b, &fs), 0, "files of sda");
	is_int((int)fs.n, 1, "one file");
	is_int(ds_queue_files(&r, "sdb", &b, &fs), -ENOENT, "files of no disk");
	is_int((int)fs.n, 0, "on failure: empty");
	ds_qfiles_free(&fs);
	ds_root_close(&r);
	ds_buf_free(&t);
	ds_buf_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
