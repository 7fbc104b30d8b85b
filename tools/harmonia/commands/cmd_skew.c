/* tools/harmonia/commands/cmd_skew.c — `harmonia skew`: the exit skew of each process
 * synchronization method of --sync, started at a common global time. */
#include <stdio.h>
#include <string.h>

#include <harmonia/measure.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"
#include "commands/skew_report.h"

/* Without --sync, the methods whose exit pattern decides the arrival
 * pattern of benchmarks: the MPI library's barrier, harmonia's own, and
 * harmonize. */
static const char *const DEFAULT_METHODS = "barrier,dissem,harmonize";

static const char *methods(const cli_config_t *cfg)
{
    return cfg->given & HM_OPT_BIT(HM_OPT_SYNC) ? cfg->sync : DEFAULT_METHODS;
}

static int check_methods(const cli_config_t *cfg, MPI_Comm comm)
{
    char list[sizeof cfg->sync + 32];
    int rc = HM_OK, n = 0;
    snprintf(list, sizeof list, "%s", methods(cfg));
    for (char *m = list, *next; m && rc == HM_OK; m = next, n++) {
        next = strchr(m, ',');
        if (next) *next++ = '\0';
        rc = cli_check_procsync(cfg, m);
    }
    if (rc == HM_OK && n > 16)
        rc = HM_EINVAL, hm_error_set(HM_EINVAL, "--sync: more than 16 methods");
    int size;
    MPI_Comm_size(comm, &size);
    if (rc == HM_OK) rc = cli_check_applies(cfg, methods(cfg), size);
    return cli_agree(comm, rc, hm_last_error());
}

static int run_method(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                      const char *method, cli_skew_report_t *rep)
{
    hm_procsync_t *ps = NULL;
    hm_skew_result_t r;
    int rank, said = 0;
    MPI_Comm_rank(comm, &rank);
    int rc = cli_procsync_create(comm, method, e, &ps);
    if (rc != HM_OK) return rc;
    int st =
        hm_measure_skew(comm, ps, hm_experiment_global_clock(e), cfg->nrep, cfg->back_to_back, &r);
    if (st == HM_OK && r.n == 0) { /* every rank has the same counts */
        hm_error_set(HM_EINVAL,
                     "skew of %s: no repetition kept (%ld of %ld reached the common "
                     "start late)",
                     method, r.late_starts, cfg->nrep);
        st = HM_EAGAIN, said = 1;
    }
    if (st == HM_OK && rank == 0) st = cli_skew_report_add(rep, method, &r);
    if (st != HM_OK && !said) hm_error_set(HM_EINVAL, "skew of %s: %s", method, hm_strerror(st));
    hm_skew_result_free(&r);
    hm_procsync_free(ps);
    return cli_agree(comm, st == HM_OK ? HM_OK : HM_EFAILED, hm_last_error());
}

/* The factor "sync" names the methods measured, with the parameters that
 * some of them read (the experiment, which creates none, records "none"). */
static int record_methods(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e)
{
    int rc = hm_experiment_procsync_factors(hm_experiment_factors(e), methods(cfg),
                                            hm_experiment_procsync_params(e));
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_strerror(rc));
}

int cli_cmd_skew(cli_config_t *cfg, MPI_Comm comm)
{
    hm_experiment_t *e = NULL;
    cli_skew_report_t *rep = NULL;
    char list[sizeof cfg->sync + 32];
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK) rc = check_methods(cfg, comm);
    /* One process synchronization per method, each created in run_method. */
    if (rc == HM_OK) rc = cli_experiment_open(cfg, comm, NULL, &e);
    if (rc == HM_OK) rc = record_methods(cfg, comm, e);
    if (rc == HM_OK) rc = cli_skew_report_open(cfg, comm, e, cli_count_items(methods(cfg)), &rep);
    snprintf(list, sizeof list, "%s", methods(cfg));
    for (char *m = list, *next; rc == HM_OK && m; m = next) {
        next = strchr(m, ',');
        if (next) *next++ = '\0';
        rc = run_method(cfg, comm, e, m, rep);
    }
    if (rep) cli_skew_report_close(rep, comm);
    rc = cli_experiment_close(e, comm, rc);
    return rc;
}
