/* tests/sync/learn/test_decide.c — the drift decision of the pairwise learning
 * block (hm__sync_decide_drift) on crafted fits: exact comparisons, since the
 * function only selects and copies its inputs; then the extension of a
 * learning (hm__sync_fit_more), whose arithmetic is given in closed form. */
#include <math.h>

#include "sync/sync_impl.h"
#include "testutil.h"

static hm_sync_params_t params(hm_drift_t drift, double sigmas)
{
    hm_sync_params_t p = {
        .fitpoints = 100, .exchanges = 10, .drift = drift, .drift_sigmas = sigmas};
    return p;
}

static void expect(hm_drift_t drift, double sigmas, double slope, double se, hm_clock_kind_t kind,
                   const char *why)
{
    hm_sync_params_t p = params(drift, sigmas);
    const double intercept = 0.125, mean_y = 0.5;
    hm__sync_pair_model_t m = hm__sync_decide_drift(&p, slope, se, 8, intercept, mean_y);
    int lm_ok = kind == HM_CLOCK_LINEAR ? m.lm.slope == slope && m.lm.intercept == intercept
                                        : m.lm.slope == 0 && m.lm.intercept == mean_y;
    int fit_kept = (isnan(slope) ? isnan(m.slope_fit) : m.slope_fit == slope) &&
                   (isnan(se) ? isnan(m.slope_stderr) : m.slope_stderr == se);
    HM_CHECK(m.kind == kind && lm_ok && fit_kept, "%s: slope %g +- %g -> %s {%g, %g}", why, slope,
             se,
             m.kind == HM_CLOCK_LINEAR   ? "linear"
             : m.kind == HM_CLOCK_OFFSET ? "offset"
                                         : "?",
             m.lm.slope, m.lm.intercept);
}

/* More fit points for a fit of n points with slope error se, critical
 * value 5 (drift_sigmas 5), resolution asked 0.5 ppm. */
static int more(hm_drift_t drift, double resolution_ppm, double se, int n)
{
    hm_sync_params_t p = params(drift, 5);
    p.fitpoints = 1000;
    p.drift_resolution_ppm = resolution_ppm;
    hm__sync_pair_model_t m = hm__sync_decide_drift(&p, 1e-7, se, 8, 0, 0);
    m.fitpoints = n;
    return hm__sync_fit_more(&p, &m, n);
}

/* The resolution t_crit x se against 0.5 ppm: 5 x 0.2 ppm = 1 ppm wants
 * 1000 x 1 / 0.5 x 1.1 = 2200 points in all (1200 more); the cap is 4 x
 * 1000; nothing beyond it, nothing once resolved, nothing but under auto,
 * nothing without a finite error to size it by. */
static void check_extension(void)
{
    HM_CHECK(more(HM_DRIFT_AUTO, 0.5, 0.2e-6, 1000) == 1200,
             "1 ppm resolved, 0.5 asked: 1200 more (%d)", more(HM_DRIFT_AUTO, 0.5, 0.2e-6, 1000));
    HM_CHECK(more(HM_DRIFT_AUTO, 0.5, 0.09e-6, 1000) == 0, "0.45 ppm resolved: none more (%d)",
             more(HM_DRIFT_AUTO, 0.5, 0.09e-6, 1000));
    HM_CHECK(more(HM_DRIFT_AUTO, 0.5, 1e-6, 1000) == 3000,
             "5 ppm resolved: up to the cap, 3000 (%d)", more(HM_DRIFT_AUTO, 0.5, 1e-6, 1000));
    HM_CHECK(more(HM_DRIFT_AUTO, 0.5, 1e-6, 4000) == 0, "at the cap: none (%d)",
             more(HM_DRIFT_AUTO, 0.5, 1e-6, 4000));
    HM_CHECK(more(HM_DRIFT_ON, 0.5, 1e-6, 1000) == 0 && more(HM_DRIFT_OFF, 0.5, 1e-6, 1000) == 0,
             "drift on and off never extend");
    HM_CHECK(more(HM_DRIFT_AUTO, 0, 1e-6, 1000) == 0, "resolution 0: never extended");
    HM_CHECK(more(HM_DRIFT_AUTO, 0.5, INFINITY, 1000) == 0 &&
                 more(HM_DRIFT_AUTO, 0.5, NAN, 1000) == 0,
             "an error that is not finite sizes nothing");
    hm_sync_params_t p = params(HM_DRIFT_AUTO, 5);
    hm__sync_pair_model_t m = hm__sync_decide_drift(&p, 1e-7, INFINITY, 8, 0, 0);
    HM_CHECK(isinf(hm__sync_fit_resolution(&m)), "too few points: the model may hide any drift");
}

/* The floor (sync.h, HM_SYNC_DRIFT_FLOOR_SIGMAS): with a resolution of 0.5
 * ppm and the default critical value 5.617 (8 dof), a slope below 0.5 ppm
 * is kept from t 3 x 5.617 = 16.85 on; at or above it, from 5.617 as
 * before. The slopes of two make-check runs over clocks without drift,
 * 0.46 and 0.48 ppm at t ~6, are dropped; 1 ppm at the same t is kept. */
static void check_floor(void)
{
    struct {
        double slope, se;
        hm_clock_kind_t kind;
        const char *why;
    } cases[] = {
        {0.48e-6, 0.08e-6, HM_CLOCK_OFFSET, "0.48 ppm at t 6, below the floor: offset"},
        {-0.46e-6, 0.077e-6, HM_CLOCK_OFFSET, "-0.46 ppm at t 6: offset"},
        {1e-6, 0.167e-6, HM_CLOCK_LINEAR, "1 ppm at t 6: kept"},
        {0.5e-6, 0.0885e-6, HM_CLOCK_LINEAR, "0.5 ppm, the floor itself, at t 5.65: kept"},
        {0.3e-6, 0.0178e-6, HM_CLOCK_LINEAR, "0.3 ppm at t 16.9 (3 x critical): kept"},
        {0.3e-6, 0.0179e-6, HM_CLOCK_OFFSET, "0.3 ppm at t 16.76: offset"},
        {1e-9, 0, HM_CLOCK_LINEAR, "an exact fit (se 0) keeps even a tiny slope"},
    };
    hm_sync_params_t p = params(HM_DRIFT_AUTO, 0);
    p.drift_resolution_ppm = 0.5;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hm__sync_pair_model_t m = hm__sync_decide_drift(&p, cases[i].slope, cases[i].se, 8, 0, 0);
        HM_CHECK(m.kind == cases[i].kind, "floor: %s (t %.2f, got %s)", cases[i].why, m.t,
                 m.kind == HM_CLOCK_LINEAR ? "linear" : "offset");
    }
    p.drift_resolution_ppm = 0;
    hm__sync_pair_model_t m = hm__sync_decide_drift(&p, 0.48e-6, 0.08e-6, 8, 0, 0);
    HM_CHECK(m.kind == HM_CLOCK_LINEAR, "resolution 0: no floor, 0.48 ppm at t 6 kept");
    p.drift_resolution_ppm = 0.5, p.drift = HM_DRIFT_ON;
    HM_CHECK(hm__sync_drift_floor(&p) == 0, "drift on: no floor");
    /* What an offset model may hide is at least the floor. */
    hm__sync_stats_t st = {0};
    p.drift = HM_DRIFT_AUTO;
    m = hm__sync_decide_drift(&p, 0.48e-6, 0.08e-6, 8, 0, 0);
    hm__sync_drift_record(&st, &m, &p);
    HM_CHECK(fabs(st.resolution_max - 0.5e-6) < 1e-15,
             "an offset model below the floor may hide 0.5 ppm (%.3g)", st.resolution_max);
}

int main(void)
{
    expect(HM_DRIFT_ON, 3, 1e-9, 1e-6, HM_CLOCK_LINEAR, "on keeps even an insignificant slope");
    expect(HM_DRIFT_ON, 3, 0, INFINITY, HM_CLOCK_LINEAR, "on keeps whatever the fit says");
    expect(HM_DRIFT_OFF, 3, 1e-4, 1e-9, HM_CLOCK_OFFSET,
           "off gives the offset through the mean even for a clear slope");
    expect(HM_DRIFT_AUTO, 3, 3e-7, 1e-7, HM_CLOCK_LINEAR, "auto: |slope| = 3 sigma is kept");
    expect(HM_DRIFT_AUTO, 3, 2.9e-7, 1e-7, HM_CLOCK_OFFSET, "auto: 2.9 sigma is dropped");
    expect(HM_DRIFT_AUTO, 3, -5e-7, 1e-7, HM_CLOCK_LINEAR, "auto: a negative slope counts by |s|");
    expect(HM_DRIFT_AUTO, 2, 2.5e-7, 1e-7, HM_CLOCK_LINEAR, "auto: drift_sigmas 2 is honoured");
    expect(HM_DRIFT_AUTO, 3, 1e-4, 1e-8, HM_CLOCK_LINEAR, "auto: 100 ppm against 0.01 ppm");
    expect(HM_DRIFT_AUTO, 3, 1e-12, 0, HM_CLOCK_LINEAR, "auto: stderr 0 (exact fit), slope kept");
    expect(HM_DRIFT_AUTO, 3, 0, 0, HM_CLOCK_OFFSET, "auto: stderr 0 and slope 0, offset");
    expect(HM_DRIFT_AUTO, 3, 1e-4, INFINITY, HM_CLOCK_OFFSET,
           "auto: unknown stderr (< 3 points), offset");
    expect(HM_DRIFT_AUTO, 3, 1e-4, NAN, HM_CLOCK_OFFSET, "auto: NaN stderr, offset");
    expect(HM_DRIFT_AUTO, 3, NAN, 1e-7, HM_CLOCK_OFFSET, "auto: NaN slope, offset");
    expect(HM_DRIFT_ON, 3, NAN, NAN, HM_CLOCK_OFFSET, "on: a degenerate fit (NaN slope), offset");
    /* drift_sigmas 0 (the default): the two-sided 0.05 % Student quantile
     * with the error's degrees of freedom: 5.617411 for 8 (GSL's
     * gsl_cdf_tdist_Qinv(0.00025, 8)); with 1 degree of freedom the t is a
     * Cauchy variable, whose quantile has the closed form
     * cot(pi x 0.00025) = 1273.2393, a check of the quantile independent
     * of GSL. */
    expect(HM_DRIFT_AUTO, 0, 5.618e-7, 1e-7, HM_CLOCK_LINEAR, "auto, default: t 5.618 is kept");
    expect(HM_DRIFT_AUTO, 0, 5.617e-7, 1e-7, HM_CLOCK_OFFSET, "auto, default: t 5.617 is not");
    expect(HM_DRIFT_AUTO, 0, -1e-6, 1e-7, HM_CLOCK_LINEAR, "auto, default: t 10 (negative) kept");
    hm_sync_params_t p = params(HM_DRIFT_AUTO, 0);
    hm__sync_pair_model_t m = hm__sync_decide_drift(&p, 3e-7, 1e-7, 8, 0, 0);
    HM_CHECK(fabs(m.t - 3) < 1e-12 && fabs(m.t_critical - 5.617411) < 1e-5,
             "the model carries its statistic: t %g (3), critical %.6f (5.617411)", m.t,
             m.t_critical);
    m = hm__sync_decide_drift(&p, 3e-7, 1e-7, 1, 0, 0);
    HM_CHECK(fabs(m.t_critical - 1273.239) < 0.01,
             "1 degree of freedom: critical %.3f (cot(pi x 0.00025) = 1273.239)", m.t_critical);
    check_extension();
    check_floor();
    return hm_test_finish();
}
