/*
 * The assembler's labels, and bpf(2) itself where it is allowed: a
 * program loaded is counted by the kernel and gone when its fd is.
 * "bpf count" prints the number of programs the kernel holds (for the
 * shell tests: nothing of dlat's may stay after it exits); "bpf
 * stats" and "bpf floor" serve make bench.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "../../lib/bpfasm.h"
#include "bpftest.h"
#include "tap.h"

static volatile sig_atomic_t done;

static void
on_sig(int sig)
{
	(void)sig;
	done = 1;
}

/* Every program's runs and time, at the start and at the end. */
static int
stats(void)
{
	struct ds_bpf_prog_stats a[256], b;
	uint32_t id = 0, ids[256];
	size_t n = 0, i;
	int st, fd;

	if ((st = bpft_enable_stats()) < 0)
		return 1;
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	printf("ready\n");
	fflush(stdout);
	while (!done)
		pause();
	while (n < 256 && bpft_prog_next_id(id, &id) == 0) {
		if ((fd = bpft_prog_fd_by_id(id)) < 0)
			continue;
		if (ds_bpf_prog_info(fd, &b) == 0) {
			ids[n] = id;
			a[n++] = b;
		}
		close(fd);
	}
	for (i = 0; i < n; i++)
		printf("%u\t%s\t%llu\t%llu\n", ids[i], a[i].name,
		    (unsigned long long)a[i].run_cnt,
		    (unsigned long long)a[i].run_time_ns);
	close(st);
	return 0;
}

/*
 * "bpf floor EVENT...": a program that only returns, attached to each
 * block EVENT, until SIGINT or SIGTERM: the kernel's own cost of
 * running a tracepoint program (make bench's floor).
 */
static int
floor_progs(int n, char **ev)
{
	struct ds_tracefs tfs;
	struct ds_buf scratch = { 0 };
	struct ds_tpfmt f;
	struct bpf_insn ins[2] = { B_MOV_I(0, 0), B_EXIT() };
	int i, p, e;

	if ((e = ds_tracefs_find(&tfs)) < 0) {
		fprintf(stderr, "bpf floor: tracefs: %s\n", strerror(-e));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if ((e = ds_tpfmt_read(&tfs, "block", ev[i], &scratch, &f)) < 0 ||
		    (p = e = ds_bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, ins, 2,
		    "floor", NULL, 0)) < 0 ||
		    (e = ds_bpf_attach_tp(f.id, p)) < 0) {
			fprintf(stderr, "bpf floor: %s: %s\n", ev[i],
			    strerror(-e));
			return 1;
		}
	}
	ds_buf_free(&scratch);
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	printf("ready\n");
	fflush(stdout);
	while (!done)
		pause();
	return 0;
}

int
main(int argc, char **argv)
{
	struct ds_asm a;
	struct ds_bpf_prog_stats st;
	uint64_t before, during, after;
	char log[4096];
	int l1, l2, fd, map;
	uint32_t k = 0;
	uint64_t v = 42, got = 0;

	/*
	 * "bpf stats": run counters on until SIGINT or SIGTERM, then each
	 * program's name, runs and ns in them over that time (make bench).
	 */
	if (argc == 2 && strcmp(argv[1], "stats") == 0)
		return stats();
	if (argc > 2 && strcmp(argv[1], "floor") == 0)
		return floor_progs(argc - 2, argv + 2);
	if (argc == 2 && strcmp(argv[1], "count") == 0) {
		if (bpft_prog_count(&before) < 0)
			return 1;
		printf("%llu\n", (unsigned long long)before);
		return 0;
	}
	ds_asm_init(&a);
	l1 = ds_asm_label(&a);
	l2 = ds_asm_label(&a);
	ds_asm_emit(&a, B_MOV_I(0, 0));
	ds_asm_jmp_i(&a, BPF_JEQ, 1, 0, l2);	/* forward over two */
	ds_asm_here(&a, l1);
	ds_asm_emit(&a, B_MOV_I(0, 1));
	ds_asm_emit(&a, B_MOV_I(0, 2));
	ds_asm_here(&a, l2);
	ds_asm_jmp_i(&a, BPF_JA, 0, 0, l1 + 2);	/* never placed */
	is_int(ds_asm_end(&a), -EINVAL, "a label never placed: refused");
	ds_asm_free(&a);

	ds_asm_init(&a);
	l1 = ds_asm_label(&a);
	l2 = ds_asm_label(&a);
	ds_asm_here(&a, l1);
	ds_asm_emit(&a, B_MOV_I(0, 0));
	ds_asm_jmp_i(&a, BPF_JEQ, 1, 0, l2);
	ds_asm_emit(&a, B_MOV_I(0, 1));
	ds_asm_emit(&a, B_MOV_I(0, 2));
	ds_asm_here(&a, l2);
	ds_asm_map(&a, 1, 7);
	ds_asm_emit(&a, B_EXIT());
	is_int(ds_asm_end(&a), 0, "labels resolved");
	is_int(a.n, 7, "seven instructions (a map load is two)");
	is_int(a.ins[1].off, 2, "forward jump over two");
	is_int(a.ins[4].code, BPF_LD | BPF_DW | BPF_IMM, "map load: ld_imm64");
	is_int(a.ins[4].src_reg, BPF_PSEUDO_MAP_FD, "map load: pseudo fd");
	is_int(a.ins[4].imm, 7, "map load: the fd");
	ds_asm_free(&a);

	ok(ds_bpf_ncpus() >= 1, "possible CPUs: %d", ds_bpf_ncpus());
	if (ds_blklat_probe() < 0) {
		skip("maps and programs", "bpf(2) not allowed here");
		return tap_done();
	}
	map = ds_bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "t_unit");
	ok(map >= 0, "map created");
	is_int(ds_bpf_map_update(map, &k, &v, BPF_ANY), 0, "map update");
	is_int(ds_bpf_map_lookup(map, &k, &got), 0, "map lookup");
	is_u64(got, 42, "the value written");
	k = 1;
	is_int(ds_bpf_map_lookup(map, &k, &got), -ENOENT, "past the array");

	ds_asm_init(&a);
	ds_asm_emit(&a, B_MOV_I(0, 0));
	ds_asm_emit(&a, B_EXIT());
	ds_asm_end(&a);
	bpft_prog_count(&before);
	fd = ds_bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, a.ins, a.n, "t_unit",
	    log, sizeof(log));
	ok(fd >= 0, "a trivial program loads");
	bpft_prog_count(&during);
	ok(during >= before + 1, "the kernel counts it");
	is_int(ds_bpf_prog_info(fd, &st), 0, "program info");
	ok(st.id > 0, "it has an id");
	close(fd);
	ds_asm_free(&a);
	/* Freed after an RCU grace period: wait for it. */
	for (l1 = 0; l1 < 100; l1++) {
		bpft_prog_count(&after);
		if (after < during)
			break;
		usleep(20000);
	}
	ok(after < during, "gone once its fd is closed");

	/* A refused program: the log says why. */
	ds_asm_init(&a);
	ds_asm_emit(&a, B_EXIT());	/* r0 never set */
	ds_asm_end(&a);
	log[0] = '\0';
	fd = ds_bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, a.ins, a.n, NULL, log,
	    sizeof(log));
	is_int(fd, -EACCES, "r0 unset: the verifier refuses (EACCES)");
	ok(strstr(log, "R0") != NULL, "the log names R0");
	ds_asm_free(&a);
	close(map);
	return tap_done();
}
