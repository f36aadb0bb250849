/*
 * Every process: the files the library reads of it (stat, io, comm,
 * cgroup, wchan), its owner as status's Uid and Gid lines alone, each
 * thread's stat, io and wchan, and an empty fd directory when its
 * descriptors could be read (ddeleted counts the others as denied).
 * Never cmdline or environ: those can hold secrets.
 */
#include "dcapture.h"

static const char *const leaves[] = { "stat", "io", "comm", "cgroup",
    "wchan" };
static const char *const tleaves[] = { "stat", "io", "wchan" };

/* status reduced to its Uid: and Gid: lines (procfs's owner). */
static void
owner(struct cap *c, const char *pid)
{
	char rel[64], *p, *nl;
	int e;

	snprintf(rel, sizeof(rel), "proc/%s/status", pid);
	if ((e = cap_read(c, rel, &c->buf)) < 0) {
		cap_error(c, rel, e);
		return;
	}
	c->line.len = 0;
	for (p = c->buf.data; *p != '\0'; p = nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		nl++;
		if (strncmp(p, "Uid:", 4) == 0 || strncmp(p, "Gid:", 4) == 0)
			(void)cap_buf_add(&c->line, p, (size_t)(nl - p));
	}
	(void)cap_put(c, rel, c->line.data ? c->line.data : "", c->line.len);
}

static void
threads(struct cap *c, const char *pid)
{
	char rel[96], **tid;
	size_t n, i, k;
	int e;

	snprintf(rel, sizeof(rel), "proc/%s/task", pid);
	if ((e = cap_names(c, rel, 1, &tid, &n)) < 0) {
		cap_error(c, rel, e);
		return;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof(tleaves) / sizeof(tleaves[0]); k++) {
			snprintf(rel, sizeof(rel), "proc/%s/task/%s/%s", pid,
			    tid[i], tleaves[k]);
			(void)cap_copy(c, rel);
		}
	cap_names_free(tid, n);
}

static void
process(struct cap *c, const char *pid)
{
	char rel[64];
	size_t k;
	int fd;

	snprintf(rel, sizeof(rel), "proc/%s/stat", pid);
	/* Gone already: nothing of it, and nothing to say. */
	if (cap_copy(c, rel) == -ENOENT)
		return;
	for (k = 1; k < sizeof(leaves) / sizeof(leaves[0]); k++) {
		snprintf(rel, sizeof(rel), "proc/%s/%s", pid, leaves[k]);
		(void)cap_copy(c, rel);
	}
	owner(c, pid);
	threads(c, pid);
	snprintf(rel, sizeof(rel), "proc/%s/fd", pid);
	if ((fd = ds_openat(&c->r, rel, O_RDONLY | O_DIRECTORY)) < 0) {
		cap_error(c, rel, fd);
		return;
	}
	close(fd);
	(void)cap_dir(c, rel);
}

void
cap_procs(struct cap *c)
{
	char **pid;
	size_t n, i;
	int e;

	if ((e = cap_names(c, "proc", 1, &pid, &n)) < 0) {
		cap_error(c, "proc", e);
		return;
	}
	for (i = 0; i < n && c->tw->err == 0; i++)
		process(c, pid[i]);
	cap_names_free(pid, n);
}
