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
    int o, i, j;             /* op, communication column, computation target of the grid */
    hm_overlap_cell_row_t c; /* references read again at close */
    char procsync[160];      /* c.procsync */
    off_t *cell_valid_at;    /* raw: where each repetition's cell_valid went */
    long nraw;               /* their number */
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
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_strerror(rc));
    if (rc != HM_OK) return rc;
    return cli_experiment_files(e, comm, HM_RESULTS_OVERLAP, HM_RESULTS_OVERLAP_RAW);
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
    hm_overlap_cell_row_t *c = &row->c;
    c->comm = *hm_overlap_grid_comm(rep->grid, row->o, row->i);
    c->comp = *hm_overlap_grid_comp(rep->grid, row->o, row->i, row->j);
    hm_overlap_verdict(&c->comm, &c->comp, &c->verdict);
}

int cli_overlap_report_add(cli_overlap_report_t *rep, size_t index, size_t order, const char *name,
                           int op, int comm, int comp, const hm_overlap_result_t *r)
{
    row_t *row = &rep->rows[index];
    hm_overlap_cell_row_t *c = &row->c;
    row->done = 1;
    row->o = op, row->i = comm, row->j = comp;
    c->op = name;
    c->order = order;
    read_refs(rep, row);
    no_estimates(&c->s);
    if (r && hm_overlap_summarize(r, c->comp.ref_s, c->comm.ref_s, c->comm.local_s, &c->s) != HM_OK)
        no_estimates(&c->s);
    c->discarded = r ? r->n - r->nvalid : 0;
    c->partial = r && r->nvalid < rep->cfg->nrep;
    snprintf(row->procsync, sizeof row->procsync, "%s", r ? r->procsync : "");
    c->procsync = row->procsync;
    hm_csv_t *summary = hm_experiment_summary(rep->e), *raw = hm_experiment_raw(rep->e);
    cli_progress(summary, raw, (long)order + 1, (long)rep->nrows, "cells");
    if (raw && r) {
        /* Written as the cell ends, its verdict as known now: the recheck
         * after the grid may still unmark it (write_rows). */
        hm_overlap_write_raw_rows(raw, c, r, &row->cell_valid_at);
        row->nraw = row->cell_valid_at ? r->n : 0;
        hm_csv_checkpoint(raw);
    }
    return HM_OK;
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
        if (raw) hm_overlap_unmark_raw_rows(raw, &row->c, row->cell_valid_at, row->nraw);
        if (summary) hm_overlap_write_summary_row(summary, &row->c);
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
        const hm_overlap_cell_row_t *c = &row->c;
        hm_overlap_cell_words(c, cell, sizeof cell);
        hm_table_add_cell(t, c->op);
        hm_table_add_number(t, "%g", c->comm.target_s * 1e6);
        hm_table_add_cellf(t, "%zu", c->comm.size);
        hm_table_add_number(t, "%.1f", c->comm.ref_s * 1e6);
        hm_table_add_number(t, "%+.1f", 100.0 * c->comm.error);
        hm_table_add_number(t, "%g", c->comp.target_s * 1e6);
        hm_table_add_cellf(t, "%zu", c->comp.size);
        hm_table_add_number(t, "%.1f", c->comp.ref_s * 1e6);
        hm_table_add_number(t, "%+.1f", 100.0 * c->comp.error);
        hm_table_add_cellf(t, "%ld", c->s.nvalid);
        hm_table_add_cellf(t, "%ld", c->discarded);
        hm_table_add_number(t, "%.1f", c->s.measured_s.median * 1e6);
        hm_table_add_number(t, "%.2f", c->s.overhead.median);
        hm_table_add_number(t, "%.2f", c->s.comp_slowdown.median);
        hm_table_add_number(t, "%.2f", c->s.comm.median);
        hm_table_add_number(t, "%.0f", c->s.osu_pct);
        hm_table_add_number(t, "%.0f", c->s.imb_pct);
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
