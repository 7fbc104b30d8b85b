/* src/figure/plot_overlap_read.c — a raw file of `harmonia overlap` as the
 * series of its distribution figure: every valid repetition of a metric per
 * cell, read by the reader stats and compare use (the library's), so that
 * the figure shows the samples their tests rest on. */
#include <math.h>
#include <stdio.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"
#include "figure/plot_input.h"

/* A metric of overlap: the one asked for, or overhead (the default of
 * overlap, docs/overlap.md) where --metric named one of bench (plot's
 * default is global, which an overlap file does not have). */
static hm_metric_t overlap_metric(hm_metric_t asked)
{
    return hm_results_metric_kind(asked) == HM_RESULTS_OVERLAP_RAW ? asked : HM_METRIC_OVERHEAD;
}

/* Legend base: "iallreduce, computation 100 us" ("computation = comm"
 * where the run computed as long as it communicated, --comp-us comm). */
static void base_label(char *buf, size_t len, const hm_analysis_group_t *g)
{
    /* A cell whose references did not stand (cell_valid 0) is drawn, as
     * stats counts it, but its ratios are not what they claim: said. */
    const char *invalid = g->n_invalid_cell ? ", INVALID cell" : "";
    if (isnan(g->comp_target_s))
        snprintf(buf, len, "%s, computation = communication%s", g->op, invalid);
    else
        snprintf(buf, len, "%s, computation %.6g us%s", g->op, g->comp_target_s * 1e6, invalid);
}

/* One cell's repetitions into the figure, at x = its communication: the
 * target time in us, or its message size under --sizes (variant bit). */
static int add_group(hm__plot_read_t *c, const hm_analysis_group_t *g, hm_metric_t metric)
{
    char base[160], ranks[32], procs[24];
    size_t s;
    int by_size = g->size_bytes >= 0 && isnan(g->comm_target_s);
    double x = by_size ? (double)g->size_bytes : g->comm_target_s * 1e6;
    int scale_us = hm_results_metric_is_time(metric);
    base_label(base, sizeof base, g);
    snprintf(procs, sizeof procs, "%ld", g->processes);
    hm__plot_ranks(ranks, sizeof ranks, procs);
    int rc = hm__plot_series(&c->fig[HM_FIG_OVERLAP_DISTRIBUTION], base, ranks, c->src,
                             (int)metric | (by_size ? HM_PLOT_OVERLAP_BY_SIZE : 0), &s);
    for (size_t i = 0; rc == HM_OK && i < g->n; i++)
        rc = hm__plot_add(&c->fig[HM_FIG_OVERLAP_DISTRIBUTION], s, x,
                          scale_us ? g->x_s[i] * 1e6 : g->x_s[i]);
    return rc;
}

int hm__plot_read_overlap_raw(hm__plot_read_t *c)
{
    hm_analysis_groups_t groups = {0};
    hm_metric_t metric = overlap_metric(c->metric);
    int rc = hm_analysis_groups_read_raw(&groups, c->src->file, metric);
    for (size_t k = 0; rc == HM_OK && k < groups.n; k++) rc = add_group(c, &groups.g[k], metric);
    hm_analysis_groups_free(&groups);
    if (rc == HM_OK || rc == HM_ENOMEM) return rc;
    return HM_EINVAL; /* sentence: set by hm_analysis_groups_read_raw */
}
