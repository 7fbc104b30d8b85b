/* tools/harmonia/commands/measure_setup.h — what `bench` and `skew` share: the global clock,
 * the process synchronization parameters, and the factors of their files. */
#ifndef HM_CLI_MEASURE_SETUP_H
#define HM_CLI_MEASURE_SETUP_H
#include <harmonia/output.h>
#include <harmonia/procsync.h>
#include <harmonia/sync.h>

#include "options/config.h"

/* The clock of a measurement: the timer, an identity base and the global
 * clock synchronized with --clock-sync (one specification); and the
 * late-start tolerance fitted to the machine on that clock
 * (hm_cli_fit_procsync). */
typedef struct hm_cli_clock {
    hm_timer_t *timer;
    hm_clock_t *base, *global;
    hm_sync_report_t report;
    hm_procsync_fit_t fit;
    hm_procsync_params_t fitted; /* the options' procsync parameters after the fit */
} hm_cli_clock_t;

/* Collective: open the timer and synchronize. Returns an agreed exit status
 * (usage error for a refused specification, printed once). */
int hm_cli_clock_open(const hm_cli_config_t *cfg, MPI_Comm comm, hm_cli_clock_t *clock);
void hm_cli_clock_close(hm_cli_clock_t *clock);

/* Procsync parameters from the options (harmonize re-synchronizes with
 * --clock-sync and its parameters). */
void hm_cli_procsync_params(const hm_cli_config_t *cfg, hm_procsync_params_t *params);

/* Local: usage error text for --sync name (unknown method, bad parameter),
 * "" when fine. Returns HM_EXIT_OK or HM_EXIT_USAGE. */
int hm_cli_check_procsync(const hm_cli_config_t *cfg, const char *name, char *why, size_t len);

/* Collective, after hm_cli_clock_open: detect oversubscription and, unless
 * --late-us was given, derive the late-start tolerance from waits measured
 * on clock->global (hm_procsync_fit) into clock->fit; when oversubscribed,
 * rank 0 says on stderr what it detected and chose, in one line. Agreed
 * exit status. */
int hm_cli_fit_procsync(const hm_cli_config_t *cfg, MPI_Comm comm, hm_cli_clock_t *clock);

/* For a table's header: "" when fit found no oversubscription, else e.g.
 * " (OVERSUBSCRIBED: 4 ranks on 2 processors, late-start tolerance 180 us:
 * less precise than on dedicated cores)". */
void hm_cli_fit_note(const hm_procsync_fit_t *fit, char *buf, size_t len);

/* Collective: create method name over comm with the clock's global clock and
 * fitted late-start tolerance; agreed exit status. */
int hm_cli_procsync_create(const hm_cli_config_t *cfg, MPI_Comm comm, const char *name,
                           const hm_cli_clock_t *clock, hm_procsync_t **ps);

/* Collective: the factors of every measurement file: the run (collected),
 * the clock synchronization and its duration, the measurement options. */
int hm_cli_measure_factors(const hm_cli_config_t *cfg, MPI_Comm comm, const hm_cli_clock_t *clock,
                           hm_factors_t **out);

/* The clock-synchronization factors (also those of `harmonia clock`). */
void hm_cli_add_clock_factors(hm_factors_t *f, const hm_cli_config_t *cfg);
#endif
