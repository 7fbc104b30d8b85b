/* tools/harmonia/commands/skew_report.h — what `harmonia skew` shows and writes. */
#ifndef HM_CLI_SKEW_REPORT_H
#define HM_CLI_SKEW_REPORT_H
#include <harmonia/measure.h>
#include <harmonia/output.h>

#include "options/config.h"
#include "commands/measure_setup.h"

typedef struct cli_skew_report cli_skew_report_t;

/* Collective: the factors of e completed, its files opened (rank 0), for
 * nmethods methods to come.
 * agreed status. */
int cli_skew_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e, int nmethods,
                         cli_skew_report_t **out);

/* Rank 0: the result of one method. */
int cli_skew_report_add(cli_skew_report_t *rep, const char *method, const hm_skew_result_t *r);

/* Rank 0: print the tables; every rank: release. The files are published
 * by closing the experiment. */
void cli_skew_report_close(cli_skew_report_t *rep, MPI_Comm comm);
#endif
