/* tools/harmonia/commands/result_files.h — the --output and --raw files of a command: both
 * opened with the same factors on rank 0, both published (renamed into
 * place) at the end. */
#ifndef HM_CLI_RESULT_FILES_H
#define HM_CLI_RESULT_FILES_H
#include <harmonia/output.h>
#include <harmonia/results.h>

#include "options/config.h"

typedef struct hm_cli_files {
    hm_csv_t *summary; /* --output, NULL when not asked for */
    hm_csv_t *raw;     /* --raw, NULL when not asked for */
} hm_cli_files_t;

/* Rank 0: open the files cfg asks for, with factors f and the columns of
 * the schemas summary and raw. HM_OK, or the status with the sentence in
 * why. */
int hm_cli_files_open(const hm_cli_config_t *cfg, const hm_factors_t *f, hm_results_kind_t summary,
                      hm_results_kind_t raw, hm_cli_files_t *files, char *why, size_t why_len);

/* Rank 0: before a checkpoint, how far the run got (done of total units),
 * in both files (NULL skipped): their factor "complete" (hm_csv_progress). */
void hm_cli_progress(hm_csv_t *summary, hm_csv_t *raw, long done, long total, const char *unit);

/* The factors of a file written by an offline command (stats, compare,
 * campaign): harmonia_version, command_line, filter, metric. HM_ENOMEM
 * (or the status of hm_factors_set); on error *f is NULL. */
int hm_cli_offline_factors(const hm_cli_config_t *cfg, hm_factors_t **f);

/* mkdir -p dir (mode 0755): 0, or -1 with errno. Output directories are
 * often nested (runs/LIBRARY/METHOD) and new. */
int hm_cli_make_dirs(const char *dir);

/* Rank 0: publish both (the raw file is dropped when the summary could not
 * be written). HM_OK, or the status with the sentence in why. */
int hm_cli_files_close(hm_cli_files_t *files, char *why, size_t why_len);
#endif
