/* tools/harmonia/commands/result_files.h — what the commands share about
 * their result files beyond the library's: progress in both files, the
 * factors of the offline commands, output directories. */
#ifndef HM_CLI_RESULT_FILES_H
#define HM_CLI_RESULT_FILES_H
#include <harmonia/output.h>
#include <harmonia/results.h>

#include "options/config.h"

/* Rank 0: before a checkpoint, how far the run got (done of total units),
 * in both files (NULL skipped): their factor "complete" (hm_csv_progress). */
void cli_progress(hm_csv_t *summary, hm_csv_t *raw, long done, long total, const char *unit);

/* The factors of a file written by an offline command (stats, compare,
 * campaign): harmonia_version, command_line, filter, metric. HM_ENOMEM
 * (or the status of hm_factors_set); on error *f is NULL. */
int cli_offline_factors(const cli_config_t *cfg, hm_factors_t **f);

#endif
