/*
 * ds_snap_bad_msg: each reason a snapshot file's header is refused for,
 * from a file that has it, as "line N: REASON" (the words dxstat -f
 * prints after the file's name); 0 and an empty message for a header
 * that was not refused; the message's contents replaced each time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "tap.h"

/* text's header refused: the sentence for it, into msg. */
static void
refused(const char *text, size_t len, struct ds_buf *msg, const char *want,
    const char *name)
{
	struct ds_snap s = { 0 };
	int e;

	e = ds_snap_parse(text, len, &s);
	ok(e == -EINVAL, "%s: refused (%d)", name, e);
	e = ds_snap_bad_msg(&s, msg);
	ok(e == 1, "%s: a sentence (%d)", name, e);
	is_str(msg->data, want, "its words");
	ds_snap_free(&s);
}

static void
test_each(struct ds_buf *msg)
{
	static const struct {
		const char *text, *want;
	} t[] = {
		{ "uptime 1\nuptime 2\n",
		    "line 2: second uptime line" },
		{ "uptime 1\ntime 5\ntime 6\n",
		    "line 3: second time line" },
		{ "uptime abc\n",
		    "line 1: uptime is not a number of seconds" },
		{ "uptime 1\ntime -5\n",
		    "line 2: time is not a number of seconds" },
		{ "uptime 1\nid   \n",
		    "line 2: id line: not a device name" },
		{ "uptime 1\nid sda\n",
		    "line 2: id line: no identity" },
		{ "uptime 1\nid sda a\001b\n",
		    "line 2: id line: identity too long or not printable" },
		{ "time 5\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
		    "line 2: no uptime line before the diskstats lines" },
		{ "",
		    "line 1: no uptime line before the diskstats lines" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		refused(t[i].text, strlen(t[i].text), msg, t[i].want,
		    t[i].want);
}

/* Lines longer than a header line's value or than the window holds. */
static void
test_long(struct ds_buf *msg)
{
	size_t n = DS_LINES_WINDOW + 16;
	char *text;

	if ((text = malloc(n + 1)) == NULL)
		exit(1);
	memset(text, '1', n);
	memcpy(text, "uptime 1\ntime ", 14);
	memcpy(text + 200, "\n", 2);
	refused(text, strlen(text), msg, "line 2: header line too long",
	    "a time line too long");
	memset(text, 'x', n);
	memcpy(text, "uptime 1\nid sda ", 16);
	text[n - 1] = '\n';
	text[n] = '\0';
	refused(text, n, msg, "line 2: id line too long",
	    "an id line longer than the window");
	free(text);
}

/* The reasons only a header with its ids kept has, or no file gives. */
static void
test_made(struct ds_buf *msg)
{
	struct ds_snap s = { 0 };

	s.why = DS_SNAP_WHY_ID_TWICE;
	s.why_line = 4;
	is_int(ds_snap_bad_msg(&s, msg), 1, "a device named twice");
	is_str(msg->data, "line 4: id line: a device named twice", "its words");
	s.why = DS_SNAP_WHY_NO_UPTIME + 1;
	s.why_line = 3;
	is_int(ds_snap_bad_msg(&s, msg), 1, "a code past the last: a sentence");
	is_str(msg->data, "line 3: malformed", "its words");
}

/* A header taken: nothing to say, and what msg held is gone. */
static void
test_none(struct ds_buf *msg)
{
	struct ds_snap s = { 0 };
	const char *text;

	is_int(ds_buf_printf(msg, "before"), 1, "msg holds a sentence");
	text = "uptime 1\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n";
	is_int(ds_snap_parse(text, strlen(text), &s), 0, "a good snapshot");
	is_int(ds_snap_bad_msg(&s, msg), 0, "nothing to say: 0");
	ok(msg->len == 0 && strcmp(msg->data, "") == 0, "msg emptied");
	ds_snap_free(&s);
	s = (struct ds_snap){ 0 };
	is_int(ds_snap_bad_msg(&s, msg), 0, "a zeroed snapshot: 0");
}

int
main(void)
{
	struct ds_buf msg = { 0 };

	test_none(&msg);
	test_each(&msg);
	test_long(&msg);
	test_made(&msg);
	ds_buf_free(&msg);
	return tap_done();
}
