/* tools/harmonia/commands/stats_report.c — statistics, table and CSV rows of `harmonia
 * stats`. Seconds in files, microseconds on screen, as bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/stats_report.h"

int hm_stats_groups_add(hm_stats_groups_t *gs, const char *op, long long size_bytes, long processes,
                        const char *sync, double x_s)
{
    hm_stats_group_t *g = NULL;
    /* Rows of one experiment are consecutive: look at the last group first. */
    for (size_t k = gs->n; k-- > 0;) {
        hm_stats_group_t *c = &gs->g[k];
        if (c->size_bytes == size_bytes && c->processes == processes && !strcmp(c->op, op) &&
            !strcmp(c->sync, sync)) {
            g = c;
            break;
        }
    }
    if (!g) {
        if (gs->n == gs->cap) {
            size_t cap = gs->cap ? 2 * gs->cap : 16;
            hm_stats_group_t *p = realloc(gs->g, cap * sizeof *p);
            if (!p) return HM_ENOMEM;
            gs->g = p, gs->cap = cap;
        }
        g = &gs->g[gs->n];
        *g = (hm_stats_group_t){strdup(op), size_bytes, processes, strdup(sync), NULL, 0, 0};
        gs->n++;
        if (!g->op || !g->sync) return HM_ENOMEM;
    }
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        double *p = realloc(g->x_s, cap * sizeof *p);
        if (!p) return HM_ENOMEM;
        g->x_s = p, g->cap = cap;
    }
    g->x_s[g->n++] = x_s;
    return HM_OK;
}

static int compare_groups(const void *a, const void *b)
{
    const hm_stats_group_t *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if (x->processes != y->processes) return x->processes < y->processes ? -1 : 1;
    return strcmp(x->sync, y->sync);
}

void hm_stats_groups_sort(hm_stats_groups_t *gs)
{
    if (gs->n > 1) qsort(gs->g, gs->n, sizeof *gs->g, compare_groups);
}

void hm_stats_groups_free(hm_stats_groups_t *gs)
{
    for (size_t k = 0; k < gs->n; k++) {
        free(gs->g[k].op);
        free(gs->g[k].sync);
        free(gs->g[k].x_s);
    }
    free(gs->g);
    *gs = (hm_stats_groups_t){0};
}

/* Statistics of the n kept values x (file order); sorted is room for a copy. The
 * library says which are undefined (HM_EINVAL): those become n/a. */
static void row_from_kept(const double *x, double *sorted, size_t n, hm_stats_row_t *row)
{
    double acf[2], band, w;
    memcpy(sorted, x, n * sizeof *x);
    hm_stats_sort(sorted, n);
    if (hm_stats_median_ci(sorted, n, 0.95, &row->median_lo_s, &row->median_hi_s) != HM_OK)
        row->median_lo_s = row->median_hi_s = NAN;
    if (hm_stats_mean_ci(x, n, 0.95, &row->mean_lo_s, &row->mean_hi_s) != HM_OK)
        row->mean_lo_s = row->mean_hi_s = NAN;
    row->acf1 = NAN;
    if (n >= 3 && hm_stats_autocorrelation(x, n, 1, acf, &band) == HM_OK) row->acf1 = acf[1];
    if (hm_stats_shapiro_wilk(x, n, &w, &row->shapiro_p) != HM_OK) row->shapiro_p = NAN;
}

int hm_stats_row_compute(const hm_stats_group_t *g, const char *filter, hm_stats_row_t *row)
{
    double *kept = malloc(2 * (g->n ? g->n : 1) * sizeof *kept), *sorted = kept + g->n;
    int rc = kept ? HM_OK : HM_ENOMEM;
    row->n = g->n;
    row->kept = g->n;
    if (rc == HM_OK && strcmp(filter, "tukey") == 0)
        rc = hm_stats_tukey(g->x_s, g->n, kept, &row->kept, NULL, NULL);
    else if (rc == HM_OK)
        memcpy(kept, g->x_s, g->n * sizeof *kept);
    if (rc == HM_OK) rc = hm_stats_summarize(kept, row->kept, &row->s);
    if (rc == HM_OK) row_from_kept(kept, sorted, row->kept, row);
    free(kept);
    return rc;
}

static void cell_us(hm_table_t *t, double x_s)
{
    if (isnan(x_s))
        hm_table_add_cell(t, "n/a");
    else
        hm_table_add_cellf(t, "%.2f", x_s * 1e6);
}

void hm_stats_print_table(const hm_stats_groups_t *gs, const hm_stats_row_t *rows, FILE *f)
{
    static const char *const cols[] = {
        "op",           "size_B",       "procs",         "sync",          "n",      "kept",
        "min_us",       "q1_us",        "med_us",        "q3_us",         "max_us", "mean_us",
        "med_ci_lo_us", "med_ci_hi_us", "mean_ci_lo_us", "mean_ci_hi_us", "acf1",   "sw_p"};
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        hm_table_add_column(t, cols[c], c == 0 || c == 3 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (size_t k = 0; k < gs->n; k++) {
        const hm_stats_group_t *g = &gs->g[k];
        const hm_stats_row_t *r = &rows[k];
        hm_table_add_cell(t, g->op);
        hm_table_add_cellf(t, "%lld", g->size_bytes);
        hm_table_add_cellf(t, "%ld", g->processes);
        hm_table_add_cell(t, g->sync);
        hm_table_add_cellf(t, "%zu", r->n);
        hm_table_add_cellf(t, "%zu", r->kept);
        const double x[] = {r->s.min,  r->s.q1,        r->s.median,    r->s.q3,      r->s.max,
                            r->s.mean, r->median_lo_s, r->median_hi_s, r->mean_lo_s, r->mean_hi_s};
        for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) cell_us(t, x[i]);
        if (isnan(r->acf1))
            hm_table_add_cell(t, "n/a");
        else
            hm_table_add_cellf(t, "%.3f", r->acf1);
        if (isnan(r->shapiro_p))
            hm_table_add_cell(t, "n/a");
        else
            hm_table_add_cellf(t, "%.3g", r->shapiro_p);
    }
    hm_table_print(t, f);
    hm_table_free(t);
}

const char *const hm_stats_columns[] = {
    "op",           "size_bytes", "processes",      "sync",           "n",
    "n_kept",       "min_s",      "q1_s",           "median_s",       "q3_s",
    "max_s",        "mean_s",     "median_ci_lo_s", "median_ci_hi_s", "mean_ci_lo_s",
    "mean_ci_hi_s", "acf1",       "shapiro_p"};
const size_t hm_stats_ncolumns = sizeof hm_stats_columns / sizeof hm_stats_columns[0];

int hm_stats_write_row(hm_csv_t *csv, const hm_stats_group_t *g, const hm_stats_row_t *r)
{
    hm_csv_put_string(csv, g->op);
    hm_csv_put_int64(csv, g->size_bytes);
    hm_csv_put_int64(csv, g->processes);
    hm_csv_put_string(csv, g->sync);
    hm_csv_put_int64(csv, (int64_t)r->n);
    hm_csv_put_int64(csv, (int64_t)r->kept);
    const double x[] = {r->s.min,     r->s.q1,      r->s.median,    r->s.q3,
                        r->s.max,     r->s.mean,    r->median_lo_s, r->median_hi_s,
                        r->mean_lo_s, r->mean_hi_s, r->acf1,        r->shapiro_p};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) hm_csv_put_double(csv, x[i]);
    return hm_csv_end_row(csv);
}
