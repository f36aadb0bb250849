/*
 * capture/meta, written last when both samples' times are known, and
 * capture/errors.  Keys are documented in dcapture(1).
 */
#include <sys/utsname.h>

#include "dcapture.h"

/* One line of text: escaped as messages are (no newline survives). */
static void
text(struct cap *c, struct ds_buf *m, const char *key, const char *s)
{
	c->esc.len = 0;
	(void)ds_esc_msg(&c->esc, s, strlen(s));
	(void)cap_buf_printf(m, "%s ", key);
	(void)cap_buf_add(m, c->esc.data ? c->esc.data : "", c->esc.len);
	(void)cap_buf_add(m, "\n", 1);
}

int
cap_meta(struct cap *c, unsigned int samples, int traced, const char *why)
{
	struct ds_buf m = { 0 };
	struct utsname u;
	char boot[64] = "";
	unsigned int i;
	int e;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	if (cap_read(c, "proc/sys/kernel/random/boot_id", &c->buf) == 0) {
		snprintf(boot, sizeof(boot), "%.40s", c->buf.data);
		boot[strcspn(boot, "\n")] = '\0';
	}
	(void)cap_buf_printf(&m, "format 1\nversion %s\n", DS_VERSION);
	text(c, &m, "host", u.nodename);
	text(c, &m, "kernel", u.release);
	text(c, &m, "boot_id", boot);
	(void)cap_buf_printf(&m, "samples %u\n", samples);
	for (i = 0; i < samples; i++)
		(void)cap_buf_printf(&m, "uptime%u %llu\ntime%u %llu\n", i,
		    (unsigned long long)c->up[i], i,
		    (unsigned long long)c->rt[i]);
	(void)cap_buf_printf(&m, "window_ns %llu\ntick_ns %llu\ntraced %d\n",
	    (unsigned long long)(samples > 1 ? c->up[1] - c->up[0] : 0),
	    CAP_TICK_NS, traced);
	if (!traced)
		text(c, &m, "traced_why", why != NULL ? why : "not traced");
	(void)cap_buf_printf(&m, "uid %u\n", (unsigned)getuid());
	if ((e = cap_put_top(c, "capture/errors",
	    c->errs.data ? c->errs.data : "", c->errs.len)) == 0)
		e = cap_put_top(c, "capture/meta", m.data ? m.data : "", m.len);
	ds_buf_free(&m);
	return e;
}
