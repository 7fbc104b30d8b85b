/* tools/harmonia/commands/analysis_inputs.c — the kinds of the inputs of stats, compare and
 * campaign, and the metric they analyse: run-times of bench, or a ratio
 * (or the measured time) of overlap, never the two pooled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/analysis_inputs.h"
#include "commands/commands.h"

int cli_is_overlap(hm_results_kind_t kind)
{
    return kind == HM_RESULTS_OVERLAP_RAW || kind == HM_RESULTS_PERMPIRUN_OVERLAP;
}

int cli_same_family(const char *prefix, const char *path_a, hm_results_kind_t kind_a,
                    const char *path_b, hm_results_kind_t kind_b)
{
    if (cli_is_overlap(kind_a) == cli_is_overlap(kind_b)) return HM_OK;
    return hm_error_set(HM_EINVAL,
                        "%s: %s is %s and %s %s: results of bench and of overlap are not of one "
                        "thing; give files of one command",
                        prefix, path_a, hm_results_schema(kind_a)->what, path_b,
                        hm_results_schema(kind_b)->what);
}

int cli_choose_metric(cli_config_t *cfg, const char *path, hm_results_kind_t kind)
{
    char known[128];
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_METRIC))) {
        cfg->metric = hm_results_metric_default(kind);
        return HM_OK;
    }
    if (cli_is_overlap(kind) == (hm_results_metric_kind(cfg->metric) == HM_RESULTS_OVERLAP_RAW))
        return HM_OK;
    hm_results_metric_names_of(kind, known, sizeof known);
    return hm_error_set(HM_EINVAL, "--metric %s: %s is %s, whose metrics are %s",
                        hm_results_metric_name(cfg->metric), path, hm_results_schema(kind)->what,
                        known);
}

void cli_metric_cell(hm_table_t *t, hm_metric_t metric, double x)
{
    if (isnan(x))
        hm_table_add_cell(t, "n/a");
    else if (hm_results_metric_is_time(metric))
        hm_table_add_cellf(t, "%.2f", x * 1e6);
    else
        hm_table_add_cellf(t, "%.3f", x);
}

void cli_metric_column(hm_metric_t metric, const char *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", base, hm_results_metric_is_time(metric) ? "_us" : "");
}

/* The files already warned of: compare A A, or plot reading a file for two
 * figures, would otherwise say it twice. Past the last slot a file is
 * warned of again rather than not at all. */
static int warned_before(const char *path)
{
    static char *warned[HM_CLI_MAX_FILES];
    static int n;
    for (int i = 0; i < n; i++)
        if (hm_afile_same(warned[i], path)) return 1;
    if (n < HM_CLI_MAX_FILES && (warned[n] = strdup(path)) != NULL) n++;
    return 0;
}

void cli_warn_partial_once(const char *command, const char *path, const char *complete)
{
    if (warned_before(path)) return;
    fprintf(stderr,
            "harmonia: warning: %s: %s is partial (complete: %s): what its run did not finish is "
            "missing from this analysis\n",
            command, path, complete);
    fflush(stderr);
}

int cli_warn_partial(const char *command, const char *path, const hm_factors_t *factors, char *what,
                     size_t len)
{
    const char *v = NULL;
    if (what && len) what[0] = '\0';
    if (!hm_results_partial(factors, &v)) return 0;
    if (what && len) snprintf(what, len, "%s", v);
    cli_warn_partial_once(command, path, v);
    return 1;
}

int cli_warn_partial_path(const char *command, const char *path)
{
    hm_csv_reader_t *r = NULL;
    if (hm_csv_reader_open(path, &r) != HM_OK) {
        hm_csv_reader_close(r);
        return 0;
    }
    int partial = cli_warn_partial(command, path, hm_csv_reader_factors(r), NULL, 0);
    hm_csv_reader_close(r);
    return partial;
}
