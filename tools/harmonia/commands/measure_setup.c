/* tools/harmonia/commands/measure_setup.c — the setup shared by `bench` and `skew`. */
#include <stdio.h>
#include <string.h>

#include <harmonia/experiment.h>
#include <harmonia/measure.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"

int hm_cli_clock_open(const hm_cli_config_t *cfg, MPI_Comm comm, hm_cli_clock_t *clock)
{
    hm_sync_params_t params;
    char msg[640] = "";
    memset(clock, 0, sizeof *clock);
    if (strchr(cfg->clock_sync, ',')) {
        snprintf(msg, sizeof msg,
                 "--clock-sync: \"%s\" is a list; %s takes one specification (e.g. hca3 or "
                 "hca3+prop)",
                 cfg->clock_sync, cfg->command);
        return hm_cli_agree(comm, HM_EXIT_USAGE, msg);
    }
    int rc = hm_cli_open_clock(cfg, comm, &clock->timer, &clock->base);
    if (rc != HM_EXIT_OK) return rc;
    hm_cli_sync_params(cfg, &params);
    int st =
        hm_sync_run(comm, cfg->clock_sync, &params, clock->base, &clock->global, &clock->report);
    if (st != HM_OK)
        snprintf(msg, sizeof msg, "--clock-sync %s: %s", cfg->clock_sync, hm_last_error());
    /* A refused request (prop over ranks without a shared source) is a usage
     * error; anything else failed at run time. */
    int status = st == HM_OK                          ? HM_EXIT_OK
                 : st == HM_EINVAL || st == HM_ENOENT ? HM_EXIT_USAGE
                                                      : HM_EXIT_FAILURE;
    return hm_cli_agree(comm, status, msg);
}

void hm_cli_clock_close(hm_cli_clock_t *clock)
{
    hm_clock_free(clock->global);
    hm_clock_free(clock->base);
    hm_timer_free(clock->timer);
    memset(clock, 0, sizeof *clock);
}

void hm_cli_procsync_params(const hm_cli_config_t *cfg, hm_procsync_params_t *p)
{
    hm_procsync_params_default(p);
    p->late_s = cfg->late_us * 1e-6;
    p->window_s = cfg->window_us * 1e-6;
    p->slice_s = cfg->slice_s;
    p->check_every = cfg->check_every;
    p->bcast_factor = cfg->bcast_factor;
    p->harmonize.clock_sync = cfg->clock_sync;
    p->harmonize.resync_s = cfg->resync_s;
    hm_cli_sync_params(cfg, &p->harmonize.sync);
}

int hm_cli_check_procsync(const hm_cli_config_t *cfg, const char *name, char *why, size_t len)
{
    hm_procsync_params_t p;
    hm_cli_procsync_params(cfg, &p);
    if (hm_procsync_check(name, &p) == HM_OK) return HM_EXIT_OK;
    snprintf(why, len, "--sync %s: %s", name, hm_last_error());
    return HM_EXIT_USAGE;
}

/* The one line on stderr (it is a caution, and keeps stdout's table and
 * OSU layout as they are). */
static void print_fit(const hm_procsync_fit_t *fit)
{
    char how[160];
    if (fit->derived)
        snprintf(how, sizeof how,
                 "measured p%g of the slowest rank's start lateness %.1f us x %g over %ld "
                 "deadlines",
                 fit->quantile * 100, fit->lateness_s * 1e6, fit->factor, fit->waits);
    else
        snprintf(how, sizeof how, "--late-us, as given");
    fprintf(stderr,
            "harmonia: %d ranks on %d processors (oversubscribed): late-start tolerance %.0f us%s "
            "(%s); results are less precise than on dedicated cores\n",
            fit->ranks, fit->processors, fit->late_s * 1e6,
            fit->late_run_factor > 0 ? " + the repetition's run-time" : "", how);
    fflush(stderr);
}

int hm_cli_fit_procsync(const hm_cli_config_t *cfg, MPI_Comm comm, hm_cli_clock_t *clock)
{
    char msg[512] = "";
    int rank;
    MPI_Comm_rank(comm, &rank);
    hm_cli_procsync_params(cfg, &clock->fitted);
    int given = (cfg->given & HM_OPT_BIT(HM_OPT_LATE_US)) != 0;
    int rc = hm_procsync_fit(comm, clock->global, given, &clock->fitted, &clock->fit);
    if (rc != HM_OK)
        snprintf(msg, sizeof msg, "%s", hm_last_error());
    else if (rank == 0 && clock->fit.oversubscribed)
        print_fit(&clock->fit);
    return hm_cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE, msg);
}

void hm_cli_fit_note(const hm_procsync_fit_t *fit, char *buf, size_t len)
{
    if (!fit->oversubscribed) {
        snprintf(buf, len, "%s", "");
        return;
    }
    snprintf(buf, len,
             " (OVERSUBSCRIBED: %d ranks on %d processors, late-start tolerance %.0f us%s: less "
             "precise than on dedicated cores)",
             fit->ranks, fit->processors, fit->late_s * 1e6,
             fit->late_run_factor > 0 ? " + run-time" : "");
}

int hm_cli_procsync_create(const hm_cli_config_t *cfg, MPI_Comm comm, const char *name,
                           const hm_cli_clock_t *clock, hm_procsync_t **ps)
{
    hm_procsync_params_t p;
    char msg[512] = "";
    if (clock->fit.derived)
        p = clock->fitted;
    else
        hm_cli_procsync_params(cfg, &p);
    int rc = hm_procsync_create(name, comm, clock->global, &p, ps);
    if (rc != HM_OK) snprintf(msg, sizeof msg, "--sync %s: %s", name, hm_last_error());
    return hm_cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE, msg);
}

void hm_cli_add_clock_factors(hm_factors_t *f, const hm_cli_config_t *cfg)
{
    hm_sync_params_t sync;
    hm_cli_sync_params(cfg, &sync);
    hm_experiment_clock_factors(f, cfg->clock_sync, &sync, cfg->synthetic);
}

static void add_measure_factors(hm_factors_t *f, const hm_cli_config_t *cfg,
                                const hm_cli_clock_t *clock)
{
    hm_factors_set(f, "clock_sync_duration_s", "%.9g", clock->report.duration_s);
    hm_factors_set(f, "sync", "%s", cfg->sync);
    hm_factors_set(f, "check_every", "%d", cfg->check_every);
    hm_experiment_fit_factors(f, &clock->fit, &clock->fitted);
    if (cfg->window_us > 0)
        hm_factors_set(f, "window_us", "%g", cfg->window_us);
    else
        hm_factors_set(f, "window_us", "adaptive");
    hm_factors_set(f, "slice_s", "%g", cfg->slice_s);
    hm_factors_set(f, "roundtime_bcast_factor", "%g", cfg->bcast_factor);
    hm_factors_set(f, "resync_s", "%g", cfg->resync_s);
    hm_factors_set(f, "nrep", "%ld", cfg->nrep);
    hm_factors_set(f, "warmup", "%ld", cfg->warmup);
    hm_factors_set(f, "max_attempts", "%ld",
                   cfg->max_attempts ? cfg->max_attempts : 10 * cfg->nrep + 100);
    hm_factors_set(f, "validate", "%s", cfg->validate ? "yes" : "no");
    if (cfg->cold_cache)
        hm_factors_set(f, "cache", "cold (%zu bytes overwritten before every repetition)",
                       hm_measure_llc_bytes());
    else
        hm_factors_set(f, "cache", "warm");
    hm_factors_set(f, "root", "%d", cfg->root);
    hm_factors_set(f, "peer", "%d", cfg->peer);
    if (cfg->inject_rank >= 0)
        hm_factors_set(f, "inject_delay", "rank %d attempt %ld %g us", cfg->inject_rank,
                       cfg->inject_attempt, cfg->inject_delay_us);
}

int hm_cli_measure_factors(const hm_cli_config_t *cfg, MPI_Comm comm, const hm_cli_clock_t *clock,
                           hm_factors_t **out)
{
    char desc[256];
    hm_timer_describe(clock->timer, desc, sizeof desc);
    hm_factors_context_t ctx = {.argc = cfg->argc,
                                .argv = (const char *const *)cfg->argv,
                                .timer = desc,
                                .timer_resolution_s = hm_timer_nominal_resolution(clock->timer),
                                .seed_set = 1,
                                .seed = cfg->seed};
    int rc = hm_factors_create(out);
    if (rc == HM_OK) rc = hm_factors_collect(*out, comm, &ctx);
    if (rc == HM_OK) {
        hm_cli_add_clock_factors(*out, cfg);
        add_measure_factors(*out, cfg, clock);
    }
    return rc;
}
