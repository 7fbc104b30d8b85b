/* src/figure/plot_bench_read.c — the files of `harmonia bench` as series of
 * the figures: a raw file gives every valid repetition (latency with a
 * confidence band, distributions), a summary one median per size. */
#include <math.h>
#include <stdio.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"
#include "figure/plot_input.h"

/* Legend base: "allreduce barrier" (op and sync, as the stats table). */
static void base_label(char *buf, size_t len, const char *op, const char *sync)
{
    snprintf(buf, len, "%s%s%s", op, *sync ? " " : "", sync);
}

static int runtime_cell(hm__plot_read_t *c, int k, double *x_s)
{
    int rc = hm__plot_number(c, k, x_s);
    if (rc != HM_OK) return rc;
    return hm__plot_check(c, k, isfinite(*x_s) && *x_s >= 0, "a run-time in seconds");
}

/* One group of a raw file into both figures; run-times are drawn on a log
 * axis, so a negative one is refused. */
static int add_group(hm__plot_read_t *c, const hm_analysis_group_t *g)
{
    char base[160], ranks[32], procs[24];
    size_t lat, dist;
    base_label(base, sizeof base, g->op, g->sync);
    snprintf(procs, sizeof procs, "%ld", g->processes);
    hm__plot_ranks(ranks, sizeof ranks, procs);
    int rc = hm__plot_series(&c->fig[HM_FIG_LATENCY], base, ranks, c->src, 0, &lat);
    if (rc == HM_OK)
        rc = hm__plot_series(&c->fig[HM_FIG_DISTRIBUTION], base, ranks, c->src, 0, &dist);
    for (size_t i = 0; rc == HM_OK && i < g->n; i++) {
        double x = (double)g->size_bytes, v_us = g->x_s[i] * 1e6;
        if (g->x_s[i] < 0) {
            hm__error_set(HM_EINVAL, "%s: a negative run-time (%g s) of %s %lld B", c->src->file,
                          g->x_s[i], g->op, g->size_bytes);
            return HM_EINVAL;
        }
        rc = hm__plot_add(&c->fig[HM_FIG_LATENCY], lat, x, v_us);
        if (rc == HM_OK) rc = hm__plot_add(&c->fig[HM_FIG_DISTRIBUTION], dist, x, v_us);
    }
    return rc;
}

/* A raw file is read by the reader stats and compare use (the library's),
 * so that it means the same to all three. */
int hm__plot_read_bench_raw(hm__plot_read_t *c)
{
    hm_analysis_groups_t groups = {0};
    int rc = hm_analysis_groups_read_raw(&groups, c->src->file, c->metric);
    for (size_t k = 0; rc == HM_OK && k < groups.n; k++) rc = add_group(c, &groups.g[k]);
    hm_analysis_groups_free(&groups);
    if (rc == HM_OK || rc == HM_ENOMEM) return rc;
    return HM_EINVAL; /* sentence: set by hm_analysis_groups_read_raw or add_group */
}

/* Columns: op, size_bytes, sync, median_s or local_median_s. A row without
 * valid repetitions (NaN median) has nothing to draw. */
int hm__plot_read_bench_summary(hm__plot_read_t *c)
{
    char base[160], ranks[32];
    int more, rc;
    double size, x_s;
    size_t lat;
    if (hm__plot_scale_file(c)) return hm__plot_read_bench_scale(c);
    hm__plot_ranks(ranks, sizeof ranks, hm__plot_factor(c, "processes"));
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = hm__plot_size_cell(c, 1, &size)) != HM_OK ||
            (rc = hm__plot_number(c, 3, &x_s)) != HM_OK)
            break;
        if (isnan(x_s)) continue;
        if ((rc = runtime_cell(c, 3, &x_s)) != HM_OK) break;
        base_label(base, sizeof base, hm__plot_text(c, 0), hm__plot_text(c, 2));
        /* variant 1: a median without the repetitions, so no band */
        rc = hm__plot_series(&c->fig[HM_FIG_LATENCY], base, ranks, c->src, 1, &lat);
        if (rc == HM_OK) rc = hm__plot_add(&c->fig[HM_FIG_LATENCY], lat, size, x_s * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}
