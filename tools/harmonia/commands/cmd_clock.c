/* tools/harmonia/commands/cmd_clock.c — `harmonia clock`: synchronize with each algorithm in
 * turn (fresh each time), then check the global clock right after and after
 * each wait (Hunold & Carpen-Amarie 2018, Alg. 6): offsets against rank 0 by ping-pong, and the
 * true error where the truth is known (one shared clock, or synthetic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/procsync.h>

#include "commands/clock_report.h"
#include "commands/commands.h"
#include <harmonia/rng.h>

/* Ranks 1..p-1 whose offsets are measured: a seeded sample of --sample of
 * them (at least one), the same on every rank. */
static int *sample_ranks(const cli_config_t *cfg, int size, int *n)
{
    int *r = malloc((size_t)(size > 1 ? size - 1 : 1) * sizeof *r);
    hm_rng_t rng;
    if (!r) return NULL;
    for (int i = 1; i < size; i++) r[i - 1] = i;
    hm_rng_seed(&rng, cfg->seed, 0x73616d70);
    for (int i = size - 2; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(hm_rng_next(&rng) % (uint64_t)(i + 1)), t = r[i];
        r[i] = r[j], r[j] = t;
    }
    *n = (int)ceil(cfg->sample * (size - 1));
    if (*n < 1 && size > 1) *n = 1;
    return r;
}

static int sync_error(MPI_Comm comm, int rc, const char *spec, const char *why)
{
    char msg[640];
    snprintf(msg, sizeof msg, "--clock-sync %s: %s", spec, why[0] ? why : hm_strerror(rc));
    /* A refusal of the request itself (prop over ranks without a shared
     * source) is a usage error; anything else failed at run time. */
    int status = rc == HM_EINVAL || rc == HM_ENOENT ? HM_EXIT_USAGE : HM_EXIT_FAILURE;
    return cli_agree(comm, status, msg);
}

/* Sleep until target_s on the global clock, then spin the last 200 us:
 * every rank wakes at the same global time without burning a core. A long
 * wait sleeps a second at a time, so that the progress line moves. */
static void wait_for_check(hm_clock_t *global, double from_s, double target_s,
                           cli_progress_t *progress)
{
    double now;
    while ((now = hm_clock_now(global)) < target_s - 1.0) {
        hm_procsync_wait_until(global, now + 1.0, 200e-6, 0);
        cli_progress_report(progress, hm_clock_now(global) - from_s, target_s - from_s);
    }
    hm_procsync_wait_until(global, target_s, 200e-6, 0);
}

/* One algorithm: synchronize, then check after each wait. */
static int run_spec(cli_config_t *cfg, MPI_Comm comm, hm_clock_t *base, const char *spec,
                    cli_clock_report_t *rep)
{
    hm_sync_params_t params;
    hm_sync_report_t sr;
    hm_clock_t *global = NULL;
    int rank, size, nsampled = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    cli_sync_params(cfg, &params);
    cli_progress_t progress;
    char what[sizeof progress.what + 64];
    cli_progress_init(&progress, rank == 0);
    snprintf(what, sizeof what, "clock %.64s: pair fit", spec);
    cli_progress_stage(&progress, what, "fit points");
    params.progress = (hm_progress_t){cli_progress_report, &progress};
    int rc = hm_sync_run(comm, spec, &params, base, &global, &sr);
    cli_progress_clear(&progress);
    if (rc != HM_OK) return sync_error(comm, rc, spec, hm_last_error());
    double synced_at = hm_clock_now(global);
    MPI_Bcast(&synced_at, 1, MPI_DOUBLE, 0, comm);
    int *sampled = sample_ranks(cfg, size, &nsampled);
    for (int w = 0; rc == HM_OK && w < cfg->ncheck_after; w++) {
        hm_sync_check_t check;
        snprintf(what, sizeof what, "clock %.64s: waiting for the check after %g s", spec,
                 cfg->check_after_s[w]);
        cli_progress_stage(&progress, what, "s");
        wait_for_check(global, synced_at, synced_at + cfg->check_after_s[w], &progress);
        cli_progress_clear(&progress);
        rc = hm_sync_check(comm, global, cfg->exchanges, sampled, nsampled, &check, rep->offsets_s,
                           rep->true_errors_s);
        if (rc == HM_OK && rank == 0)
            cli_clock_report_add(rep, spec, &sr, cfg->check_after_s[w], &check);
    }
    free(sampled);
    hm_clock_free(global);
    return cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE,
                     rc == HM_OK ? "" : "clock check failed");
}

int cli_cmd_clock(cli_config_t *cfg, MPI_Comm comm)
{
    hm_timer_t *timer = NULL;
    hm_clock_t *base = NULL;
    cli_clock_report_t *rep = NULL;
    char specs[sizeof cfg->clock_sync], why[512] = "";
    int size;
    MPI_Comm_size(comm, &size);
    int rc = cli_agree(comm, cli_check_applies(cfg, NULL, size, why, sizeof why), why);
    if (rc == HM_EXIT_OK) rc = cli_check_outputs(cfg, comm);
    if (rc == HM_EXIT_OK) rc = cli_open_clock(cfg, comm, &timer, &base);
    if (rc == HM_EXIT_OK) rc = cli_clock_report_open(cfg, comm, timer, &rep);
    strcpy(specs, cfg->clock_sync);
    for (char *spec = specs, *next; rc == HM_EXIT_OK && spec; spec = next) {
        next = strchr(spec, ',');
        if (next) *next++ = '\0';
        rc = run_spec(cfg, comm, base, spec, rep);
    }
    if (rep) rc = cli_clock_report_close(rep, comm, rc);
    hm_clock_free(base);
    hm_timer_free(timer);
    return rc;
}
