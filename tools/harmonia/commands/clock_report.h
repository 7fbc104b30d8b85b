/* tools/harmonia/commands/clock_report.h — what `harmonia clock` shows and writes. */
#ifndef HM_CLI_CLOCK_REPORT_H
#define HM_CLI_CLOCK_REPORT_H
#include <harmonia/clock_study.h>
#include <harmonia/output.h>
#include <harmonia/results.h>
#include <harmonia/sync.h>

#include "options/config.h"

typedef struct cli_clock_report {
    const cli_config_t *cfg;
    int size;
    hm_table_t *table; /* rank 0 */
    hm_csv_t *summary; /* rank 0: --output, NULL when not asked for */
    hm_csv_t *raw;     /* rank 0: --raw, NULL when not asked for */
    double *offsets_s; /* rank 0: per rank, filled by hm_sync_check */
    double *true_errors_s;
    long checks, nchecks; /* done, to do (algorithms x waits) */
} cli_clock_report_t;

/* Collective: collect the experimental factors, open the table and, on rank
 * 0, the files of --output and --raw. Returns a status (agreed). */
int cli_clock_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_timer_t *timer,
                          cli_clock_report_t **out);

/* Rank 0: one check of one algorithm; files are checkpointed, so an
 * interruption keeps every finished check. */
void cli_clock_report_add(cli_clock_report_t *rep, const char *spec,
                          const hm_clock_study_check_t *c);

/* Collective: print the table, publish the files, release. Returns the
 * agreed status (status, or a failure to write). */
int cli_clock_report_close(cli_clock_report_t *rep, MPI_Comm comm, int status);
#endif
