/* tools/harmonia/commands/overlap_report.c — table and CSV files of
 * `harmonia overlap`. Times are seconds in files, microseconds on screen;
 * a ratio that does not exist (no valid repetition, a cell not run) is an
 * empty cell and n/a. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"
#include "commands/overlap_report.h"
#include "commands/result_files.h"

typedef struct row {
    int done;
    const char *op;
    int o, i, j;                 /* op, communication column, computation target of the grid */
    size_t order;                /* position in the shuffled order */
    hm_overlap_ref_t comm, comp; /* the grid's, read again at close */
    hm_overlap_verdict_t verdict;
    long invalid;
    int partial; /* fewer valid repetitions than --nrep */
    char procsync[160];
    hm_overlap_summary_t s; /* nvalid 0 and NAN estimates when not run */
    off_t *cell_valid_at;   /* raw: where each repetition's cell_valid went (-1: unknown) */
    long nraw;              /* repetitions written with cell_valid 1 */
} row_t;

struct cli_overlap_report {
    const cli_config_t *cfg;
    hm_experiment_t *e;
    const hm_overlap_grid_t *grid;
    int size;
    size_t nrows;
    row_t *rows; /* root */
    char note[256];
};

/* The grid as given, in microseconds, for the factors. */
static void join_targets(const double *t_s, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? " " : "", t_s[i] * 1e6);
}

int cli_overlap_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                            size_t ncells, const char *progress, const char *compute,
                            cli_overlap_report_t **out)
{
    char comm_us[512], comp_us[512], sizes[1024] = "";
    int sized = (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)) != 0;
    join_targets(cfg->comm_targets_s, cfg->ncomm_targets, comm_us, sizeof comm_us);
    join_targets(cfg->comp_targets_s, cfg->ncomp_targets, comp_us, sizeof comp_us);
    if (cfg->comp_is_comm) snprintf(comp_us, sizeof comp_us, "comm (each cell's t_comm_ref)");
    for (int i = 0, used = 0; sized && i < cfg->nsizes && used < (int)sizeof sizes; i++)
        used += snprintf(sizes + used, sizeof sizes - (size_t)used, "%s%zu", i ? " " : "",
                         cfg->sizes[i]);
    int rank;
    cli_overlap_report_t *rep = calloc(1, sizeof *rep);
    MPI_Comm_rank(comm, &rank);
    int rc = rep ? HM_OK : HM_ENOMEM;
    hm_factors_t *f = hm_experiment_factors(e);
    if (rep) {
        rep->cfg = cfg;
        rep->e = e;
        rep->nrows = ncells;
        MPI_Comm_size(comm, &rep->size);
        cli_fit_note(hm_experiment_fit(e), rep->note, sizeof rep->note);
    }
    if (rc == HM_OK) rc = hm_factors_set(f, "ops", "%s", cfg->ops);
    if (rc == HM_OK) rc = hm_factors_set(f, "progress", "%s", progress);
    if (rc == HM_OK) rc = hm_factors_set(f, "compute", "%s", compute);
    if (rc == HM_OK && !sized) rc = hm_factors_set(f, "comm_targets_us", "%s", comm_us);
    if (rc == HM_OK && sized) rc = hm_factors_set(f, "sizes_bytes", "%s", sizes);
    if (rc == HM_OK) rc = hm_factors_set(f, "comp_targets_us", "%s", comp_us);
    if (rc == HM_OK && rank == 0) {
        rep->rows = calloc(ncells ? ncells : 1, sizeof *rep->rows);
        rc = rep->rows ? HM_OK : HM_ENOMEM;
    }
    *out = rep;
    rc = cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE, hm_strerror(rc));
    if (rc != HM_EXIT_OK) return rc;
    return cli_experiment_files(e, comm, HM_RESULTS_OVERLAP, HM_RESULTS_OVERLAP_RAW);
}

/* More than half the attempts discarded: the ratios rest on the starts a
 * busy machine left undisturbed (HM_MEASURE_CONDITIONAL_SHARE). */
static int conditional(const row_t *row)
{
    long attempts = row->s.nvalid + row->invalid;
    return attempts > 0 && (double)row->invalid > HM_MEASURE_CONDITIONAL_SHARE * (double)attempts;
}

static void put_estimate(hm_csv_t *csv, const hm_overlap_estimate_t *x)
{
    hm_csv_put_double(csv, x->median);
    hm_csv_put_double(csv, x->ci_lo);
    hm_csv_put_double(csv, x->ci_hi);
}

/* A percentage of a relative deviation; NAN stays NAN (an empty cell). */
static double pct(double x)
{
    return 100.0 * x;
}

/* Why a reference does not stand, or "" when it does. */
static void ref_words(const char *side, const hm_overlap_ref_t *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->state == HM_OVERLAP_REF_OFF_TARGET)
        snprintf(buf, len, "%s reference %+.0f %% off target", side, pct(r->error));
    else if (r->state == HM_OVERLAP_REF_MOVED)
        snprintf(buf, len, "%s reference moved %+.0f %% during the grid", side, pct(r->moved));
}

/* The cell's verdict in words: "ok", or why it is invalid (every side that
 * fails, the communication's first). */
static void cell_words(const row_t *row, char *buf, size_t len)
{
    const hm_overlap_verdict_t *v = &row->verdict;
    char comm[64], comp[64];
    if (v->valid) {
        snprintf(buf, len, "ok%s%s", row->partial ? ", partial" : "",
                 conditional(row) ? ", conditional" : "");
        return;
    }
    ref_words("comm", &row->comm, comm, sizeof comm);
    ref_words("comp", &row->comp, comp, sizeof comp);
    /* A calibration that failed names both outcomes first, and a side
     * that converged but does not stand follows. */
    if (v->state == HM_OVERLAP_REF_UNCALIBRATED)
        snprintf(buf, len, "INVALID (comm %s, comp %s%s%s%s%s)",
                 hm_overlap_outcome_name(row->comm.outcome),
                 hm_overlap_outcome_name(row->comp.outcome), comm[0] ? "; " : "", comm,
                 comp[0] ? "; " : "", comp);
    else
        snprintf(buf, len, "INVALID (%s%s%s)", comm, comm[0] && comp[0] ? "; " : "", comp);
}

static void write_summary(hm_csv_t *csv, const row_t *row)
{
    char cell[160];
    cell_words(row, cell, sizeof cell);
    hm_csv_put_string(csv, row->op);
    hm_csv_put_double(csv, row->comm.target_s);
    hm_csv_put_int64(csv, (int64_t)row->comm.size);
    hm_csv_put_double(csv, row->comm.ref_s);
    hm_csv_put_string(csv, hm_overlap_outcome_name(row->comm.outcome));
    hm_csv_put_int64(csv, row->comm.probes);
    hm_csv_put_double(csv, row->comp.target_s);
    hm_csv_put_int64(csv, (int64_t)row->comp.size);
    hm_csv_put_double(csv, row->comp.ref_s);
    hm_csv_put_string(csv, hm_overlap_outcome_name(row->comp.outcome));
    hm_csv_put_int64(csv, row->comp.probes);
    hm_csv_put_int64(csv, row->verdict.valid);
    hm_csv_put_int64(csv, row->s.nvalid);
    hm_csv_put_int64(csv, row->invalid);
    hm_csv_put_double(csv, row->s.measured_s.median);
    put_estimate(csv, &row->s.overhead);
    put_estimate(csv, &row->s.comp_slowdown);
    put_estimate(csv, &row->s.comm);
    hm_csv_put_double(csv, row->s.osu_pct);
    hm_csv_put_double(csv, row->s.imb_pct);
    hm_csv_put_int64(csv, (int64_t)row->order);
    hm_csv_put_string(csv, row->procsync);
    hm_csv_put_int64(csv, conditional(row));
    hm_csv_put_double(csv, pct(row->comm.error));
    hm_csv_put_double(csv, row->comm.local_s);
    hm_csv_put_double(csv, row->comm.end_s);
    hm_csv_put_double(csv, pct(row->comm.moved));
    hm_csv_put_double(csv, row->comp.achieved_s);
    hm_csv_put_double(csv, pct(row->comp.error));
    hm_csv_put_double(csv, row->comp.end_s);
    hm_csv_put_double(csv, pct(row->comp.moved));
    hm_csv_put_string(csv, cell);
    hm_csv_end_row(csv);
}

/* Raw rows are written as the cell ends, its verdict as known then; the
 * recheck after the grid may still make it invalid (write_rows), so the
 * place of each cell_valid is kept to say so there. */
static void write_raw(hm_csv_t *raw, row_t *row, const hm_overlap_result_t *r)
{
    if (row->verdict.valid) row->cell_valid_at = malloc((size_t)(r->n ? r->n : 1) * sizeof(off_t));
    for (long i = 0; i < r->n; i++) {
        hm_csv_put_string(raw, row->op);
        hm_csv_put_double(raw, row->comm.target_s);
        hm_csv_put_int64(raw, (int64_t)row->comm.size);
        hm_csv_put_double(raw, row->comp.target_s);
        hm_csv_put_int64(raw, i);
        hm_csv_put_int64(raw, r->valid[i]);
        hm_csv_put_double(raw, r->measured_s[i]);
        hm_csv_put_double(raw, r->max_comp_s[i]);
        hm_csv_put_double(raw, r->max_mpi_s[i]);
        hm_overlap_ratios_t q;
        hm_overlap_ratios(r->measured_s[i], r->max_comp_s[i], r->max_mpi_s[i], row->comp.ref_s,
                          row->comm.ref_s, row->comm.local_s, &q);
        hm_csv_put_double(raw, q.overhead);
        hm_csv_put_double(raw, q.comp_slowdown);
        hm_csv_put_double(raw, q.comm);
        if (row->cell_valid_at)
            hm_csv_put_marked(raw, "1", &row->cell_valid_at[row->nraw++]);
        else
            hm_csv_put_int64(raw, 0);
        hm_csv_end_row(raw);
    }
    hm_csv_checkpoint(raw);
}

static void no_estimates(hm_overlap_summary_t *s)
{
    const hm_overlap_estimate_t none = {NAN, NAN, NAN};
    s->measured_s = s->overhead = s->comp_slowdown = s->comm = none;
    s->osu_pct = s->imb_pct = NAN;
}

void cli_overlap_report_grid(cli_overlap_report_t *rep, const hm_overlap_grid_t *grid)
{
    if (rep) rep->grid = grid;
}

/* The row's references as the grid has them now, and its verdict. */
static void read_refs(const cli_overlap_report_t *rep, row_t *row)
{
    row->comm = *hm_overlap_grid_comm(rep->grid, row->o, row->i);
    row->comp = *hm_overlap_grid_comp(rep->grid, row->o, row->i, row->j);
    hm_overlap_verdict(&row->comm, &row->comp, &row->verdict);
}

int cli_overlap_report_add(cli_overlap_report_t *rep, size_t index, size_t order, const char *name,
                           int op, int comm, int comp, const hm_overlap_result_t *r)
{
    row_t *row = &rep->rows[index];
    row->done = 1;
    row->op = name;
    row->o = op, row->i = comm, row->j = comp;
    row->order = order;
    read_refs(rep, row);
    no_estimates(&row->s);
    if (r && hm_overlap_summarize(r, row->comp.ref_s, row->comm.ref_s, row->comm.local_s,
                                  &row->s) != HM_OK)
        no_estimates(&row->s);
    row->invalid = r ? r->n - r->nvalid : 0;
    row->partial = r && r->nvalid < rep->cfg->nrep;
    snprintf(row->procsync, sizeof row->procsync, "%s", r ? r->procsync : "");
    hm_csv_t *summary = hm_experiment_summary(rep->e), *raw = hm_experiment_raw(rep->e);
    cli_progress(summary, raw, (long)order + 1, (long)rep->nrows, "cells");
    if (raw && r) write_raw(raw, row, r);
    return HM_OK;
}

/* A cell written valid to the raw file whose references the recheck found
 * moved: its rows' cell_valid become 0. */
static void unmark_raw(hm_csv_t *raw, const row_t *row)
{
    for (long k = 0; raw && !row->verdict.valid && k < row->nraw; k++)
        if (row->cell_valid_at[k] >= 0) hm_csv_overwrite(raw, row->cell_valid_at[k], "0");
}

/* Root: every cell's summary row, its verdict from the references as they
 * are after the grid. */
static void write_rows(cli_overlap_report_t *rep)
{
    hm_csv_t *summary = hm_experiment_summary(rep->e), *raw = hm_experiment_raw(rep->e);
    for (size_t i = 0; i < rep->nrows; i++) {
        row_t *row = &rep->rows[i];
        if (!row->done) continue;
        read_refs(rep, row);
        unmark_raw(raw, row);
        if (summary) write_summary(summary, row);
    }
    if (summary) hm_csv_checkpoint(summary);
}

static void print_table(const cli_overlap_report_t *rep)
{
    static const char *const cols[] = {
        "op",       "comm_us",       "size_B",     "comm_ref_us", "comm_err_%", "comp_us",
        "order",    "comp_ref_us",   "comp_err_%", "valid",       "discarded",  "measured_us",
        "overhead", "comp_slowdown", "comm_ratio", "osu_%",       "imb_%",      "cell"};
    enum { NCOLS = sizeof cols / sizeof cols[0] };
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < NCOLS; c++)
        hm_table_add_column(t, cols[c], c == 0 || c == NCOLS - 1 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (size_t i = 0; i < rep->nrows; i++) {
        const row_t *row = &rep->rows[i];
        char cell[160];
        if (!row->done) continue;
        cell_words(row, cell, sizeof cell);
        hm_table_add_cell(t, row->op);
        hm_table_add_number(t, "%g", row->comm.target_s * 1e6);
        hm_table_add_cellf(t, "%zu", row->comm.size);
        hm_table_add_number(t, "%.1f", row->comm.ref_s * 1e6);
        hm_table_add_number(t, "%+.1f", pct(row->comm.error));
        hm_table_add_number(t, "%g", row->comp.target_s * 1e6);
        hm_table_add_cellf(t, "%zu", row->comp.size);
        hm_table_add_number(t, "%.1f", row->comp.ref_s * 1e6);
        hm_table_add_number(t, "%+.1f", pct(row->comp.error));
        hm_table_add_cellf(t, "%ld", row->s.nvalid);
        hm_table_add_cellf(t, "%ld", row->invalid);
        hm_table_add_number(t, "%.1f", row->s.measured_s.median * 1e6);
        hm_table_add_number(t, "%.2f", row->s.overhead.median);
        hm_table_add_number(t, "%.2f", row->s.comp_slowdown.median);
        hm_table_add_number(t, "%.2f", row->s.comm.median);
        hm_table_add_number(t, "%.0f", row->s.osu_pct);
        hm_table_add_number(t, "%.0f", row->s.imb_pct);
        hm_table_add_cell(t, cell);
    }
    printf("overlap on %d ranks%s, --sync %s: medians over the valid repetitions; overhead 0 = "
           "perfect overlap, 1 = none (Denis et al. 2022, eq. 1); comp_slowdown = t_comp / "
           "t_comp_ref (eq. 3); comm_ratio = (t_call + t_wait) / t_comm_ref, both the slowest "
           "rank's own times (eq. 4); *_err_%%: reference against its target; a cell is INVALID "
           "when a reference is more than 10 %% off its target or moved by more during the grid; "
           "osu_%% and imb_%%: OSU's and IMB-NBC's overlap %% from the same repetitions "
           "(docs/overlap.md)\n",
           rep->size, rep->note, rep->cfg->sync);
    hm_table_print(t, stdout);
    hm_table_free(t);
}

void cli_overlap_report_close(cli_overlap_report_t *rep, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (!rep) return;
    if (rank == 0 && rep->rows && rep->grid) {
        write_rows(rep);
        print_table(rep);
    }
    fflush(stdout);
    for (size_t i = 0; rep->rows && i < rep->nrows; i++) free(rep->rows[i].cell_valid_at);
    free(rep->rows);
    free(rep);
}
