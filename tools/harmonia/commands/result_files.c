/* tools/harmonia/commands/result_files.c — what the commands share about their result files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <harmonia/version.h>

#include "commands/result_files.h"

void cli_progress(hm_csv_t *summary, hm_csv_t *raw, long done, long total, const char *unit)
{
    if (summary) hm_csv_progress(summary, done, total, unit);
    if (raw) hm_csv_progress(raw, done, total, unit);
}

int cli_offline_factors(const cli_config_t *cfg, hm_factors_t **f)
{
    char *line = hm_output_shell_join(cfg->argc, (const char *const *)cfg->argv);
    *f = NULL;
    int rc = line ? hm_factors_create(f) : HM_ENOMEM;
    if (rc == HM_OK) rc = hm_factors_set(*f, "harmonia_version", "%s", hm_version());
    if (rc == HM_OK) rc = hm_factors_set(*f, "command_line", "%s", line);
    if (rc == HM_OK) rc = hm_factors_set(*f, "filter", "%s", hm_analysis_filter_name(cfg->filter));
    if (rc == HM_OK) rc = hm_factors_set(*f, "metric", "%s", hm_results_metric_name(cfg->metric));
    free(line);
    if (rc != HM_OK) {
        hm_factors_free(*f);
        *f = NULL;
    }
    return rc;
}
