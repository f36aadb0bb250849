/*
 * lib/memcg.c: memory cgroups with a limit on a hybrid tree made here.
 * v2 memory.max / memory.high ("max" none), memory.current, memory.stat
 * refaults (the split keys of 5.9+ and the single one before),
 * memory.pressure, memory.events; v1 limit_in_bytes (PAGE_COUNTER_MAX
 * and anything from 2^62 up none), usage, failcnt and memory.stat's
 * hierarchical total_ keys.  Malformed values counted, never kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

#define V2 "sys/fs/cgroup/unified/"
#define V1 "sys/fs/cgroup/memory/"
#define NOLIM "9223372036854771712\n"

static void
tree(void)
{
	tree_make("memcg-unit");
	tree_put("proc/self/mountinfo",
	    "30 22 0:27 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
	    "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	    "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	tree_put(V2 "cgroup.controllers", "io memory pids\n");
	tree_put(V2 "memory.stat", "workingset_refault_file 1\n");
	tree_put(V2 "lim/memory.max", "67108864\n");
	tree_put(V2 "lim/memory.high", "max\n");
	tree_put(V2 "lim/memory.current", "60000000\n");
	tree_put(V2 "lim/memory.stat", "anon 0\nfile 59000000\n"
	    "workingset_refault_anon 5\nworkingset_refault_file 1234\n"
	    "workingset_activate_file 17\n");
	tree_put(V2 "lim/memory.pressure",
	    "some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n"
	    "full avg10=0.50 avg60=0.20 avg300=0.05 total=65432\n");
	tree_put(V2 "lim/memory.events", "low 0\nhigh 0\nmax 17\noom 2\n"
	    "oom_kill 1\noom_group_kill 0\n");
	/* memory.high alone; a kernel before 5.9 (one refault key). */
	tree_put(V2 "high/memory.max", "max\n");
	tree_put(V2 "high/memory.high", "1048576\n");
	tree_put(V2 "high/memory.current", "2097152\n");
	tree_put(V2 "high/memory.stat", "workingset_refault 99\n");
	tree_put(V2 "high/memory.events", "low 0\nhigh 40\nmax 0\noom 0\n");
	tree_put(V2 "none/memory.max", "max\n");
	tree_put(V2 "none/memory.high", "max\n");
	tree_put(V2 "none/memory.current", "5\n");
	tree_put(V2 "huge/memory.max", "4611686018427387904\n");
	tree_put(V2 "huge/memory.current", "5\n");
	tree_put(V2 "badcur/memory.max", "100\n");
	tree_put(V2 "badcur/memory.current", "12abc\n");
	tree_put(V2 "badmax/memory.max", "12abc\n");
	tree_put(V2 "badmax/memory.current", "1\n");
	tree_put(V2 "badev/memory.max", "4096\n");
	tree_put(V2 "badev/memory.current", "1\n");
	tree_put(V2 "badev/memory.events", "max x\noom 1\n");
	tree_put(V2 "badev/memory.stat", "workingset_refault_file -1\n"
	    "workingset_refault_anon 3\n");
	tree_put(V2 "gone/memory.max", "4096\n");	/* no memory.current */
	tree_put(V2 "lim/deep/memory.max", "8192\n");
	tree_put(V2 "lim/deep/memory.current", "4096\n");

	tree_put(V1 "tasks", "");
	tree_put(V1 "memory.limit_in_bytes", NOLIM);
	tree_put(V1 "memory.usage_in_bytes", "1000000\n");
	tree_put(V1 "lim/memory.limit_in_bytes", "67108864\n");
	tree_put(V1 "lim/memory.usage_in_bytes", "67000000\n");
	tree_put(V1 "lim/memory.failcnt", "7\n");
	tree_put(V1 "lim/memory.stat", "cache 1\nworkingset_refault_file 1\n"
	    "workingset_refault_anon 2\nhierarchical_memory_limit 67108864\n"
	    "total_workingset_refault_anon 3\n"
	    "total_workingset_refault_file 500\n");
	tree_put(V1 "lim/child/memory.limit_in_bytes", NOLIM);
	tree_put(V1 "lim/child/memory.usage_in_bytes", "1\n");
	tree_put(V1 "edge/memory.limit_in_bytes", "4611686018427387904\n");
	tree_put(V1 "edge/memory.usage_in_bytes", "1\n");
	tree_put(V1 "below/memory.limit_in_bytes", "4611686018427387903\n");
	tree_put(V1 "below/memory.usage_in_bytes", "1\n");
	tree_put(V1 "below/memory.stat", "total_workingset_refault 8\n");
}

static void
test_tree(const struct ds_root *r)
{
	struct ds_memcgs s = { 0 };
	const struct ds_memcg *m;
	char order[512];
	size_t i;

	is_int(ds_memcgs_read(r, &s), 0, "read: 0");
	is_int(s.hier, DS_CG_V1 | DS_CG_V2, "both hierarchies walked");
	for (order[0] = '\0', i = 0; i < s.n; i++)
		snprintf(order + strlen(order), sizeof(order) - strlen(order),
		    "%s%s%s", i ? "," : "", s.m[i].cgroup,
		    s.m[i].v1 ? " v1" : "");
	is_str(order, "/badev,/below v1,/high,/lim,/lim v1,/lim/deep",
	    "the limited cgroups, by path, v2 first");
	/* badcur's current, badmax's max, badev's events and stat */
	is_u64(s.bad, 4, "bad values counted");

	m = ds_memcgs_find(&s, "/lim", 0);
	ok(m != NULL && m->limit == 67108864 && m->high == UINT64_MAX &&
	    m->usage == 60000000, "v2: memory.max, no high, current");
	ok(m != NULL && m->have_refault == (DS_REFAULT_FILE | DS_REFAULT_ANON) &&
	    m->refault_file == 1234 && m->refault_anon == 5,
	    "v2: both refault keys");
	ok(m != NULL && m->have_psi == 3 && m->psi_some_us == 123456 &&
	    m->psi_full_us == 65432, "v2: memory.pressure totals");
	ok(m != NULL && m->have_events == (DS_MEMEV_MAX | DS_MEMEV_OOM |
	    DS_MEMEV_HIGH | DS_MEMEV_OOM_KILL) && m->ev_max == 17 &&
	    m->ev_oom == 2 && m->ev_high == 0 && m->ev_oom_kill == 1,
	    "v2: memory.events max oom high oom_kill");
	ok(m != NULL && !m->have_failcnt && m->ino != 0, "v2: no failcnt");

	m = ds_memcgs_find(&s, "/high", 0);
	ok(m != NULL && m->limit == UINT64_MAX && m->high == 1048576 &&
	    m->usage == 2097152, "v2: memory.high alone");
	ok(m != NULL && m->have_refault == DS_REFAULT_FILE &&
	    m->refault_file == 99 && m->refault_anon == 0,
	    "before 5.9: workingset_refault, file pages");
	ok(m != NULL && m->have_events == (DS_MEMEV_MAX | DS_MEMEV_OOM |
	    DS_MEMEV_HIGH) && m->ev_high == 40,
	    "before 4.13: no oom_kill, not invented");
	ok(m != NULL && m->have_psi == 0, "no memory.pressure: none");

	m = ds_memcgs_find(&s, "/badev", 0);
	ok(m != NULL && m->have_events == DS_MEMEV_OOM && m->ev_oom == 1 &&
	    m->have_refault == DS_REFAULT_ANON && m->refault_anon == 3,
	    "bad values: the others kept");
	ok(ds_memcgs_find(&s, "/none", 0) == NULL &&
	    ds_memcgs_find(&s, "/huge", 0) == NULL,
	    "max and 2^62: no limit, left out");
	ok(ds_memcgs_find(&s, "/badcur", 0) == NULL &&
	    ds_memcgs_find(&s, "/badmax", 0) == NULL &&
	    ds_memcgs_find(&s, "/gone", 0) == NULL,
	    "a limit or usage unread: left out");
	ok(ds_memcgs_find(&s, "/", 0) == NULL && ds_memcgs_find(&s, "/", 1) ==
	    NULL, "the roots: no limit");

	m = ds_memcgs_find(&s, "/lim", 1);
	ok(m != NULL && m->v1 && m->limit == 67108864 && m->usage == 67000000,
	    "v1: limit_in_bytes, usage_in_bytes");
	ok(m != NULL && m->have_failcnt && m->failcnt == 7, "v1: failcnt");
	ok(m != NULL && m->have_refault == (DS_REFAULT_FILE | DS_REFAULT_ANON) &&
	    m->refault_file == 500 && m->refault_anon == 3,
	    "v1: the total_ keys, not the cgroup's own");
	ok(m != NULL && m->have_psi == 0 && m->have_events == 0 &&
	    m->high == UINT64_MAX, "v1: no pressure, events, high");
	ok(ds_memcgs_find(&s, "/lim/child", 1) == NULL &&
	    ds_memcgs_find(&s, "/edge", 1) == NULL,
	    "v1: PAGE_COUNTER_MAX and 2^62: none");
	m = ds_memcgs_find(&s, "/below", 1);
	ok(m != NULL && m->limit == 4611686018427387903ull &&
	    m->have_refault == DS_REFAULT_FILE && m->refault_file == 8 &&
	    !m->have_failcnt, "v1: 2^62 - 1 a limit; total_workingset_refault");

	is_int(ds_memcgs_read_max(r, &s, 3), 0, "bounded: 0");
	ok(s.truncated && s.n == 2 && strcmp(s.m[0].cgroup, "/badev") == 0 &&
	    strcmp(s.m[1].cgroup, "/below") == 0,
	    "bounded: 3 cgroups a hierarchy (/ /badcur /badev; / /below /edge)");
	is_int(ds_memcgs_read(r, &s), 0, "again: 0");
	is_u64(s.n, 6, "again: replaced, not appended");
	ds_memcgs_free(&s);
}

static void
test_parsers(void)
{
	static const struct { const char *in; int e; uint64_t v; } lim[] = {
		{ "max", 0, UINT64_MAX }, { "max\n", 0, UINT64_MAX },
		{ " max \n", 0, UINT64_MAX }, { "maxx", -EINVAL, 0 },
		{ "", -EINVAL, 0 }, { "-1", -EINVAL, 0 },
		{ "18446744073709551616", -EINVAL, 0 },
		{ "4611686018427387903", 0, 4611686018427387903ull },
		{ "4611686018427387904", 0, UINT64_MAX },
		{ "0\n", 0, 0 }, { "12 34", -EINVAL, 0 },
	};
	struct ds_memcg m;
	uint64_t v;
	char name[96];
	size_t i;
	int e;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		v = 42;
		e = ds_memlimit_parse(lim[i].in, &v);
		snprintf(name, sizeof(name), "limit '%.*s'%s",
		    (int)strcspn(lim[i].in, "\n"), lim[i].in,
		    strchr(lim[i].in, '\n') != NULL ? " and a newline" : "");
		ok(e == lim[i].e && (e < 0 ? v == 42 : v == lim[i].v), "%s",
		    name);
	}
	memset(&m, 0, sizeof(m));
	is_int(ds_memstat_parse("workingset_refault 5\n"
	    "workingset_refault_file 6\n", 0, &m), 0, "both forms: 0");
	ok(m.refault_file == 6 && m.have_refault == DS_REFAULT_FILE,
	    "both forms: the split key wins");
	is_int(ds_memstat_parse("total_workingset_refault_file 6\n", 0, &m), 0,
	    "v2 ignores total_");
	ok(m.have_refault == 0, "  nothing");
	is_int(ds_memstat_parse("workingset_refault_file 6 7\n", 0, &m),
	    -EINVAL, "three fields: -EINVAL");
	is_int(ds_memevents_parse("max\n", &m), -EINVAL, "no value: -EINVAL");
}

int
main(void)
{
	struct ds_root r;

	tree();
	if (ds_root_open(&r, tree_top) < 0) {
		ok(0, "root opens");
		tree_remove();
		return tap_done();
	}
	test_tree(&r);
	test_parsers();
	ds_root_close(&r);
	tree_remove();
	return tap_done();
}
