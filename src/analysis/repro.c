/* src/analysis/repro.c — reproducibility over the runs of a campaign
 * [Hunold & Carpen-Amarie 2016, Fig. 29]: per group, each run's median (or
 * mean) divided by the smallest run's, and the spread of the runs; for the
 * ratios of overlap, which may be 0 or below, also each run's value minus
 * the smallest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

struct hm_analysis_repro {
    hm_statistic_t statistic;
    hm_results_permpirun_t rows; /* a sorted copy: each group's runs consecutive */
    hm_analysis_repro_run_t *runs;
    hm_analysis_repro_group_t *groups;
    size_t ngroups;
};

static int same_group(const hm_results_permpirun_row_t *a, const hm_results_permpirun_row_t *b)
{
    return hm_results_permpirun_group_cmp(a, b) == 0;
}

static int is_overlap(hm_metric_t metric)
{
    return hm_results_metric_kind(metric) == HM_RESULTS_OVERLAP_RAW;
}

/* Fig. 29's normalization divides by the smallest run: undefined unless it
 * is positive. */
static double ratio_to(double x, double min)
{
    return min > 0 ? x / min : NAN;
}

/* The group of rows[i, j), its runs at runs[i, j). */
static int fill_group(hm_analysis_repro_t *rp, size_t i, size_t j, double *work,
                      hm_analysis_repro_group_t *g)
{
    hm_stats_summary_t s;
    size_t invalid = 0, nshort = 0;
    for (size_t k = i; k < j; k++) {
        const hm_results_permpirun_row_t *row = &rp->rows.rows[k];
        nshort += row->nrep > 0 && (long)row->n < row->nrep;
        rp->runs[k].run = rp->rows.rows[k].run;
        invalid += (size_t)(rp->runs[k].cell_invalid = rp->rows.rows[k].cell_invalid != 0);
        work[k - i] = rp->runs[k].value_s =
            hm_analysis_permpirun_value(&rp->rows.rows[k], rp->statistic);
    }
    if (hm_stats_summarize(work, j - i, &s) != HM_OK)
        return hm__error_set(HM_ENOMEM, "reproducibility: out of memory");
    for (size_t k = i; k < j; k++) {
        rp->runs[k].normalized = ratio_to(rp->runs[k].value_s, s.min);
        rp->runs[k].difference = rp->runs[k].value_s - s.min;
    }
    *g = (hm_analysis_repro_group_t){.key = &rp->rows.rows[i],
                                     .runs = &rp->runs[i],
                                     .nruns = j - i,
                                     .median_s = s.median,
                                     .min_s = s.min,
                                     .max_s = s.max,
                                     .max_normalized = ratio_to(s.max, s.min),
                                     .max_difference = s.max - s.min,
                                     .ninvalid_cell = invalid,
                                     .nshort = nshort};
    return HM_OK;
}

static int fill(hm_analysis_repro_t *rp)
{
    size_t n = rp->rows.n ? rp->rows.n : 1;
    double *work = malloc(n * sizeof *work);
    rp->runs = malloc(n * sizeof *rp->runs);
    rp->groups = malloc(n * sizeof *rp->groups);
    int rc = work && rp->runs && rp->groups
                 ? HM_OK
                 : hm__error_set(HM_ENOMEM, "reproducibility: out of memory");
    for (size_t i = 0, j; rc == HM_OK && i < rp->rows.n; i = j) {
        for (j = i + 1; j < rp->rows.n && same_group(&rp->rows.rows[i], &rp->rows.rows[j]); j++)
            ;
        rc = fill_group(rp, i, j, work, &rp->groups[rp->ngroups++]);
    }
    free(work);
    return rc;
}

int hm_analysis_repro_create(const hm_results_permpirun_t *ds, hm_statistic_t statistic,
                             hm_analysis_repro_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!ds) return hm__error_null(__func__, "ds");
    if (!hm_analysis_statistic_name(statistic))
        return hm__error_set(HM_EINVAL, "unknown statistic (%d)", (int)statistic);
    hm_analysis_repro_t *rp = calloc(1, sizeof *rp);
    int rc = rp ? HM_OK : hm__error_set(HM_ENOMEM, "reproducibility: out of memory");
    if (rc == HM_OK) rp->statistic = statistic, rp->rows.metric = ds->metric;
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++)
        rc = hm_results_permpirun_append(&rp->rows, &ds->rows[i]);
    if (rc == HM_OK) {
        hm_results_permpirun_sort(&rp->rows);
        rc = fill(rp);
    }
    if (rc != HM_OK) {
        hm_analysis_repro_free(rp);
        return rc;
    }
    *out = rp;
    return HM_OK;
}

hm_statistic_t hm_analysis_repro_statistic(const hm_analysis_repro_t *rp)
{
    if (!rp) {
        hm__error_null(__func__, "repro");
        return (hm_statistic_t)-1;
    }
    return rp->statistic;
}

hm_metric_t hm_analysis_repro_metric(const hm_analysis_repro_t *rp)
{
    if (!rp) {
        hm__error_null(__func__, "repro");
        return (hm_metric_t)-1;
    }
    return rp->rows.metric;
}

size_t hm_analysis_repro_count(const hm_analysis_repro_t *rp)
{
    if (!rp) {
        hm__error_null(__func__, "repro");
        return 0;
    }
    return rp->ngroups;
}

const hm_analysis_repro_group_t *hm_analysis_repro_group(const hm_analysis_repro_t *rp, size_t i)
{
    if (!rp) {
        hm__error_null(__func__, "repro");
        return NULL;
    }
    return i < rp->ngroups ? &rp->groups[i] : NULL;
}

void hm_analysis_repro_free(hm_analysis_repro_t *rp)
{
    if (!rp) return;
    hm_results_permpirun_free(&rp->rows);
    free(rp->runs);
    free(rp->groups);
    free(rp);
}

/* ---- The file ------------------------------------------------------------ */

/* The caller's factors and the statistic the values are of. */
static int repro_factors(const hm_factors_t *factors, hm_statistic_t statistic, hm_factors_t **out)
{
    const char *key, *value;
    int rc = hm_factors_create(out);
    for (size_t i = 0; rc == HM_OK && factors && i < hm_factors_count(factors); i++)
        if ((rc = hm_factors_at(factors, i, &key, &value)) == HM_OK)
            rc = hm_factors_set(*out, key, "%s", value);
    if (rc == HM_OK)
        rc = hm_factors_set(*out, "statistic", "%s", hm_analysis_statistic_name(statistic));
    return rc;
}

/* A size that is not part of the cell (-1) is no value: an empty cell. */
static int put_rows_overlap(hm_csv_t *csv, const hm_analysis_repro_group_t *g, hm_metric_t metric)
{
    int rc = HM_OK;
    const hm_results_permpirun_row_t *key = g->key;
    for (size_t k = 0; rc == HM_OK && k < g->nruns; k++) {
        hm_csv_put_string(csv, key->op);
        hm_csv_put_double(csv, key->comm_target_s);
        if (key->size_bytes >= 0)
            hm_csv_put_int64(csv, key->size_bytes);
        else
            hm_csv_put_double(csv, NAN);
        hm_csv_put_double(csv, key->comp_target_s);
        hm_csv_put_int64(csv, key->processes);
        hm_csv_put_string(csv, key->sync);
        hm_csv_put_string(csv, key->progress);
        hm_csv_put_string(csv, hm_results_metric_name(metric));
        hm_csv_put_int64(csv, g->runs[k].run);
        hm_csv_put_double(csv, g->runs[k].value_s);
        hm_csv_put_double(csv, g->runs[k].normalized);
        hm_csv_put_double(csv, g->max_normalized);
        hm_csv_put_double(csv, g->runs[k].difference);
        hm_csv_put_double(csv, g->max_difference);
        hm_csv_put_int64(csv, !g->runs[k].cell_invalid);
        rc = hm_csv_end_row(csv);
    }
    return rc;
}

static int put_rows(hm_csv_t *csv, const hm_analysis_repro_group_t *g)
{
    int rc = HM_OK;
    for (size_t k = 0; rc == HM_OK && k < g->nruns; k++) {
        hm_csv_put_string(csv, g->key->op);
        hm_csv_put_int64(csv, g->key->size_bytes);
        hm_csv_put_int64(csv, g->key->processes);
        hm_csv_put_string(csv, g->key->sync);
        hm_csv_put_int64(csv, g->runs[k].run);
        hm_csv_put_double(csv, g->runs[k].value_s);
        hm_csv_put_double(csv, g->runs[k].normalized);
        hm_csv_put_double(csv, g->max_normalized);
        rc = hm_csv_end_row(csv);
    }
    return rc;
}

int hm_analysis_repro_write(const hm_analysis_repro_t *rp, const char *path,
                            const hm_factors_t *factors)
{
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    if (!rp) return hm__error_null(__func__, "repro");
    if (!path) return hm__error_null(__func__, "path");
    int mean = rp->statistic == HM_STATISTIC_MEAN, overlap = is_overlap(rp->rows.metric);
    int column = overlap ? (mean ? HM_COL_PERMPIRUN_OVERLAP_MEAN : HM_COL_PERMPIRUN_OVERLAP_MEDIAN)
                         : (mean ? HM_COL_PERMPIRUN_MEAN_S : HM_COL_PERMPIRUN_MEDIAN_S);
    int rc = repro_factors(factors, rp->statistic, &f);
    if (rc != HM_OK) {
        hm_factors_free(f);
        return hm__error_set(rc, "%s: %s", path, hm_strerror(rc));
    }
    rc = hm_results_repro_open(path, f, column, &csv);
    hm_factors_free(f);
    if (rc != HM_OK) return hm__error_set(HM_EIO, "%s", hm_last_error());
    for (size_t i = 0; rc == HM_OK && i < rp->ngroups; i++)
        rc = overlap ? put_rows_overlap(csv, &rp->groups[i], rp->rows.metric)
                     : put_rows(csv, &rp->groups[i]);
    if (rc != HM_OK) {
        hm_csv_abort(csv);
        return hm__error_set(HM_EIO, "%s", hm_last_error());
    }
    rc = hm_csv_close(csv);
    return rc == HM_OK ? HM_OK : hm__error_set(HM_EIO, "%s", hm_last_error());
}
