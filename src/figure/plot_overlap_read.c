/* src/figure/plot_overlap_read.c — overlap's cells as series of their
 * figures: a raw file's valid repetitions of a metric per cell
 * (overlap-distribution), read by the reader stats and compare use (the
 * library's), so that the figure shows the samples their tests rest on; a
 * campaign's per-mpirun medians per cell (overlap-campaign). */
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

/* Legend base: "iallreduce, computation 100 us" ("computation =
 * communication" where the run computed as long as it communicated,
 * --comp-us comm). A cell whose references did not stand (cell_valid 0)
 * is drawn, as stats and campaign count it, but its ratios are not what
 * they claim: its series says so. */
static void base_label(char *buf, size_t len, const hm__plot_cell_t *cell)
{
    const char *invalid = cell->invalid ? ", INVALID cell" : "";
    if (isnan(cell->comp_target_s))
        snprintf(buf, len, "%s, computation = communication%s", cell->op, invalid);
    else
        snprintf(buf, len, "%s, computation %.6g us%s", cell->op, cell->comp_target_s * 1e6,
                 invalid);
}

int hm__plot_add_cell(hm__plot_read_t *c, int fig, const hm__plot_cell_t *cell, const double *v,
                      size_t n)
{
    char base[160], ranks[32], procs[24];
    size_t s;
    /* The cell's communication: its target in us, or its message size
     * under --sizes (and ibarrier's 0), which the variant says. */
    int by_size = cell->size_bytes >= 0 && isnan(cell->comm_target_s);
    double x = by_size ? (double)cell->size_bytes : cell->comm_target_s * 1e6;
    double scale = hm_results_metric_is_time(cell->metric) ? 1e6 : 1;
    base_label(base, sizeof base, cell);
    snprintf(procs, sizeof procs, "%ld", cell->processes);
    hm__plot_ranks(ranks, sizeof ranks, procs);
    int rc = hm__plot_series(&c->fig[fig], base, ranks, c->src,
                             (int)cell->metric | (by_size ? HM_PLOT_OVERLAP_BY_SIZE : 0), &s);
    for (size_t i = 0; rc == HM_OK && i < n; i++)
        rc = hm__plot_add(&c->fig[fig], s, x, v[i] * scale);
    return rc;
}

int hm__plot_read_overlap_raw(hm__plot_read_t *c)
{
    hm_analysis_groups_t groups = {0};
    hm_metric_t metric = overlap_metric(c->metric);
    int rc = hm_analysis_groups_read_raw(&groups, c->src->file, metric);
    for (size_t k = 0; rc == HM_OK && k < groups.n; k++) {
        const hm_analysis_group_t *g = &groups.g[k];
        hm__plot_cell_t cell = {g->op,
                                metric,
                                g->size_bytes,
                                g->comm_target_s,
                                g->comp_target_s,
                                g->processes,
                                g->n_invalid_cell > 0};
        rc = hm__plot_add_cell(c, HM_FIG_OVERLAP_DISTRIBUTION, &cell, g->x_s, g->n);
    }
    hm_analysis_groups_free(&groups);
    if (rc == HM_OK || rc == HM_ENOMEM) return rc;
    return HM_EINVAL; /* sentence: set by hm_analysis_groups_read_raw */
}
