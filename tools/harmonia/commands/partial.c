/* tools/harmonia/commands/partial.c — an experiment that ended with fewer
 * valid repetitions than --nrep: a result to keep, flagged, on a busy
 * machine; an error that says what to change on a quiet one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/measure.h>
#include <harmonia/topo.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"

/* Root: the median start spread of the discarded attempts (how late their
 * starts came), NaN when none was discarded. */
static double discarded_spread_s(const hm_measure_result_t *r)
{
    double *v = malloc((size_t)(r->n ? r->n : 1) * sizeof *v);
    size_t n = 0;
    if (!v) return NAN;
    for (long i = 0; i < r->n; i++)
        if (!r->valid[i]) v[n++] = r->start_spread_s[i];
    hm_stats_summary_t s;
    double median = n && hm_stats_summarize(v, n, &s) == HM_OK ? s.median : NAN;
    free(v);
    return median;
}

/* Root: how the attempts ended, with the figures to act on. */
static void say_shortfall(const cli_config_t *cfg, const hm_experiment_t *e, const char *what,
                          const hm_measure_result_t *r, const char *machine)
{
    char ended[160];
    snprintf(ended, sizeof ended, "in %.2f s (%s)", r->elapsed_s,
             r->end == HM_MEASURE_END_BUDGET ? "the budget of a busy machine" : "--max-attempts");
    hm_error_set(HM_EINVAL,
                 "%s: only %ld of --nrep %ld repetitions were valid after %ld attempts %s; the "
                 "discarded ones' starts spread by a median %.3g us against a late-start tolerance "
                 "of %.3g us (%ld discarded by its cap); --sync %s: %s; the machine: %s. Give "
                 "--late-us above the spread, --max-attempts to keep trying, --sync barrier (no "
                 "deadline), or --allow-partial to keep such rows",
                 what, r->nvalid, cfg->nrep, r->attempts, ended, discarded_spread_s(r) * 1e6,
                 hm_experiment_procsync_params(e)->late_s * 1e6, r->late_capped, cfg->sync,
                 r->procsync, machine);
}

int cli_partial_status(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                       const char *what, const hm_measure_result_t *r)
{
    const hm_interference_t *start = hm_experiment_interference(e);
    hm_interference_t now;
    char machine[HM_INTERFERENCE_TEXT_MAX] = "";
    int rank;
    MPI_Comm_rank(comm, &rank);
    /* Ranks that outnumber the processors share them as other work would.
     * The start-up probe may predate the load: look again (collective: the
     * outcome is the same on every rank). */
    const hm_procsync_fit_t *fit = hm_experiment_fit(e);
    int busy = start->busy || fit->busy || fit->oversubscribed;
    if (!busy && start->measured && hm_interference_measure(comm, cfg->probe_s, &now) == HM_OK) {
        busy = now.busy;
        hm_interference_describe(&now, machine, sizeof machine);
    } else {
        hm_interference_describe(start, machine, sizeof machine);
    }
    if (busy || cfg->allow_partial) return HM_OK;
    if (rank == 0) say_shortfall(cfg, e, what, r, machine);
    return HM_EFAILED;
}
