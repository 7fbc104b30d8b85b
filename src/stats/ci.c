/* src/stats/ci.c — confidence intervals of the median and of the mean. */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <harmonia/stats.h>

#include "common/error_set.h"

#include "stats/stats_impl.h"

/* Median: with B ~ Binomial(n, 1/2) the number of observations below the
 * median, P(x_(j) <= median <= x_(n+1-j)) >= 1 - 2 P(B <= j - 1). The rule
 * (Conover, 3rd ed., §3.2): take the largest j >= 1 with
 *     P(B <= j - 1) <= (1 - level) / 2,
 * computed as gsl_cdf_binomial_P(j - 1, 0.5, n), and return
 * [x_(j), x_(n+1-j)] (1-based). j stays below (n + 1) / 2 because
 * P(B <= floor(n/2)) >= 1/2. When even j = 1 fails (2^-n > (1 - level) / 2,
 * e.g. n <= 5 at 0.95, n <= 7 at 0.99), no interval of order statistics
 * reaches the level: return [x_(1), x_(n)] with HM_EINVAL. */
int hm_stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi)
{
    if (!lo) return hm__error_null(__func__, "lo");
    if (!hi) return hm__error_null(__func__, "hi");
    if (!sorted && n > 0) return hm__error_null(__func__, "sorted");
    *lo = *hi = NAN;
    if (n == 0 || !(level > 0.0 && level < 1.0))
        return hm__error_set(HM_EINVAL, "%s: no interval of %zu values at level %g", __func__, n,
                             level);
    double tail = (1.0 - level) / 2.0;
    unsigned int un = (unsigned int)n;
    size_t j = 0;
    while (j + 1 <= (n + 1) / 2 && gsl_cdf_binomial_P((unsigned int)j, 0.5, un) <= tail) j++;
    if (j == 0) {
        *lo = sorted[0];
        *hi = sorted[n - 1];
        return hm__error_set(HM_EINVAL, "%s: %zu values are too few for level %g", __func__, n,
                             level);
    }
    *lo = sorted[j - 1];
    *hi = sorted[n - j];
    return HM_OK;
}

int hm_stats_mean_ci(const double *x, size_t n, double level, double *lo, double *hi)
{
    if (!lo) return hm__error_null(__func__, "lo");
    if (!hi) return hm__error_null(__func__, "hi");
    if (!x && n > 0) return hm__error_null(__func__, "x");
    *lo = *hi = NAN;
    if (n < 2 || !(level > 0.0 && level < 1.0))
        return hm__error_set(HM_EINVAL, "%s: no interval of %zu values at level %g", __func__, n,
                             level);
    double mean, sd;
    hm__stats_moments(x, n, &mean, &sd);
    double t = gsl_cdf_tdist_Pinv((1.0 + level) / 2.0, (double)(n - 1));
    double half = t * sd / sqrt((double)n);
    *lo = mean - half;
    *hi = mean + half;
    return HM_OK;
}
