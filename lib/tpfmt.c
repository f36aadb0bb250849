/*
 * Tracepoints: where tracefs is, the `format` file of an event (its
 * id and the fields of its record), read at run time so that no
 * kernel's layout is built in: 6.11 moved every field after `ioprio`,
 * rwbs grew from 8 to 9 to 10 bytes, 4.x had `errors` and a `cmd`
 * dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/mount.h>
#include <sys/statfs.h>

#include "internal.h"

/* statfs(2) f_type (linux/magic.h). */
#define TRACEFS_MAGIC 0x74726163
#define DEBUGFS_MAGIC 0x64626720

static int
is_fs(const char *path, long magic)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/*
 * tracefs at /sys/kernel/tracing, or below a mounted debugfs.  When
 * neither is mounted, it is mounted in a mount namespace of our own:
 * unshare(CLONE_NEWNS) (the whole process moves into it), every mount
 * made private first so that nothing propagates back, then tracefs on
 * /sys/kernel/tracing.  The host's mounts are never changed, and the
 * mount is gone when the process ends.
 */
int
ds_tracefs_find(struct ds_tracefs *t)
{
	memset(t, 0, sizeof(*t));
	if (is_fs("/sys/kernel/tracing", TRACEFS_MAGIC)) {
		snprintf(t->path, sizeof(t->path), "/sys/kernel/tracing");
		return 0;
	}
	if (is_fs("/sys/kernel/debug", DEBUGFS_MAGIC) &&
	    is_fs("/sys/kernel/debug/tracing", TRACEFS_MAGIC)) {
		snprintf(t->path, sizeof(t->path), "/sys/kernel/debug/tracing");
		return 0;
	}
	if (access("/sys/kernel/tracing", F_OK) < 0)
		return -ENOENT;
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	/* The type is ignored for MS_PRIVATE; "none" as mount(8) passes. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs",
	    MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -errno;
	snprintf(t->path, sizeof(t->path), "/sys/kernel/tracing");
	t->mounted = 1;
	return 0;
}

/* Copy at most size - 1 bytes of s[0..n) into dst; -ENAMETOOLONG. */
static int
copy(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* The number after key ("offset:") in line; -EINVAL when absent. */
static int
num_after(const char *line, const char *key, uint64_t *v)
{
	const char *p = strstr(line, key), *end;
	int e;

	if (p == NULL)
		return -EINVAL;
	if ((e = ds_parse_u64(p + strlen(key), &end, v)) < 0)
		return e;
	return *end == ';' ? 0 : -EINVAL;
}

/*
 * "field:unsigned char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;"
 * The declaration's last word is the name, a [N] after it an array,
 * "__data_loc" before it a dynamic array (a 4-byte offset/length).
 */
static int
parse_field(const char *line, struct ds_tpfield *f)
{
	const char *decl = strstr(line, "field:"), *semi, *name, *br;
	uint64_t v;
	int e;

	memset(f, 0, sizeof(*f));
	decl += strlen("field:");
	if ((semi = strchr(decl, ';')) == NULL || semi == decl)
		return -EINVAL;
	for (name = semi; name > decl && name[-1] != ' ' && name[-1] != '\t';)
		name--;
	if (name == semi)
		return -EINVAL;
	br = memchr(name, '[', (size_t)(semi - name));
	if ((e = copy(f->name, sizeof(f->name), name,
	    (size_t)((br != NULL ? br : semi) - name))) < 0)
		return e;
	if (br != NULL) {
		if ((e = ds_parse_u64(br + 1, NULL, &v)) < 0 || v > UINT32_MAX)
			return -EINVAL;
		f->array = (uint32_t)v;
	}
	while (name > decl && (name[-1] == ' ' || name[-1] == '\t'))
		name--;
	if ((e = copy(f->type, sizeof(f->type), decl,
	    (size_t)(name - decl))) < 0)
		return e;
	f->data_loc = strncmp(f->type, "__data_loc", 10) == 0;
	if ((e = num_after(semi, "offset:", &v)) < 0 || v > UINT32_MAX)
		return -EINVAL;
	f->offset = (uint32_t)v;
	if ((e = num_after(semi, "size:", &v)) < 0 || v > UINT32_MAX)
		return -EINVAL;
	f->size = (uint32_t)v;
	/* "signed:" came in 2.6.31; without it, unknown (-1). */
	f->is_signed = num_after(semi, "signed:", &v) == 0 ? v != 0 : -1;
	return 0;
}

int
ds_tpfmt_parse(const char *text, struct ds_tpfmt *out)
{
	const char *p = text, *nl;
	char line[512];
	uint64_t v;
	int e, have_id = 0;

	memset(out, 0, sizeof(*out));
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if ((size_t)(nl - p) >= sizeof(line))
			continue;	/* print fmt: long, not needed */
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		if (strncmp(line, "name: ", 6) == 0) {
			if ((e = copy(out->name, sizeof(out->name), line + 6,
			    strlen(line + 6))) < 0)
				return e;
		} else if (strncmp(line, "ID: ", 4) == 0) {
			if (ds_strtou64(line + 4, &v) < 0 || v > UINT32_MAX)
				return -EINVAL;
			out->id = (uint32_t)v;
			have_id = 1;
		} else if (strstr(line, "field:") != NULL) {
			if (out->n == DS_TP_FIELDS_MAX)
				return -E2BIG;
			if ((e = parse_field(line, &out->f[out->n])) < 0)
				return e;
			out->n++;
		}
	}
	if (!have_id || out->n == 0)
		return -EINVAL;
	return 0;
}

const struct ds_tpfield *
ds_tpfmt_field(const struct ds_tpfmt *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->f[i].name, name) == 0)
			return &f->f[i];
	return NULL;
}

/*
 * The record's size as far as its fields say: past the end of the last
 * one.  A program may read only below it; the kernel accepts a read
 * past the record and returns whatever lies there.
 */
uint32_t
ds_tpfmt_size(const struct ds_tpfmt *f)
{
	uint32_t end = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->f[i].offset + f->f[i].size > end)
			end = f->f[i].offset + f->f[i].size;
	return end;
}

int
ds_tpfmt_read(const struct ds_tracefs *t, const char *sys, const char *event,
    struct ds_buf *scratch, struct ds_tpfmt *out)
{
	struct ds_root r;
	char rel[512];
	int e;

	if (strchr(sys, '/') != NULL || strchr(event, '/') != NULL)
		return -EINVAL;
	if ((e = ds_root_open(&r, t->path)) < 0)
		return e;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, event);
	e = ds_read_file(&r, rel, scratch);
	ds_root_close(&r);
	if (e < 0)
		return e;
	return ds_tpfmt_parse(scratch->data, out);
}
