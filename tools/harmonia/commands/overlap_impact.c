/* tools/harmonia/commands/overlap_impact.c — `harmonia overlap impact`: the
 * MPI impact ratio [Denis et al. 2022, §3.2.1, eq. 2] per rank and thread,
 * measured by the library (hm_overlap_impact) at each --comp-us target;
 * here the options, the table and the --output file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>
#include <harmonia/overlap.h>
#include <harmonia/results.h>

#include "commands/commands.h"

typedef struct report {
    hm_overlap_impact_t *done; /* root: one per target measured */
    int ndone;
    hm_csv_t *csv; /* root, --output */
} report_t;

/* harmonia-compute beside this program (build/ or bin/), else on PATH. */
static void compute_program(char *path, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, len, "%s/harmonia-compute", self);
            if (access(path, X_OK) == 0) return;
        }
    }
    snprintf(path, len, "harmonia-compute");
}

static void join_targets(const cli_config_t *cfg, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < cfg->ncomp_targets && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? " " : "",
                                 cfg->comp_targets_s[i] * 1e6);
}

/* The factors of every result file, and what this command adds: what
 * computes, the program without MPI, the progress configuration, the
 * targets and runs. */
static int factors(const cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c, const char *program,
                   hm_factors_t *f)
{
    char compute[512], progress[256] = "", targets[512], machine[HM_INTERFERENCE_TEXT_MAX];
    cli_machine(cfg, comm,
                "the compute threads share their cores with other processes, so the "
                "calibrated orders and times are less reproducible",
                machine, sizeof machine);
    hm_factors_context_t ctx = {.argc = cfg->argc,
                                .argv = (const char *const *)cfg->argv,
                                .timer = "monotonic (CLOCK_MONOTONIC, read by each compute thread "
                                         "around its dgemm)",
                                .seed_set = 1,
                                .seed = cfg->seed,
                                .interference = machine};
    int free_cores = cfg->given & HM_OPT_BIT(HM_OPT_THREADS)
                         ? hm_compute_cores_of(c) - hm_compute_threads(c)
                         : 0;
    hm_overlap_progress_kind_t kind;
    hm_compute_describe(c, compute, sizeof compute);
    join_targets(cfg, targets, sizeof targets);
    int rc = hm_factors_collect(f, comm, &ctx);
    if (rc == HM_OK) rc = hm_overlap_progress(free_cores, &kind, progress, sizeof progress);
    if (rc == HM_OK) rc = hm_factors_set(f, "progress", "%s", progress);
    if (rc == HM_OK) rc = hm_factors_set(f, "compute", "%s", compute);
    if (rc == HM_OK) rc = hm_factors_set(f, "compute_program", "%s", program);
    if (rc == HM_OK) rc = hm_factors_set(f, "comp_targets_us", "%s", targets);
    if (rc == HM_OK) rc = hm_factors_set(f, "nrep", "%ld", cfg->nrep);
    return rc;
}

/* Collective: the factors, and the --output file opened on rank 0. */
static int open_report(const cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c, const char *program,
                       report_t *rep)
{
    hm_factors_t *f = NULL;
    int rank, rc = hm_factors_create(&f);
    MPI_Comm_rank(comm, &rank);
    if (rc == HM_OK) rc = factors(cfg, comm, c, program, f);
    if (rc == HM_OK && rank == 0) {
        rep->done = calloc((size_t)cfg->ncomp_targets, sizeof *rep->done);
        rc = rep->done ? HM_OK : HM_ENOMEM;
    }
    if (rc == HM_OK && rank == 0 && cfg->output[0])
        rc = hm_results_csv_open(cfg->output, f, HM_RESULTS_IMPACT, &rep->csv);
    hm_factors_free(f);
    const char *why = hm_last_error()[0] ? hm_last_error() : hm_strerror(rc);
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, rc == HM_OK ? "" : why);
}

/* Root: the rows of one target into the file, published at once. */
static void write_rows(report_t *rep, const hm_overlap_impact_t *r, long done, long total)
{
    if (!rep->csv) return;
    hm_overlap_impact_write_rows(rep->csv, r);
    hm_csv_progress(rep->csv, done, total, "targets");
    hm_csv_checkpoint(rep->csv);
}

/* Collective: one target. A target no order reaches is the user's to
 * change (exit 2, naming it); anything else a runtime failure. */
static int impact_at(const cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c, const char *program,
                     int i, report_t *rep)
{
    hm_overlap_impact_t r;
    double target_s = cfg->comp_targets_s[i];
    int rank, rc = hm_overlap_impact(comm, c, program, target_s, cfg->nrep, &r);
    MPI_Comm_rank(comm, &rank);
    if (rc == HM_ERANGE)
        hm_error_set(HM_EINVAL, "--comp-us %g: %s", target_s * 1e6, hm_last_error());
    else if (rc != HM_OK)
        hm_error_set(HM_EINVAL, "overlap impact: %s",
                     hm_last_error()[0] ? hm_last_error() : hm_strerror(rc));
    if (rc != HM_OK)
        return cli_agree(comm, rc == HM_ERANGE ? HM_EINVAL : HM_EFAILED, hm_last_error());
    if (rank == 0) {
        rep->done[rep->ndone++] = r;
        write_rows(rep, &r, rep->ndone, cfg->ncomp_targets);
    } else {
        hm_overlap_impact_free(&r);
    }
    return HM_OK;
}

/* Root: one row per target, rank and thread. */
static void print_table(const report_t *rep, int size)
{
    static const char *const cols[] = {"rank",        "thread", "core",
                                       "target_us",   "order",  "without_mpi_us",
                                       "with_mpi_us", "impact", "calibration"};
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
        hm_table_add_column(t, cols[k],
                            k + 1 == sizeof cols / sizeof cols[0] ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (int i = 0; i < rep->ndone; i++) {
        const hm_overlap_impact_t *r = &rep->done[i];
        for (size_t k = 0; k < r->nrows; k++) {
            const hm_overlap_impact_row_t *row = &r->rows[k];
            hm_table_add_cellf(t, "%d", row->rank);
            hm_table_add_cellf(t, "%d", row->thread);
            hm_table_add_cellf(t, "%d", row->core);
            hm_table_add_number(t, "%g", r->target_s * 1e6);
            hm_table_add_cellf(t, "%d", r->order);
            hm_table_add_number(t, "%.1f", row->without_mpi_s * 1e6);
            hm_table_add_number(t, "%.1f", row->with_mpi_s * 1e6);
            hm_table_add_number(t, "%.3f", row->impact);
            hm_table_add_cell(t, hm_overlap_outcome_name(r->outcome));
        }
    }
    printf("MPI impact ratio on %d ranks (Denis et al. 2022, eq. 2): the kernel's median time per "
           "thread in this MPI process over its time in harmonia-compute, which never loads MPI "
           "(1: no impact)\n",
           size);
    hm_table_print(t, stdout);
    hm_table_free(t);
    fflush(stdout);
}

/* Collective: publish the file (rank 0); the first failure wins. */
static int close_report(report_t *rep, MPI_Comm comm, int status)
{
    int rc = HM_OK;
    if (rep->csv && status == HM_OK) {
        rc = hm_csv_close(rep->csv);
    } else if (rep->csv) {
        hm_csv_abort(rep->csv);
    }
    rep->csv = NULL;
    for (int i = 0; i < rep->ndone; i++) hm_overlap_impact_free(&rep->done[i]);
    free(rep->done);
    if (status != HM_OK) return status;
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_last_error());
}

int cli_overlap_impact(cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c)
{
    char program[4200];
    report_t rep = {0};
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    compute_program(program, sizeof program);
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK) rc = open_report(cfg, comm, c, program, &rep);
    for (int i = 0; i < cfg->ncomp_targets && rc == HM_OK; i++)
        rc = impact_at(cfg, comm, c, program, i, &rep);
    if (rank == 0 && rc == HM_OK) print_table(&rep, size);
    return close_report(&rep, comm, rc);
}
