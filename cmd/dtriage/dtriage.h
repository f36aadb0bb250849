/*
 * dtriage's own declarations, shared by the files of cmd/dtriage/ and
 * the unit tests of them.  Never installed.
 */
#ifndef DTRIAGE_H
#define DTRIAGE_H

#include "util/util.h"

#define TICK_NS DS_WINDOW_TICK_NS	/* in_flight and procs_blocked: 10 a second */
#define WINDOW_MAX 3600u	/* seconds: samples stay bounded */

/* dlat.c: a disk's block-latency figures over the window traced. */
int dlat_dev(const struct ds_window *w, const char *name, struct ds_tr_lat *l,
    struct ds_tr_load *load);
int dlat_figures(const struct ds_blklat_snap *a,
    const struct ds_blklat_snap *b, uint32_t dev, struct ds_tr_lat *l,
    struct ds_tr_load *load);

/* What is read at the start and at the end of the window. */
struct sample {
	struct ds_diskstats ds;
	struct ds_psi io, mem;
	int io_ok, mem_ok;
	struct ds_procstat ps;
	int ps_ok;
	struct ds_procs pr;
	uint64_t up;
};

struct tr {
	struct tool t;
	const char *base_dir;	/* -b DIR; NULL: the default ones */
	uint64_t window_ns;
	int delay;		/* delay accounting: 1, 0, -1 unknown */
	struct ds_blockdevs bd;	/* whole disks */
	struct sample s[2];
	/*
	 * The window: ticks, looks, tracing, the kernel log's errors.  It
	 * is one (windowed) live and in a capture of two samples; a tree,
	 * or a capture of one, is judged since boot.
	 */
	struct ds_window win;
	int windowed;
	int pair;		/* -f OLD -f NEW: no ticks, looks, trace, log */
	struct ds_base base;
	int have_base;
	struct ds_tr_lat *lat;	/* per bd entry */
	uint64_t *scsi0;	/* per disk: ioerr_cnt, iotmo_cnt at the start */
	/* Limits and pages read at the start and the end of the window. */
	struct ds_iolimits lim[2];
	struct ds_memcgs mem[2];
	struct ds_dirty dirty[2];
	int have_dirty[2];
	char kernel[128];
	struct ds_buf buf, scratch;
	struct ds_writer w;
};

/* window.c: the window sampled (a captured tree: read once). */
void sample_window(struct tr *x);


/* devices.c: the quiet-time baseline, then a row per disk. */
void baseline(struct tr *x, struct ds_triage_in *in);
void devices(struct tr *x, struct ds_triage_in *in);

/* inputs.c: the rows of in besides the disks' and filesystems'. */
int proc_rows(const struct ds_procs *a, const struct ds_procs *b,
    double secs, long clk_tck, int delay, int capture,
    struct ds_tr_proc **out, size_t *n);
void scsi_counters(struct tr *x, struct ds_tr_err *err);
void errors(struct tr *x, struct ds_triage_in *in);
void fds(struct tr *x, struct ds_triage_in *in, const struct ds_mounts *ms);
void iolimits(struct tr *x, struct ds_triage_in *in, double secs);
void memcgs(struct tr *x, struct ds_triage_in *in, double secs);
void dirty(struct tr *x, struct ds_triage_in *in, double secs);

/* fs.c: the block filesystems and their deleted-open space. */
int fs_holders(const struct ds_deleted *d, size_t fs,
    struct ds_tr_holder **out, size_t *n);
int fs_held(struct ds_tr_fs *fs, const struct ds_deleted *d,
    const struct ds_delsum *sum, size_t nsum);
size_t filesystems(struct tr *x, struct ds_mounts *ms, struct ds_deleted *del,
    struct ds_tr_fs **out);

/* rows.c: the writer of the findings, and their rows. */
void writer_open(struct tr *x);
void write_rows(struct tr *x, const struct ds_findings *f);

#endif
