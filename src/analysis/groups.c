/* src/analysis/groups.c — samples grouped by (op, size, processes, sync),
 * or by cell of overlap and processes, sync, progress, from raw files or
 * per-mpirun datasets, and the outlier filter applied to them [Hunold &
 * Carpen-Amarie 2016, Sec. 3.5 and Alg. 6 line 9]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_impl.h"
#include "common/error_set.h"

static int no_memory(void)
{
    return hm__error_set(HM_ENOMEM, "groups of samples: out of memory");
}

int hm_analysis_group_is_overlap(const hm_analysis_group_t *g)
{
    if (!g) {
        hm__error_null(__func__, "g");
        return 0;
    }
    return hm_results_metric_kind(g->metric) == HM_RESULTS_OVERLAP_RAW;
}

/* Targets in order, "no target" (NaN) first and equal to itself. */
static int cmp_target(double a, double b)
{
    int na = isnan(a) != 0, nb = isnan(b) != 0;
    if (na || nb) return nb - na;
    return (a > b) - (a < b);
}

/* Bench groups hold 0 as targets: they order by op, size, processes. */
int hm__analysis_cell_cmp(const hm_analysis_group_t *x, const hm_analysis_group_t *y)
{
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if ((c = cmp_target(x->comm_target_s, y->comm_target_s))) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if ((c = cmp_target(x->comp_target_s, y->comp_target_s))) return c;
    return (x->processes > y->processes) - (x->processes < y->processes);
}

int hm__analysis_group_cmp(const hm_analysis_group_t *x, const hm_analysis_group_t *y)
{
    int c = hm__analysis_cell_cmp(x, y);
    if (c || (c = strcmp(x->sync, y->sync))) return c;
    return strcmp(x->progress ? x->progress : "", y->progress ? y->progress : "");
}

void hm__analysis_group_name(const hm_analysis_group_t *g, char *buf, size_t len)
{
    char cell[160];
    hm_results_cell_name(g->op, g->size_bytes, g->comm_target_s, g->comp_target_s,
                         hm_analysis_group_is_overlap(g), cell, sizeof cell);
    snprintf(buf, len, "%s at %ld processes", cell, g->processes);
}

static int new_group(hm_analysis_groups_t *gs, const hm_analysis_key_t *key,
                     hm_analysis_group_t **out)
{
    if (gs->n == gs->cap) {
        size_t cap = gs->cap ? 2 * gs->cap : 16;
        hm_analysis_group_t *p = realloc(gs->g, cap * sizeof *p);
        if (!p) return no_memory();
        gs->g = p, gs->cap = cap;
    }
    hm_analysis_group_t *g = &gs->g[gs->n++];
    *g = (hm_analysis_group_t){.op = strdup(key->op),
                               .size_bytes = key->size_bytes,
                               .processes = key->processes,
                               .sync = strdup(key->sync),
                               .metric = key->metric,
                               .comm_target_s = key->comm_target_s,
                               .comp_target_s = key->comp_target_s};
    *out = g;
    if (key->progress && !(g->progress = strdup(key->progress))) return no_memory();
    return g->op && g->sync ? HM_OK : no_memory();
}

/* The group of key, created at the end when new. */
static int find_group(hm_analysis_groups_t *gs, const hm_analysis_key_t *key,
                      hm_analysis_group_t **out)
{
    const hm_analysis_group_t want = {.op = (char *)key->op,
                                      .size_bytes = key->size_bytes,
                                      .processes = key->processes,
                                      .sync = (char *)key->sync,
                                      .comm_target_s = key->comm_target_s,
                                      .comp_target_s = key->comp_target_s,
                                      .progress = (char *)key->progress};
    if (gs->n > 0 && gs->g[0].metric != key->metric)
        return hm__error_set(HM_EINVAL, "groups of metric %s cannot take a sample of metric %s",
                             hm_results_metric_name(gs->g[0].metric),
                             hm_results_metric_name(key->metric));
    /* Rows of one experiment are consecutive: look at the last group first. */
    for (size_t k = gs->n; k-- > 0;)
        if (hm__analysis_group_cmp(&gs->g[k], &want) == 0) {
            *out = &gs->g[k];
            return HM_OK;
        }
    return new_group(gs, key, out);
}

int hm_analysis_groups_add_key(hm_analysis_groups_t *gs, const hm_analysis_key_t *key, double x)
{
    hm_analysis_group_t *g = NULL;
    if (!gs) return hm__error_null(__func__, "groups");
    if (!key) return hm__error_null(__func__, "key");
    if (!key->op) return hm__error_null(__func__, "key->op");
    if (!key->sync) return hm__error_null(__func__, "key->sync");
    int rc = find_group(gs, key, &g);
    if (rc != HM_OK) return rc;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        double *p = realloc(g->x_s, cap * sizeof *p);
        if (!p) return no_memory();
        g->x_s = p, g->cap = cap;
    }
    g->x_s[g->n++] = x;
    g->n_invalid_cell += key->cell_invalid != 0;
    return HM_OK;
}

int hm_analysis_groups_add(hm_analysis_groups_t *gs, const char *op, long long size_bytes,
                           long processes, const char *sync, double x_s)
{
    if (!gs) return hm__error_null(__func__, "groups");
    if (!op) return hm__error_null(__func__, "op");
    if (!sync) return hm__error_null(__func__, "sync");
    const hm_analysis_key_t key = {.metric = HM_METRIC_GLOBAL,
                                   .op = op,
                                   .size_bytes = size_bytes,
                                   .processes = processes,
                                   .sync = sync};
    return hm_analysis_groups_add_key(gs, &key, x_s);
}

static int read_bench(hm_analysis_groups_t *gs, const char *path, hm_metric_t metric)
{
    hm_results_bench_raw_t *raw = NULL;
    hm_results_bench_raw_row_t row;
    int more = 0, rc = hm_results_bench_raw_open(path, metric, &raw);
    hm_analysis_key_t key = {.metric = metric};
    if (rc == HM_OK) {
        key.processes = hm_results_bench_raw_processes(raw);
        key.sync = hm_results_bench_raw_sync(raw);
    }
    while (rc == HM_OK && (rc = hm_results_bench_raw_next(raw, &row, &more)) == HM_OK && more) {
        key.op = row.op, key.size_bytes = row.size_bytes;
        rc = hm_analysis_groups_add_key(gs, &key, row.x_s);
    }
    hm_results_bench_raw_close(raw);
    return rc;
}

/* A calibrated size differs from one mpirun to the next: the target names
 * the cell, the size only where it was given (--sizes). */
static int read_overlap(hm_analysis_groups_t *gs, const char *path, hm_metric_t metric)
{
    hm_results_overlap_raw_t *raw = NULL;
    hm_results_overlap_raw_row_t row;
    int more = 0, rc = hm_results_overlap_raw_open(path, metric, &raw);
    hm_analysis_key_t key = {.metric = metric};
    if (rc == HM_OK) {
        key.processes = hm_results_overlap_raw_processes(raw);
        key.sync = hm_results_overlap_raw_sync(raw);
        key.progress = hm_results_overlap_raw_progress(raw);
    }
    while (rc == HM_OK && (rc = hm_results_overlap_raw_next(raw, &row, &more)) == HM_OK && more) {
        key.op = row.op;
        key.comm_target_s = row.comm_target_s, key.comp_target_s = row.comp_target_s;
        key.size_bytes = isnan(row.comm_target_s) ? row.size_bytes : -1;
        key.cell_invalid = !row.cell_valid;
        rc = hm_analysis_groups_add_key(gs, &key, row.x);
    }
    hm_results_overlap_raw_close(raw);
    return rc;
}

int hm_analysis_groups_read_raw(hm_analysis_groups_t *gs, const char *path, hm_metric_t metric)
{
    if (!gs) return hm__error_null(__func__, "groups");
    if (!path) return hm__error_null(__func__, "path");
    if (hm_results_metric_kind(metric) == HM_RESULTS_OVERLAP_RAW)
        return read_overlap(gs, path, metric);
    return read_bench(gs, path, metric);
}

int hm_analysis_groups_from_permpirun(hm_analysis_groups_t *gs, const hm_results_permpirun_t *ds,
                                      hm_statistic_t statistic)
{
    if (!gs) return hm__error_null(__func__, "groups");
    if (!ds) return hm__error_null(__func__, "ds");
    int rc = HM_OK, overlap = hm_results_metric_kind(ds->metric) == HM_RESULTS_OVERLAP_RAW;
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++) {
        const hm_results_permpirun_row_t *r = &ds->rows[i];
        const hm_analysis_key_t key = {.metric = ds->metric,
                                       .op = r->op,
                                       .size_bytes = r->size_bytes,
                                       .comm_target_s = overlap ? r->comm_target_s : 0,
                                       .comp_target_s = overlap ? r->comp_target_s : 0,
                                       .processes = r->processes,
                                       .sync = r->sync,
                                       .progress = overlap ? r->progress : NULL,
                                       .cell_invalid = overlap && r->cell_invalid};
        rc = hm_analysis_groups_add_key(gs, &key, hm_analysis_permpirun_value(r, statistic));
    }
    return rc;
}

int hm_analysis_filter(hm_filter_t filter, double *x, size_t n, size_t *kept)
{
    /* An empty sample may come without memory (malloc(0)). */
    if (!x && n) return hm__error_null(__func__, "x");
    if (!kept) return hm__error_null(__func__, "kept");
    switch (filter) {
    case HM_FILTER_TUKEY:
        return hm_stats_tukey(x, n, x, kept, NULL, NULL) == HM_OK ? HM_OK : no_memory();
    case HM_FILTER_NONE:
        *kept = n;
        return HM_OK;
    }
    return hm__error_set(HM_EINVAL, "unknown filter (%d)", (int)filter);
}

int hm_analysis_groups_filter(hm_analysis_groups_t *gs, hm_filter_t filter)
{
    int rc = HM_OK;
    if (!gs) return hm__error_null(__func__, "groups");
    for (size_t k = 0; rc == HM_OK && k < gs->n; k++)
        rc = hm_analysis_filter(filter, gs->g[k].x_s, gs->g[k].n, &gs->g[k].n);
    return rc;
}

static int compare_groups(const void *a, const void *b)
{
    return hm__analysis_group_cmp(a, b);
}

void hm_analysis_groups_sort(hm_analysis_groups_t *gs)
{
    if (!gs) {
        hm__error_null(__func__, "groups");
        return;
    }
    if (gs->n > 1) qsort(gs->g, gs->n, sizeof *gs->g, compare_groups);
}

void hm_analysis_groups_free(hm_analysis_groups_t *gs)
{
    if (!gs) {
        hm__error_null(__func__, "groups");
        return;
    }
    for (size_t k = 0; k < gs->n; k++) {
        free(gs->g[k].op);
        free(gs->g[k].sync);
        free(gs->g[k].progress);
        free(gs->g[k].x_s);
    }
    free(gs->g);
    *gs = (hm_analysis_groups_t){0};
}
