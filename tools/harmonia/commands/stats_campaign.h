/* tools/harmonia/commands/stats_campaign.h — `harmonia stats` given campaigns instead of
 * raw files: the reproducibility report. */
#ifndef HM_CLI_STATS_CAMPAIGN_H
#define HM_CLI_STATS_CAMPAIGN_H
#include <stddef.h>

#include "options/config.h"

/* 1 when operand is a campaign directory or a per-mpirun file (the file to
 * read in path), 0 otherwise (a raw file, or something the raw reader will
 * report). */
int cli_stats_dataset_path(const char *operand, char *path, size_t len);

/* The summary over runs and each group's normalized per-run values of
 * --statistic on stdout; --output: the reproducibility CSV. Exit status. */
int cli_stats_campaigns(const cli_config_t *cfg);
#endif
