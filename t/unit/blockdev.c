/* Block devices: device-mapper names, and device operands. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "tap.h"

static void
put(const char *top, const char *rel, const char *text)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if ((f = fopen(p, "w")) == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static void
dir(const char *top, const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	mkdir(p, 0755);
}

static void
dm_names(const char *top)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	char name[64];

	dir(top, "sys");
	dir(top, "sys/block");
	dir(top, "sys/block/dm-0");
	dir(top, "sys/block/dm-0/dm");
	put(top, "sys/block/dm-0/dm/name", "vg0-root\n");
	dir(top, "sys/block/sda");
	/* What a hostile name would reach: sys/block/../dm/name and above. */
	dir(top, "sys/dm");
	put(top, "sys/dm/name", "outside\n");
	dir(top, "etc");
	dir(top, "etc/dm");
	put(top, "etc/dm/name", "outside\n");
	if (ds_root_open(&r, top) < 0) {
		ok(0, "root opens");
		return;
	}
	is_int(ds_dm_name(&r, "dm-0", &b, name, sizeof(name)), 0, "dm name");
	is_str(name, "vg0-root", "dm name read");
	is_int(ds_dm_name(&r, "sda", &b, name, sizeof(name)), -ENOENT,
	    "not a dm device");
	strcpy(name, "unchanged");
	is_int(ds_dm_name(&r, "..", &b, name, sizeof(name)), -EINVAL,
	    "\"..\" is refused");
	is_str(name, "unchanged", "\"..\": nothing read");
	is_int(ds_dm_name(&r, ".", &b, name, sizeof(name)), -EINVAL,
	    "\".\" is refused");
	is_int(ds_dm_name(&r, "dm-0/../../../etc", &b, name, sizeof(name)),
	    -EINVAL, "a name holding '/' is refused");
	is_str(name, "unchanged", "'/': nothing read");
	is_int(ds_dm_name(&r, "", &b, name, sizeof(name)), -EINVAL,
	    "an empty name is refused");
	ds_buf_free(&b);
	ds_root_close(&r);
}

static void
operands(void)
{
	char *args[] = { "sda", "/dev/nvme0n1", "/dev/mapper/vg0-root",
	    "vd[ab]", "/dev/mapper/vg1-*", "/dev/", "sdq" };
	struct ds_devsel s;

	is_int(ds_devsel_init(&s, args, 7), 0, "init");
	is_int((int)s.n, 7, "seven operands");
	is_str(s.op[1].pat, "nvme0n1", "/dev/ cut");
	is_str(s.op[1].arg, "/dev/nvme0n1", "arg kept as given");
	is_str(s.op[2].pat, "vg0-root", "/dev/mapper/ cut");
	is_int(s.op[2].dm, 1, "/dev/mapper/: a dm name");
	is_int(s.op[3].glob, 1, "vd[ab] is a glob");
	is_int(s.op[0].glob, 0, "sda is not");
	is_int((int)s.nglob, 2, "two globs");
	is_int((int)s.ndm, 2, "two /dev/mapper/ operands");
	is_str(s.op[5].pat, "", "/dev/ alone: empty");

	is_int(ds_devop_match(&s.op[0], "sda", NULL), 1, "name matches");
	is_int(ds_devop_match(&s.op[0], "sda1", NULL), 0, "a name is whole");
	is_int(ds_devop_match(&s.op[2], "vg0-root", NULL), 0,
	    "/dev/mapper/: never the kernel name");
	is_int(ds_devop_match(&s.op[2], "dm-0", "vg0-root"), 1,
	    "/dev/mapper/: the dm name");
	is_int(ds_devop_match(&s.op[0], "dm-3", "sda"), 1,
	    "a plain operand matches a dm name given");
	is_int(ds_devop_match(&s.op[5], "sda", NULL), 0, "empty matches none");

	is_int(ds_devsel_match(&s, "vda", NULL, 0), 0,
	    "a glob does not select a device that is not whole");
	is_int(s.op[3].matched, 0, "and does not count it");
	is_int(ds_devsel_match(&s, "vda", NULL, 1), 1, "a glob selects");
	is_int(s.op[3].matched, 1, "glob matched");
	is_int(ds_devsel_match(&s, "sda", NULL, 0), 2,
	    "a name selects, whole or not");
	is_int(s.op[0].matched, 1, "name matched");
	is_int(ds_devsel_match(&s, "dm-4", "vg1-swap", 1), 1,
	    "a /dev/mapper/ glob selects by dm name");
	is_int(s.op[4].matched, 1, "that glob matched");
	is_int(ds_devsel_match(&s, "dm-0", NULL, 1), 0,
	    "dm name unknown: /dev/mapper/ selects nothing");
	is_int(ds_devsel_match(&s, "dm-0", "vg0-root", 1), 2,
	    "dm name known: selected by name");
	is_int(s.op[2].matched + s.op[1].matched + s.op[6].matched, 1,
	    "nvme0n1 and sdq matched nothing");
	ds_devsel_free(&s);
	is_int(ds_devsel_init(&s, NULL, 0), 0, "no operands");
	is_int(ds_devsel_match(&s, "sda", NULL, 1), 0, "no operand selects");
	ds_devsel_free(&s);
}

/* ds_dir_names: sorted, no dot files, dirs_only, empty directories. */
static void
dir_names(const char *top)
{
	struct ds_blockdevs b = { 0 };
	char p[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/names", top);
	mkdir(p, 0755);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), 0, "empty directory");
	is_int((int)b.n, 0, "no names, and no sort of a NULL array");
	/* Issue 15, 9: no bsearch(3) of a NULL array (UBSan: nonnull). */
	is_int(ds_blockdevs_has(&b, "sda"), 0, "an empty list has no sda");
	snprintf(p, sizeof(p), "%s/names/mq", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/1", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/0", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/.hidden", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/afile", top);
	if ((f = fopen(p, "w")) != NULL)
		fclose(f);
	snprintf(p, sizeof(p), "%s/names", top);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), 0, "four entries");
	is_int((int)b.n, 4, "dot files left out");
	if (b.n == 4) {
		is_str(b.name[0], "0", "sorted: 0");
		is_str(b.name[1], "1", "sorted: 1");
		is_str(b.name[2], "afile", "sorted: afile");
		is_str(b.name[3], "mq", "sorted: mq");
	}
	is_int(ds_dir_names(AT_FDCWD, p, 1, &b), 0, "directories only");
	is_int((int)b.n, 3, "the file left out");
	snprintf(p, sizeof(p), "%s/names/afile", top);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), -ENOTDIR, "a file is not a directory");
	is_int((int)b.n, 0, "list empty after a failure");
	ds_blockdevs_free(&b);
}

int
main(void)
{
	char top[] = "/tmp/ds-unit-blockdev.XXXXXX", cmd[4200];

	if (mkdtemp(top) == NULL)
		return 1;
	dm_names(top);
	operands();
	dir_names(top);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
