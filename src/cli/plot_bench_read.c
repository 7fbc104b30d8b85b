/* src/cli/plot_bench_read.c — the files of `harmonia bench` as series of
 * `harmonia plot`: a raw file gives every valid repetition (latency with a
 * confidence band, distributions), a summary one median per size. */
#include <math.h>
#include <stdio.h>

#include "cli/plot_input.h"

/* Legend base: "allreduce barrier" (op and sync, as the stats table). */
static void base_label(char *buf, size_t len, const char *op, const char *sync)
{
    snprintf(buf, len, "%s%s%s", op, *sync ? " " : "", sync);
}

static int size_cell(hm_plot_read_t *c, int k, double *size)
{
    int rc = hm_plot_number(c, k, size);
    if (rc != HM_OK) return rc;
    return hm_plot_check(c, k, *size >= 0 && *size <= 9e15 && *size == floor(*size),
                         "a size in bytes");
}

static int runtime_cell(hm_plot_read_t *c, int k, double *x_s)
{
    int rc = hm_plot_number(c, k, x_s);
    if (rc != HM_OK) return rc;
    return hm_plot_check(c, k, isfinite(*x_s) && *x_s >= 0, "a run-time in seconds");
}

/* Columns: op, size_bytes, valid, global_s or local_s. */
int hm_plot_read_bench_raw(hm_plot_read_t *c)
{
    char base[160], ranks[32];
    int more, rc;
    double valid, size, x_s;
    size_t lat, dist;
    hm_plot_ranks(ranks, sizeof ranks, hm_plot_factor(c, "processes"));
    while ((rc = hm_plot_next(c, &more)) == HM_OK && more) {
        if ((rc = hm_plot_number(c, 2, &valid)) != HM_OK) break;
        if (valid != 1) continue;
        if ((rc = size_cell(c, 1, &size)) != HM_OK || (rc = runtime_cell(c, 3, &x_s)) != HM_OK)
            break;
        base_label(base, sizeof base, hm_plot_text(c, 0), hm_plot_factor(c, "sync"));
        rc = hm_plot_series(&c->fig[HM_FIG_LATENCY], base, ranks, c->src, 0, &lat);
        if (rc == HM_OK) rc = hm_plot_add(&c->fig[HM_FIG_LATENCY], lat, size, x_s * 1e6);
        if (rc == HM_OK)
            rc = hm_plot_series(&c->fig[HM_FIG_DISTRIBUTION], base, ranks, c->src, 0, &dist);
        if (rc == HM_OK) rc = hm_plot_add(&c->fig[HM_FIG_DISTRIBUTION], dist, size, x_s * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns: op, size_bytes, sync, median_s or local_median_s. A row without
 * valid repetitions (NaN median) has nothing to draw. */
int hm_plot_read_bench_summary(hm_plot_read_t *c)
{
    char base[160], ranks[32];
    int more, rc;
    double size, x_s;
    size_t lat;
    hm_plot_ranks(ranks, sizeof ranks, hm_plot_factor(c, "processes"));
    while ((rc = hm_plot_next(c, &more)) == HM_OK && more) {
        if ((rc = size_cell(c, 1, &size)) != HM_OK || (rc = hm_plot_number(c, 3, &x_s)) != HM_OK)
            break;
        if (isnan(x_s)) continue;
        if ((rc = runtime_cell(c, 3, &x_s)) != HM_OK) break;
        base_label(base, sizeof base, hm_plot_text(c, 0), hm_plot_text(c, 2));
        /* variant 1: a median without the repetitions, so no band */
        rc = hm_plot_series(&c->fig[HM_FIG_LATENCY], base, ranks, c->src, 1, &lat);
        if (rc == HM_OK) rc = hm_plot_add(&c->fig[HM_FIG_LATENCY], lat, size, x_s * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}
