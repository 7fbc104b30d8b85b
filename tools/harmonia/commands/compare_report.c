/* tools/harmonia/commands/compare_report.c — the test of each group of `harmonia compare`,
 * its table (microseconds) and CSV rows (seconds). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands/compare_report.h"

hm_alternative_t hm_compare_alternative(const char *name)
{
    if (strcmp(name, "less") == 0) return HM_ALT_LESS;
    if (strcmp(name, "greater") == 0) return HM_ALT_GREATER;
    return HM_ALT_TWO_SIDED;
}

/* The paper reads "no stars" as "no evidence which is better" (Sec. 6.2).
 * A two-sided rejection is told by the medians' ratio, the figure printed
 * beside it; equal medians fall back on the direction of W (the rank sum of
 * A above or below its mean under H0). */
static const char *verdict(hm_alternative_t alt, const hm_wilcoxon_t *t, double ratio,
                           double half_nm)
{
    if (!(t->p <= HM_COMPARE_LEVEL)) return "no evidence";
    if (alt == HM_ALT_LESS) return "A smaller";
    if (alt == HM_ALT_GREATER) return "A larger";
    if (ratio < 1) return "B faster";
    if (ratio > 1) return "B slower";
    return t->w > half_nm ? "B faster" : "B slower";
}

/* Fig. 29: the largest per-run value over the smallest. */
static double repro(const hm_compare_side_t *side, const hm_stats_summary_t *s)
{
    return !side->raw && s->min > 0 ? s->max / s->min : NAN;
}

int hm_compare_row_compute(const hm_compare_side_t *a, const hm_compare_side_t *b, size_t k,
                           hm_alternative_t alternative, hm_compare_row_t *row)
{
    const hm_stats_group_t *ga = &a->groups.g[k], *gb = &b->groups.g[k];
    hm_stats_summary_t sa, sb;
    int rc = hm_stats_summarize(ga->x_s, ga->n, &sa);
    if (rc == HM_OK) rc = hm_stats_summarize(gb->x_s, gb->n, &sb);
    if (rc == HM_OK)
        rc = hm_stats_wilcoxon(ga->x_s, ga->n, gb->x_s, gb->n, alternative, &row->test);
    if (rc != HM_OK) return rc;
    row->a = ga, row->b = gb;
    row->median_a_s = sa.median, row->median_b_s = sb.median;
    row->ratio = sa.median > 0 ? sb.median / sa.median : NAN;
    row->repro_a = repro(a, &sa), row->repro_b = repro(b, &sb);
    row->stars = hm_stats_stars(row->test.p);
    row->verdict =
        verdict(alternative, &row->test, row->ratio, 0.5 * (double)ga->n * (double)gb->n);
    return HM_OK;
}

/* ---- The table ----------------------------------------------------------- */

static const char *hypothesis(const char *alternative)
{
    if (strcmp(alternative, "less") == 0) return "A smaller than B (less)";
    if (strcmp(alternative, "greater") == 0) return "A larger than B (greater)";
    return "A and B differ (two-sided)";
}

static void describe_side(const hm_cli_config_t *cfg, const hm_compare_side_t *s, FILE *f)
{
    if (s->raw)
        fprintf(f,
                "%c = %s: %s, raw file: the valid repetitions of one mpirun (metric %s, filter "
                "%s)\n",
                s->name, s->label, s->path, cfg->metric, cfg->filter);
    else
        fprintf(f, "%c = %s: %s, per-mpirun %ss (one value per run)\n", s->name, s->label, s->path,
                cfg->statistic);
}

static void describe(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                     const hm_compare_side_t *b, FILE *f)
{
    describe_side(cfg, a, f);
    describe_side(cfg, b, f);
    if (a->raw || b->raw)
        fprintf(f, "note: the samples of a raw file are repetitions within one mpirun, not "
                   "per-mpirun values (Sec. 6.1): the test then ignores the variation from one "
                   "mpirun to the next\n");
    fprintf(f,
            "Wilcoxon rank-sum test of A's samples against B's per (op, size, processes), H1: %s, "
            "level %g; med = median of a side's samples, B/A = ratio of the medians; sig: * p <= "
            "0.05, ** <= 0.01, *** <= 0.001; repro = largest per-run value / smallest (Fig. 29)\n",
            hypothesis(cfg->alternative), HM_COMPARE_LEVEL);
}

static void cell_ratio(hm_table_t *t, double x)
{
    if (isnan(x))
        hm_table_add_cell(t, "n/a");
    else
        hm_table_add_cellf(t, "%.3f", x);
}

static void table_row(hm_table_t *t, const hm_compare_row_t *r)
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
    hm_table_add_cell(t, r->stars);
    hm_table_add_cell(t, r->verdict);
}

int hm_compare_print(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                     const hm_compare_side_t *b, const hm_compare_row_t *rows, size_t n, FILE *f)
{
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

/* ---- The CSV file -------------------------------------------------------- */

const char *const hm_compare_columns[] = {
    "op",    "size_bytes", "processes",        "sync_A",          "sync_B", "n_A",
    "n_B",   "median_A_s", "median_B_s",       "ratio_B_A",       "W",      "p",
    "stars", "verdict",    "max_normalized_A", "max_normalized_B"};
const size_t hm_compare_ncolumns = sizeof hm_compare_columns / sizeof hm_compare_columns[0];

int hm_compare_write_row(hm_csv_t *csv, const hm_compare_row_t *r)
{
    hm_csv_put_string(csv, r->a->op);
    hm_csv_put_int64(csv, r->a->size_bytes);
    hm_csv_put_int64(csv, r->a->processes);
    hm_csv_put_string(csv, r->a->sync);
    hm_csv_put_string(csv, r->b->sync);
    hm_csv_put_int64(csv, (int64_t)r->a->n);
    hm_csv_put_int64(csv, (int64_t)r->b->n);
    hm_csv_put_double(csv, r->median_a_s);
    hm_csv_put_double(csv, r->median_b_s);
    hm_csv_put_double(csv, r->ratio);
    hm_csv_put_double(csv, r->test.w);
    hm_csv_put_double(csv, r->test.p);
    hm_csv_put_string(csv, r->stars);
    hm_csv_put_string(csv, r->verdict);
    hm_csv_put_double(csv, r->repro_a);
    hm_csv_put_double(csv, r->repro_b);
    return hm_csv_end_row(csv);
}
