/* tests/analysis/test_compare.c — the comparison of two sides (`harmonia
 * compare`, Hunold & Carpen-Amarie 2016, Sec. 6.2): the Wilcoxon rank-sum
 * test per group, its verdict at 5%, the medians' ratio and each side's
 * reproducibility, and the checks that refuse sides that cannot be paired.
 *
 * References: the exact null distribution of W by enumerating every choice
 * of A's ranks (what R's wilcox.test does without ties, n, m < 50):
 *
 *   from itertools import combinations
 *   def exact(x, y):
 *       n, m = len(x), len(y); r = {v: i + 1 for i, v in enumerate(sorted(x + y))}
 *       W = sum(r[v] for v in x) - n * (n + 1) / 2
 *       ws = [sum(c) - n * (n + 1) / 2 for c in combinations(range(1, n + m + 1), n)]
 *       le = sum(w <= W for w in ws) / len(ws); ge = sum(w >= W for w in ws) / len(ws)
 *       return W, min(1, 2 * min(le, ge)), le, ge   # two-sided, less, greater
 *   exact([1, 1.1, 1.2, 1.3, 1.4], [2, 2.1, 2.2, 2.3, 2.4])
 *       # W 0, p 2/252 = 0.0079365, 1/252, 1
 *   exact([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])
 *       # W 10, p 0.69047619047619, 0.34523809523810, 0.72619047619048
 */
#include <math.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "testutil.h"

/* One group (bcast 8 B, 2 processes) per side with the values x (ms). */
static void side(hm_analysis_side_t *s, const char *path, const char *sync, const double *x,
                 size_t n)
{
    *s = (hm_analysis_side_t){.path = path};
    for (size_t i = 0; i < n; i++)
        hm_analysis_groups_add(&s->groups, "bcast", 8, 2, sync, x[i] * 1e-3);
}

static void check_shift(void)
{
    const double xa[] = {1.4, 1.0, 1.2, 1.1, 1.3}, xb[] = {2.0, 2.1, 2.2, 2.3, 2.4};
    hm_analysis_side_t a, b;
    hm_analysis_comparison_t c;
    side(&a, "a.csv", "barrier", xa, 5);
    side(&b, "b.csv", "harmonize", xb, 5);
    int rc = hm_analysis_side_check(&a);
    if (rc == HM_OK) rc = hm_analysis_side_check(&b);
    if (rc == HM_OK) rc = hm_analysis_compare_check(&a, &b);
    if (rc == HM_OK) rc = hm_analysis_compare(&a, &b, 0, HM_ALT_TWO_SIDED, &c);
    HM_CHECK(rc == HM_OK && c.test.w == 0 && c.test.exact &&
                 hm_test_near(c.test.p, 2.0 / 252, 1e-12),
             "B all above A: W 0, exact two-sided p 2/252 (got %g, %.15g)", c.test.w, c.test.p);
    HM_CHECK(hm_test_near(c.median_a_s, 1.2e-3, 1e-15) &&
                 hm_test_near(c.median_b_s, 2.2e-3, 1e-15) &&
                 hm_test_near(c.ratio, 2.2 / 1.2, 1e-12),
             "medians 1.2 and 2.2 ms, B/A %.6f", c.ratio);
    HM_CHECK(hm_test_near(c.repro_a, 1.4, 1e-12) && hm_test_near(c.repro_b, 1.2, 1e-12),
             "repro: A 1.4 / 1.0, B 2.4 / 2.0 (got %g, %g)", c.repro_a, c.repro_b);
    HM_CHECK(c.verdict == HM_VERDICT_B_SLOWER, "two-sided, B's median above: B slower");
    rc = hm_analysis_compare(&a, &b, 0, HM_ALT_LESS, &c);
    HM_CHECK(rc == HM_OK && hm_test_near(c.test.p, 1.0 / 252, 1e-12) &&
                 c.verdict == HM_VERDICT_A_SMALLER,
             "less: p 1/252, A smaller (got %.15g)", c.test.p);
    rc = hm_analysis_compare(&a, &b, 0, HM_ALT_GREATER, &c);
    HM_CHECK(rc == HM_OK && hm_test_near(c.test.p, 1.0, 1e-12) &&
                 c.verdict == HM_VERDICT_NO_EVIDENCE,
             "greater: p 1, no evidence (got %.15g)", c.test.p);
    rc = hm_analysis_compare(&b, &a, 0, HM_ALT_TWO_SIDED, &c);
    HM_CHECK(rc == HM_OK && c.verdict == HM_VERDICT_B_FASTER && c.test.w == 25,
             "sides swapped: W 25, B faster");
    HM_CHECK(hm_analysis_compare(&a, &b, 1, HM_ALT_TWO_SIDED, &c) == HM_EINVAL,
             "no group 1: HM_EINVAL");
    hm_analysis_groups_free(&a.groups);
    hm_analysis_groups_free(&b.groups);
}

/* Interleaved values: no evidence either way; a raw side has no
 * reproducibility (its samples share one mpirun). */
static void check_interleaved(void)
{
    const double xa[] = {1, 3, 5, 7, 9}, xb[] = {2, 4, 6, 8, 10};
    hm_analysis_side_t a, b;
    hm_analysis_comparison_t c;
    side(&a, "a.csv", "barrier", xa, 5);
    side(&b, "b.csv", "barrier", xb, 5);
    b.raw = 1;
    int rc = hm_analysis_compare(&a, &b, 0, HM_ALT_TWO_SIDED, &c);
    HM_CHECK(rc == HM_OK && c.test.w == 10 && hm_test_near(c.test.p, 0.69047619047619047, 1e-12) &&
                 c.verdict == HM_VERDICT_NO_EVIDENCE,
             "interleaved: W 10, p 0.690476, no evidence (got %g, %.15g)", c.test.w, c.test.p);
    rc = hm_analysis_compare(&a, &b, 0, HM_ALT_LESS, &c);
    HM_CHECK(rc == HM_OK && hm_test_near(c.test.p, 0.34523809523809523, 1e-12),
             "less: p 0.345238 (got %.15g)", c.test.p);
    HM_CHECK(hm_test_near(c.repro_a, 9, 1e-12) && isnan(c.repro_b),
             "repro: A 9 / 1, B raw: NaN (got %g, %g)", c.repro_a, c.repro_b);
    hm_analysis_groups_free(&a.groups);
    hm_analysis_groups_free(&b.groups);
}

static void check_refused(void)
{
    const double x[] = {1, 2};
    hm_analysis_side_t a, b;
    side(&a, "two.csv", "barrier", x, 2);
    hm_analysis_groups_add(&a.groups, "bcast", 8, 2, "harmonize", 1e-3);
    HM_CHECK(hm_analysis_side_check(&a) == HM_EINVAL &&
                 !strcmp(hm_last_error(), "two.csv holds bcast 8 B at 2 processes under more than "
                                          "one sync (barrier, harmonize); give compare one sync "
                                          "per side"),
             "two syncs under one key refused (%s)", hm_last_error());
    hm_analysis_groups_free(&a.groups);
    side(&a, "a.csv", "barrier", x, 2);
    side(&b, "b.csv", "barrier", x, 2);
    hm_analysis_groups_add(&b.groups, "alltoall", 64, 2, "barrier", 1e-3);
    for (int p = 3; p <= 7; p++) hm_analysis_groups_add(&a.groups, "gather", 8, p, "barrier", 1e-3);
    hm_analysis_side_check(&a);
    hm_analysis_side_check(&b);
    HM_CHECK(hm_analysis_compare_check(&a, &b) == HM_EINVAL &&
                 !strcmp(hm_last_error(),
                         "A and B hold different groups (op, size, processes): only in A (a.csv): "
                         "gather 8 B at 3 processes, gather 8 B at 4 processes, gather 8 B at 5 "
                         "processes, gather 8 B at 6 processes and 1 more; only in B (b.csv): "
                         "alltoall 64 B at 2 processes"),
             "different groups refused, 4 named per side (%s)", hm_last_error());
    hm_analysis_groups_free(&a.groups);
    hm_analysis_groups_free(&b.groups);
}

int main(void)
{
    check_shift();
    check_interleaved();
    check_refused();
    return hm_test_finish();
}
