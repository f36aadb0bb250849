/*
 * dlat's Prometheus text: its histograms since tracing began, and the
 * events it missed.
 */
#include "dlat.h"

static int
puts_buf(struct ds_buf *b, const char *s, size_t n)
{
	int e;

	if ((e = ds_buf_reserve(b, n)) < 0)
		return e;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

#define PUTS(b, s) puts_buf(b, s, strlen(s))

/*
 * The histogram family dlat_latency_seconds{device,op,phase} of s
 * (counted since attach) and dlat_missed_events_total{reason}.
 */
int
dlat_prom(struct dl *d, const struct ds_blklat_snap *s,
    struct ds_buf *out)
{
	struct ds_buf lab = { 0 }, *b = out;
	struct ds_lat *h;
	char num[32];
	const char *n;
	uint64_t *cg = NULL;
	size_t i, j, ncg = 0;
	int e = 0;

	/* -g: the cgroups with the most requests since tracing began. */
	if (d->cg)
		ncg = dlat_cg_rank(d, NULL, s, &cg);

	if ((h = malloc(sizeof(*h))) == NULL)
		return -ENOMEM;
	e |= PUTS(b, "# HELP dlat_latency_seconds Block I/O latency by disk, "
	    "operation and phase (d2c issue to completion, q2c queue to "
	    "completion, q2d queue to issue).\n"
	    "# TYPE dlat_latency_seconds histogram\n");
	for (i = 0; i < s->n && e == 0; i++) {
		for (j = 0; j < ncg && cg[j] != s->r[i].cg; j++)
			;
		if (d->cg && j == ncg)
			continue;
		n = dlat_disk_name(d, s->r[i].dev);
		lab.len = 0;
		e |= PUTS(&lab, "device=\"");
		e |= ds_esc_prom(&lab, n, strlen(n));
		e |= PUTS(&lab, "\",op=\"");
		e |= PUTS(&lab, ds_blk_op_name(s->r[i].op));
		e |= PUTS(&lab, "\",phase=\"");
		e |= PUTS(&lab, ds_blk_phase_name(s->r[i].phase));
		e |= PUTS(&lab, "\"");
		if (d->cg) {
			n = dlat_cg_name(d, s->r[i].cg, num,
			    sizeof(num));
			e |= PUTS(&lab, ",cgroup=\"");
			if (n != NULL)
				e |= ds_esc_prom(&lab, n, strlen(n));
			e |= PUTS(&lab, "\"");
		}
		/* Against no earlier snapshot: the whole histogram. */
		ds_blklat_delta(NULL, s, &s->r[i], h);
		if (e == 0)
			e |= ds_lat_prom(b, "dlat_latency_seconds", lab.data, h);
	}
	e |= PUTS(b, "# HELP dlat_missed_events_total Block events not "
	    "counted in dlat_latency_seconds, by reason.\n"
	    "# TYPE dlat_missed_events_total counter\n");
	for (i = 0; i < DS_MISS_N; i++) {
		e |= PUTS(b, "dlat_missed_events_total{reason=\"");
		e |= PUTS(b, ds_blklat_miss_name((unsigned int)i));
		snprintf(num, sizeof(num), "\"} %llu\n",
		    (unsigned long long)s->miss[i]);
		e |= PUTS(b, num);
	}
	ds_buf_free(&lab);
	free(cg);
	free(h);
	return e ? -ENOMEM : 0;
}
