/* src/analysis/groups.c — samples grouped by (op, size, processes, sync),
 * from raw files or per-mpirun datasets, and the outlier filter applied to
 * them [Hunold & Carpen-Amarie 2016, Sec. 3.5 and Alg. 6 line 9]. */
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

static int no_memory(void)
{
    return hm_error_set(HM_ENOMEM, "groups of samples: out of memory");
}

/* The group of (op, size, processes, sync), created at the end when new. */
static int find_group(hm_analysis_groups_t *gs, const char *op, long long size_bytes,
                      long processes, const char *sync, hm_analysis_group_t **out)
{
    /* Rows of one experiment are consecutive: look at the last group first. */
    for (size_t k = gs->n; k-- > 0;) {
        hm_analysis_group_t *c = &gs->g[k];
        if (c->size_bytes == size_bytes && c->processes == processes && !strcmp(c->op, op) &&
            !strcmp(c->sync, sync)) {
            *out = c;
            return HM_OK;
        }
    }
    if (gs->n == gs->cap) {
        size_t cap = gs->cap ? 2 * gs->cap : 16;
        hm_analysis_group_t *p = realloc(gs->g, cap * sizeof *p);
        if (!p) return no_memory();
        gs->g = p, gs->cap = cap;
    }
    hm_analysis_group_t *g = &gs->g[gs->n++];
    *g = (hm_analysis_group_t){strdup(op), size_bytes, processes, strdup(sync), NULL, 0, 0};
    *out = g;
    return g->op && g->sync ? HM_OK : no_memory();
}

int hm_analysis_groups_add(hm_analysis_groups_t *gs, const char *op, long long size_bytes,
                           long processes, const char *sync, double x_s)
{
    hm_analysis_group_t *g = NULL;
    int rc = find_group(gs, op, size_bytes, processes, sync, &g);
    if (rc != HM_OK) return rc;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        double *p = realloc(g->x_s, cap * sizeof *p);
        if (!p) return no_memory();
        g->x_s = p, g->cap = cap;
    }
    g->x_s[g->n++] = x_s;
    return HM_OK;
}

int hm_analysis_groups_read_raw(hm_analysis_groups_t *gs, const char *path, hm_metric_t metric)
{
    hm_results_bench_raw_t *raw = NULL;
    hm_results_bench_raw_row_t row;
    int more = 0, rc = hm_results_bench_raw_open(path, metric, &raw);
    while (rc == HM_OK && (rc = hm_results_bench_raw_next(raw, &row, &more)) == HM_OK && more)
        rc = hm_analysis_groups_add(gs, row.op, row.size_bytes, hm_results_bench_raw_processes(raw),
                                    hm_results_bench_raw_sync(raw), row.x_s);
    hm_results_bench_raw_close(raw);
    return rc;
}

int hm_analysis_groups_from_permpirun(hm_analysis_groups_t *gs, const hm_results_permpirun_t *ds,
                                      hm_statistic_t statistic)
{
    int rc = HM_OK;
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++) {
        const hm_results_permpirun_row_t *r = &ds->rows[i];
        rc = hm_analysis_groups_add(gs, r->op, r->size_bytes, r->processes, r->sync,
                                    hm_analysis_permpirun_value(r, statistic));
    }
    return rc;
}

int hm_analysis_filter(hm_filter_t filter, double *x, size_t n, size_t *kept)
{
    switch (filter) {
    case HM_FILTER_TUKEY:
        return hm_stats_tukey(x, n, x, kept, NULL, NULL) == HM_OK ? HM_OK : no_memory();
    case HM_FILTER_NONE:
        *kept = n;
        return HM_OK;
    }
    return hm_error_set(HM_EINVAL, "unknown filter (%d)", (int)filter);
}

int hm_analysis_groups_filter(hm_analysis_groups_t *gs, hm_filter_t filter)
{
    int rc = HM_OK;
    for (size_t k = 0; rc == HM_OK && k < gs->n; k++)
        rc = hm_analysis_filter(filter, gs->g[k].x_s, gs->g[k].n, &gs->g[k].n);
    return rc;
}

static int compare_groups(const void *a, const void *b)
{
    const hm_analysis_group_t *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if (x->processes != y->processes) return x->processes < y->processes ? -1 : 1;
    return strcmp(x->sync, y->sync);
}

void hm_analysis_groups_sort(hm_analysis_groups_t *gs)
{
    if (gs->n > 1) qsort(gs->g, gs->n, sizeof *gs->g, compare_groups);
}

void hm_analysis_groups_free(hm_analysis_groups_t *gs)
{
    for (size_t k = 0; k < gs->n; k++) {
        free(gs->g[k].op);
        free(gs->g[k].sync);
        free(gs->g[k].x_s);
    }
    free(gs->g);
    *gs = (hm_analysis_groups_t){0};
}
