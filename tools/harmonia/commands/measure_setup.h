/* tools/harmonia/commands/measure_setup.h — what `bench` and `skew` share:
 * the experiment (experiment.h) built from the options, with the messages
 * and statuses of the command line. */
#ifndef HM_CLI_MEASURE_SETUP_H
#define HM_CLI_MEASURE_SETUP_H
#include <harmonia/experiment.h>
#include <harmonia/measure.h>
#include <harmonia/results.h>

#include "options/config.h"

/* Collective: hm_experiment_open from the options, with procsync as the
 * process synchronization (NULL: none, as for skew, which creates one per
 * method), then the measurement factors (nrep, warm-up, cache, ...). When
 * oversubscribed, rank 0 says on stderr what was detected and chosen, in
 * one line. Agreed status; a failure is printed once, naming the
 * option of the stage that failed (--timer, --clock-sync, --sync). */
int cli_experiment_open(const cli_config_t *cfg, MPI_Comm comm, const char *procsync,
                        hm_experiment_t **e);

/* Collective: rank 0 opens --output and --raw with the columns of the
 * schemas summary and raw. Agreed status, failure printed once. */
int cli_experiment_files(hm_experiment_t *e, MPI_Comm comm, hm_results_kind_t summary,
                         hm_results_kind_t raw);

/* Collective: publish the files and release e (NULL accepted). Returns
 * status, or the failure to publish (printed once) when status is OK. */
int cli_experiment_close(hm_experiment_t *e, MPI_Comm comm, int status);

/* Procsync parameters from the options (harmonize re-synchronizes with
 * --clock-sync and its parameters). */
void cli_procsync_params(const cli_config_t *cfg, hm_procsync_params_t *params);

/* Local: usage error text for --sync name (unknown method, bad parameter),
 * "" when fine. Returns HM_OK or HM_EINVAL. */
int cli_check_procsync(const cli_config_t *cfg, const char *name);

/* For a table's header: "" when fit found no oversubscription, else e.g.
 * " (OVERSUBSCRIBED: 4 ranks on 2 processors, late-start tolerance 180 us:
 * less precise than on dedicated cores)". */
void cli_fit_note(const hm_procsync_fit_t *fit, char *buf, size_t len);

/* Collective: create method name over comm with e's global clock and
 * fitted parameters; agreed status. */
int cli_procsync_create(MPI_Comm comm, const char *name, const hm_experiment_t *e,
                        hm_procsync_t **ps);

/* The clock-synchronization factors (also those of `harmonia clock`). */
void cli_add_clock_factors(hm_factors_t *f, const cli_config_t *cfg);
/* The measurement's parameters from the options, fitted to the machine
 * (hm_experiment_measure_params: an attempts budget when it is busy):
 * --nrep, --warmup, --validate, --cold-cache, and --max-attempts, which,
 * given, replaces the budget (that many attempts, whatever the machine). */
void cli_measure_params(const cli_config_t *cfg, const hm_experiment_t *e,
                        hm_measure_params_t *params);

/* Collective, after hm_measure_run returned HM_EAGAIN for what (e.g.
 * "allreduce 8 B"): fewer than --nrep valid repetitions, the attempts or
 * the time budget spent. A result to keep (HM_OK: the row is written
 * and flagged partial) when some repetitions are valid and the machine is
 * busy (at the start, or measured again now) or oversubscribed, or
 * --allow-partial is given;
 * otherwise HM_EFAILED, and rank 0's why says what was measured (the
 * discarded starts' spread against the tolerance, the machine) and what to
 * change. */
int cli_partial_status(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                       const char *what, const hm_measure_result_t *r);

#endif
