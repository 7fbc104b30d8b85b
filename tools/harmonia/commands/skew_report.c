/* tools/harmonia/commands/skew_report.c — tables and files of `harmonia skew`: per method
 * the distribution of the exit skew, and each rank's mean exit offset from
 * the first rank (Hunold & Carpen-Amarie 2016, Fig. 10). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "commands/commands.h"
#include "commands/result_files.h"
#include "commands/skew_report.h"

#define NCOLS(a) (sizeof a / sizeof a[0])
enum { MAX_METHODS = 16, MAX_PRINTED_RANKS = 16 };

typedef struct method_row {
    char method[32];
    long n, late_starts, missed;
    int truth_known;
    hm_stats_summary_t skew, true_skew;
    hm_stats_summary_t valid_skew, valid_true_skew; /* the repetitions a benchmark keeps */
    double cost_s;
    double *mean_offset_s; /* [size], copied */
} method_row_t;

struct cli_skew_report {
    const cli_config_t *cfg;
    int size;
    hm_experiment_t *e; /* its files: rank 0 */
    method_row_t rows[MAX_METHODS];
    int nrows;
    int nmethods;   /* to measure */
    char note[192]; /* cli_fit_note: "" unless oversubscribed */
};

int cli_skew_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e, int nmethods,
                         cli_skew_report_t **out)
{
    cli_skew_report_t *rep = calloc(1, sizeof *rep);
    int rc = rep ? HM_OK : HM_ENOMEM;
    if (rep) {
        rep->cfg = cfg;
        rep->e = e;
        rep->nmethods = nmethods;
        MPI_Comm_size(comm, &rep->size);
        cli_fit_note(hm_experiment_fit(e), rep->note, sizeof rep->note);
    }
    if (rc == HM_OK)
        rc = hm_factors_set(hm_experiment_factors(e), "skew_start", "%s",
                            cfg->back_to_back ? "back to back" : "round-time");
    *out = rep;
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_strerror(rc));
    if (rc != HM_OK) return rc;
    return cli_experiment_files(e, comm, HM_RESULTS_SKEW, HM_RESULTS_SKEW_RAW);
}

/* The median, p90, p99 and max of s, under the columns named in that
 * order. */
static void set_tail(hm_results_row_t *r, const int *columns, const hm_stats_summary_t *s)
{
    const double x[] = {s->median, s->p90, s->p99, s->max};
    for (size_t i = 0; i < NCOLS(x); i++) hm_results_row_set_double(r, columns[i], x[i]);
}

static void set_tails(hm_results_row_t *r, const method_row_t *row)
{
    static const int skew[] = {HM_COL_SKEW_SKEW_MEDIAN_S, HM_COL_SKEW_SKEW_P90_S,
                               HM_COL_SKEW_SKEW_P99_S, HM_COL_SKEW_SKEW_MAX_S};
    static const int true_skew[] = {HM_COL_SKEW_TRUE_SKEW_MEDIAN_S, HM_COL_SKEW_TRUE_SKEW_P90_S,
                                    HM_COL_SKEW_TRUE_SKEW_P99_S, HM_COL_SKEW_TRUE_SKEW_MAX_S};
    static const int valid[] = {HM_COL_SKEW_VALID_SKEW_MEDIAN_S, HM_COL_SKEW_VALID_SKEW_P90_S,
                                HM_COL_SKEW_VALID_SKEW_P99_S, HM_COL_SKEW_VALID_SKEW_MAX_S};
    static const int valid_true[] = {
        HM_COL_SKEW_VALID_TRUE_SKEW_MEDIAN_S, HM_COL_SKEW_VALID_TRUE_SKEW_P90_S,
        HM_COL_SKEW_VALID_TRUE_SKEW_P99_S, HM_COL_SKEW_VALID_TRUE_SKEW_MAX_S};
    set_tail(r, skew, &row->skew);
    set_tail(r, true_skew, &row->true_skew);
    set_tail(r, valid, &row->valid_skew);
    set_tail(r, valid_true, &row->valid_true_skew);
}

/* A failed row shows when the file is closed, as any failed write. */
static void write_summary(hm_csv_t *csv, const method_row_t *row)
{
    hm_results_row_t *r = NULL;
    if (hm_results_row_create(HM_RESULTS_SKEW, &r) != HM_OK) return;
    hm_results_row_set_string(r, HM_COL_SKEW_METHOD, row->method);
    hm_results_row_set_int64(r, HM_COL_SKEW_REPETITIONS, row->n);
    hm_results_row_set_int64(r, HM_COL_SKEW_LATE_STARTS, row->late_starts);
    hm_results_row_set_int64(r, HM_COL_SKEW_MISSED, row->missed);
    set_tails(r, row);
    hm_results_row_set_double(r, HM_COL_SKEW_COST_S, row->cost_s);
    hm_results_row_put(r, csv);
    hm_results_row_free(r);
    hm_csv_checkpoint(csv);
}

/* One raw row; valid < 0: none (a rank's offset), an empty cell. */
static void write_raw_row(hm_results_row_t *r, hm_csv_t *raw, const char *method, const char *what,
                          long index, double g, double t, int valid)
{
    hm_results_row_set_string(r, HM_COL_SKEW_RAW_METHOD, method);
    hm_results_row_set_string(r, HM_COL_SKEW_RAW_WHAT, what);
    hm_results_row_set_int64(r, HM_COL_SKEW_RAW_INDEX, index);
    hm_results_row_set_double(r, HM_COL_SKEW_RAW_GLOBAL_S, g);
    hm_results_row_set_double(r, HM_COL_SKEW_RAW_TRUE_S, t);
    if (valid < 0)
        hm_results_row_set_string(r, HM_COL_SKEW_RAW_VALID, "");
    else
        hm_results_row_set_int64(r, HM_COL_SKEW_RAW_VALID, valid);
    hm_results_row_put(r, raw);
}

static void write_raw(cli_skew_report_t *rep, const char *method, const hm_skew_result_t *res)
{
    hm_csv_t *raw = hm_experiment_raw(rep->e);
    hm_results_row_t *r = NULL;
    if (hm_results_row_create(HM_RESULTS_SKEW_RAW, &r) != HM_OK) return;
    for (long i = 0; i < res->n; i++)
        write_raw_row(r, raw, method, "skew", i, res->skew_s[i],
                      res->truth_known ? res->true_skew_s[i] : NAN, res->valid[i]);
    for (int k = 0; k < rep->size; k++)
        write_raw_row(r, raw, method, "rank_offset", k, res->mean_offset_s[k],
                      res->truth_known ? res->true_mean_offset_s[k] : NAN, -1);
    hm_results_row_free(r);
    hm_csv_checkpoint(raw);
}

/* The four summaries of a row: all kept repetitions and the valid ones, on
 * the global clock and on the true one (where known). */
static int summarize_row(const hm_skew_result_t *r, method_row_t *row)
{
    const double *truth = r->truth_known ? r->true_skew_s : NULL;
    int rc = hm_stats_summarize(r->skew_s, (size_t)r->n, &row->skew);
    if (rc == HM_OK) rc = hm_stats_summarize(truth, truth ? (size_t)r->n : 0, &row->true_skew);
    if (rc == HM_OK)
        rc = hm_stats_summarize_flagged(r->skew_s, r->valid, 1, (size_t)r->n, &row->valid_skew);
    if (rc == HM_OK)
        rc = hm_stats_summarize_flagged(truth, r->valid, 1, truth ? (size_t)r->n : 0,
                                        &row->valid_true_skew);
    return rc;
}

int cli_skew_report_add(cli_skew_report_t *rep, const char *method, const hm_skew_result_t *r)
{
    if (rep->nrows == MAX_METHODS) return HM_ERANGE;
    method_row_t *row = &rep->rows[rep->nrows];
    snprintf(row->method, sizeof row->method, "%s", method);
    row->n = r->n, row->late_starts = r->late_starts, row->missed = r->missed;
    row->truth_known = r->truth_known;
    row->cost_s = r->cost_s;
    int rc = summarize_row(r, row);
    row->mean_offset_s = malloc((size_t)rep->size * sizeof *row->mean_offset_s);
    if (rc != HM_OK || !row->mean_offset_s) return HM_ENOMEM;
    const double *off = r->truth_known ? r->true_mean_offset_s : r->mean_offset_s;
    memcpy(row->mean_offset_s, off, (size_t)rep->size * sizeof *off);
    rep->nrows++;
    cli_progress(hm_experiment_summary(rep->e), hm_experiment_raw(rep->e), rep->nrows,
                 rep->nmethods, "methods");
    if (hm_experiment_summary(rep->e)) write_summary(hm_experiment_summary(rep->e), row);
    if (hm_experiment_raw(rep->e)) write_raw(rep, method, r);
    return HM_OK;
}

/* Skew median, p90, p99, max on the global clock, then median, p90, p99 on
 * the true clock (n/a where unknown), in us. */
static void add_skew_cells(hm_table_t *t, const hm_stats_summary_t *g, const hm_stats_summary_t *tr,
                           int truth_known)
{
    const double x[] = {g->median, g->p90, g->p99, g->max};
    for (size_t k = 0; k < NCOLS(x); k++) hm_table_add_number(t, "%.3f", x[k] * 1e6);
    const double y[] = {tr->median, tr->p90, tr->p99};
    for (size_t k = 0; k < NCOLS(y); k++)
        hm_table_add_number(t, "%.3f", truth_known ? y[k] * 1e6 : NAN);
}

static void print_skew_table(const cli_skew_report_t *rep)
{
    static const char *const cols[] = {"method",      "reps",        "late",        "missed",
                                       "skew_med_us", "skew_p90_us", "skew_p99_us", "skew_max_us",
                                       "true_med_us", "true_p90_us", "true_p99_us", "cost_us"};
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < NCOLS(cols); c++)
        hm_table_add_column(t, cols[c], c == 0 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (int i = 0; i < rep->nrows; i++) {
        const method_row_t *r = &rep->rows[i];
        hm_table_add_cell(t, r->method);
        hm_table_add_cellf(t, "%ld", r->n);
        hm_table_add_cellf(t, "%ld", r->late_starts);
        hm_table_add_cellf(t, "%ld", r->missed);
        add_skew_cells(t, &r->skew, &r->true_skew, r->truth_known);
        hm_table_add_cellf(t, "%.2f", r->cost_s * 1e6);
    }
    printf("exit skew on %d ranks%s (max - min exit time over ranks per repetition, global "
           "clock; true: on the real clock where known; start: %s; cost: per call)\n",
           rep->size, rep->note, rep->cfg->back_to_back ? "back to back" : "common global time");
    hm_table_print(t, stdout);
    hm_table_free(t);
}

/* The repetitions a benchmark keeps: without the missed ones (a flag 0, a
 * late exit), which bench discards and repeats. Shown only when some method
 * declared a repetition invalid; the table above holds every repetition. */
static void print_valid_table(const cli_skew_report_t *rep)
{
    static const char *const cols[] = {"method",      "valid",       "skew_med_us",
                                       "skew_p90_us", "skew_p99_us", "skew_max_us",
                                       "true_med_us", "true_p90_us", "true_p99_us"};
    long missed = 0;
    for (int i = 0; i < rep->nrows; i++) missed += rep->rows[i].missed;
    hm_table_t *t = NULL;
    if (missed == 0 || hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < NCOLS(cols); c++)
        hm_table_add_column(t, cols[c], c == 0 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (int i = 0; i < rep->nrows; i++) {
        const method_row_t *r = &rep->rows[i];
        hm_table_add_cell(t, r->method);
        hm_table_add_cellf(t, "%ld", r->n - r->missed);
        add_skew_cells(t, &r->valid_skew, &r->valid_true_skew, r->truth_known);
    }
    printf("\nexit skew of the valid repetitions (without the missed: what a benchmark keeps)\n");
    hm_table_print(t, stdout);
    hm_table_free(t);
}

/* Hunold & Carpen-Amarie 2016, Fig. 10: each rank's mean exit offset from the first rank to
 * leave, one column per method. */
static void print_offsets(const cli_skew_report_t *rep)
{
    hm_table_t *t = NULL;
    char head[48];
    if (rep->size > MAX_PRINTED_RANKS && !rep->cfg->per_rank) return;
    if (hm_table_create(&t) != HM_OK) return;
    hm_table_add_column(t, "rank", HM_ALIGN_RIGHT);
    for (int i = 0; i < rep->nrows; i++) {
        snprintf(head, sizeof head, "%s_us", rep->rows[i].method);
        hm_table_add_column(t, head, HM_ALIGN_RIGHT);
    }
    for (int k = 0; k < rep->size; k++) {
        hm_table_add_cellf(t, "%d", k);
        for (int i = 0; i < rep->nrows; i++)
            hm_table_add_cellf(t, "%.3f", rep->rows[i].mean_offset_s[k] * 1e6);
    }
    printf("\nmean exit offset of each rank from the first rank to leave (%s clock)\n",
           rep->nrows && rep->rows[0].truth_known ? "true" : "global");
    hm_table_print(t, stdout);
    hm_table_free(t);
}

void cli_skew_report_close(cli_skew_report_t *rep, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && rep->nrows > 0) {
        print_skew_table(rep);
        print_valid_table(rep);
        print_offsets(rep);
        fflush(stdout);
    }
    for (int i = 0; i < rep->nrows; i++) free(rep->rows[i].mean_offset_s);
    free(rep);
}
