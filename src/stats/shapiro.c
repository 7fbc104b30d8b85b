/* src/stats/shapiro.c — Shapiro-Wilk W test of normality by Royston's
 * algorithm: P. Royston (1995), "Remark AS R94: A remark on Algorithm AS 181:
 * The W-test for normality", Applied Statistics 44(4), 547-551, with the
 * approximations of P. Royston (1992), "Approximating the Shapiro-Wilk
 * W-test for non-normality", Statistics and Computing 2, 117-119.
 * Complete samples only (no censoring), 3 <= n <= 5000. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <harmonia/stats.h>

#include "common/error_set.h"

#define SW_N_MIN 3
#define SW_N_MAX 5000

/* c[0] + c[1] x + ... + c[k-1] x^(k-1) (Horner). */
static double poly(const double *c, int k, double x)
{
    double r = c[k - 1];
    for (int i = k - 2; i >= 0; i--) r = r * x + c[i];
    return r;
}

/* Coefficients a_1..a_n (antisymmetric: a_i = -a_{n+1-i}, sum a_i^2 = 1)
 * into a[0..n-1]. Royston (1992) §2 / AS R94: m_i = Phi^-1((i - 3/8) /
 * (n + 1/4)); a_n and a_{n-1} are c_i = m_i / sqrt(m'm) plus a polynomial in
 * u = 1 / sqrt(n); the others are m_i / sqrt(phi), phi chosen so that
 * sum a_i^2 = 1. n = 3 is exact: a = (-sqrt(1/2), 0, sqrt(1/2)). */
static void coefficients(size_t n, double *a)
{
    static const double c1[6] = {0.0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056};
    static const double c2[6] = {0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633};
    size_t half = n / 2;
    memset(a, 0, n * sizeof *a);
    if (n == 3) {
        a[0] = -sqrt(0.5);
        a[2] = sqrt(0.5);
        return;
    }
    /* m_i for the upper half (i = n + 1 - k, k = 1..half), mirrored below. */
    double mm = 0.0;
    for (size_t k = 1; k <= half; k++) {
        double m = -gsl_cdf_ugaussian_Pinv(((double)k - 0.375) / ((double)n + 0.25));
        a[n - k] = m;
        a[k - 1] = -m;
        mm += 2.0 * m * m;
    }
    double u = 1.0 / sqrt((double)n);
    double mn = a[n - 1], mn1 = a[n - 2];
    double an = mn / sqrt(mm) + poly(c1, 6, u);
    double phi;
    size_t fixed; /* coefficients at each end set by the polynomials */
    if (n > 5) {
        double an1 = mn1 / sqrt(mm) + poly(c2, 6, u);
        phi = (mm - 2.0 * mn * mn - 2.0 * mn1 * mn1) / (1.0 - 2.0 * an * an - 2.0 * an1 * an1);
        a[n - 2] = an1;
        a[1] = -an1;
        fixed = 2;
    } else {
        phi = (mm - 2.0 * mn * mn) / (1.0 - 2.0 * an * an);
        fixed = 1;
    }
    a[n - 1] = an;
    a[0] = -an;
    double s = sqrt(phi);
    for (size_t i = fixed; i < n - fixed; i++) a[i] /= s;
}

/* W = (sum a_i x_(i))^2 / sum (x_i - mean)^2, computed as 1 - (1 - r^2) with r
 * the correlation of a and the sorted data scaled by its range (AS R94's
 * way: accurate when W is close to 1). */
static double statistic(const double *sorted, const double *a, size_t n)
{
    double range = sorted[n - 1] - sorted[0];
    double sx = 0.0, sa = 0.0;
    for (size_t i = 0; i < n; i++) {
        sx += sorted[i] / range;
        sa += a[i];
    }
    sx /= (double)n;
    sa /= (double)n;
    double ssa = 0.0, ssx = 0.0, sax = 0.0;
    for (size_t i = 0; i < n; i++) {
        double da = a[i] - sa, dx = sorted[i] / range - sx;
        ssa += da * da;
        ssx += dx * dx;
        sax += da * dx;
    }
    double r = sqrt(ssa * ssx);
    double w1 = (r - sax) * (r + sax) / (ssa * ssx);
    return 1.0 - w1;
}

/* Upper-tail p of W (Royston 1992 §3 / AS R94): n = 3 exact; otherwise
 * log(1 - W) (after -log(gamma - .) for n <= 11) is approximately normal with
 * mean and log sd polynomial in n (n <= 11) or in log n (n >= 12). */
static double p_value(double w, size_t n)
{
    static const double g[2] = {-2.273, 0.459};
    static const double c3[4] = {0.5440, -0.39978, 0.025054, -6.714e-4};
    static const double c4[4] = {1.3822, -0.77857, 0.062767, -0.0020322};
    static const double c5[4] = {-1.5861, -0.31082, -0.083751, 0.0038915};
    static const double c6[3] = {-0.4803, -0.082676, 0.0030302};
    const double pi6 = 6.0 / M_PI, stqr = M_PI / 3.0; /* asin(sqrt(3/4)) */
    if (n == 3) {
        double p = pi6 * (asin(sqrt(w)) - stqr);
        return p < 0.0 ? 0.0 : (p > 1.0 ? 1.0 : p);
    }
    double nd = (double)n, y = log(1.0 - w), mean, sd;
    if (n <= 11) {
        double gamma = poly(g, 2, nd);
        if (y >= gamma) return 1e-99; /* beyond the approximation: W tiny */
        y = -log(gamma - y);
        mean = poly(c3, 4, nd);
        sd = exp(poly(c4, 4, nd));
    } else {
        double ln = log(nd);
        mean = poly(c5, 4, ln);
        sd = exp(poly(c6, 3, ln));
    }
    return gsl_cdf_ugaussian_Q((y - mean) / sd);
}

int hm_stats_shapiro_wilk(const double *x, size_t n, double *w, double *p)
{
    if (!x && n > 0) return hm__error_null(__func__, "x");
    if (!w) return hm__error_null(__func__, "w");
    if (!p) return hm__error_null(__func__, "p");
    if (n < SW_N_MIN || n > SW_N_MAX)
        return hm__error_set(HM_EINVAL, "%s: %zu values (it needs %d to %d)", __func__, n, SW_N_MIN,
                             SW_N_MAX);
    double *sorted = malloc(2 * n * sizeof *sorted);
    if (!sorted) return hm__error_nomem(__func__);
    double *a = sorted + n;
    memcpy(sorted, x, n * sizeof *sorted);
    hm_stats_sort(sorted, n);
    if (!(sorted[n - 1] - sorted[0] > 0.0)) { /* constant data (or NaN) */
        free(sorted);
        return hm__error_set(HM_EINVAL, "%s: the %zu values are all the same (or NaN)", __func__,
                             n);
    }
    coefficients(n, a);
    double stat = statistic(sorted, a, n);
    if (stat > 1.0) stat = 1.0;
    if (n == 3 && stat < 0.75) stat = 0.75; /* W's minimum for n = 3 */
    *w = stat;
    *p = p_value(stat, n);
    free(sorted);
    return HM_OK;
}
