/* tests/clock/test_merge.c — hm_lm_merge (Merge_LMs of Hunold & Carpen-Amarie 2016, Alg. 4)
 * equals the composition of the two models it merges.
 *
 * 1000 random pairs: slopes within +-1e-3 (ten times the drift of real
 * clocks), intercepts within +-10 s, read at t up to 1e5 s (a day). Both
 * sides are a handful of double operations on values <= ~1e5, so they
 * differ by rounding only, ~1e-11 s; 1e-9 s leaves a factor 100, while a
 * wrong merge (e.g. Eq. 1's s_bc * i_ab instead of s_ab * i_bc, or a sign)
 * is off by ~|s| |i| ~ 1e-2 s. */
#include <math.h>

#include <harmonia/clock.h>

#include <harmonia/rng.h>
#include "testutil.h"

static hm_lm_t random_lm(hm_rng_t *rng)
{
    return (hm_lm_t){hm_rng_symmetric(rng, 1e-3), hm_rng_symmetric(rng, 10.0)};
}

static void test_random_pairs(void)
{
    hm_rng_t rng;
    hm_rng_seed(&rng, 7, 0);
    double worst = 0, worst_t = 0;
    for (int i = 0; i < 1000; i++) {
        hm_lm_t ab = random_lm(&rng), bc = random_lm(&rng);
        hm_lm_t ac = hm_lm_merge(ab, bc);
        double t = hm_rng_uniform(&rng) * 1e5;
        double diff = fabs(hm_lm_apply(ac, t) - hm_lm_apply(ab, hm_lm_apply(bc, t)));
        if (diff > worst) worst = diff, worst_t = t;
    }
    HM_CHECK(worst <= 1e-9,
             "merge == composition over 1000 random pairs: worst |diff| %.3g s (at t = %.0f s)",
             worst, worst_t);
}

/* Merging is associative up to rounding, so a chain of three merges in
 * either order reads like the three models applied in turn. */
static void test_three(void)
{
    hm_rng_t rng;
    hm_rng_seed(&rng, 7, 1);
    hm_lm_t a = random_lm(&rng), b = random_lm(&rng), c = random_lm(&rng);
    hm_lm_t left = hm_lm_merge(hm_lm_merge(a, b), c), right = hm_lm_merge(a, hm_lm_merge(b, c));
    double t = 54321.0;
    double want = hm_lm_apply(a, hm_lm_apply(b, hm_lm_apply(c, t)));
    HM_CHECK(fabs(hm_lm_apply(left, t) - want) <= 1e-9 &&
                 fabs(hm_lm_apply(right, t) - want) <= 1e-9,
             "three models merged either way: errors %.3g s and %.3g s",
             hm_lm_apply(left, t) - want, hm_lm_apply(right, t) - want);
}

static void test_identity(void)
{
    hm_lm_t m = {3e-5, -0.25}, zero = {0, 0};
    hm_lm_t l = hm_lm_merge(zero, m), r = hm_lm_merge(m, zero);
    HM_CHECK(l.slope == m.slope && l.intercept == m.intercept && r.slope == m.slope &&
                 r.intercept == m.intercept,
             "merging with {0, 0} is exact: {%g, %g} and {%g, %g}", l.slope, l.intercept, r.slope,
             r.intercept);
    /* The header's formula, checked on numbers one can follow by hand. */
    hm_lm_t x = hm_lm_merge((hm_lm_t){0.5, 2}, (hm_lm_t){0.25, 4});
    HM_CHECK(x.slope == 0.625 && x.intercept == 4.0,
             "merge({0.5, 2}, {0.25, 4}) = {0.625, 4}: got {%g, %g}", x.slope, x.intercept);
}

int main(void)
{
    test_random_pairs();
    test_three();
    test_identity();
    return hm_test_finish();
}
