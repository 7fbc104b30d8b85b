/* tools/harmonia/commands/result_files.c — the --output and --raw files of a command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <harmonia/version.h>

#include "commands/result_files.h"

int hm_cli_files_open(const hm_cli_config_t *cfg, const hm_factors_t *f, hm_results_kind_t summary,
                      hm_results_kind_t raw, hm_cli_files_t *files, char *why, size_t why_len)
{
    int rc = HM_OK;
    if (cfg->output[0]) rc = hm_results_csv_open(cfg->output, f, summary, &files->summary);
    if (rc == HM_OK && cfg->raw[0]) rc = hm_results_csv_open(cfg->raw, f, raw, &files->raw);
    if (rc != HM_OK) snprintf(why, why_len, "%s", hm_last_error());
    return rc;
}

int hm_cli_files_close(hm_cli_files_t *files, char *why, size_t why_len)
{
    int rc = HM_OK;
    if (files->summary) rc = hm_csv_close(files->summary);
    if (files->raw && rc == HM_OK)
        rc = hm_csv_close(files->raw);
    else if (files->raw)
        hm_csv_abort(files->raw);
    files->summary = files->raw = NULL;
    if (rc != HM_OK) snprintf(why, why_len, "%s", hm_last_error());
    return rc;
}

void hm_cli_progress(hm_csv_t *summary, hm_csv_t *raw, long done, long total, const char *unit)
{
    if (summary) hm_csv_progress(summary, done, total, unit);
    if (raw) hm_csv_progress(raw, done, total, unit);
}

int hm_cli_offline_factors(const hm_cli_config_t *cfg, hm_factors_t **f)
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

int hm_cli_make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}
