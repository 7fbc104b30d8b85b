/* tests/sync/learn/test_drift_test.c — the drift test of hm__sync_fit_pair
 * (drift auto) on fit points whose truth is known: the offsets of a clock
 * drifting by d (0, 1e-8, 1e-7, 1e-6, 1e-4) plus the noise of SKaMPI offsets
 * between two ranks of one machine.
 *
 * The noise is what 550 recorded 1000 x 100 fits between two ranks reading
 * one CLOCK_MONOTONIC looked like (2 cores, idle to loaded; learnings of
 * 42 ms to 4 s): white noise of sd 5 ns (their residual sd was 4-8 ns) plus
 * a random walk whose end-to-end sd is 7 ns, the wander of the best round
 * trip's asymmetry that trends by up to ~30 ns across a learning. With it
 * the former test (3 x max(least squares, 20 batch means, sd / span)) kept
 * 3 of 200 slopes of clocks without drift at each span (of the recorded
 * fits: 28 of 550), 51-799 ns off after 2 s, and failed 6 of the checks
 * below. The fits span
 * 45 ms (an idle learning here), 150 ms and 1 s (a loaded one), 1000
 * points, 200 fits each, seeded: the outcome is the same on every run.
 *
 * Asserted per drift, with the error of the chosen model 2 s after the
 * last fit point against the truth:
 *  - 0: no slope kept (the t statistic stayed below 0.8 x the critical
 *    value in this noise; the recorded fits below 1.01 x);
 *  - 1e-8: the drift moves the offsets by 0.5-10 ns over the learning,
 *    below the noise: the decision may go either way (1 of 600 kept), and
 *    the error after 2 s is <= 100 ns either way: an offset model through
 *    the fit's middle misses up to 2.5 s x 1e-8 = 25 ns of drift, and a
 *    slope the walk pushed over the test is off by ~3e-8 (75 ns at 2.5 s);
 *  - 1e-7: below the floor (0.5 ppm, sync.h), so kept only at 3 x the
 *    critical value: over 1 s most fits resolve it that well (173 of 200
 *    with these seeds; all 200 passed the test's level alone), none over
 *    45 or 150 ms; error <= 0.3 us either way (an offset model is 0.2 us
 *    off after 2 s);
 *  - 1e-6: kept in every fit of 150 ms and 1 s, and in >= 190 of 200 of
 *    45 ms, where the drift over the learning (45 ns) is ~1.2 x the test's
 *    5.6 sd: the random walk is rougher than the recorded noise, over which
 *    every one of the 550 fits kept a 1e-6 slope;
 *  - 1e-4: kept, slope within 6e-7 of the truth: the walk alone tilts a
 *    45 ms fit by 7 ns / 45 ms = 0.16 ppm (one sd), and 6e-7 is still 170 x
 *    below the drift. */
#include <math.h>

#include <harmonia/rng.h>

#include "sync/sync_impl.h"
#include "testutil.h"

enum { N = 1000, FITS = 200 };

typedef struct outcome {
    int kept;
    double max_err_s;     /* |error| of the chosen model 2 s after the last point */
    double max_slope_err; /* |slope - d| of the kept slopes */
} outcome_t;

/* One fit: timestamps from 100 s on (as a timer with a far origin), the
 * offsets of a clock drifting by d, with the noise of the header. */
static void fit_one(hm_rng_t *rng, double span_s, double d, outcome_t *o)
{
    static double x[N], y[N];
    const double white_s = 5e-9, walk_s = 7e-9;
    double walk = 0;
    for (int i = 0; i < N; i++) {
        x[i] = 100 + span_s * i / (N - 1);
        walk += walk_s * hm_rng_gaussian(rng) / sqrt(N);
        y[i] = d * x[i] + walk + white_s * hm_rng_gaussian(rng);
    }
    hm_sync_params_t p;
    hm_sync_params_default(&p);
    hm__sync_pair_model_t m = hm__sync_fit_pair(&p, x, y, N);
    double t = x[N - 1] + 2;
    double err = m.lm.slope * t + m.lm.intercept - d * t; /* modelled offset - true */
    if (m.kind == HM_CLOCK_LINEAR) {
        o->kept++;
        o->max_slope_err = fmax(o->max_slope_err, fabs(m.lm.slope - d));
    }
    o->max_err_s = fmax(o->max_err_s, fabs(err));
}

static outcome_t fits(double span_s, double d, uint64_t seed)
{
    outcome_t o = {0, 0, 0};
    hm_rng_t rng;
    hm_rng_seed(&rng, seed, 0x6472);
    for (int k = 0; k < FITS; k++) fit_one(&rng, span_s, k % 2 ? d : -d, &o);
    return o;
}

int main(void)
{
    const double spans[] = {0.045, 0.15, 1.0};
    for (int s = 0; s < 3; s++) {
        double span = spans[s];
        outcome_t o0 = fits(span, 0, 1), o8 = fits(span, 1e-8, 2), o7 = fits(span, 1e-7, 3),
                  o6 = fits(span, 1e-6, 4), o4 = fits(span, 1e-4, 5);
        hm_test_note("span %4.0f ms: slopes kept 0: %d, 1e-8: %d, 1e-7: %d, 1e-6: %d, 1e-4: %d "
                     "of %d; worst error after 2 s %.0f / %.0f / %.0f / %.0f / %.0f ns",
                     span * 1e3, o0.kept, o8.kept, o7.kept, o6.kept, o4.kept, FITS,
                     o0.max_err_s * 1e9, o8.max_err_s * 1e9, o7.max_err_s * 1e9, o6.max_err_s * 1e9,
                     o4.max_err_s * 1e9);
        HM_CHECK(o0.kept == 0 && o0.max_err_s <= 50e-9,
                 "no drift, %.0f ms: %d of %d slopes kept (want 0), error after 2 s %.0f ns",
                 span * 1e3, o0.kept, FITS, o0.max_err_s * 1e9);
        HM_CHECK(o8.max_err_s <= 100e-9, "1e-8, %.0f ms: error after 2 s %.0f ns <= 100 ns",
                 span * 1e3, o8.max_err_s * 1e9);
        HM_CHECK(o7.max_err_s <= 0.3e-6 && (span < 1 || o7.kept >= FITS / 2),
                 "1e-7, %.0f ms: error after 2 s %.0f ns <= 300 ns, %d kept", span * 1e3,
                 o7.max_err_s * 1e9, o7.kept);
        HM_CHECK(o6.kept >= (span < 0.1 ? 190 : FITS), "1e-6, %.0f ms: %d of %d slopes kept",
                 span * 1e3, o6.kept, FITS);
        HM_CHECK(o4.kept == FITS && o4.max_slope_err <= 6e-7,
                 "1e-4, %.0f ms: %d of %d kept, slope error <= %.2g", span * 1e3, o4.kept, FITS,
                 o4.max_slope_err);
    }
    return hm_test_finish();
}
