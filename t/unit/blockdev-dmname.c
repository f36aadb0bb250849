/*
 * ds_dm_name() built its path in a 192-byte buffer and ignored
 * truncation: a device name of 182 bytes (a directory in a captured
 * tree) made it read sys/block/<its first 181 bytes>, another file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	char dir[] = "/tmp/blockdev-dmname.XXXXXX", p[512], dev[200], name[64];
	struct ds_root r;
	struct ds_buf b = { 0 };
	FILE *f;

	if (mkdtemp(dir) == NULL)
		return 1;
	memset(dev, 'a', 181);
	dev[181] = '\0';
	snprintf(p, sizeof(p), "%s/sys", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/block", dir);
	mkdir(p, 0755);
	/* The file the cut path names. */
	snprintf(p, sizeof(p), "%s/sys/block/%s", dir, dev);
	if ((f = fopen(p, "w")) == NULL)
		return 1;
	fputs("wrong\n", f);
	fclose(f);
	ok(ds_root_open(&r, dir) == 0, "tree opened");
	dev[181] = 'b';
	dev[182] = '\0';
	is_int(ds_dm_name(&r, dev, &b, name, sizeof(name)), -ENAMETOOLONG,
	    "182-byte device name: -ENAMETOOLONG, not another file");
	/* An ordinary dm device still works. */
	snprintf(p, sizeof(p), "%s/sys/block/dm-0", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/block/dm-0/dm", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/block/dm-0/dm/name", dir);
	if ((f = fopen(p, "w")) == NULL)
		return 1;
	fputs("vg0-root\n", f);
	fclose(f);
	is_int(ds_dm_name(&r, "dm-0", &b, name, sizeof(name)), 0, "dm-0 read");
	is_str(name, "vg0-root", "dm-0 name");
	ds_root_close(&r);
	ds_buf_free(&b);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	(void)!system(p);
	return tap_done();
}
