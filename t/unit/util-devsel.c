/*
 * cmd/util/devsel.c: device operands as the tools take them (names,
 * /dev/ paths, /dev/mapper/ names, globs), and matched as the library
 * matches them.
 */
#include "util/util.h"
#include "internal.h"
#include "tap.h"

/* Operands set up, then matched as the library's selections match them. */
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

/* Nothing matched yet, then one operand matched. */
static void
none_matched(void)
{
	char *args[] = { "sda", "vd*" };
	struct ds_devsel s;

	is_int(ds_devsel_init(&s, args, 2), 0, "two operands");
	is_int(ds_devsel_none_matched(&s), 1, "none matched yet");
	(void)ds_devsel_match(&s, "vdb", NULL, 1);
	is_int(ds_devsel_none_matched(&s), 0, "the glob matched");
	ds_devsel_free(&s);
	ok(s.op == NULL && s.n == 0, "free leaves it empty");
	is_int(ds_devsel_none_matched(&s), 0, "no operands: not unmatched");
}

int
main(void)
{
	operands();
	none_matched();
	return tap_done();
}
