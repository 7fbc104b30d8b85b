/* src/analysis/scaling.c — how a cost grows with the process count: least
 * squares against log2 p and against p (the O(log p) of tree algorithms
 * and the O(p) of a root that meets every rank, Hunold and Carpen-Amarie
 * 2018, SIII), and where one shape overtakes the other. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_fit.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

static double x_of(hm_scaling_shape_t shape, double p)
{
    return shape == HM_SCALING_LOG ? log2(p) : p;
}

static int check_points(const double *p, const double *y, size_t n)
{
    if (!p || !y || n < 3)
        return hm__error_set(HM_EINVAL, "a scaling fit needs at least 3 points, not %zu", n);
    int distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(p[i]) || p[i] < 1 || !isfinite(y[i]))
            return hm__error_set(HM_EINVAL,
                                 "point %zu (p = %g, y = %g) is not a process count "
                                 ">= 1 with a finite value",
                                 i, p[i], y[i]);
        distinct |= p[i] != p[0];
    }
    if (!distinct)
        return hm__error_set(HM_EINVAL, "every point is at p = %g: nothing to fit", p[0]);
    return HM_OK;
}

int hm_analysis_fit_scaling(const double *p, const double *y, size_t n, hm_scaling_shape_t shape,
                            hm_scaling_fit_t *fit)
{
    if (!fit || (shape != HM_SCALING_LOG && shape != HM_SCALING_LINEAR))
        return hm__error_set(HM_EINVAL, "a fit and a shape (log or linear)");
    int rc = check_points(p, y, n);
    if (rc != HM_OK) return rc;
    double *x = malloc(n * sizeof *x);
    if (!x) return hm__error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) x[i] = x_of(shape, p[i]);
    double a, b, c00, c01, c11, ss_res, mean = 0, ss_tot = 0;
    gsl_fit_linear(x, 1, y, 1, n, &a, &b, &c00, &c01, &c11, &ss_res);
    free(x);
    for (size_t i = 0; i < n; i++) mean += y[i] / (double)n;
    for (size_t i = 0; i < n; i++) ss_tot += (y[i] - mean) * (y[i] - mean);
    fit->shape = shape;
    fit->a = a, fit->b = b;
    fit->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
    return HM_OK;
}

double hm_analysis_scaling_at(const hm_scaling_fit_t *fit, double p)
{
    if (!fit) {
        hm__error_null(__func__, "fit");
        return NAN;
    }
    return fit->a + fit->b * x_of(fit->shape, p);
}

/* second - first at p, relative to the larger magnitude: > 0 where second
 * is above. */
static double gap(const hm_scaling_fit_t *first, const hm_scaling_fit_t *second, double p)
{
    double f = hm_analysis_scaling_at(first, p), s = hm_analysis_scaling_at(second, p);
    double scale = fmax(fabs(f), fabs(s));
    return scale > 0 ? (s - f) / scale : 0;
}

int hm_analysis_scaling_crossover(const hm_scaling_fit_t *first, const hm_scaling_fit_t *second,
                                  double lo_p, double hi_p, double *p)
{
    enum { STEPS = 4096 };
    const double tol = 1e-6;
    if (!first || !second || !p || !(lo_p >= 1) || !(hi_p > lo_p) || !isfinite(hi_p))
        return hm__error_set(HM_EINVAL, "two fits and a range 1 <= lo_p < hi_p");
    if (gap(first, second, lo_p) > tol)
        return hm__error_set(HM_ENOENT, "the second is above the first from p = %g on", lo_p);
    /* The last sign change on a log-spaced grid, then bisection: a log and
     * a line cross at most twice, and after the last crossing the line's
     * slope decides for good. */
    double step = pow(hi_p / lo_p, 1.0 / STEPS), below = -1;
    for (int k = 0; k < STEPS; k++) {
        double q0 = lo_p * pow(step, k), q1 = k + 1 == STEPS ? hi_p : q0 * step;
        if (gap(first, second, q0) <= tol && gap(first, second, q1) > tol) below = q0;
        if (gap(first, second, q1) <= tol) below = -1;
    }
    if (below < 0)
        return hm__error_set(HM_ENOENT, "the second stays below the first up to %g", hi_p);
    double lo = below, hi = below * step;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (gap(first, second, mid) > tol)
            hi = mid;
        else
            lo = mid;
    }
    *p = hi;
    return HM_OK;
}
