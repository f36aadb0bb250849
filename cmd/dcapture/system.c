/*
 * The system-wide files of a sample.  proc/diskstats comes first and
 * its moment is the sample's: proc/uptime is written from the same
 * CLOCK_BOOTTIME reading with nine decimals (ds_uptime_ns reads them),
 * so every interval a tool computes from a capture is exact.
 */
#include "dcapture.h"

static const char *const files[] = {
	"proc/stat", "proc/vmstat", "proc/meminfo",
	"proc/pressure/cpu", "proc/pressure/io", "proc/pressure/memory",
	"proc/pressure/irq",
	"proc/sys/kernel/task_delayacct", "proc/sys/kernel/osrelease",
	"proc/sys/vm/dirty_ratio", "proc/sys/vm/dirty_background_ratio",
	"proc/sys/vm/dirty_bytes", "proc/sys/vm/dirty_background_bytes",
	"proc/sys/vm/dirty_expire_centisecs",
	"proc/sys/vm/dirty_writeback_centisecs",
	"proc/self/mountinfo",
	"sys/kernel/security/lockdown",
	"sys/devices/system/cpu/possible",
};

/*
 * etc/passwd as the library reads it (lib/user.c: name and uid), every
 * other field dropped: no hashes, no home directories, no shells.
 */
static void
passwd(struct cap *c)
{
	char *cur, *line, *nl, *f[3], *p;
	size_t i;
	int e;

	if ((e = cap_read(c, "etc/passwd", &c->buf)) < 0) {
		cap_error(c, "etc/passwd", e);
		return;
	}
	c->line.len = 0;
	for (cur = c->buf.data; *cur != '\0'; cur = nl) {
		line = cur;
		if ((nl = strchr(cur, '\n')) != NULL)
			*nl++ = '\0';
		else
			nl = cur + strlen(cur);
		for (i = 0, p = line; i < 3 && p != NULL; i++) {
			f[i] = p;
			if ((p = strchr(p, ':')) != NULL)
				*p++ = '\0';
		}
		if (i < 3 || p == NULL || f[0][0] == '\0' || f[2][0] == '\0' ||
		    strspn(f[2], "0123456789") != strlen(f[2]))
			continue;
		(void)cap_buf_printf(&c->line, "%.200s:x:%s:\n", f[0], f[2]);
	}
	(void)cap_put(c, "etc/passwd", c->line.data ? c->line.data : "",
	    c->line.len);
}

void
cap_system(struct cap *c)
{
	char up[64];
	size_t i;
	int e, n;

	/* The two clocks read either side of diskstats, as close as can be. */
	e = cap_read(c, "proc/diskstats", &c->buf);
	c->up[c->sample] = ds_boottime_ns();
	c->rt[c->sample] = ds_realtime_ns();
	if (e < 0)
		cap_error(c, "proc/diskstats", e);
	else
		(void)cap_put(c, "proc/diskstats", c->buf.data, c->buf.len);
	n = snprintf(up, sizeof(up), "%llu.%09llu 0.00\n",
	    (unsigned long long)(c->up[c->sample] / 1000000000u),
	    (unsigned long long)(c->up[c->sample] % 1000000000u));
	(void)cap_put(c, "proc/uptime", up, (size_t)n);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		(void)cap_copy(c, files[i]);
	passwd(c);
}
