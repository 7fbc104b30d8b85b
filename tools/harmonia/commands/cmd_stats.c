/* tools/harmonia/commands/cmd_stats.c — `harmonia stats FILE...`: summaries of the raw files
 * of `harmonia bench --raw` (run-times) or `harmonia overlap --raw` (a ratio
 * or the measured time, per cell). Offline: no MPI. Every problem with the
 * input is a usage error (exit 2) naming the file, and the line where there
 * is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "commands/analysis_inputs.h"
#include "commands/commands.h"
#include "commands/result_files.h"
#include "commands/stats_campaign.h"
#include "commands/stats_print.h"

static int open_output(const cli_config_t *cfg, hm_csv_t **csv)
{
    hm_factors_t *f = NULL;
    char inputs[8192] = "";
    int rc = cli_offline_factors(cfg, &f);
    for (int i = 0; i < cfg->nfiles; i++)
        snprintf(inputs + strlen(inputs), sizeof inputs - strlen(inputs), "%s%s", i ? "," : "",
                 cfg->files[i]);
    if (rc == HM_OK) rc = hm_factors_set(f, "inputs", "%s", inputs);
    if (rc == HM_OK) {
        int overlap = hm_results_metric_kind(cfg->metric) == HM_RESULTS_OVERLAP_RAW;
        rc = hm_results_csv_open(cfg->output, f,
                                 overlap ? HM_RESULTS_STATS_OVERLAP : HM_RESULTS_STATS, csv);
        if (rc != HM_OK) cli_print_error("--output: %s", hm_last_error());
    } else {
        cli_print_error("--output: %s", hm_strerror(rc));
    }
    hm_factors_free(f);
    return rc;
}

/* What the values are, in the words of the raw file's schema. */
static const char *meaning(hm_metric_t metric)
{
    if (metric == HM_METRIC_GLOBAL) return "max end - min start on the global clock";
    if (metric == HM_METRIC_LOCAL) return "max over ranks of end - start";
    return hm_results_schema(HM_RESULTS_OVERLAP_RAW)
        ->columns[hm_results_metric_column(metric)]
        .meaning;
}

static void print_title(const cli_config_t *cfg)
{
    int overlap = hm_results_metric_kind(cfg->metric) == HM_RESULTS_OVERLAP_RAW;
    printf("%s%s (%s) of the valid repetitions in %d file%s, %sfilter %s; 95%% confidence "
           "intervals; acf1 = lag-1 autocorrelation, sw_p = Shapiro-Wilk p-value\n",
           hm_results_metric_name(cfg->metric), overlap ? "" : " run-time", meaning(cfg->metric),
           cfg->nfiles, cfg->nfiles == 1 ? "" : "s",
           overlap ? "per cell (op, comm and comp targets) and processes, sync, progress; " : "",
           hm_analysis_filter_name(cfg->filter));
}

static int report(const cli_config_t *cfg, hm_analysis_groups_t *groups)
{
    hm_csv_t *csv = NULL;
    hm_analysis_summary_t *rows = calloc(groups->n ? groups->n : 1, sizeof *rows);
    int rc = rows ? HM_OK : HM_ENOMEM;
    hm_analysis_groups_sort(groups);
    for (size_t k = 0; rc == HM_OK && k < groups->n; k++)
        rc = hm_analysis_summarize(&groups->g[k], cfg->filter, &rows[k]);
    if (rc != HM_OK) {
        free(rows);
        cli_print_error("stats: %s", hm_strerror(rc));
        return HM_EFAILED;
    }
    if (cfg->output[0] && open_output(cfg, &csv) != HM_OK) {
        free(rows);
        return HM_EINVAL;
    }
    print_title(cfg);
    cli_print_summaries(groups, rows, stdout);
    fflush(stdout);
    for (size_t k = 0; csv && k < groups->n; k++)
        hm_analysis_summary_write_row(csv, &groups->g[k], &rows[k]);
    free(rows);
    if (csv && hm_csv_close(csv) != HM_OK) {
        cli_print_error("%s", hm_last_error());
        return HM_EFAILED;
    }
    return HM_OK;
}

/* All inputs of one command (bench or overlap), and --metric one of
 * theirs, or their default (overhead for overlap). A file whose kind
 * cannot be told is left to its reader, which says what is wrong with it. */
static int check_kinds(cli_config_t *cfg)
{
    char path[4200], first[4200] = "";
    hm_results_kind_t kind, first_kind = HM_RESULTS_BENCH_RAW;
    for (int i = 0; i < cfg->nfiles; i++) {
        cli_stats_dataset_path(cfg->files[i], path, sizeof path);
        if (hm_results_input_kind(path, &kind) != HM_OK) continue;
        if (!first[0]) {
            snprintf(first, sizeof first, "%s", path);
            first_kind = kind;
        } else if (cli_same_family("stats", first, first_kind, path, kind) != HM_OK) {
            cli_print_error("%s", hm_last_error());
            return HM_EINVAL;
        }
    }
    int raw = first_kind == HM_RESULTS_BENCH_RAW || first_kind == HM_RESULTS_OVERLAP_RAW;
    if (first[0] && raw && cli_choose_metric(cfg, first, first_kind) != HM_OK) {
        cli_print_error("stats: %s", hm_last_error());
        return HM_EINVAL;
    }
    return HM_OK;
}

int cli_cmd_stats(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    hm_analysis_groups_t groups = {0};
    int rc = HM_OK;
    if (cfg->nfiles == 0) {
        cli_print_error("stats: no input files (usage: harmonia stats [options] FILE...)");
        return HM_EINVAL;
    }
    if (cli_check_outputs(cfg, MPI_COMM_NULL) != HM_OK) return HM_EINVAL;
    int datasets = 0;
    char path[4200];
    for (int i = 0; i < cfg->nfiles; i++)
        datasets += cli_stats_dataset_path(cfg->files[i], path, sizeof path);
    /* Each option belongs to one kind of input: a campaign's per-mpirun
     * values were reduced (metric, filter) when it was collected, and raw
     * files have no per-mpirun statistic. */
    const cli_opt_mask_t raw_only = HM_OPT_BIT(HM_OPT_METRIC) | HM_OPT_BIT(HM_OPT_FILTER);
    if (datasets == cfg->nfiles && (cfg->given & raw_only)) {
        cli_print_error("stats: --%s applies to raw files; a campaign's per-mpirun values "
                        "were reduced when it was collected (see its factors)",
                        cfg->given & HM_OPT_BIT(HM_OPT_METRIC) ? "metric" : "filter");
        return HM_EINVAL;
    }
    if (datasets == 0 && (cfg->given & HM_OPT_BIT(HM_OPT_STATISTIC))) {
        cli_print_error("stats: --statistic applies to campaigns (the statistic of each "
                        "mpirun), not to raw files");
        return HM_EINVAL;
    }
    if (check_kinds(cfg) != HM_OK) return HM_EINVAL;
    for (int i = 0; i < cfg->nfiles; i++) /* a campaign: its per-mpirun dataset */
        cli_warn_partial_path("stats", cli_stats_dataset_path(cfg->files[i], path, sizeof path)
                                           ? path
                                           : cfg->files[i]);
    if (datasets == cfg->nfiles) return cli_stats_campaigns(cfg);
    if (datasets > 0) {
        cli_print_error("stats: give either raw files of 'harmonia bench --raw' or 'harmonia "
                        "overlap --raw', or campaigns (directories, per-mpirun.csv), not both");
        return HM_EINVAL;
    }
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++)
        rc = hm_analysis_groups_read_raw(&groups, cfg->files[i], cfg->metric);
    int status = HM_OK;
    if (rc == HM_ENOMEM) {
        cli_print_error("stats: %s", hm_strerror(rc));
        status = HM_EFAILED;
    } else if (rc != HM_OK) {
        cli_print_error("%s", hm_last_error());
        status = HM_EINVAL;
    } else if (groups.n == 0) {
        cli_print_error("stats: no valid repetitions (valid = 1) in the input files");
        status = HM_EINVAL;
    } else {
        status = report(cfg, &groups);
    }
    hm_analysis_groups_free(&groups);
    return status;
}
