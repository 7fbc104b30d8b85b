/* tests/stats/test_acf.c — sample autocorrelation against NumPy.
 *
 * Data: an AR(1)-like series with deterministic innovations, n = 50:
 *     x_0 = 1, x_t = 0.7 x_{t-1} + (((37 t + 11) mod 101) / 101 - 0.5)
 * and {1, 2, 4, 8}. References: /usr/bin/python3 (NumPy 1.24.2; statsmodels
 * is not installed), the estimator of R's acf:
 *     d = x - x.mean()
 *     r = [np.sum(d[:n-k] * d[k:]) / np.sum(d * d) for k in range(h + 1)]
 *     band = 1.96 / np.sqrt(n)
 * printed with "%.17g":
 *     AR(1), h = 5: 1, 0.40110335838663769, 0.31041592767359605,
 *         0.30722436614857729, -0.0025616342569269581, 0.12681320235878368
 *     band (n = 50): 0.27718585822512659
 *     {1, 2, 4, 8}, h = 3: 1, 0.18913043478260869, -0.28260869565217389,
 *         -0.40652173913043477
 * Tolerance 1e-9 relative: the same sums in a different order; the smallest
 * value (2.6e-3) is still far above the ~1e-16 rounding of the sums. */
#include <math.h>
#include <stddef.h>

#include <harmonia/stats.h>

#include "testutil.h"

static int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

int main(void)
{
    double x[50];
    x[0] = 1.0;
    for (size_t t = 1; t < 50; t++)
        x[t] = 0.7 * x[t - 1] + ((double)((37 * t + 11) % 101) / 101.0 - 0.5);
    const double want[] = {1.0,
                           0.40110335838663769,
                           0.31041592767359605,
                           0.30722436614857729,
                           -0.0025616342569269581,
                           0.12681320235878368};
    for (size_t h = 1; h <= 5; h++) {
        double acf[6], band;
        HM_CHECK(hm_stats_autocorrelation(x, 50, h, acf, &band) == HM_OK, "AR(1) h=%zu: HM_OK", h);
        HM_CHECK(acf[0] == 1.0, "AR(1) h=%zu: r_0 = %.17g", h, acf[0]);
        for (size_t k = 1; k <= h; k++)
            HM_CHECK(near_rel(acf[k], want[k]), "AR(1) h=%zu r_%zu %.17g, NumPy %.17g (rel %.3g)",
                     h, k, acf[k], want[k], fabs(acf[k] - want[k]) / fabs(want[k]));
        HM_CHECK(near_rel(band, 0.27718585822512659), "band %.17g", band);
    }

    const double y[] = {1.0, 2.0, 4.0, 8.0};
    const double want_y[] = {1.0, 0.18913043478260869, -0.28260869565217389, -0.40652173913043477};
    double acf[4], band;
    HM_CHECK(hm_stats_autocorrelation(y, 4, 3, acf, &band) == HM_OK, "h = n - 1: HM_OK");
    for (size_t k = 0; k < 4; k++)
        HM_CHECK(near_rel(acf[k], want_y[k]), "{1,2,4,8} r_%zu %.17g, NumPy %.17g", k, acf[k],
                 want_y[k]);
    HM_CHECK(hm_stats_autocorrelation(y, 4, 4, acf, &band) == HM_EINVAL, "h = n: HM_EINVAL");
    HM_CHECK(hm_stats_autocorrelation(y, 0, 0, acf, &band) == HM_EINVAL, "n = 0: HM_EINVAL");

    /* 0.1 is not a binary fraction: the mean of ten of them is not 0.1. */
    const double c[] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
    HM_CHECK(hm_stats_autocorrelation(c, 10, 2, acf, &band) == HM_EINVAL, "constant: HM_EINVAL");
    return hm_test_finish();
}
