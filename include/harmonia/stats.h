/* include/harmonia/stats.h — statistics on arrays of doubles: pure
 * functions, no MPI. Quantiles are R's default (type 7: linear interpolation
 * between order statistics), the definition of numpy and GSL's
 * gsl_stats_quantile_from_sorted_data, so results can be checked with any of
 * them. NaN values are not accepted (callers filter invalid repetitions). */
#ifndef HARMONIA_STATS_H
#define HARMONIA_STATS_H
#include <harmonia/export.h>
#include <stddef.h>
#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sort x ascending in place. */
HM_EXPORT void hm_stats_sort(double *x, size_t n);

/* Quantile q in [0, 1] of sorted data (type 7); NaN when n is 0. */
HM_EXPORT double hm_stats_quantile_sorted(const double *sorted, size_t n, double q);

/* The same quantile of x unsorted (no NaN), found by selection in O(n)
 * instead of a sort's O(n log n), for one quantile of millions of values
 * (a trace's durations per function); x is reordered. NaN when n is 0. */
HM_EXPORT double hm_stats_quantile_select(double *x, size_t n, double q);

typedef struct hm_stats_summary {
    size_t n;
    double min, q1, median, q3, max;
    double p90, p99;
    double mean, sd; /* sd: sample standard deviation (n - 1), 0 for n < 2 */
} hm_stats_summary_t;

/* Summary of x (n values, left unchanged). All fields NaN for n = 0.
 * HM_ENOMEM when the sorted copy cannot be allocated. */
HM_EXPORT int hm_stats_summarize(const double *x, size_t n, hm_stats_summary_t *summary);

/* Summary of the x[i] (i < n) whose flag is set (flagged 1) or clear
 * (flagged 0): the valid repetitions of a result, or its discarded ones, as
 * bench, pattern, skew and overlap keep them (flags as the results' valid
 * arrays, one byte per repetition; NULL: every value). All fields NaN when
 * none is selected. HM_ENOMEM when the selection cannot be allocated. */
HM_EXPORT int hm_stats_summarize_flagged(const double *x, const unsigned char *flags, int flagged,
                                         size_t n, hm_stats_summary_t *summary);

/* ---- Outliers (Hunold & Carpen-Amarie 2016, §3.5) ---- */

/* Tukey's filter: keep the values within [Q1 - 1.5 IQR, Q3 + 1.5 IQR]
 * (quantiles of type 7). out (n values, may be x itself) receives the kept
 * values in their input order, *kept their number; *lo_s, *hi_s (may be
 * NULL) the fences. n = 0 keeps nothing. HM_ENOMEM. */
HM_EXPORT int hm_stats_tukey(const double *x, size_t n, double *out, size_t *kept, double *lo,
                             double *hi);

/* ---- Confidence intervals ---- */

/* Distribution-free interval of the median from order statistics: the
 * largest j such that P(B <= j - 1) <= (1 - level) / 2 for B ~ Binomial(n,
 * 1/2) gives [x_(j), x_(n + 1 - j)] (1-based; Conover, Practical
 * Nonparametric Statistics, 3rd ed., §3.2), whose coverage is at least level.
 * sorted ascending. HM_EINVAL when n is too small for the level (then *lo,
 * *hi are the sample's min and max and the coverage is below level). */
HM_EXPORT int hm_stats_median_ci(const double *sorted, size_t n, double level, double *lo,
                                 double *hi);

/* Student t interval of the mean: mean +- t_{(1+level)/2, n-1} s / sqrt(n).
 * HM_EINVAL for n < 2. */
HM_EXPORT int hm_stats_mean_ci(const double *x, size_t n, double level, double *lo, double *hi);

/* ---- Dependence ---- */

/* Sample autocorrelation r_k at lags k = 0..h (acf[0] = 1), with the usual
 * estimator r_k = sum_{t<n-k} (x_t - m)(x_{t+k} - m) / sum_t (x_t - m)^2 (as
 * R's acf and statsmodels' acf); *band = 1.96 / sqrt(n), the 95% band for
 * white noise. HM_EINVAL for h >= n or constant data. */
HM_EXPORT int hm_stats_autocorrelation(const double *x, size_t n, size_t h, double *acf,
                                       double *band);

/* ---- Tests ---- */

/* Shapiro-Wilk W and its p-value by Royston's algorithm (Royston 1995, AS
 * R94; what R's shapiro.test and SciPy's shapiro compute), 3 <= n <= 5000.
 * HM_EINVAL outside that range or for constant data. */
HM_EXPORT int hm_stats_shapiro_wilk(const double *x, size_t n, double *w, double *p);

typedef enum hm_alternative {
    HM_ALT_TWO_SIDED = 0,
    HM_ALT_LESS = 1,   /* x tends to be smaller than y */
    HM_ALT_GREATER = 2 /* x tends to be larger than y */
} hm_alternative_t;

typedef struct hm_wilcoxon {
    double w;  /* R's W: rank sum of x - n (n + 1) / 2 (= Mann-Whitney U of x) */
    double p;  /* p-value for the alternative */
    int exact; /* 1: exact distribution (small samples, no ties) */
} hm_wilcoxon_t;

/* Wilcoxon rank-sum (Mann-Whitney) test of x (n values) against y (m
 * values), as R's wilcox.test(x, y, alternative, correct = TRUE): exact p
 * when n < 50 and m < 50 and there are no ties, else the normal
 * approximation with tie-corrected variance and continuity correction.
 * HM_EINVAL for n or m = 0; HM_ENOMEM. */
HM_EXPORT int hm_stats_wilcoxon(const double *x, size_t n, const double *y, size_t m,
                                hm_alternative_t alternative, hm_wilcoxon_t *out);

/* "***" p <= 0.001, "**" p <= 0.01, "*" p <= 0.05, "" otherwise. */
HM_EXPORT const char *hm_stats_stars(double p);

#ifdef __cplusplus
}
#endif
#endif
