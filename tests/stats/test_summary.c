/* tests/stats/test_summary.c — the summary against GSL, the oracle:
 * gsl_stats_quantile_from_sorted_data uses the same type-7 definition, and
 * gsl_stats_mean/sd the same moments. Random data of several sizes (1, 2, odd,
 * even, ties) must agree to 1e-12 relative: both compute the same
 * interpolation from the same order statistics, so only rounding may
 * differ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <harmonia/stats.h>

#include "testutil.h"

static int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void check_size(size_t n, unsigned seed)
{
    double *x = malloc(n * sizeof *x), *sorted = malloc(n * sizeof *sorted);
    srand(seed);
    for (size_t i = 0; i < n; i++) x[i] = (rand() % 50) * 1e-6 + (i % 3 == 0 ? 1e-7 : 0.0);
    memcpy(sorted, x, n * sizeof *x);
    gsl_sort(sorted, 1, n);
    hm_stats_summary_t s;
    HM_CHECK(hm_stats_summarize(x, n, &s) == HM_OK, "summarize n=%zu", n);
    const double qs[] = {0.25, 0.5, 0.75, 0.9, 0.99};
    const double got[] = {s.q1, s.median, s.q3, s.p90, s.p99};
    for (int k = 0; k < 5; k++) {
        double want = gsl_stats_quantile_from_sorted_data(sorted, 1, n, qs[k]);
        HM_CHECK(near_rel(got[k], want), "n=%zu q=%.2f: %.17g, GSL %.17g", n, qs[k], got[k], want);
        HM_CHECK(near_rel(hm_stats_quantile_sorted(sorted, n, qs[k]), want), "sorted quantile");
    }
    HM_CHECK(s.min == sorted[0] && s.max == sorted[n - 1], "n=%zu min/max", n);
    HM_CHECK(near_rel(s.mean, gsl_stats_mean(x, 1, n)), "n=%zu mean", n);
    if (n > 1) HM_CHECK(near_rel(s.sd, gsl_stats_sd(x, 1, n)), "n=%zu sd %.17g", n, s.sd);
    free(x);
    free(sorted);
}

/* The flagged summary selects as the results do: flags every third value
 * off; set against GSL on the selected copy, clear on the others, NULL on
 * all of them. */
static void check_flagged(size_t n)
{
    double *x = malloc(n * sizeof *x), *on = malloc(n * sizeof *on), *off = malloc(n * sizeof *off);
    unsigned char *flags = malloc(n);
    size_t non = 0, noff = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)((i * 37) % 101) * 1e-6;
        flags[i] = i % 3 != 0;
        if (flags[i])
            on[non++] = x[i];
        else
            off[noff++] = x[i];
    }
    hm_stats_summary_t s;
    HM_CHECK(hm_stats_summarize_flagged(x, flags, 1, n, &s) == HM_OK && s.n == non &&
                 near_rel(s.mean, gsl_stats_mean(on, 1, non)),
             "flagged 1 of %zu: %zu values, mean as GSL", n, non);
    gsl_sort(on, 1, non);
    HM_CHECK(near_rel(s.median, gsl_stats_median_from_sorted_data(on, 1, non)), "flagged median");
    HM_CHECK(hm_stats_summarize_flagged(x, flags, 0, n, &s) == HM_OK && s.n == noff &&
                 near_rel(s.mean, gsl_stats_mean(off, 1, noff)),
             "flagged 0 of %zu: %zu values, mean as GSL", n, noff);
    HM_CHECK(hm_stats_summarize_flagged(x, NULL, 1, n, &s) == HM_OK && s.n == n &&
                 near_rel(s.mean, gsl_stats_mean(x, 1, n)),
             "no flags: all %zu values", n);
    memset(flags, 0, n);
    HM_CHECK(hm_stats_summarize_flagged(x, flags, 1, n, &s) == HM_OK && s.n == 0 && isnan(s.median),
             "none flagged: NaN");
    free(x);
    free(on);
    free(off);
    free(flags);
}

/* hm_stats_quantile_select against the sorted oracle, exactly: the same
 * order statistics and the same interpolation. Ties, sorted, reversed and
 * random data; every q of a grid. */
static void check_select(size_t n, int shape)
{
    double *x = malloc(n * sizeof *x), *sorted = malloc(n * sizeof *x),
           *work = malloc(n * sizeof *x);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        x[i] = shape == 0   ? (double)(rand() % 7)
               : shape == 1 ? (double)i
               : shape == 2 ? (double)(n - i)
                            : rand() / (double)RAND_MAX;
    memcpy(sorted, x, n * sizeof *x);
    hm_stats_sort(sorted, n);
    for (int k = 0; k <= 20; k++) {
        double q = k / 20.0;
        memcpy(work, x, n * sizeof *x);
        double got = hm_stats_quantile_select(work, n, q);
        bad += got != hm_stats_quantile_sorted(sorted, n, q);
    }
    HM_CHECK(bad == 0, "select n=%zu shape %d: 21 quantiles as from the sorted data (%d differ)", n,
             shape, bad);
    free(x), free(sorted), free(work);
}

int main(void)
{
    srand(11);
    for (int shape = 0; shape < 4; shape++)
        for (size_t n = 1; n <= 1025; n = n < 8 ? n + 1 : 2 * n + 1) check_select(n, shape);
    HM_CHECK(isnan(hm_stats_quantile_select(NULL, 0, 0.5)), "select of nothing: NaN");
    check_flagged(10);
    check_flagged(1001);
    const size_t sizes[] = {1, 2, 3, 10, 11, 1000, 1001};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        check_size(sizes[i], 7u + (unsigned)i);
    hm_stats_summary_t s;
    HM_CHECK(hm_stats_summarize(NULL, 0, &s) == HM_OK && isnan(s.median), "empty input: NaN");
    return hm_test_finish();
}
