/* src/analysis/summary.c — the statistics of one group (of run-times, or
 * of a metric of overlap) for `harmonia stats`: filter, quartiles,
 * confidence intervals of the median and the mean, lag-1 autocorrelation
 * and the Shapiro-Wilk p-value, each NaN where the data do not define it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

/* Statistics of the n kept values x (in order); sorted is room for a copy.
 * The stats layer says which are undefined (HM_EINVAL): those become NaN. */
static void from_kept(const double *x, double *sorted, size_t n, hm_analysis_summary_t *out)
{
    double acf[2], band, w;
    memcpy(sorted, x, n * sizeof *x);
    hm_stats_sort(sorted, n);
    if (hm_stats_median_ci(sorted, n, 0.95, &out->median_lo_s, &out->median_hi_s) != HM_OK)
        out->median_lo_s = out->median_hi_s = NAN;
    if (hm_stats_mean_ci(x, n, 0.95, &out->mean_lo_s, &out->mean_hi_s) != HM_OK)
        out->mean_lo_s = out->mean_hi_s = NAN;
    out->acf1 = NAN;
    if (n >= 3 && hm_stats_autocorrelation(x, n, 1, acf, &band) == HM_OK) out->acf1 = acf[1];
    if (hm_stats_shapiro_wilk(x, n, &w, &out->shapiro_p) != HM_OK) out->shapiro_p = NAN;
}

int hm_analysis_summarize(const hm_analysis_group_t *g, hm_filter_t filter,
                          hm_analysis_summary_t *out)
{
    if (!g) return hm__error_null(__func__, "g");
    if (!out) return hm__error_null(__func__, "out");
    double *kept = malloc(2 * (g->n ? g->n : 1) * sizeof *kept), *sorted = kept + g->n;
    if (!kept) return hm__error_set(HM_ENOMEM, "stats: out of memory");
    memcpy(kept, g->x_s, g->n * sizeof *kept);
    out->n = g->n;
    int rc = hm_analysis_filter(filter, kept, g->n, &out->kept);
    if (rc == HM_OK && hm_stats_summarize(kept, out->kept, &out->s) != HM_OK)
        rc = hm__error_set(HM_ENOMEM, "stats: out of memory");
    if (rc == HM_OK) from_kept(kept, sorted, out->kept, out);
    free(kept);
    return rc;
}

/* The cell of overlap and its factors, HM_RESULTS_STATS_OVERLAP's first
 * columns; a size that is not part of the cell (-1) is an empty cell. */
static void put_overlap_key(hm_csv_t *csv, const hm_analysis_group_t *g)
{
    hm_csv_put_string(csv, g->op);
    hm_csv_put_double(csv, g->comm_target_s);
    if (g->size_bytes >= 0)
        hm_csv_put_int64(csv, g->size_bytes);
    else
        hm_csv_put_double(csv, NAN);
    hm_csv_put_double(csv, g->comp_target_s);
    hm_csv_put_int64(csv, g->processes);
    hm_csv_put_string(csv, g->sync);
    hm_csv_put_string(csv, g->progress ? g->progress : "");
    hm_csv_put_string(csv, hm_results_metric_name(g->metric));
}

int hm_analysis_summary_write_row(hm_csv_t *csv, const hm_analysis_group_t *g,
                                  const hm_analysis_summary_t *r)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!g) return hm__error_null(__func__, "g");
    if (!r) return hm__error_null(__func__, "summary");
    if (hm_analysis_group_is_overlap(g)) {
        put_overlap_key(csv, g);
    } else {
        hm_csv_put_string(csv, g->op);
        hm_csv_put_int64(csv, g->size_bytes);
        hm_csv_put_int64(csv, g->processes);
        hm_csv_put_string(csv, g->sync);
    }
    hm_csv_put_int64(csv, (int64_t)r->n);
    hm_csv_put_int64(csv, (int64_t)r->kept);
    const double x[] = {r->s.min,     r->s.q1,      r->s.median,    r->s.q3,
                        r->s.max,     r->s.mean,    r->median_lo_s, r->median_hi_s,
                        r->mean_lo_s, r->mean_hi_s, r->acf1,        r->shapiro_p};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) hm_csv_put_double(csv, x[i]);
    if (hm_analysis_group_is_overlap(g)) hm_csv_put_int64(csv, (int64_t)g->n_invalid_cell);
    return hm_csv_end_row(csv);
}
