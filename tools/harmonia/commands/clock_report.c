/* tools/harmonia/commands/clock_report.c — table and CSV files of `harmonia clock`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/clock_report.h"
#include "commands/commands.h"
#include "commands/measure_setup.h"
#include "commands/result_files.h"

#define NCOLS(a) (sizeof a / sizeof a[0])

static void add_clock_factors(hm_factors_t *f, const cli_config_t *cfg)
{
    cli_add_clock_factors(f, cfg); /* drift_test with them */
    hm_factors_set(f, "sample", "%g", cfg->sample);
}

/* Rank 0: the files cfg asks for, with the factors f. */
static int open_files(cli_clock_report_t *rep, const hm_factors_t *f)
{
    const cli_config_t *cfg = rep->cfg;
    int rc = HM_OK;
    if (cfg->output[0]) rc = hm_results_csv_open(cfg->output, f, HM_RESULTS_CLOCK, &rep->summary);
    if (rc == HM_OK && cfg->raw[0])
        rc = hm_results_csv_open(cfg->raw, f, HM_RESULTS_CLOCK_RAW, &rep->raw);
    return rc;
}

static void open_table(cli_clock_report_t *rep)
{
    static const char *const cols[] = {
        "clock_sync", "after_s",       "sync_ms",       "models",      "refinements",
        "refine_ms",  "offset_max_us", "offset_med_us", "true_max_us", "true_med_us"};
    if (hm_table_create(&rep->table) != HM_OK) return;
    for (size_t c = 0; c < NCOLS(cols); c++)
        hm_table_add_column(rep->table, cols[c], c == 0 || c == 3 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
}

int cli_clock_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_timer_t *timer,
                          cli_clock_report_t **out)
{
    char desc[256], machine[HM_INTERFERENCE_TEXT_MAX];
    int rank, rc;
    hm_factors_t *f = NULL;
    cli_clock_report_t *rep = calloc(1, sizeof *rep);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, rep ? &rep->size : &rank);
    hm_timer_describe(timer, desc, sizeof desc);
    cli_machine(cfg, comm,
                "the synchronizations' ping-pongs wait for preempted ranks, so they take "
                "longer and their errors are larger than on dedicated cores",
                machine, sizeof machine);
    hm_factors_context_t ctx = {.argc = cfg->argc,
                                .argv = (const char *const *)cfg->argv,
                                .timer = desc,
                                .timer_resolution_s = hm_timer_measured_resolution(timer),
                                .timer_nominal_resolution_s = hm_timer_nominal_resolution(timer),
                                .seed_set = 1,
                                .seed = cfg->seed,
                                .interference = machine};
    hm_error_set(HM_OK, "%s", ""); /* a failure below says its own sentence or none */
    rc = rep ? hm_factors_create(&f) : HM_ENOMEM;
    if (rc == HM_OK) rc = hm_factors_collect(f, comm, &ctx);
    if (rc == HM_OK && rank == 0) {
        rep->cfg = cfg;
        add_clock_factors(f, cfg);
        rep->offsets_s = calloc((size_t)rep->size, sizeof(double));
        rep->true_errors_s = calloc((size_t)rep->size, sizeof(double));
        rc = rep->offsets_s && rep->true_errors_s ? open_files(rep, f) : HM_ENOMEM;
        open_table(rep);
    }
    if (rep)
        rep->cfg = cfg, rep->nchecks = (long)cli_count_items(cfg->clock_sync) * cfg->ncheck_after;
    hm_factors_free(f);
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED,
                   hm_last_error()[0] ? hm_last_error() : hm_strerror(rc));
    *out = rep;
    return rc;
}

/* A refining synchronization's refinements before the check and their
 * cost; "-" for the others, which have none to make. */
static void add_refinements(hm_table_t *t, const char *spec, const hm_clock_study_check_t *s)
{
    if (!hm_sync_spec_refines(spec)) {
        hm_table_add_cell(t, "-");
        hm_table_add_cell(t, "-");
        return;
    }
    hm_table_add_cellf(t, "%ld", s->refinements);
    hm_table_add_cellf(t, "%.2f", s->refine_cost_s * 1e3);
}

static void add_row(cli_clock_report_t *rep, const char *spec, const hm_clock_study_check_t *s)
{
    hm_table_t *t = rep->table;
    const hm_sync_report_t *sr = s->report;
    const hm_sync_check_t *c = s->check;
    char models[256];
    hm_sync_report_models(sr, models, sizeof models);
    hm_table_add_cell(t, spec);
    hm_table_add_cellf(t, "%g", s->after_s);
    hm_table_add_cellf(t, "%.1f", sr->duration_s * 1e3);
    hm_table_add_cell(t, models);
    add_refinements(t, spec, s);
    hm_table_add_cellf(t, "%.3f", c->offset_max_s * 1e6);
    hm_table_add_cellf(t, "%.3f", c->offset_median_s * 1e6);
    if (c->truth_known) {
        hm_table_add_cellf(t, "%.3f", c->true_max_s * 1e6);
        hm_table_add_cellf(t, "%.3f", c->true_median_s * 1e6);
    } else {
        hm_table_add_cell(t, "n/a");
        hm_table_add_cell(t, "n/a");
    }
}

/* The check's offsets against rank 0 and, where known, the truth. */
static void set_check(hm_results_row_t *r, const hm_sync_check_t *c)
{
    hm_results_row_set_int64(r, HM_COL_CLOCK_NSAMPLED, c->nsampled);
    hm_results_row_set_double(r, HM_COL_CLOCK_OFFSET_MAX_S, c->offset_max_s);
    hm_results_row_set_double(r, HM_COL_CLOCK_OFFSET_MEDIAN_S, c->offset_median_s);
    hm_results_row_set_int64(r, HM_COL_CLOCK_TRUTH_KNOWN, c->truth_known);
    hm_results_row_set_double(r, HM_COL_CLOCK_TRUE_MAX_S, c->truth_known ? c->true_max_s : NAN);
    hm_results_row_set_double(r, HM_COL_CLOCK_TRUE_MEDIAN_S,
                              c->truth_known ? c->true_median_s : NAN);
}

/* What the synchronization built: its models and ping-pongs. */
static void set_models(hm_results_row_t *r, const hm_sync_report_t *sr)
{
    int drift = 0, offset = 0;
    for (int l = 0; l < sr->nlevels; l++)
        drift += sr->drift_models[l], offset += sr->offset_models[l];
    char models[256];
    hm_sync_report_models(sr, models, sizeof models);
    hm_results_row_set_int64(r, HM_COL_CLOCK_DRIFT_MODELS, drift);
    hm_results_row_set_int64(r, HM_COL_CLOCK_OFFSET_MODELS, offset);
    hm_results_row_set_string(r, HM_COL_CLOCK_LEVEL_MODELS, models);
    hm_results_row_set_int64(r, HM_COL_CLOCK_PINGPONGS, sr->total_pingpongs);
    hm_results_row_set_int64(r, HM_COL_CLOCK_INTERNODE_PINGPONGS, sr->internode_pingpongs);
}

/* A failed row shows when the file is closed, as any failed write. */
static void add_csv_row(hm_csv_t *csv, const char *spec, const hm_clock_study_check_t *s)
{
    hm_results_row_t *r = NULL;
    int refines = hm_sync_spec_refines(spec);
    if (hm_results_row_create(HM_RESULTS_CLOCK, &r) != HM_OK) return;
    hm_results_row_set_string(r, HM_COL_CLOCK_CLOCK_SYNC, spec);
    hm_results_row_set_double(r, HM_COL_CLOCK_AFTER_S, s->after_s);
    hm_results_row_set_double(r, HM_COL_CLOCK_DURATION_S, s->report->duration_s);
    set_models(r, s->report);
    set_check(r, s->check);
    /* NaN: an empty cell, the others make no refinement. */
    hm_results_row_set_double(r, HM_COL_CLOCK_REFINEMENTS, refines ? (double)s->refinements : NAN);
    hm_results_row_set_double(r, HM_COL_CLOCK_REFINE_COST_S, refines ? s->refine_cost_s : NAN);
    hm_results_row_put(r, csv);
    hm_results_row_free(r);
    hm_csv_checkpoint(csv);
}

static void add_raw_rows(cli_clock_report_t *rep, const char *spec, double after_s)
{
    hm_results_row_t *r = NULL;
    if (hm_results_row_create(HM_RESULTS_CLOCK_RAW, &r) != HM_OK) return;
    for (int k = 0; k < rep->size; k++) {
        hm_results_row_set_string(r, HM_COL_CLOCK_RAW_CLOCK_SYNC, spec);
        hm_results_row_set_double(r, HM_COL_CLOCK_RAW_AFTER_S, after_s);
        hm_results_row_set_int64(r, HM_COL_CLOCK_RAW_RANK, k);
        hm_results_row_set_double(r, HM_COL_CLOCK_RAW_OFFSET_S, rep->offsets_s[k]);
        hm_results_row_set_double(r, HM_COL_CLOCK_RAW_TRUE_ERROR_S, rep->true_errors_s[k]);
        hm_results_row_put(r, rep->raw);
    }
    hm_results_row_free(r);
    hm_csv_checkpoint(rep->raw);
}

void cli_clock_report_add(cli_clock_report_t *rep, const char *spec,
                          const hm_clock_study_check_t *c)
{
    rep->checks++;
    cli_progress(rep->summary, rep->raw, rep->checks, rep->nchecks, "checks");
    if (rep->table) add_row(rep, spec, c);
    if (rep->summary) add_csv_row(rep->summary, spec, c);
    if (rep->raw) add_raw_rows(rep, spec, c->after_s);
}

int cli_clock_report_close(cli_clock_report_t *rep, MPI_Comm comm, int status)
{
    int rank, rc = HM_OK;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && rep->table && hm_table_rows(rep->table) > 0) {
        printf("clock synchronization on %d ranks (models: per level, pairwise models with a "
               "slope L or an offset O, the drift test's t = |slope| / se against its "
               "critical value, the drift the offsets may hide and the learnings extended for a "
               "finer test; refinements: those of refine before the check, and their time; "
               "offsets: ping-pong against rank 0; true: against the real clock)\n",
               rep->size);
        hm_table_print(rep->table, stdout);
    }
    rc = hm_csv_close_pair(&rep->summary, &rep->raw);
    hm_table_free(rep->table);
    free(rep->offsets_s);
    free(rep->true_errors_s);
    free(rep);
    int st = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_last_error());
    return status != HM_OK ? status : st;
}
