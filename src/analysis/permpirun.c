/* src/analysis/permpirun.c — the per-mpirun dataset [Hunold & Carpen-Amarie
 * 2016, Alg. 6]: each run's raw file reduced, per (op, size) or cell of
 * overlap, to the median and mean of its filtered valid repetitions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

/* Names are fixed-size fields of the row: a longer one is refused rather
 * than cut, since a cut name could merge two groups. */
static int copy_name(char *dst, size_t cap, const char *src)
{
    if (strlen(src) >= cap)
        return hm__error_set(HM_ERANGE, "name \"%s\" is longer than %zu characters", src, cap - 1);
    strcpy(dst, src);
    return HM_OK;
}

/* Lines 8-10 for one (op, size): filter the group's values in place, then the
 * median (type 7) and mean of what is kept. */
static int reduce_group(hm_analysis_group_t *g, hm_filter_t filter, hm_results_permpirun_row_t *row)
{
    hm_stats_summary_t s;
    int rc = hm_analysis_filter(filter, g->x_s, g->n, &row->kept);
    if (rc == HM_OK && hm_stats_summarize(g->x_s, row->kept, &s) != HM_OK)
        rc = hm__error_set(HM_ENOMEM, "Alg. 6: out of memory");
    if (rc != HM_OK) return rc;
    row->n = g->n;
    row->size_bytes = g->size_bytes;
    row->processes = g->processes;
    row->median_s = s.median;
    row->mean_s = s.mean;
    row->comm_target_s = g->comm_target_s;
    row->comp_target_s = g->comp_target_s;
    row->cell_invalid = g->n_invalid_cell > 0;
    rc = copy_name(row->op, sizeof row->op, g->op);
    if (rc == HM_OK) rc = copy_name(row->sync, sizeof row->sync, g->sync);
    if (rc == HM_OK)
        rc = copy_name(row->progress, sizeof row->progress, g->progress ? g->progress : "");
    return rc;
}

/* The run's --nrep, as its raw file says it (factor nrep); 0 where it does
 * not: a row then cannot say it ended short. */
static long run_nrep(const char *path)
{
    hm_csv_reader_t *r = NULL;
    const char *v = NULL;
    long nrep = 0;
    if (hm_csv_reader_open(path, &r) == HM_OK &&
        hm_factors_get(hm_csv_reader_factors(r), "nrep", &v) == HM_OK && v) {
        char *end;
        nrep = strtol(v, &end, 10);
        if (*end || nrep < 1) nrep = 0;
    }
    hm_csv_reader_close(r);
    return nrep;
}

static int reduce_run(hm_results_permpirun_t *ds, const char *path, long run, uint64_t seed,
                      hm_analysis_groups_t *groups, hm_filter_t filter)
{
    long nrep = run_nrep(path);
    int rc = HM_OK;
    if (groups->n == 0)
        return hm__error_set(HM_EINVAL, "%s: no valid repetitions (valid = 1)", path);
    hm_analysis_groups_sort(groups);
    for (size_t k = 0; rc == HM_OK && k < groups->n; k++) {
        hm_results_permpirun_row_t row = {.run = run, .seed = seed, .nrep = nrep};
        rc = reduce_group(&groups->g[k], filter, &row);
        if (rc == HM_ERANGE)
            rc = hm__error_set(HM_EINVAL,
                               "%s: operation \"%s\", sync \"%s\" or progress \"%s\" is too long "
                               "a name",
                               path, groups->g[k].op, groups->g[k].sync,
                               groups->g[k].progress ? groups->g[k].progress : "");
        if (rc == HM_OK) rc = hm_results_permpirun_append(ds, &row);
    }
    return rc;
}

int hm_analysis_permpirun_add_run(hm_results_permpirun_t *ds, const char *path, long run,
                                  uint64_t seed, hm_metric_t metric, hm_filter_t filter)
{
    hm_analysis_groups_t groups = {0};
    if (!ds) return hm__error_null(__func__, "ds");
    if (!path) return hm__error_null(__func__, "path");
    size_t before = ds->n;
    int rc = HM_OK;
    if (!hm_analysis_filter_name(filter))
        rc = hm__error_set(HM_EINVAL, "%s: unknown filter (%d)", path, (int)filter);
    if (rc == HM_OK && before > 0 && metric != ds->metric)
        rc = hm__error_set(HM_EINVAL, "%s: metric %s, but the dataset is of %s", path,
                           hm_results_metric_name(metric), hm_results_metric_name(ds->metric));
    if (rc == HM_OK) rc = hm_analysis_groups_read_raw(&groups, path, metric);
    if (rc == HM_OK) rc = reduce_run(ds, path, run, seed, &groups, filter);
    /* A missing or unreadable file is bad input to the caller, as a bad cell. */
    if (rc != HM_OK && rc != HM_ENOMEM) rc = hm__error_set(HM_EINVAL, "%s", hm_last_error());
    if (rc != HM_OK) ds->n = before;
    if (rc == HM_OK && before == 0) ds->metric = metric;
    hm_analysis_groups_free(&groups);
    return rc;
}

double hm_analysis_permpirun_value(const hm_results_permpirun_row_t *row, hm_statistic_t statistic)
{
    if (!row) {
        hm__error_null(__func__, "row");
        return NAN;
    }
    return statistic == HM_STATISTIC_MEAN ? row->mean_s : row->median_s;
}
