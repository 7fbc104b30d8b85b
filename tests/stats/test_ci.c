/* tests/stats/test_ci.c — confidence intervals of the median and the mean
 * against SciPy.
 *
 * Data: gen(n)_i = ((37 i + 11) mod 101) / 8, i = 0..n-1 (exact binary
 * fractions), and {1.0, 3.5} for the mean at n = 2.
 *
 * Median references: /usr/bin/python3 (SciPy 1.10.1), the rule of
 * hm_stats_median_ci (largest j >= 1 with P(B <= j - 1) <= (1 - level) / 2,
 * B ~ Binomial(n, 1/2), interval [x_(j), x_(n+1-j)]):
 *     s = np.sort(gen(n)); tail = (1 - level) / 2; j = 0
 *     while j + 1 <= (n + 1) // 2 and stats.binom.cdf(j, n, 0.5) <= tail: j += 1
 * giving (j = 0: no interval reaches the level, HM_EINVAL with [min, max]):
 *     n    level  j   lo     hi      coverage 1 - 2 binom.cdf(j - 1, n, .5)
 *     5    0.95   0   1.375  10.625  0.9375 (min, max)
 *     5    0.99   0   1.375  10.625  0.9375 (min, max)
 *     6    0.95   1   1.375  11.875  0.96875
 *     6    0.99   0   1.375  11.875  0.96875 (min, max)
 *     8    0.99   1   1.375  11.875  0.9921875
 *     10   0.95   2   1.375  10.625  0.978515625
 *     10   0.99   1   0.5    11.875  0.998046875
 *     30   0.95   10  3.875  8.5     0.95722605474293232
 *     30   0.99   8   3      9.25    0.99477712064981461
 *     101  0.95   41  5      7.5     0.95395593307065718
 *     101  0.99   38  4.625  7.875   0.99066495187935522
 * The bounds are order statistics, so they must be equal; a wrong j (an
 * off-by-one in the rule) moves them by at least 1/8.
 *
 * Mean references: m = x.mean(); s = x.std(ddof=1); q = (1 - level) / 2
 *     t = stats.t.ppf(1 - q, n - 1)
 *     for _ in range(3): t += (stats.t.sf(t, n - 1) - q) / stats.t.pdf(t, n - 1)
 *     lo, hi = m - t * s / np.sqrt(n), m + t * s / np.sqrt(n)
 * The Newton refinement is needed: SciPy 1.10.1's t.ppf (cdflib's cdft, since
 * replaced by Boost in scipy PR 22962) is accurate to ~1e-9 only, e.g.
 * 3.2498355440153697 for n - 1 = 9 at 0.995, 7.5e-10 relative from the root
 * of t.sf (cephes, ~1e-15), which moves lo at n = 10, level 0.99 by 1.6e-9
 * relative. Check: for n - 1 = 1 the refined t is 12.706204736174694 and
 * 63.656741162871519, the closed form cot(pi q) 12.706204736174707 and
 * 63.656741162871583 (1e-15 relative). Values ("%.17g"):
 *     n    level  raw t.ppf            refined t            lo / hi
 *     2    0.95   12.706204736432095   12.706204736174694   -13.632755920218367
 * / 18.132755920218365 2    0.99   63.656741162873992   63.656741162871519   -77.320926453589394
 * / 81.820926453589394 10   0.95   2.2621571627409915   2.2621571627982044   3.0403252880513532
 * / 8.509674711948648 10   0.99   3.2498355440153697   3.2498355415921258   1.8463414524255546
 * / 9.7036585475744452 100  0.95   1.9842169515086827   1.9842169515864174   5.4910554017812805
 * / 6.9464445982187195 100  0.99   2.6264054563851857   2.6264054572808275   5.2555382592337656
 * / 7.1819617407662344 Tolerance 1e-9 relative: GSL's quantile and the refined one agree to ~1e-15;
 * the rest is a few roundings (measured: <= 1e-14). */
#include <math.h>
#include <stddef.h>

#include <harmonia/stats.h>

#include "testutil.h"

static int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

static void gen(double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = (double)((37 * i + 11) % 101) / 8.0;
}

static void check_median(size_t n, double level, int want_rc, double want_lo, double want_hi)
{
    double x[101], lo, hi;
    gen(x, n);
    hm_stats_sort(x, n);
    int rc = hm_stats_median_ci(x, n, level, &lo, &hi);
    HM_CHECK(rc == want_rc, "median n=%zu level=%.2f: rc %d, expected %d", n, level, rc, want_rc);
    HM_CHECK(lo == want_lo && hi == want_hi,
             "median n=%zu level=%.2f: [%.17g, %.17g], SciPy [%g, %g]", n, level, lo, hi, want_lo,
             want_hi);
}

static void check_mean(const double *x, size_t n, double level, double want_lo, double want_hi)
{
    double lo, hi;
    HM_CHECK(hm_stats_mean_ci(x, n, level, &lo, &hi) == HM_OK, "mean n=%zu: HM_OK", n);
    HM_CHECK(near_rel(lo, want_lo), "mean n=%zu level=%.2f: lo %.17g, SciPy %.17g (rel %.3g)", n,
             level, lo, want_lo, fabs(lo - want_lo) / fabs(want_lo));
    HM_CHECK(near_rel(hi, want_hi), "mean n=%zu level=%.2f: hi %.17g, SciPy %.17g (rel %.3g)", n,
             level, hi, want_hi, fabs(hi - want_hi) / fabs(want_hi));
}

int main(void)
{
    check_median(5, 0.95, HM_EINVAL, 1.375, 10.625);
    check_median(5, 0.99, HM_EINVAL, 1.375, 10.625);
    check_median(6, 0.95, HM_OK, 1.375, 11.875);
    check_median(6, 0.99, HM_EINVAL, 1.375, 11.875);
    check_median(8, 0.99, HM_OK, 1.375, 11.875);
    check_median(10, 0.95, HM_OK, 1.375, 10.625);
    check_median(10, 0.99, HM_OK, 0.5, 11.875);
    check_median(30, 0.95, HM_OK, 3.875, 8.5);
    check_median(30, 0.99, HM_OK, 3.0, 9.25);
    check_median(101, 0.95, HM_OK, 5.0, 7.5);
    check_median(101, 0.99, HM_OK, 4.625, 7.875);

    const double two[] = {1.0, 3.5};
    check_mean(two, 2, 0.95, -13.632755920218367, 18.132755920218365);
    check_mean(two, 2, 0.99, -77.320926453589394, 81.820926453589394);
    double x[100];
    gen(x, 10);
    check_mean(x, 10, 0.95, 3.0403252880513532, 8.509674711948648);
    check_mean(x, 10, 0.99, 1.8463414524255546, 9.7036585475744452);
    gen(x, 100);
    check_mean(x, 100, 0.95, 5.4910554017812805, 6.9464445982187195);
    check_mean(x, 100, 0.99, 5.2555382592337656, 7.1819617407662344);

    double lo, hi;
    HM_CHECK(hm_stats_mean_ci(two, 1, 0.95, &lo, &hi) == HM_EINVAL, "mean n=1: HM_EINVAL");
    HM_CHECK(hm_stats_mean_ci(two, 0, 0.95, &lo, &hi) == HM_EINVAL, "mean n=0: HM_EINVAL");
    return hm_test_finish();
}
