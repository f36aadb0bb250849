/*
 * Private to the library: eBPF instructions built by hand, and a small
 * assembler with labels so that no jump offset is counted by hand.
 * Never installed.
 */
#ifndef DS_BPFASM_H
#define DS_BPFASM_H

#include <linux/bpf.h>

#define BI(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (i) })
#define B_MOV_I(d, i)	BI(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define B_MOV_R(d, s)	BI(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define B_ALU_I(op, d, i) BI(BPF_ALU64 | BPF_##op | BPF_K, d, 0, 0, i)
#define B_ALU_R(op, d, s) BI(BPF_ALU64 | BPF_##op | BPF_X, d, s, 0, 0)
#define B_LDX(sz, d, s, o) BI(BPF_LDX | BPF_MEM | BPF_##sz, d, s, o, 0)
#define B_STX(sz, d, s, o) BI(BPF_STX | BPF_MEM | BPF_##sz, d, s, o, 0)
#define B_ST(sz, d, o, i) BI(BPF_ST | BPF_MEM | BPF_##sz, d, 0, o, i)
#define B_CALL(f)	BI(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define B_EXIT()	BI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Up to this many labels and jumps to them in one program. */
#define DS_ASM_LABELS 64
#define DS_ASM_MAX 4096

struct ds_asm {
	struct bpf_insn *ins;
	size_t n, cap;
	int label[DS_ASM_LABELS];	/* instruction index, -1 unset */
	struct { size_t at; int label; } fix[DS_ASM_LABELS * 4];
	size_t nfix;
	int nlabels;
	int error;			/* -errno, sticky */
};

void ds_asm_init(struct ds_asm *a);
void ds_asm_free(struct ds_asm *a);
void ds_asm_emit(struct ds_asm *a, struct bpf_insn in);
/* A fresh label; place it with ds_asm_here. */
int ds_asm_label(struct ds_asm *a);
void ds_asm_here(struct ds_asm *a, int label);
/* A conditional (or, with op BPF_JA, plain) jump to label. */
void ds_asm_jmp_i(struct ds_asm *a, int op, int reg, int32_t imm, int label);
void ds_asm_jmp_r(struct ds_asm *a, int op, int reg, int src, int label);
/* Load a map's fd into reg (two instructions). */
void ds_asm_map(struct ds_asm *a, int reg, int fd);
/* Resolve the jumps: 0, or -EINVAL for a label never placed. */
int ds_asm_end(struct ds_asm *a);

#endif
