/* tools/harmonia/commands/stats_print.c — the tables of `harmonia stats` and `harmonia
 * campaign`. Seconds in files, microseconds on screen, as bench; the
 * ratios of overlap as they are, their spread as a difference (overhead
 * may be 0 or below, where a quotient means nothing). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands/analysis_inputs.h"
#include "commands/stats_print.h"

/* Names left-aligned (columns 0 and 3), numbers right-aligned. */
static int add_columns(hm_table_t *t, const char *const *cols, size_t n)
{
    int rc = HM_OK;
    for (size_t c = 0; rc == HM_OK && c < n; c++)
        rc = hm_table_add_column(t, cols[c], c == 0 || c == 3 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    return rc;
}

/* ---- Cells of overlap ------------------------------------------------------ */

static size_t progress_index(const cli_progresses_t *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->names[i], name)) return i;
    return p->n;
}

void cli_progresses_add(cli_progresses_t *p, const char *name)
{
    size_t cap = sizeof p->names / sizeof p->names[0];
    if (name && progress_index(p, name) == p->n && p->n < cap) p->names[p->n++] = name;
}

int cli_progresses_print(const cli_progresses_t *p, FILE *f)
{
    if (p->n == 1) return fprintf(f, "progress: %s\n", p->names[0]) < 0 ? HM_EIO : HM_OK;
    int bad = fprintf(f, "progress (column prog):") < 0;
    for (size_t i = 0; i < p->n; i++)
        bad |= fprintf(f, "%s %zu = %s", i ? ";" : "", i + 1, p->names[i]) < 0;
    return bad || fprintf(f, "\n") < 0 ? HM_EIO : HM_OK;
}

static void progress_cell(hm_table_t *t, const cli_progresses_t *p, const char *name)
{
    size_t i = progress_index(p, name ? name : "");
    if (i < p->n)
        hm_table_add_cellf(t, "%zu", i + 1);
    else
        hm_table_add_cell(t, "?");
}

int cli_cell_columns(hm_table_t *t, int with_size)
{
    int rc = hm_table_add_column(t, "op", HM_ALIGN_LEFT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "comm_us", HM_ALIGN_RIGHT);
    if (rc == HM_OK && with_size) rc = hm_table_add_column(t, "size_B", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "comp_us", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "procs", HM_ALIGN_RIGHT);
    return rc;
}

void cli_cell_cells(hm_table_t *t, const char *op, double comm_target_s, long long size_bytes,
                    double comp_target_s, long processes, int with_size)
{
    hm_table_add_cell(t, op);
    hm_table_add_number(t, "%g", comm_target_s * 1e6);
    if (with_size && size_bytes >= 0)
        hm_table_add_cellf(t, "%lld", size_bytes);
    else if (with_size)
        hm_table_add_cell(t, "n/a");
    if (isnan(comp_target_s))
        hm_table_add_cell(t, "comm");
    else
        hm_table_add_cellf(t, "%g", comp_target_s * 1e6);
    hm_table_add_cellf(t, "%ld", processes);
}

/* ---- Summaries of raw files ------------------------------------------------ */

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
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        hm_table_add_number(t, "%.2f", (x[i]) * 1e6);
    hm_table_add_number(t, "%.3f", r->acf1);
    hm_table_add_number(t, "%.3g", r->shapiro_p);
}

static int print_bench_summaries(const hm_analysis_groups_t *gs, const hm_analysis_summary_t *rows,
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

static int overlap_summary_columns(hm_table_t *t, hm_metric_t metric, int with_size, int prog)
{
    static const char *const values[] = {"min",        "q1",        "med",       "q3",
                                         "max",        "mean",      "med_ci_lo", "med_ci_hi",
                                         "mean_ci_lo", "mean_ci_hi"};
    char name[32];
    int rc = cli_cell_columns(t, with_size);
    if (rc == HM_OK) rc = hm_table_add_column(t, "sync", HM_ALIGN_LEFT);
    if (rc == HM_OK && prog) rc = hm_table_add_column(t, "prog", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "n", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "kept", HM_ALIGN_RIGHT);
    for (size_t i = 0; rc == HM_OK && i < sizeof values / sizeof values[0]; i++) {
        cli_metric_column(metric, values[i], name, sizeof name);
        rc = hm_table_add_column(t, name, HM_ALIGN_RIGHT);
    }
    if (rc == HM_OK) rc = hm_table_add_column(t, "acf1", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "sw_p", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "cell", HM_ALIGN_LEFT);
    return rc;
}

/* What the cell column's INVALID means, once, above a table that has one. */
static void invalid_cell_note(const hm_analysis_groups_t *gs, FILE *f)
{
    for (size_t k = 0; k < gs->n; k++)
        if (gs->g[k].n_invalid_cell) {
            fprintf(f, "cell INVALID: samples of the cell come from a run where its references did "
                       "not stand (cell_valid 0 in the raw file; the overlap summary's cell column "
                       "says why; --output counts them, invalid_cell_n): their ratios are not what "
                       "they claim\n");
            return;
        }
}

static int print_overlap_summaries(const hm_analysis_groups_t *gs,
                                   const hm_analysis_summary_t *rows, FILE *f)
{
    cli_progresses_t p = {0};
    int with_size = 0;
    hm_metric_t metric = gs->n ? gs->g[0].metric : HM_METRIC_OVERHEAD;
    for (size_t k = 0; k < gs->n; k++) {
        cli_progresses_add(&p, gs->g[k].progress ? gs->g[k].progress : "");
        with_size |= gs->g[k].size_bytes >= 0;
    }
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t);
    if (rc == HM_OK) rc = overlap_summary_columns(t, metric, with_size, p.n > 1);
    for (size_t k = 0; rc == HM_OK && k < gs->n; k++) {
        const hm_analysis_group_t *g = &gs->g[k];
        const hm_analysis_summary_t *r = &rows[k];
        cli_cell_cells(t, g->op, g->comm_target_s, g->size_bytes, g->comp_target_s, g->processes,
                       with_size);
        hm_table_add_cell(t, g->sync);
        if (p.n > 1) progress_cell(t, &p, g->progress);
        hm_table_add_cellf(t, "%zu", r->n);
        hm_table_add_cellf(t, "%zu", r->kept);
        const double x[] = {r->s.min,  r->s.q1,        r->s.median,    r->s.q3,      r->s.max,
                            r->s.mean, r->median_lo_s, r->median_hi_s, r->mean_lo_s, r->mean_hi_s};
        for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) cli_metric_cell(t, metric, x[i]);
        hm_table_add_number(t, "%.3f", r->acf1);
        hm_table_add_number(t, "%.3g", r->shapiro_p);
        hm_table_add_cell(t, g->n_invalid_cell ? "INVALID" : "ok");
    }
    if (rc == HM_OK) rc = cli_progresses_print(&p, f);
    if (rc == HM_OK) invalid_cell_note(gs, f);
    if (rc == HM_OK) rc = hm_table_print(t, f);
    hm_table_free(t);
    return rc;
}

int cli_print_summaries(const hm_analysis_groups_t *gs, const hm_analysis_summary_t *rows, FILE *f)
{
    if (gs->n && hm_analysis_group_is_overlap(&gs->g[0]))
        return print_overlap_summaries(gs, rows, f);
    return print_bench_summaries(gs, rows, f);
}

/* ---- Campaigns: the runs of each group ------------------------------------ */

static int is_overlap(const hm_analysis_repro_t *repro)
{
    return hm_results_metric_kind(hm_analysis_repro_metric(repro)) == HM_RESULTS_OVERLAP_RAW;
}

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
    hm_table_add_number(t, "%.3f", g->max_normalized);
    hm_table_add_cellf(t, "%zu", g->nshort);
}

static int bench_runs_table(const hm_analysis_repro_t *repro, hm_table_t *t)
{
    static const char *const cols[] = {"op",     "size_B", "procs",  "sync",  "runs",
                                       "med_us", "min_us", "max_us", "repro", "short"};
    int rc = add_columns(t, cols, sizeof cols / sizeof cols[0]);
    for (size_t i = 0; rc == HM_OK && i < hm_analysis_repro_count(repro); i++)
        runs_row(t, hm_analysis_repro_group(repro, i));
    return rc;
}

/* A time keeps Fig. 29's quotient (repro); a ratio, its range. */
static int overlap_runs_table(const hm_analysis_repro_t *repro, hm_table_t *t, cli_progresses_t *p)
{
    hm_metric_t metric = hm_analysis_repro_metric(repro);
    int time = hm_results_metric_is_time(metric), with_size = 0;
    size_t n = hm_analysis_repro_count(repro);
    char name[32];
    for (size_t i = 0; i < n; i++) {
        cli_progresses_add(p, hm_analysis_repro_group(repro, i)->key->progress);
        with_size |= hm_analysis_repro_group(repro, i)->key->size_bytes >= 0;
    }
    int rc = cli_cell_columns(t, with_size);
    if (rc == HM_OK) rc = hm_table_add_column(t, "sync", HM_ALIGN_LEFT);
    if (rc == HM_OK && p->n > 1) rc = hm_table_add_column(t, "prog", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "runs", HM_ALIGN_RIGHT);
    for (int i = 0; rc == HM_OK && i < 3; i++) {
        cli_metric_column(metric, (const char *[]){"med", "min", "max"}[i], name, sizeof name);
        rc = hm_table_add_column(t, name, HM_ALIGN_RIGHT);
    }
    if (rc == HM_OK) rc = hm_table_add_column(t, time ? "repro" : "range", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "short", HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "cell", HM_ALIGN_LEFT);
    for (size_t i = 0; rc == HM_OK && i < n; i++) {
        const hm_analysis_repro_group_t *g = hm_analysis_repro_group(repro, i);
        const hm_results_permpirun_row_t *k = g->key;
        cli_cell_cells(t, k->op, k->comm_target_s, k->size_bytes, k->comp_target_s, k->processes,
                       with_size);
        hm_table_add_cell(t, k->sync);
        if (p->n > 1) progress_cell(t, p, k->progress);
        hm_table_add_cellf(t, "%zu", g->nruns);
        cli_metric_cell(t, metric, g->median_s);
        cli_metric_cell(t, metric, g->min_s);
        cli_metric_cell(t, metric, g->max_s);
        hm_table_add_number(t, "%.3f", time ? g->max_normalized : g->max_difference);
        hm_table_add_cellf(t, "%zu", g->nshort);
        hm_table_add_cell(t, g->ninvalid_cell ? "INVALID" : "ok");
    }
    return rc;
}

int cli_print_runs(const hm_analysis_repro_t *repro, FILE *f)
{
    const char *stat = hm_analysis_statistic_name(hm_analysis_repro_statistic(repro));
    hm_metric_t metric = hm_analysis_repro_metric(repro);
    cli_progresses_t p = {0};
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t), overlap = is_overlap(repro);
    if (rc == HM_OK) rc = overlap ? overlap_runs_table(repro, t, &p) : bench_runs_table(repro, t);
    if (rc == HM_OK && !overlap &&
        fprintf(f,
                "per-mpirun %ss (Alg. 6: each run's valid repetitions, filtered, reduced to "
                "their %s) over the runs: med/min/max in microseconds; repro = largest run's "
                "value / smallest (Fig. 29)\n",
                stat, stat) < 0)
        rc = HM_EIO;
    if (rc == HM_OK && overlap &&
        fprintf(f,
                "per-mpirun %ss of %s (Alg. 6: each run's valid repetitions, filtered, reduced "
                "to their %s) over the runs: med/min/max%s; %s\n",
                stat, hm_results_metric_name(metric), stat,
                hm_results_metric_is_time(metric) ? " in microseconds" : "",
                hm_results_metric_is_time(metric)
                    ? "repro = largest run's value / smallest (Fig. 29)"
                    : "range = largest run's value - smallest (a ratio may be 0 or below, "
                      "where Fig. 29's quotient means nothing)") < 0)
        rc = HM_EIO;
    if (rc == HM_OK && overlap) rc = cli_progresses_print(&p, f);
    for (size_t i = 0; rc == HM_OK && i < hm_analysis_repro_count(repro); i++)
        if (hm_analysis_repro_group(repro, i)->nshort) {
            fprintf(f, "short: runs that ended with fewer valid repetitions than their --nrep "
                       "(the attempts of a busy machine ran out; n against nrep in "
                       "per-mpirun.csv): their values rest on fewer repetitions\n");
            break;
        }
    for (size_t i = 0; rc == HM_OK && overlap && i < hm_analysis_repro_count(repro); i++)
        if (hm_analysis_repro_group(repro, i)->ninvalid_cell) {
            fprintf(f, "cell INVALID: in some runs the cell's references did not stand "
                       "(cell_valid 0 in per-mpirun.csv and in the run's raw file; its overlap "
                       "summary says why): their values are not what they claim\n");
            break;
        }
    if (rc == HM_OK) rc = hm_table_print(t, f);
    hm_table_free(t);
    return rc;
}

/* One line per group: the runs' values over the smallest (a ratio of
 * overlap: minus the smallest), ascending (the distribution Fig. 29 draws),
 * the largest at the end. */
static int normalized_line(const hm_analysis_repro_group_t *g, int difference, int overlap,
                           double *work, FILE *f)
{
    const hm_results_permpirun_row_t *k = g->key;
    char cell[160];
    double most = difference ? g->max_difference : g->max_normalized;
    for (size_t i = 0; i < g->nruns; i++)
        work[i] = difference ? g->runs[i].difference : g->runs[i].normalized;
    if (!isnan(most)) hm_stats_sort(work, g->nruns);
    hm_results_cell_name(k->op, k->size_bytes, k->comm_target_s, k->comp_target_s, overlap, cell,
                         sizeof cell);
    if (fprintf(f, "%s, %ld processes, %s, %zu runs:", cell, k->processes, k->sync, g->nruns) < 0)
        return HM_EIO;
    for (size_t i = 0; i < g->nruns; i++) fprintf(f, " %.3f", work[i]);
    return fprintf(f, "  (max %.3f)\n", most) < 0 ? HM_EIO : HM_OK;
}

int cli_print_normalized(const hm_analysis_repro_t *repro, FILE *f)
{
    size_t most = 1, n = hm_analysis_repro_count(repro);
    int overlap = is_overlap(repro);
    int difference = overlap && !hm_results_metric_is_time(hm_analysis_repro_metric(repro));
    for (size_t i = 0; i < n; i++)
        if (hm_analysis_repro_group(repro, i)->nruns > most)
            most = hm_analysis_repro_group(repro, i)->nruns;
    double *work = malloc(most * sizeof *work);
    int rc = work ? HM_OK : HM_ENOMEM;
    const char *stat = hm_analysis_statistic_name(hm_analysis_repro_statistic(repro));
    if (rc == HM_OK &&
        fprintf(f, "reproducibility (Fig. 29): each run's %s %s the smallest run's, ascending\n",
                stat, difference ? "-" : "/") < 0)
        rc = HM_EIO;
    for (size_t i = 0; rc == HM_OK && i < n; i++)
        rc = normalized_line(hm_analysis_repro_group(repro, i), difference, overlap, work, f);
    free(work);
    return rc;
}
