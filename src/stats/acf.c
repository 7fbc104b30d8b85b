/* src/stats/acf.c — sample autocorrelation (as R's acf, statsmodels' acf). */
#include <math.h>

#include <harmonia/stats.h>

#include "common/error_set.h"

static int is_constant(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[0]) return 0;
    return 1;
}

int hm_stats_autocorrelation(const double *x, size_t n, size_t h, double *acf, double *band)
{
    if (!x && n > 0) return hm__error_null(__func__, "x");
    if (!acf) return hm__error_null(__func__, "acf");
    if (!band) return hm__error_null(__func__, "band");
    if (h >= n) return hm__error_set(HM_EINVAL, "%s: lag %zu of %zu values", __func__, h, n);
    /* Exact comparison: the mean of constant data may differ from the value
     * in the last bit, which would leave a tiny non-zero denominator. */
    if (is_constant(x, n))
        return hm__error_set(HM_EINVAL, "%s: the %zu values are all the same", __func__, n);
    double m = 0.0;
    for (size_t t = 0; t < n; t++) m += x[t];
    m /= (double)n;
    double c0 = 0.0;
    for (size_t t = 0; t < n; t++) c0 += (x[t] - m) * (x[t] - m);
    acf[0] = 1.0;
    for (size_t k = 1; k <= h; k++) {
        double ck = 0.0;
        for (size_t t = 0; t + k < n; t++) ck += (x[t] - m) * (x[t + k] - m);
        acf[k] = ck / c0;
    }
    *band = 1.96 / sqrt((double)n);
    return HM_OK;
}
