/* tools/harmonia/commands/measure_setup.c — the setup shared by `bench` and `skew`. */
#include <stdio.h>
#include <string.h>

#include <harmonia/experiment.h>
#include <harmonia/measure.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"

void cli_procsync_params(const cli_config_t *cfg, hm_procsync_params_t *p)
{
    hm_procsync_params_default(p);
    p->late_s = cfg->late_us * 1e-6;
    p->window_s = cfg->window_us * 1e-6;
    p->slice_s = cfg->slice_s;
    p->check_every = cfg->check_every;
    p->bcast_factor = cfg->bcast_factor;
    p->harmonize.clock_sync = cfg->clock_sync;
    p->harmonize.resync_s = cfg->resync_s;
    cli_sync_params(cfg, &p->harmonize.sync);
}

int cli_check_procsync(const cli_config_t *cfg, const char *name)
{
    hm_procsync_params_t p;
    cli_procsync_params(cfg, &p);
    if (hm_procsync_check(name, &p) == HM_OK) return HM_OK;
    hm_error_set(HM_EINVAL, "--sync %s: %s", name, hm_last_error());
    return HM_EINVAL;
}

/* What the machine is, in the words of the line and the table's note. */
static const char *machine_word(const hm_procsync_fit_t *fit)
{
    return fit->busy ? "BUSY" : "OVERSUBSCRIBED";
}

/* The one line on stderr (it is a caution, and keeps stdout's table and
 * OSU layout as they are): what was measured, and what harmonia chose. */
static void print_fit(const hm_procsync_fit_t *fit, const hm_interference_t *it)
{
    char how[200], seen[HM_INTERFERENCE_TEXT_MAX + 32];
    if (fit->derived)
        snprintf(how, sizeof how,
                 "measured p%g of the slowest rank's start lateness %.1f us x %g over %ld "
                 "deadlines; at most max(1 us, %g x the run-time)",
                 fit->quantile * 100, fit->lateness_s * 1e6, fit->factor, fit->waits,
                 fit->late_cap_fraction);
    else
        snprintf(how, sizeof how, "--late-us, as given");
    if (fit->busy)
        hm_interference_describe(it, seen + snprintf(seen, sizeof seen, "the machine is "),
                                 HM_INTERFERENCE_TEXT_MAX);
    else
        snprintf(seen, sizeof seen, "%d ranks on %d processors (oversubscribed)", fit->ranks,
                 fit->processors);
    fprintf(stderr,
            "harmonia: %s: late-start tolerance %.0f us%s (%s); an experiment ends after %g x "
            "--nrep attempts, and its row says how many were discarded; results are less "
            "precise than on dedicated cores%s\n",
            seen, fit->late_s * 1e6, fit->late_run_factor > 0 ? " + the repetition's run-time" : "",
            how, HM_MEASURE_BUDGET_FACTOR, cli_crowded_caution(it));
    fflush(stderr);
}

void cli_fit_note(const hm_procsync_fit_t *fit, char *buf, size_t len)
{
    if (!fit->oversubscribed && !fit->busy) {
        snprintf(buf, len, "%s", "");
        return;
    }
    snprintf(buf, len,
             " (%s: %d ranks on %d processors, late-start tolerance %.0f us%s: less "
             "precise than on dedicated cores)",
             machine_word(fit), fit->ranks, fit->processors, fit->late_s * 1e6,
             fit->late_run_factor > 0 ? " + run-time" : "");
}

int cli_procsync_create(MPI_Comm comm, const char *name, const hm_experiment_t *e,
                        hm_procsync_t **ps)
{
    int rc = hm_procsync_create(name, comm, hm_experiment_global_clock(e),
                                hm_experiment_procsync_params(e), ps);
    if (rc != HM_OK) hm_error_set(HM_EINVAL, "--sync %s: %s", name, hm_last_error());
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_last_error());
}

void cli_add_clock_factors(hm_factors_t *f, const cli_config_t *cfg)
{
    hm_sync_params_t sync;
    cli_sync_params(cfg, &sync);
    hm_experiment_clock_factors(f, cfg->clock_sync, &sync, cfg->synthetic);
}

/* The attempts an experiment may take, as cli_measure_params sets them. */
static int attempts_factor(hm_factors_t *f, const cli_config_t *cfg, const hm_experiment_t *e)
{
    hm_measure_params_t p;
    cli_measure_params(cfg, e, &p);
    if (cfg->max_attempts > 0)
        return hm_factors_set(f, "max_attempts", "%ld (given)", cfg->max_attempts);
    if (p.budget_factor > 0)
        return hm_factors_set(f, "max_attempts",
                              "%.0f (the budget of a busy machine: %g x nrep + %d)",
                              p.budget_factor * (double)cfg->nrep + HM_MEASURE_BUDGET_EXTRA,
                              p.budget_factor, HM_MEASURE_BUDGET_EXTRA);
    return hm_factors_set(f, "max_attempts", "%ld", 10 * cfg->nrep + 100);
}

/* The options of the measurement itself, after the experiment's factors:
 * those the run reads (cli_run_reads), so that skew's files claim no
 * warm-up and allreduce's no root. */
static int add_measure_factors(hm_factors_t *f, const cli_config_t *cfg, const hm_experiment_t *e)
{
    int rc = hm_factors_set(f, "nrep", "%ld", cfg->nrep);
    if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_WARMUP))
        rc = hm_factors_set(f, "warmup", "%ld", cfg->warmup);
    if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_MAX_ATTEMPTS)) rc = attempts_factor(f, cfg, e);
    if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_VALIDATE))
        rc = hm_factors_set(f, "validate", "%s", cfg->validate ? "yes" : "no");
    if (rc == HM_OK && cfg->cold_cache)
        rc = hm_factors_set(f, "cache", "cold (%zu bytes overwritten before every repetition)",
                            hm_measure_llc_bytes());
    else if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_COLD_CACHE))
        rc = hm_factors_set(f, "cache", "warm");
    if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_ROOT))
        rc = hm_factors_set(f, "root", "%d", cfg->root);
    if (rc == HM_OK && cli_run_reads(cfg, HM_OPT_PEER))
        rc = hm_factors_set(f, "peer", "%d", cfg->peer);
    if (rc == HM_OK && cfg->inject_rank >= 0)
        rc = hm_factors_set(f, "inject_delay", "rank %d attempt %ld %g us", cfg->inject_rank,
                            cfg->inject_attempt, cfg->inject_delay_us);
    return rc;
}

static void experiment_params(const cli_config_t *cfg, const char *procsync,
                              hm_experiment_params_t *p)
{
    hm_experiment_params_default(p);
    p->timer = cfg->timer;
    p->timer_options = cli_timer_options(cfg, 0, 0); /* domain and rank: set per rank */
    p->clock_sync = cfg->clock_sync;
    cli_sync_params(cfg, &p->sync);
    p->procsync = procsync;
    cli_procsync_params(cfg, &p->procsync_params);
    p->late_given = (cfg->given & HM_OPT_BIT(HM_OPT_LATE_US)) != 0;
    p->argc = cfg->argc;
    p->argv = (const char *const *)cfg->argv;
    p->seed = cfg->seed;
    p->interference_probe_s = cfg->probe_s;
    p->summary_path = cfg->output;
    p->raw_path = cfg->raw;
}

/* The message and status of a failed stage, naming its option. A
 * refused time source is a usage error; a refused clock synchronization
 * (prop over ranks without a shared source) too, anything else failed at
 * run time. */
static int open_failure(const cli_config_t *cfg, const char *procsync, hm_experiment_stage_t stage,
                        int rc)
{
    switch (stage) {
    case HM_EXPERIMENT_TIMER:
        hm_error_set(HM_EINVAL, "--timer %s: %s", cfg->timer, hm_last_error());
        return HM_EINVAL;
    case HM_EXPERIMENT_CLOCK:
        hm_error_set(HM_EINVAL, "--clock-sync %s: %s", cfg->clock_sync, hm_last_error());
        return rc;
    case HM_EXPERIMENT_PROCSYNC:
        hm_error_set(HM_EINVAL, "--sync %s: %s", procsync ? procsync : cfg->sync, hm_last_error());
        return HM_EFAILED;
    default:
        return HM_EFAILED;
    }
}

int cli_experiment_open(const cli_config_t *cfg, MPI_Comm comm, const char *procsync,
                        hm_experiment_t **e)
{
    hm_experiment_params_t p;
    hm_experiment_stage_t stage;
    int rank;
    MPI_Comm_rank(comm, &rank);
    *e = NULL;
    if (strchr(cfg->clock_sync, ',')) {
        hm_error_set(HM_EINVAL,
                     "--clock-sync: \"%s\" is a list; %s takes one specification (e.g. hca3 or "
                     "hca3+prop)",
                     cfg->clock_sync, cfg->command);
        return cli_agree(comm, HM_EINVAL, hm_last_error());
    }
    experiment_params(cfg, procsync, &p);
    int rc = hm_experiment_open(comm, &p, e, &stage);
    if (rc != HM_OK)
        return cli_agree(comm, open_failure(cfg, procsync, stage, rc), hm_last_error());
    rc = add_measure_factors(hm_experiment_factors(*e), cfg, *e);
    if (rc != HM_OK) hm_error_set(HM_EINVAL, "%s", hm_strerror(rc));
    const hm_procsync_fit_t *fit = rc == HM_OK ? hm_experiment_fit(*e) : NULL;
    if (fit && rank == 0 && (fit->oversubscribed || fit->busy))
        print_fit(fit, hm_experiment_interference(*e));
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_last_error());
}

void cli_measure_params(const cli_config_t *cfg, const hm_experiment_t *e, hm_measure_params_t *p)
{
    hm_experiment_measure_params(e, p);
    p->nrep = cfg->nrep;
    p->warmup = cfg->warmup;
    p->max_attempts = cfg->max_attempts;
    if (cfg->max_attempts > 0) p->budget_factor = 0;
    p->validate = cfg->validate;
    p->cold_cache_bytes = cfg->cold_cache ? hm_measure_llc_bytes() : 0;
}

/* The header cells of a schema, in file order. */
static size_t schema_names(hm_results_kind_t kind, const char **names, size_t max)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    size_t n = s && s->ncolumns < max ? s->ncolumns : 0;
    for (size_t i = 0; i < n; i++) names[i] = s->columns[i].name;
    return n;
}

int cli_experiment_files(hm_experiment_t *e, MPI_Comm comm, hm_results_kind_t summary,
                         hm_results_kind_t raw)
{
    const char *summary_names[64], *raw_names[64];
    size_t nsummary = schema_names(summary, summary_names, 64);
    size_t nraw = schema_names(raw, raw_names, 64);
    int rc = hm_experiment_files_open(e, summary_names, nsummary, raw_names, nraw);
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, rc == HM_OK ? "" : hm_last_error());
}

int cli_experiment_close(hm_experiment_t *e, MPI_Comm comm, int status)
{
    if (!e) return status;
    int rc = hm_experiment_close(e);
    int st = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, rc == HM_OK ? "" : hm_last_error());
    return status != HM_OK ? status : st;
}
