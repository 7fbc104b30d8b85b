/* tools/harmonia/commands/bench_report.c — table, OSU layout and CSV files of `harmonia
 * bench`. Times are seconds in files, microseconds on screen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/ops.h>

#include "commands/bench_report.h"
#include "commands/commands.h"

#define NCOLS(a) (sizeof a / sizeof a[0])

int cli_bench_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                          size_t nexperiments, cli_bench_report_t **out)
{
    int rank, rc;
    cli_bench_report_t *rep = calloc(1, sizeof *rep);
    MPI_Comm_rank(comm, &rank);
    rc = rep ? HM_OK : HM_ENOMEM;
    if (rep) {
        rep->cfg = cfg;
        rep->e = e;
        rep->nrows = nexperiments;
        MPI_Comm_size(comm, &rep->size);
        cli_fit_note(hm_experiment_fit(e), rep->note, sizeof rep->note);
    }
    hm_factors_t *f = hm_experiment_factors(e);
    int nccl = !strcmp(cfg->backend, "nccl");
    if (rc == HM_OK)
        rc =
            hm_factors_set(f, "ops", "%s",
                           nccl && !(cfg->given & HM_OPT_BIT(HM_OPT_OPS)) ? "allreduce" : cfg->ops);
    if (rc == HM_OK) rc = hm_factors_set(f, "backend", "%s", nccl ? "nccl" : "mpi");
    if (rc == HM_OK)
        rc = hm_factors_set(f, "memory", "%s", nccl || cfg->memory_device ? "device" : "host");
    if (rc == HM_OK && nccl) rc = hm_factors_set(f, "batch", "%d", cfg->batch);
    if (rc == HM_OK && rank == 0) {
        rep->rows = calloc(nexperiments, sizeof *rep->rows);
        rc = rep->rows ? HM_OK : HM_ENOMEM;
    }
    *out = rep;
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_strerror(rc));
    if (rc != HM_OK) return rc;
    return cli_experiment_files(e, comm, HM_RESULTS_BENCH, HM_RESULTS_BENCH_RAW);
}

/* The times of a summary row, by column. */
static void set_times(hm_results_row_t *r, const cli_bench_row_t *row, double wall_s)
{
    const hm_stats_summary_t *g = &row->s.global;
    const struct {
        int column;
        double value;
    } x[] = {{HM_COL_BENCH_MIN_S, g->min},
             {HM_COL_BENCH_Q1_S, g->q1},
             {HM_COL_BENCH_MEDIAN_S, g->median},
             {HM_COL_BENCH_Q3_S, g->q3},
             {HM_COL_BENCH_MAX_S, g->max},
             {HM_COL_BENCH_MEAN_S, g->mean},
             {HM_COL_BENCH_SD_S, g->sd},
             {HM_COL_BENCH_LOCAL_MEDIAN_S, row->s.local_median_s},
             {HM_COL_BENCH_START_SPREAD_MEDIAN_S, row->s.start_spread_median_s},
             {HM_COL_BENCH_WALL_S, wall_s},
             {HM_COL_BENCH_DISCARDED_MEDIAN_S, row->s.discarded_median_s}};
    for (size_t i = 0; i < NCOLS(x); i++) hm_results_row_set_double(r, x[i].column, x[i].value);
}

/* A failed row shows when the file is closed, as any failed write. */
static void write_summary(hm_csv_t *csv, const cli_bench_row_t *row, const char *sync,
                          const char *procsync, size_t order, double wall_s)
{
    hm_results_row_t *r = NULL;
    if (hm_results_row_create(HM_RESULTS_BENCH, &r) != HM_OK) return;
    hm_results_row_set_string(r, HM_COL_BENCH_OP, row->op);
    hm_results_row_set_int64(r, HM_COL_BENCH_SIZE_BYTES, (int64_t)row->size_bytes);
    hm_results_row_set_string(r, HM_COL_BENCH_SYNC, sync);
    hm_results_row_set_int64(r, HM_COL_BENCH_VALID, row->s.valid);
    hm_results_row_set_int64(r, HM_COL_BENCH_INVALID, row->s.discarded);
    hm_results_row_set_int64(r, HM_COL_BENCH_WRONG_RESULTS, row->wrong_results);
    set_times(r, row, wall_s);
    hm_results_row_set_string(r, HM_COL_BENCH_PROCSYNC, procsync);
    hm_results_row_set_int64(r, HM_COL_BENCH_ORDER, (int64_t)order);
    hm_results_row_set_int64(r, HM_COL_BENCH_LATE_STARTS, row->late_starts);
    hm_results_row_set_int64(r, HM_COL_BENCH_CONDITIONAL, row->s.conditional);
    hm_results_row_set_string(r, HM_COL_BENCH_END, hm_measure_end_name(row->end));
    hm_results_row_set_int64(r, HM_COL_BENCH_LATE_CAPPED, row->late_capped);
    hm_results_row_put(r, csv);
    hm_results_row_free(r);
    hm_csv_checkpoint(csv);
}

static void write_raw(hm_csv_t *raw, const cli_bench_row_t *row, const hm_measure_result_t *r)
{
    hm_measure_write_raw(raw, HM_RESULTS_BENCH_RAW, row->op, row->size_bytes, r);
    hm_csv_checkpoint(raw);
}

/* The files of a run with partial experiments say so in their factor
 * "complete", whatever the progress. */
static void flag_partial(cli_bench_report_t *rep, hm_csv_t *summary, hm_csv_t *raw)
{
    char why[160];
    rep->npartial++;
    snprintf(why, sizeof why, "%ld experiment%s ended with fewer valid repetitions than --nrep %ld",
             rep->npartial, rep->npartial == 1 ? "" : "s", rep->cfg->nrep);
    if (summary) hm_csv_incomplete(summary, why);
    if (raw) hm_csv_incomplete(raw, why);
}

/* Late starts under every method: the measured starts of all ranks are on
 * the global clock, so a repetition whose starts spread wider than the
 * late-start tolerance started late, whatever the method did about it
 * (barrier and dissem have no deadline and keep it valid, docs/measure.md).
 * The tolerance is the one the repetition was held to where the method
 * judged it, else the one for its local run-time (the longest rank's). */
static long count_late(const hm_measure_result_t *r, const hm_procsync_params_t *p)
{
    long n = 0;
    for (long i = 0; i < r->n; i++) {
        double held_s = r->late_tolerance_s ? r->late_tolerance_s[i] : NAN;
        n += r->start_spread_s[i] >
             (isfinite(held_s) ? held_s : hm_procsync_late_tolerance(p, r->local_s[i]));
    }
    return n;
}

int cli_bench_report_add(cli_bench_report_t *rep, size_t index, size_t order, const char *op,
                         size_t size_bytes, const hm_measure_result_t *r, double wall_s)
{
    cli_bench_row_t *row = &rep->rows[index];
    row->done = 1;
    row->op = op;
    row->size_bytes = size_bytes;
    row->wrong_results = r->wrong_results;
    row->late_capped = r->late_capped;
    row->end = r->end;
    row->most_attempts = r->most_attempts;
    row->window_s = r->window_s; /* the window the adaptation left */
    int rc = hm_measure_summarize(r, &row->s);
    if (rc != HM_OK) return rc;
    row->late_starts = count_late(r, hm_experiment_procsync_params(rep->e));
    hm_csv_t *summary = hm_experiment_summary(rep->e), *raw = hm_experiment_raw(rep->e);
    cli_progress(summary, raw, (long)order + 1, (long)rep->nrows, "experiments");
    if (row->s.valid < rep->cfg->nrep) flag_partial(rep, summary, raw);
    if (summary) write_summary(summary, row, rep->cfg->sync, r->procsync, order, wall_s);
    if (raw) write_raw(raw, row, r);
    return HM_OK;
}

/* What ended an experiment short of --nrep, in words. */
static void end_words(const cli_bench_report_t *rep, const cli_bench_row_t *row, char *buf,
                      size_t len)
{
    switch (row->end) {
    case HM_MEASURE_END_SLICE:
        snprintf(buf, len, "the --slice-s %g s time slice ended first", rep->cfg->slice_s);
        break;
    case HM_MEASURE_END_BUDGET:
        snprintf(buf, len, "the attempts budget of a busy machine, %ld, was spent",
                 row->most_attempts);
        break;
    default:
        snprintf(buf, len, "the attempts ran out");
    }
}

/* One line per experiment that fell short of --nrep, and one saying what a
 * conditional row is, under the table. */
static void print_partial(const cli_bench_report_t *rep)
{
    int conditional = 0;
    for (size_t i = 0; i < rep->nrows; i++) {
        const cli_bench_row_t *row = &rep->rows[i];
        char why[96];
        conditional |= row->done && row->s.conditional;
        if (!row->done || row->s.valid >= rep->cfg->nrep) continue;
        end_words(rep, row, why, sizeof why);
        printf("PARTIAL: %s %zu B: %ld of --nrep %ld valid repetitions (%s)\n", row->op,
               row->size_bytes, row->s.valid, rep->cfg->nrep, why);
    }
    if (conditional)
        printf("CONDITIONAL: more than half of a row's attempts were discarded; its figures "
               "hold for the undisturbed starts only (disc_med_us: the discarded ones' median)\n");
}

/* The note of a row: partial and/or conditional, or "". One word either
 * way: scripts split the table on blanks, and "partial, conditional" (a
 * busy machine's row) ended their reading of it. */
static const char *row_note(const cli_bench_report_t *rep, const cli_bench_row_t *row)
{
    int partial = row->s.valid < rep->cfg->nrep;
    if (partial && row->s.conditional) return "partial,conditional";
    return partial ? "partial" : row->s.conditional ? "conditional" : "";
}

static void print_table(const cli_bench_report_t *rep)
{
    static const char *const cols[] = {"op",     "size_B",  "valid",  "discarded",   "min_us",
                                       "med_us", "mean_us", "max_us", "local_med_us"};
    /* Under --sync window, the window each experiment ended with: an
     * adaptation still in effect shows in the table, not only in the file. */
    int window = strcmp(rep->cfg->sync, "window") == 0;
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < NCOLS(cols); c++)
        hm_table_add_column(t, cols[c], c == 0 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    hm_table_add_column(t, "late", HM_ALIGN_RIGHT);
    hm_table_add_column(t, "disc_med_us", HM_ALIGN_RIGHT);
    if (window) hm_table_add_column(t, "window_us", HM_ALIGN_RIGHT);
    int notes = 0;
    for (size_t i = 0; i < rep->nrows; i++)
        notes |= rep->rows[i].done && *row_note(rep, &rep->rows[i]);
    if (notes) hm_table_add_column(t, "note", HM_ALIGN_LEFT);
    for (size_t i = 0; i < rep->nrows; i++) {
        const cli_bench_row_t *row = &rep->rows[i];
        if (!row->done) continue;
        hm_table_add_cell(t, row->op);
        hm_table_add_cellf(t, "%zu", row->size_bytes);
        hm_table_add_cellf(t, "%ld", row->s.valid);
        hm_table_add_cellf(t, "%ld", row->s.discarded);
        const hm_stats_summary_t *g = &row->s.global;
        const double x[] = {g->min, g->median, g->mean, g->max, row->s.local_median_s};
        for (size_t k = 0; k < NCOLS(x); k++) hm_table_add_number(t, "%.2f", (x[k]) * 1e6);
        hm_table_add_cellf(t, "%ld", row->late_starts);
        hm_table_add_number(t, "%.2f", (row->s.discarded_median_s) * 1e6);
        if (window) hm_table_add_cellf(t, "%.1f", row->window_s * 1e6);
        if (notes) hm_table_add_cell(t, row_note(rep, row));
    }
    printf("latency on %d ranks%s, --sync %s, --clock-sync %s: global run-time (max end - min "
           "start on the global clock) of the valid repetitions; local_med = median of the max "
           "local run-time\n",
           rep->size, rep->note, rep->cfg->sync, rep->cfg->clock_sync);
    hm_table_print(t, stdout);
    hm_table_free(t);
}

/* nccl-tests' layout (all_reduce_perf and the others): size, count, type,
 * redop, root, time, algbw, busbw, #wrong; the time is the median global
 * run-time of the valid repetitions, each started together (nccl-tests
 * averages a loop of back-to-back calls on its own clock). */
static void print_nccl(const cli_bench_report_t *rep)
{
    const char *last = NULL;
    char batch_words[64] = "";
    if (rep->cfg->batch > 1)
        snprintf(batch_words, sizeof batch_words, " / %d (--batch: launches a repetition)",
                 rep->cfg->batch);
    for (size_t i = 0; i < rep->nrows; i++) {
        const cli_bench_row_t *row = &rep->rows[i];
        hm_op_figures_t f;
        if (!row->done || hm_op_nccl_figures(hm_op_nccl_find(row->op), row->size_bytes, rep->size,
                                             rep->cfg->root, &f) != HM_OK)
            continue;
        if (!last || strcmp(last, row->op)) {
            printf("%s# harmonia bench --backend nccl: %s on %d ranks, --sync %s%s; time = median "
                   "global run-time (max end - min start, global clock)%s, algbw = size / time "
                   "(GB = 1e9 B), busbw = algbw x %.4g (nccl-tests' factor)\n",
                   last ? "\n" : "", row->op, rep->size, rep->cfg->sync, rep->note, batch_words,
                   f.bus_factor);
            printf("%12s %12s %8s %6s %6s %10s %10s %10s %8s %6s\n", "size", "count", "type",
                   "redop", "root", "time_us", "algbw_GBps", "busbw_GBps", "#wrong", "valid");
            last = row->op;
        }
        double algbw = (double)f.size_bytes / row->s.global.median * 1e-9;
        char wrong[24] = "N/A";
        if (rep->cfg->validate) snprintf(wrong, sizeof wrong, "%ld", row->wrong_results);
        printf("%12zu %12zu %8s %6s %6d %10.2f %10.3f %10.3f %8s %6ld\n", f.size_bytes, f.count,
               f.type, f.redop, f.root, row->s.global.median * 1e6, algbw, algbw * f.bus_factor,
               wrong, row->s.valid);
    }
}

/* OSU's layout (osu_allreduce -f): one block per operation, the size and
 * the average, min and max latency with the iteration count; here every
 * column is the global run-time over the valid repetitions. */
static void print_osu(const cli_bench_report_t *rep)
{
    const char *last = NULL;
    for (size_t i = 0; i < rep->nrows; i++) {
        const cli_bench_row_t *row = &rep->rows[i];
        if (!row->done) continue;
        if (!last || strcmp(last, row->op)) {
            printf("%s# harmonia %s (OSU layout; global run-time, --sync %s)%s\n", last ? "\n" : "",
                   row->op, rep->cfg->sync, rep->note);
            printf("%-10s%18s%18s%18s%12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
                   "Max Latency(us)", "Iterations");
            last = row->op;
        }
        printf("%-10zu%18.2f%18.2f%18.2f%12ld\n", row->size_bytes, row->s.global.mean * 1e6,
               row->s.global.min * 1e6, row->s.global.max * 1e6, row->s.valid);
    }
}

void cli_bench_report_close(cli_bench_report_t *rep, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t done = 0;
    for (size_t i = 0; rep->rows && i < rep->nrows; i++) done += rep->rows[i].done;
    if (rank == 0 && done > 0) {
        if (strcmp(rep->cfg->backend, "nccl") == 0)
            print_nccl(rep);
        else if (strcmp(rep->cfg->format, "osu") == 0)
            print_osu(rep);
        else
            print_table(rep);
        print_partial(rep); /* whichever layout: a short row says so */
        fflush(stdout);
    }
    free(rep->rows);
    free(rep);
}
