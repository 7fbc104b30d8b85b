/* tools/harmonia/commands/stats_campaign.c — `harmonia stats` on campaigns: given campaign
 * directories or their per-mpirun.csv, the reproducibility report (Hunold and
 * Carpen-Amarie 2016, Fig. 29): per group, every run's median (or mean) over
 * the smallest run's, and the spread of the runs. */
#include <stdio.h>

#include <harmonia/analysis.h>

#include "commands/commands.h"
#include "commands/result_files.h"
#include "commands/stats_campaign.h"
#include "commands/stats_print.h"

int cli_stats_dataset_path(const char *operand, char *path, size_t len)
{
    hm_csv_reader_t *r = NULL;
    size_t i;
    int dir = 0;
    if (hm_results_permpirun_path(operand, path, len, &dir) != HM_OK) return 0;
    if (dir) return 1;
    if (hm_csv_reader_open(operand, &r) != HM_OK) return 0;
    /* A per-mpirun file of bench has median_s, one of overlap median. */
    int dataset =
        hm_csv_reader_find(r, hm_results_column_name(HM_RESULTS_PERMPIRUN, HM_COL_PERMPIRUN_RUN),
                           &i) == HM_OK &&
        (hm_csv_reader_find(r,
                            hm_results_column_name(HM_RESULTS_PERMPIRUN, HM_COL_PERMPIRUN_MEDIAN_S),
                            &i) == HM_OK ||
         hm_csv_reader_find(
             r,
             hm_results_column_name(HM_RESULTS_PERMPIRUN_OVERLAP, HM_COL_PERMPIRUN_OVERLAP_MEDIAN),
             &i) == HM_OK);
    hm_csv_reader_close(r);
    return dataset;
}

/* --output: the reproducibility CSV, its factor metric the datasets'.
 * HM_OK or a status, the error printed. */
static int write_report(const cli_config_t *cfg, const hm_analysis_repro_t *repro)
{
    hm_factors_t *f = NULL;
    int rc = cli_offline_factors(cfg, &f);
    if (rc == HM_OK)
        rc = hm_factors_set(f, "metric", "%s",
                            hm_results_metric_name(hm_analysis_repro_metric(repro)));
    if (rc != HM_OK)
        cli_print_error("stats: --output: %s", hm_strerror(rc));
    else if ((rc = hm_analysis_repro_write(repro, cfg->output, f)) != HM_OK)
        cli_print_error("stats: %s", hm_last_error());
    hm_factors_free(f);
    return rc == HM_OK ? HM_OK : HM_EFAILED;
}

static int report(const cli_config_t *cfg, const hm_results_permpirun_t *ds)
{
    hm_analysis_repro_t *repro = NULL;
    int rc = hm_analysis_repro_create(ds, cfg->statistic, &repro);
    if (rc == HM_OK) rc = cli_print_runs(repro, stdout);
    if (rc == HM_OK) rc = cli_print_normalized(repro, stdout);
    fflush(stdout);
    int status = HM_EFAILED;
    if (rc != HM_OK)
        cli_print_error("stats: %s", hm_strerror(rc));
    else
        status = cfg->output[0] ? write_report(cfg, repro) : HM_OK;
    hm_analysis_repro_free(repro);
    return status;
}

int cli_stats_campaigns(const cli_config_t *cfg)
{
    char path[4200];
    hm_results_permpirun_t ds = {0};
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++) {
        cli_stats_dataset_path(cfg->files[i], path, sizeof path);
        rc = hm_results_permpirun_read(path, &ds);
    }
    int status = HM_OK;
    if (rc != HM_OK) {
        cli_print_error("%s", rc == HM_ENOMEM ? hm_strerror(rc) : hm_last_error());
        status = rc == HM_ENOMEM ? HM_EFAILED : HM_EINVAL;
    } else {
        status = report(cfg, &ds);
    }
    hm_results_permpirun_free(&ds);
    return status;
}
