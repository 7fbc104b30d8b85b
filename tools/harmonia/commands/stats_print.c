/* tools/harmonia/commands/stats_print.c — the tables of `harmonia stats` and `harmonia
 * campaign`. Seconds in files, microseconds on screen, as bench. */
#include <math.h>
#include <stdlib.h>

#include "commands/stats_print.h"

static void cell_us(hm_table_t *t, double x_s)
{
    if (isnan(x_s))
        hm_table_add_cell(t, "n/a");
    else
        hm_table_add_cellf(t, "%.2f", x_s * 1e6);
}

static void cell_number(hm_table_t *t, const char *fmt, double x)
{
    if (isnan(x))
        hm_table_add_cell(t, "n/a");
    else
        hm_table_add_cellf(t, fmt, x);
}

/* Names left-aligned (columns 0 and 3), numbers right-aligned. */
static int add_columns(hm_table_t *t, const char *const *cols, size_t n)
{
    int rc = HM_OK;
    for (size_t c = 0; rc == HM_OK && c < n; c++)
        rc = hm_table_add_column(t, cols[c], c == 0 || c == 3 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    return rc;
}

static void summary_row(hm_table_t *t, const hm_analysis_group_t *g, const hm_analysis_summary_t *r)
{
    hm_table_add_cell(t, g->op);
    hm_table_add_cellf(t, "%lld", g->size_bytes);
    hm_table_add_cellf(t, "%ld", g->processes);
    hm_table_add_cell(t, g->sync);
    hm_table_add_cellf(t, "%zu", r->n);
    hm_table_add_cellf(t, "%zu", r->kept);
    const double x[] = {r->s.min,  r->s.q1,        r->s.median,    r->s.q3,      r->s.max,
                        r->s.mean, r->median_lo_s, r->median_hi_s, r->mean_lo_s, r->mean_hi_s};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) cell_us(t, x[i]);
    cell_number(t, "%.3f", r->acf1);
    cell_number(t, "%.3g", r->shapiro_p);
}

int hm_cli_print_summaries(const hm_analysis_groups_t *gs, const hm_analysis_summary_t *rows,
                           FILE *f)
{
    static const char *const cols[] = {
        "op",           "size_B",       "procs",         "sync",          "n",      "kept",
        "min_us",       "q1_us",        "med_us",        "q3_us",         "max_us", "mean_us",
        "med_ci_lo_us", "med_ci_hi_us", "mean_ci_lo_us", "mean_ci_hi_us", "acf1",   "sw_p"};
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t);
    if (rc == HM_OK) rc = add_columns(t, cols, sizeof cols / sizeof cols[0]);
    for (size_t k = 0; rc == HM_OK && k < gs->n; k++) summary_row(t, &gs->g[k], &rows[k]);
    if (rc == HM_OK) rc = hm_table_print(t, f);
    hm_table_free(t);
    return rc;
}

/* ---- Campaigns: the runs of each group ------------------------------------ */

static void runs_row(hm_table_t *t, const hm_analysis_repro_group_t *g)
{
    hm_table_add_cell(t, g->key->op);
    hm_table_add_cellf(t, "%lld", g->key->size_bytes);
    hm_table_add_cellf(t, "%ld", g->key->processes);
    hm_table_add_cell(t, g->key->sync);
    hm_table_add_cellf(t, "%zu", g->nruns);
    hm_table_add_cellf(t, "%.2f", g->median_s * 1e6);
    hm_table_add_cellf(t, "%.2f", g->min_s * 1e6);
    hm_table_add_cellf(t, "%.2f", g->max_s * 1e6);
    cell_number(t, "%.3f", g->max_normalized);
}

int hm_cli_print_runs(const hm_analysis_repro_t *repro, FILE *f)
{
    static const char *const cols[] = {"op",     "size_B", "procs",  "sync", "runs",
                                       "med_us", "min_us", "max_us", "repro"};
    const char *stat = hm_analysis_statistic_name(hm_analysis_repro_statistic(repro));
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t);
    if (rc == HM_OK) rc = add_columns(t, cols, sizeof cols / sizeof cols[0]);
    for (size_t i = 0; rc == HM_OK && i < hm_analysis_repro_count(repro); i++)
        runs_row(t, hm_analysis_repro_group(repro, i));
    if (rc == HM_OK &&
        fprintf(f,
                "per-mpirun %ss (Alg. 6: each run's valid repetitions, filtered, reduced to "
                "their %s) over the runs: med/min/max in microseconds; repro = largest run's "
                "value / smallest (Fig. 29)\n",
                stat, stat) < 0)
        rc = HM_EIO;
    if (rc == HM_OK) rc = hm_table_print(t, f);
    hm_table_free(t);
    return rc;
}

/* One line per group: the runs' values over the smallest, ascending (the
 * distribution Fig. 29 draws), the largest at the end. */
static int normalized_line(const hm_analysis_repro_group_t *g, double *work, FILE *f)
{
    const hm_results_permpirun_row_t *k = g->key;
    for (size_t i = 0; i < g->nruns; i++) work[i] = g->runs[i].normalized;
    if (!isnan(g->max_normalized)) hm_stats_sort(work, g->nruns);
    if (fprintf(f, "%s %lld B, %ld processes, %s, %zu runs:", k->op, k->size_bytes, k->processes,
                k->sync, g->nruns) < 0)
        return HM_EIO;
    for (size_t i = 0; i < g->nruns; i++) fprintf(f, " %.3f", work[i]);
    return fprintf(f, "  (max %.3f)\n", g->max_normalized) < 0 ? HM_EIO : HM_OK;
}

int hm_cli_print_normalized(const hm_analysis_repro_t *repro, FILE *f)
{
    size_t most = 1, n = hm_analysis_repro_count(repro);
    for (size_t i = 0; i < n; i++)
        if (hm_analysis_repro_group(repro, i)->nruns > most)
            most = hm_analysis_repro_group(repro, i)->nruns;
    double *work = malloc(most * sizeof *work);
    int rc = work ? HM_OK : HM_ENOMEM;
    if (rc == HM_OK &&
        fprintf(f, "reproducibility (Fig. 29): each run's %s / the smallest run's, ascending\n",
                hm_analysis_statistic_name(hm_analysis_repro_statistic(repro))) < 0)
        rc = HM_EIO;
    for (size_t i = 0; rc == HM_OK && i < n; i++)
        rc = normalized_line(hm_analysis_repro_group(repro, i), work, f);
    free(work);
    return rc;
}
