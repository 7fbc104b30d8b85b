/* tools/harmonia/commands/cmd_timers.c — `harmonia timers`: what each time source delivers
 * on every rank (resolution, read overhead, monotonicity). */
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>
#include <harmonia/output.h>
#include <harmonia/timer.h>

#include "commands/commands.h"

/* One rank's measurement of one source, as doubles for MPI_Gather. */
enum { R_AVAILABLE, R_RESOLUTION, R_NOMINAL, R_OVERHEAD, R_DECREASES, R_CLAIMED, R_FIELDS };

typedef struct source_report {
    const char *name;
    int available;    /* on every rank */
    char detail[384]; /* description, or why it is unavailable (first failing rank) */
    double *per_rank; /* root: size x R_FIELDS */
} source_report_t;

static int measure_source(const cli_config_t *cfg, MPI_Comm comm, source_report_t *r)
{
    int rank;
    double mine[R_FIELDS] = {0};
    hm_timer_t *t = NULL;
    hm_timer_quality_t q;
    MPI_Comm_rank(comm, &rank);
    hm_timer_options_t o = cli_timer_options(cfg, rank, cli_clock_domain(cfg, comm));
    int rc = hm_timer_create(r->name, &o, &t);
    /* The reason a source is unavailable comes from the lowest rank that
     * refused it, so that the row says the same thing whichever rank failed. */
    r->available = hm_agree(comm, rc) == HM_OK;
    if (r->available) {
        hm_timer_describe(t, r->detail, sizeof r->detail);
        if (strcmp(r->detail, r->name) == 0) r->detail[0] = '\0'; /* nothing beyond the name */
        hm_timer_agree_origin(t, comm);
        rc = hm_timer_measure(t, 0, &q);
        mine[R_AVAILABLE] = 1, mine[R_RESOLUTION] = q.resolution_s;
        mine[R_NOMINAL] = q.nominal_resolution_s, mine[R_OVERHEAD] = q.overhead_s;
        mine[R_DECREASES] = (double)q.decreases, mine[R_CLAIMED] = q.monotonic_claimed;
    } else {
        snprintf(r->detail, sizeof r->detail, "%s", hm_last_error());
    }
    hm_timer_free(t);
    MPI_Gather(mine, R_FIELDS, MPI_DOUBLE, r->per_rank, R_FIELDS, MPI_DOUBLE, 0, comm);
    return rc == HM_OK ? HM_OK : rc;
}

static const char *monotonic_text(double claimed, double decreases, char *buf, size_t len)
{
    if (claimed && decreases == 0) return "yes";
    if (claimed)
        snprintf(buf, len, "VIOLATED (%.0f backwards)", decreases);
    else if (decreases == 0)
        snprintf(buf, len, "not promised");
    else
        snprintf(buf, len, "no (%.0f backwards)", decreases);
    return buf;
}

static void add_row(hm_table_t *tab, int per_rank, int rank, const source_report_t *r,
                    const double *v)
{
    char mono[64];
    if (per_rank) hm_table_add_cellf(tab, "%d", rank);
    hm_table_add_cell(tab, r->name);
    if (!r->available) {
        for (int i = 0; i < 4; i++) hm_table_add_cell(tab, "-");
        hm_table_add_cellf(tab, "unavailable: %s", r->detail);
        return;
    }
    hm_table_add_cellf(tab, "%.2f", v[R_RESOLUTION] * 1e9);
    hm_table_add_cellf(tab, "%.2f", v[R_NOMINAL] * 1e9);
    hm_table_add_cellf(tab, "%.2f", v[R_OVERHEAD] * 1e9);
    hm_table_add_cell(tab, monotonic_text(v[R_CLAIMED], v[R_DECREASES], mono, sizeof mono));
    hm_table_add_cell(tab, r->detail);
}

/* The worst rank: largest resolution and overhead, all backward steps. */
static void worst_over_ranks(const double *per_rank, int size, double *w)
{
    memcpy(w, per_rank, R_FIELDS * sizeof *w);
    for (int p = 1; p < size; p++) {
        const double *v = per_rank + (size_t)p * R_FIELDS;
        if (v[R_RESOLUTION] > w[R_RESOLUTION]) w[R_RESOLUTION] = v[R_RESOLUTION];
        if (v[R_NOMINAL] > w[R_NOMINAL]) w[R_NOMINAL] = v[R_NOMINAL];
        if (v[R_OVERHEAD] > w[R_OVERHEAD]) w[R_OVERHEAD] = v[R_OVERHEAD];
        w[R_DECREASES] += v[R_DECREASES];
    }
}

static void print_table(const cli_config_t *cfg, const source_report_t *reps, int nrep, int size)
{
    static const char *const cols[] = {"source",      "resolution_ns", "claimed_ns",
                                       "overhead_ns", "monotonic",     "detail"};
    hm_table_t *tab;
    if (hm_table_create(&tab) != HM_OK) return;
    if (cfg->per_rank) hm_table_add_column(tab, "rank", HM_ALIGN_RIGHT);
    for (int c = 0; c < 6; c++)
        hm_table_add_column(tab, cols[c], c >= 1 && c <= 3 ? HM_ALIGN_RIGHT : HM_ALIGN_LEFT);
    for (int i = 0; i < nrep; i++) {
        double w[R_FIELDS];
        if (!cfg->per_rank) {
            worst_over_ranks(reps[i].per_rank, size, w);
            add_row(tab, 0, 0, &reps[i], w);
            continue;
        }
        for (int p = 0; p < size; p++)
            add_row(tab, 1, p, &reps[i], reps[i].per_rank + (size_t)p * R_FIELDS);
    }
    printf("time sources on %d rank%s (%s; resolution = smallest step observed, overhead = "
           "median cost of one read)\n",
           size, size > 1 ? "s" : "", cfg->per_rank ? "each rank" : "worst rank");
    hm_table_print(tab, stdout);
    hm_table_free(tab);
}

/* Rank p's values of one source, as a row of HM_RESULTS_TIMERS (columns
 * by name). */
static int put_row(hm_csv_t *csv, const source_report_t *rep, int p)
{
    const double *v = rep->per_rank + (size_t)p * R_FIELDS;
    hm_results_row_t *r = NULL;
    int rc = hm_results_row_create(HM_RESULTS_TIMERS, &r);
    if (rc != HM_OK) return rc;
    hm_results_row_set_int64(r, HM_COL_TIMERS_RANK, p);
    hm_results_row_set_string(r, HM_COL_TIMERS_SOURCE, rep->name);
    hm_results_row_set_int64(r, HM_COL_TIMERS_AVAILABLE, rep->available);
    hm_results_row_set_double(r, HM_COL_TIMERS_RESOLUTION_S, v[R_RESOLUTION]);
    hm_results_row_set_double(r, HM_COL_TIMERS_CLAIMED_RESOLUTION_S, v[R_NOMINAL]);
    hm_results_row_set_double(r, HM_COL_TIMERS_OVERHEAD_S, v[R_OVERHEAD]);
    hm_results_row_set_int64(r, HM_COL_TIMERS_DECREASES, (int64_t)v[R_DECREASES]);
    hm_results_row_set_int64(r, HM_COL_TIMERS_MONOTONIC_CLAIMED, (int64_t)v[R_CLAIMED]);
    rc = hm_results_row_put(r, csv);
    hm_results_row_free(r);
    return rc;
}

static int write_csv(const cli_config_t *cfg, MPI_Comm comm, const source_report_t *reps, int nrep,
                     int size, const char *machine)
{
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    hm_factors_context_t ctx = {.argc = cfg->argc,
                                .argv = (const char *const *)cfg->argv,
                                .timer = cfg->given & HM_OPT_BIT(HM_OPT_TIMER) ? cfg->timer
                                                                               : "each source",
                                .seed_set = 1,
                                .seed = cfg->seed,
                                .interference = machine};
    int rank, rc = hm_factors_create(&f);
    MPI_Comm_rank(comm, &rank);
    if (rc == HM_OK) rc = hm_factors_collect(f, comm, &ctx);
    if (rc == HM_OK && rank == 0) rc = hm_results_csv_open(cfg->output, f, HM_RESULTS_TIMERS, &csv);
    for (int i = 0; rc == HM_OK && rank == 0 && i < nrep; i++)
        for (int p = 0; rc == HM_OK && p < size; p++) rc = put_row(csv, &reps[i], p);
    /* A row that failed leaves no file: a partial one would look complete. */
    if (csv && rc == HM_OK)
        rc = hm_csv_close(csv);
    else
        hm_csv_abort(csv);
    hm_factors_free(f);
    return rc;
}

static int check_explicit_timer(const cli_config_t *cfg, MPI_Comm comm)
{
    hm_timer_t *t = NULL;
    int rc = cli_open_timer(cfg, comm, cfg->timer, &t);
    hm_timer_free(t);
    return rc;
}

int cli_cmd_timers(cli_config_t *cfg, MPI_Comm comm)
{
    int rank, size, n = 0, rc = HM_OK;
    source_report_t reps[16];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int explicit_timer = (cfg->given & HM_OPT_BIT(HM_OPT_TIMER)) != 0;
    if (cli_check_outputs(cfg, comm) != HM_OK) return HM_EINVAL;
    if (explicit_timer && check_explicit_timer(cfg, comm) != HM_OK) return HM_EINVAL;
    char machine[HM_INTERFERENCE_TEXT_MAX];
    cli_machine(cfg, comm,
                "a read that straddles a preemption looks slow, so the overheads' tails are "
                "the scheduler's",
                machine, sizeof machine);
    for (size_t i = 0; i < hm_timer_count(); i++) {
        const char *name = hm_timer_name_at(i);
        if (explicit_timer && strcmp(name, cfg->timer) != 0) continue;
        reps[n] = (source_report_t){.name = name};
        reps[n].per_rank = rank == 0 ? calloc((size_t)size * R_FIELDS, sizeof(double)) : NULL;
        measure_source(cfg, comm, &reps[n++]);
    }
    if (rank == 0) print_table(cfg, reps, n, size);
    if (cfg->output[0]) {
        int st = write_csv(cfg, comm, reps, n, size, machine);
        const char *why = hm_last_error()[0] ? hm_last_error() : hm_strerror(st);
        rc = cli_agree(comm, st == HM_OK ? HM_OK : HM_EFAILED, st == HM_OK ? "" : why);
    }
    for (int i = 0; i < n; i++) free(reps[i].per_rank);
    return rc;
}
