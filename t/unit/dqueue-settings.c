/*
 * dqueue's --check and --set arguments: attr=value parsed into
 * settings, what a malformed one says, and the request made of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqueue/dqueue.h"
#include "heard.h"
#include "tap.h"

int
main(void)
{
	struct dq_settings st = { 0 };
	struct ds_qs_item *rq;

	if (heard_init() < 0)
		return printf("Bail out! stderr to a file\n"), 1;
	/* attr=value[,...]: blanks cut, empty items skipped. */
	is_int(dq_settings_parse(&st,
	    " nr_requests = 64 ,,iosched/read_expire=250\n"), 0, "parsed");
	is_str(heard(), "", "nothing said");
	is_int((int)st.n, 2, "two settings");
	is_str(st.s[0].attr, "nr_requests", "name cut");
	is_str(st.s[0].value, "64", "value cut");
	is_str(st.s[1].attr, "iosched/read_expire", "iosched/ kept");
	is_str(st.s[1].value, "250", "newline cut");
	is_int(dq_settings_parse(&st, "scheduler=none"), 0,
	    "a second --set appends");
	is_int((int)st.n, 3, "three");
	is_int(dq_settings_parse(&st, "a=1,nope"), -EINVAL, "no =");
	is_str(heard(), "nope: not attr=value\n", "the item: not attr=value");
	is_int(dq_settings_parse(&st, " x = "), -EINVAL, "empty");
	is_str(heard(), "x: empty value\n", "the name, cut: empty value");
	is_int(dq_settings_parse(&st, "Read=1"), -EINVAL, "name");
	is_str(heard(), "Read: not an attribute name\n",
	    "not an attribute name");
	is_int(dq_settings_parse(&st, "iosched/=1"), -EINVAL,
	    "iosched/ alone");
	is_str(heard(), "iosched/: not an attribute name\n",
	    "iosched/ alone: not an attribute name");
	dq_settings_free(&st);
	is_int((int)st.n, 0, "freed");
	is_int(dq_settings_parse(&st, "read_ahead_kb=256,nr_requests=32"), 0,
	    "request settings");
	rq = dq_settings_request(&st, 2);
	ok(rq != NULL && strcmp(rq[1].attr, "nr_requests") == 0 &&
	    strcmp(rq[1].value, "32") == 0 && rq[1].state == DS_QS_PENDING,
	    "the request: items in order, pending");
	ok(rq != NULL && strcmp(rq[2].attr, "read_ahead_kb") == 0 &&
	    strcmp(rq[3].value, "32") == 0, "the second disk's copy");
	free(rq);
	rq = dq_settings_request(&st, 0);
	ok(rq != NULL, "no disk: an array all the same");
	free(rq);
	dq_settings_free(&st);
	return tap_done();
}
