/* tools/harmonia/commands/compare_report.c — the table of `harmonia compare`
 * (microseconds, or the ratios of overlap), with the lines that say what it
 * shows. */
#include <math.h>
#include <stdio.h>

#include "commands/analysis_inputs.h"
#include "commands/compare_report.h"
#include "commands/stats_print.h"

static const char *hypothesis(hm_alternative_t alternative)
{
    if (alternative == HM_ALT_LESS) return "A smaller than B (less)";
    if (alternative == HM_ALT_GREATER) return "A larger than B (greater)";
    return "A and B differ (two-sided)";
}

static void describe_side(const cli_config_t *cfg, const cli_compare_side_t *s, FILE *f)
{
    if (s->s.raw)
        fprintf(f,
                "%c = %s: %s, raw file: the valid repetitions of one mpirun (metric %s, filter "
                "%s)\n",
                s->name, s->label, s->path, hm_results_metric_name(cfg->metric),
                hm_analysis_filter_name(cfg->filter));
    else
        fprintf(f, "%c = %s: %s, per-mpirun %ss (one value per run)\n", s->name, s->label, s->path,
                hm_analysis_statistic_name(cfg->statistic));
}

/* Overlap: a ratio is told by B - A, the measured time by B / A. */
static void describe_overlap(const cli_config_t *cfg, hm_metric_t metric, FILE *f)
{
    int time = hm_results_metric_is_time(metric);
    fprintf(f,
            "Wilcoxon rank-sum test of A's samples of %s against B's per cell (op, comm and comp "
            "targets) and processes, H1: %s, level %g; med = median of a side's samples%s; %s; "
            "sig: * p <= 0.05, ** <= 0.01, *** <= 0.001; %s\n",
            hm_results_metric_name(metric), hypothesis(cfg->alternative), HM_ANALYSIS_LEVEL,
            time ? " (microseconds)" : "",
            time ? "B/A = ratio of the medians"
                 : "B-A = difference of the medians (a ratio of overlap is compared by its "
                   "difference: overhead is 0 for perfect overlap and below 0 where the "
                   "references were beaten, where B/A means nothing)",
            time ? "repro = largest per-run value / smallest (Fig. 29)"
                 : "range = largest per-run value - smallest");
}

static void describe(const cli_config_t *cfg, const cli_compare_side_t *a,
                     const cli_compare_side_t *b, FILE *f)
{
    describe_side(cfg, a, f);
    describe_side(cfg, b, f);
    if (a->s.raw || b->s.raw)
        fprintf(f, "note: the samples of a raw file are repetitions within one mpirun, not "
                   "per-mpirun values (Sec. 6.1): the test then ignores the variation from one "
                   "mpirun to the next\n");
    if (cli_is_overlap(a->kind)) {
        describe_overlap(cfg, a->s.groups.n ? a->s.groups.g[0].metric : cfg->metric, f);
        return;
    }
    fprintf(f,
            "Wilcoxon rank-sum test of A's samples against B's per (op, size, processes), H1: %s, "
            "level %g; med = median of a side's samples, B/A = ratio of the medians; sig: * p <= "
            "0.05, ** <= 0.01, *** <= 0.001; repro = largest per-run value / smallest (Fig. 29)\n",
            hypothesis(cfg->alternative), HM_ANALYSIS_LEVEL);
}

static void cell_ratio(hm_table_t *t, double x)
{
    hm_table_add_number(t, "%.3f", x);
}

static void table_row(hm_table_t *t, const hm_analysis_comparison_t *r)
{
    hm_table_add_cell(t, r->a->op);
    hm_table_add_cellf(t, "%lld", r->a->size_bytes);
    hm_table_add_cellf(t, "%ld", r->a->processes);
    hm_table_add_cellf(t, "%zu", r->a->n);
    hm_table_add_cellf(t, "%zu", r->b->n);
    hm_table_add_cellf(t, "%.2f", r->median_a_s * 1e6);
    hm_table_add_cellf(t, "%.2f", r->median_b_s * 1e6);
    cell_ratio(t, r->ratio);
    cell_ratio(t, r->repro_a);
    cell_ratio(t, r->repro_b);
    hm_table_add_cellf(t, "%.3g", r->test.p);
    hm_table_add_cell(t, hm_stats_stars(r->test.p));
    hm_table_add_cell(t, hm_analysis_verdict_name(r->verdict));
}

static int overlap_columns(hm_table_t *t, hm_metric_t metric, int with_size)
{
    int time = hm_results_metric_is_time(metric);
    const char *const cols[] = {"n_A",
                                "n_B",
                                time ? "med_A_us" : "med_A",
                                time ? "med_B_us" : "med_B",
                                time ? "B/A" : "B-A",
                                time ? "repro_A" : "range_A",
                                time ? "repro_B" : "range_B",
                                "p"};
    int rc = cli_cell_columns(t, with_size);
    for (size_t c = 0; rc == HM_OK && c < sizeof cols / sizeof cols[0]; c++)
        rc = hm_table_add_column(t, cols[c], HM_ALIGN_RIGHT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "sig", HM_ALIGN_LEFT);
    if (rc == HM_OK) rc = hm_table_add_column(t, "verdict", HM_ALIGN_LEFT);
    return rc;
}

static void overlap_row(hm_table_t *t, const hm_analysis_comparison_t *r, int with_size)
{
    const hm_analysis_group_t *g = r->a;
    int time = hm_results_metric_is_time(g->metric);
    cli_cell_cells(t, g->op, g->comm_target_s, g->size_bytes, g->comp_target_s, g->processes,
                   with_size);
    hm_table_add_cellf(t, "%zu", r->a->n);
    hm_table_add_cellf(t, "%zu", r->b->n);
    cli_metric_cell(t, g->metric, r->median_a_s);
    cli_metric_cell(t, g->metric, r->median_b_s);
    if (time) {
        cell_ratio(t, r->ratio);
        cell_ratio(t, r->repro_a);
        cell_ratio(t, r->repro_b);
    } else {
        hm_table_add_number(t, "%+.3f", r->difference);
        cell_ratio(t, r->range_a);
        cell_ratio(t, r->range_b);
    }
    hm_table_add_cellf(t, "%.3g", r->test.p);
    hm_table_add_cell(t, hm_stats_stars(r->test.p));
    hm_table_add_cell(t, hm_analysis_verdict_name(r->verdict));
}

static int print_overlap(const cli_config_t *cfg, const cli_compare_side_t *a,
                         const cli_compare_side_t *b, const hm_analysis_comparison_t *rows,
                         size_t n, FILE *f)
{
    int with_size = 0;
    for (size_t k = 0; k < n; k++) with_size |= rows[k].a->size_bytes >= 0;
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t);
    if (rc == HM_OK) rc = overlap_columns(t, n ? rows[0].a->metric : cfg->metric, with_size);
    int invalid = 0;
    for (size_t k = 0; rc == HM_OK && k < n; k++) {
        overlap_row(t, &rows[k], with_size);
        invalid |= rows[k].verdict == HM_VERDICT_INVALID_CELL;
    }
    if (rc == HM_OK) {
        describe(cfg, a, b, f);
        if (invalid)
            fprintf(f, "verdict \"invalid cell\": a side holds samples of a cell whose references "
                       "did not stand (cell_valid 0 in its raw file; the overlap summary's cell "
                       "column says why): p is shown, no side is read as better\n");
        rc = hm_table_print(t, f);
    }
    hm_table_free(t);
    return rc;
}

int cli_compare_print(const cli_config_t *cfg, const cli_compare_side_t *a,
                      const cli_compare_side_t *b, const hm_analysis_comparison_t *rows, size_t n,
                      FILE *f)
{
    if (cli_is_overlap(a->kind)) return print_overlap(cfg, a, b, rows, n, f);
    /* The text columns last, so that the numbers keep their place in a row
     * split at blanks even where sig is empty. */
    static const char *const cols[] = {"op",       "size_B",   "procs",  "n_A",     "n_B",
                                       "med_A_us", "med_B_us", "B/A",    "repro_A", "repro_B",
                                       "p",        "sig",      "verdict"};
    enum { NC = sizeof cols / sizeof cols[0] };
    hm_table_t *t = NULL;
    int rc = hm_table_create(&t);
    for (size_t c = 0; rc == HM_OK && c < NC; c++)
        rc =
            hm_table_add_column(t, cols[c], c == 0 || c >= NC - 2 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (size_t k = 0; rc == HM_OK && k < n; k++) table_row(t, &rows[k]);
    if (rc == HM_OK) {
        describe(cfg, a, b, f);
        rc = hm_table_print(t, f);
    }
    hm_table_free(t);
    return rc;
}
