/* tools/harmonia/commands/stats_campaign.c — `harmonia stats` on campaigns: given campaign
 * directories or their per-mpirun.csv, the reproducibility report (Hunold and
 * Carpen-Amarie 2016, Fig. 29): per group, every run's median (or mean) over
 * the smallest run's, and the spread of the runs. */
#include <stdio.h>
#include <string.h>

#include <harmonia/output.h>

#include "commands/commands.h"
#include "commands/permpirun.h"
#include "commands/result_files.h"
#include "commands/stats_campaign.h"

int hm_cli_stats_dataset_path(const char *operand, char *path, size_t len)
{
    hm_csv_reader_t *r = NULL;
    size_t i;
    int dir = hm_permpirun_resolve(operand, path, len);
    if (dir != 0) return dir > 0;
    if (hm_csv_reader_open(operand, &r) != HM_OK) return 0;
    int dataset =
        hm_csv_reader_find(r, "run", &i) == HM_OK && hm_csv_reader_find(r, "median_s", &i) == HM_OK;
    hm_csv_reader_close(r);
    return dataset;
}

static int write_report(const hm_cli_config_t *cfg, const hm_permpirun_t *ds, char *why, size_t len)
{
    hm_factors_t *f = NULL;
    int rc = hm_cli_offline_factors(cfg, &f);
    if (rc == HM_OK)
        rc = hm_permpirun_write_reproducibility(ds, cfg->statistic, cfg->output, f, why, len);
    else
        snprintf(why, len, "--output: %s", hm_strerror(rc));
    hm_factors_free(f);
    return rc;
}

int hm_cli_stats_campaigns(const hm_cli_config_t *cfg)
{
    char path[4200], why[4400] = "";
    hm_permpirun_t ds = {0};
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++) {
        hm_cli_stats_dataset_path(cfg->files[i], path, sizeof path);
        rc = hm_permpirun_read(path, &ds, why, sizeof why);
    }
    if (rc != HM_OK) {
        hm_cli_print_error("%s", rc == HM_ENOMEM ? hm_strerror(rc) : why);
        hm_permpirun_free(&ds);
        return rc == HM_ENOMEM ? HM_EXIT_FAILURE : HM_EXIT_USAGE;
    }
    rc = hm_permpirun_print_summary(&ds, cfg->statistic, stdout);
    if (rc == HM_OK) rc = hm_permpirun_print_normalized(&ds, cfg->statistic, stdout);
    fflush(stdout);
    if (rc == HM_OK && cfg->output[0]) rc = write_report(cfg, &ds, why, sizeof why);
    hm_permpirun_free(&ds);
    if (rc == HM_OK) return HM_EXIT_OK;
    hm_cli_print_error("stats: %s", why[0] ? why : hm_strerror(rc));
    return HM_EXIT_FAILURE;
}
