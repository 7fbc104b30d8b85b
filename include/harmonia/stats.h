/* include/harmonia/stats.h — statistics on arrays of doubles: pure
 * functions, no MPI. Quantiles are R's default (type 7: linear interpolation
 * between order statistics), the definition of numpy and GSL's
 * gsl_stats_quantile_from_sorted_data, so results can be checked with any of
 * them. NaN values are not accepted (callers filter invalid repetitions). */
#ifndef HARMONIA_STATS_H
#define HARMONIA_STATS_H
#include <stddef.h>
#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sort x ascending in place. */
void hm_stats_sort(double *x, size_t n);

/* Quantile q in [0, 1] of sorted data (type 7); NaN when n is 0. */
double hm_stats_quantile_sorted(const double *sorted, size_t n, double q);

typedef struct hm_stats_summary {
    size_t n;
    double min, q1, median, q3, max;
    double p90, p99;
    double mean, sd; /* sd: sample standard deviation (n - 1), 0 for n < 2 */
} hm_stats_summary_t;

/* Summary of x (n values, left unchanged). All fields NaN for n = 0.
 * HM_ENOMEM when the sorted copy cannot be allocated. */
int hm_stats_summarize(const double *x, size_t n, hm_stats_summary_t *summary);

#ifdef __cplusplus
}
#endif
#endif
