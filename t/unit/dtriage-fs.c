/* dtriage's filesystems: the holders of deleted-open space. */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "tap.h"
#include "dtriage/dtriage.h"

static void
t_holders(void)
{
	struct ds_deleted d = { 0 };
	struct ds_tr_holder *h;
	struct ds_delfile f[4];
	size_t n;

	memset(f, 0, sizeof(f));
	d.f = f;
	d.n = 4;
	f[0].pid = 10; f[0].fd = 3; f[0].fs = 0; f[0].blocks = 2048;
	f[0].comm = ds_deleted_intern(&d, "small", 5);
	f[1].pid = 20; f[1].fd = 4; f[1].fs = 0; f[1].blocks = 81920;
	f[1].comm = ds_deleted_intern(&d, "big", 3);
	f[2].pid = 30; f[2].fd = 5; f[2].fs = 1; f[2].blocks = 99999;
	f[2].comm = ds_deleted_intern(&d, "other fs", 8);
	f[3].pid = 40; f[3].fd = -1; f[3].fs = 0; f[3].blocks = 99999;
	f[3].memory = 1;
	f[3].comm = ds_deleted_intern(&d, "shm", 3);
	is_int(fs_holders(&d, 0, &h, &n), 0, "holders of fs 0");
	is_int((int)n, 2, "two: the other fs and memory left out");
	ok(n == 2 && h[0].pid == 20 && h[0].bytes == 81920 * 512 &&
	    strcmp(h[0].comm, "big") == 0, "largest first, bytes of st_blocks");
	ok(n == 2 && h[1].pid == 10 && h[1].fd == 3, "then the small one");
	free(h);
	is_int(fs_holders(&d, 5, &h, &n), 0, "a fs with none");
	ok(n == 0 && h == NULL, "nothing allocated");
	ds_buf_free(&d.pool);
}

int
main(void)
{
	t_holders();
	return tap_done();
}
