/* tests/stats/test_wilcoxon.c — hm_stats_wilcoxon against SciPy 1.10.1's
 * scipy.stats.mannwhitneyu (whose U for x is R's W), exact and asymptotic,
 * for the three alternatives, with unequal sizes and ties.
 *
 * References: /usr/bin/python3 (SciPy 1.10.1), this script:
 *
 *   import scipy, scipy.stats as st
 *   M = (1 << 64) - 1
 *   def lcg(seed):
 *       s = seed
 *       while True:
 *           s = (6364136223846793005 * s + 1442695040888963407) & M
 *           yield s >> 12  # 52 random bits
 *   def ints(seed, k, mod):   # values with ties: integers 0..mod-1
 *       g = lcg(seed); return [float(next(g) % mod) for _ in range(k)]
 *   def reals(seed, k):       # no ties: (bits + 0.5) / 2^52
 *       g = lcg(seed); return [(next(g) + 0.5) / 4503599627370496.0 for _ in range(k)]
 *   cases = {
 *       "exact_5_8":   ([1.83, 0.50, 1.62, 2.48, 1.68],
 *                       [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.07, 3.14]),
 *       "exact_20_35": ([v + 0.1 for v in reals(1, 20)], reals(2, 35)),
 *       "exact_49_49": (reals(3, 49), [v + 0.05 for v in reals(4, 49)]),
 *       "ties_30_45":  ([v + 1.0 for v in ints(5, 30, 10)], ints(6, 45, 12)),
 *       "normal_60_60": (reals(7, 60), [v + 0.1 for v in reals(8, 60)]),
 *   }
 *   print("scipy", scipy.__version__)
 *   for name, (x, y) in cases.items():
 *       ties = len(set(x + y)) < len(x) + len(y)
 *       method = "exact" if (len(x) < 50 and len(y) < 50 and not ties) else "asymptotic"
 *       for alt in ("two-sided", "less", "greater"):
 *           r = st.mannwhitneyu(x, y, alternative=alt, use_continuity=True, method=method)
 *           print("%s %s %s U=%.17g p=%.17g" % (name, method, alt, r.statistic, r.pvalue))
 *
 * Tolerances: W is a sum of (mid-)ranks, exact in doubles, so 1e-9 relative
 * is generous; p-values 1e-6 relative (the requirement). The exact p is a
 * ratio of sums of counts (computed by different recurrences here and in
 * SciPy) and the normal p is one GSL/SciPy normal tail, so both agree far
 * better than that; the measured differences are printed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <harmonia/stats.h>

#include "testutil.h"

typedef struct ref {
    const char *name;
    double w;
    double p[3]; /* two-sided, less, greater */
    int exact;
} ref_t;

static const ref_t refs[] = {
    {"exact_5_8", 25, {0.52369852369852365, 0.78243978243978241, 0.26184926184926183}, 1},
    {"exact_20_35", 450, {0.081674165095913756, 0.96070203715951286, 0.040837082547956878}, 1},
    {"exact_49_49", 1133, {0.63548919315550778, 0.31774459657775389, 0.68477546234337361}, 1},
    {"ties_30_45", 689, {0.88335632727543467, 0.56260756145341451, 0.44167816363771734}, 0},
    {"normal_60_60", 1189, {0.0013539414430926279, 0.00067697072154631395, 0.99933526835265529}, 0},
};

static uint64_t lcg_state;

static uint64_t lcg_next(void)
{
    lcg_state = 6364136223846793005u * lcg_state + 1442695040888963407u;
    return lcg_state >> 12;
}

static void ints(uint64_t seed, size_t k, unsigned mod, double shift, double *out)
{
    lcg_state = seed;
    for (size_t i = 0; i < k; i++) out[i] = (double)(lcg_next() % mod) + shift;
}

static void reals(uint64_t seed, size_t k, double shift, double *out)
{
    lcg_state = seed;
    for (size_t i = 0; i < k; i++) out[i] = ((double)lcg_next() + 0.5) / 4503599627370496.0 + shift;
}

static double rel_diff(double got, double want)
{
    return fabs(got - want) / fabs(want);
}

static void check_case(const ref_t *ref, const double *x, size_t n, const double *y, size_t m)
{
    static const char *alt_name[] = {"two-sided", "less", "greater"};
    const hm_alternative_t alts[] = {HM_ALT_TWO_SIDED, HM_ALT_LESS, HM_ALT_GREATER};
    for (int a = 0; a < 3; a++) {
        hm_wilcoxon_t r;
        int rc = hm_stats_wilcoxon(x, n, y, m, alts[a], &r);
        HM_CHECK(rc == HM_OK, "%s %s: status %d", ref->name, alt_name[a], rc);
        if (rc != HM_OK) continue;
        HM_CHECK(r.exact == ref->exact, "%s %s: exact = %d", ref->name, alt_name[a], r.exact);
        HM_CHECK(rel_diff(r.w, ref->w) <= 1e-9, "%s %s: W %.17g, SciPy %.17g", ref->name,
                 alt_name[a], r.w, ref->w);
        double d = rel_diff(r.p, ref->p[a]);
        HM_CHECK(d <= 1e-6, "%s %s: p %.17g, SciPy %.17g (rel. diff %.2e)", ref->name, alt_name[a],
                 r.p, ref->p[a], d);
    }
}

int main(void)
{
    double x[60], y[60];
    const double x58[] = {1.83, 0.50, 1.62, 2.48, 1.68};
    const double y58[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.07, 3.14};
    check_case(&refs[0], x58, 5, y58, 8);
    reals(1, 20, 0.1, x);
    reals(2, 35, 0.0, y);
    check_case(&refs[1], x, 20, y, 35);
    reals(3, 49, 0.0, x);
    reals(4, 49, 0.05, y);
    check_case(&refs[2], x, 49, y, 49);
    ints(5, 30, 10, 1.0, x);
    ints(6, 45, 12, 0.0, y);
    check_case(&refs[3], x, 30, y, 45);
    reals(7, 60, 0.0, x);
    reals(8, 60, 0.1, y);
    check_case(&refs[4], x, 60, y, 60);

    /* Identical samples: W = n m / 2 exactly, the two-sided p is 1. */
    hm_wilcoxon_t r;
    int rc;
    reals(9, 12, 0.0, x);
    rc = hm_stats_wilcoxon(x, 12, x, 12, HM_ALT_TWO_SIDED, &r);
    HM_CHECK(rc == HM_OK && r.w == 72.0 && r.p == 1.0, "identical samples: W %.17g p %.17g", r.w,
             r.p);
    const double same[] = {3.0, 3.0, 3.0}; /* all tied: zero variance, p 1 */
    rc = hm_stats_wilcoxon(same, 3, same, 2, HM_ALT_GREATER, &r);
    HM_CHECK(rc == HM_OK && r.p == 1.0, "constant samples: p %.17g", r.p);
    /* Extremes of the exact distribution, n = 3, m = 4: P(W = 0) = 1 / C(7, 3). */
    const double lo[] = {1, 2, 3}, hi[] = {4, 5, 6, 7};
    rc = hm_stats_wilcoxon(lo, 3, hi, 4, HM_ALT_LESS, &r);
    HM_CHECK(rc == HM_OK && r.w == 0.0 && fabs(r.p - 1.0 / 35.0) <= 1e-15,
             "W = 0: P(W <= 0) %.17g = 1/35", r.p);
    rc = hm_stats_wilcoxon(hi, 4, lo, 3, HM_ALT_TWO_SIDED, &r);
    HM_CHECK(rc == HM_OK && r.w == 12.0 && fabs(r.p - 2.0 / 35.0) <= 1e-15,
             "W = n m: two-sided p %.17g = 2/35", r.p);
    HM_CHECK(hm_stats_wilcoxon(x, 0, y, 3, HM_ALT_TWO_SIDED, &r) == HM_EINVAL, "n = 0: HM_EINVAL");
    HM_CHECK(hm_stats_wilcoxon(x, 3, y, 0, HM_ALT_TWO_SIDED, &r) == HM_EINVAL, "m = 0: HM_EINVAL");
    return hm_test_finish();
}
