/* tests/stats/test_tukey.c — Tukey's filter against NumPy.
 *
 * References: /usr/bin/python3 (NumPy 1.24.2), for each data set x below
 *     q1, q3 = np.percentile(x, [25, 75], method="linear")   # type 7
 *     lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
 *     kept = x[(x >= lo) & (x <= hi)]
 * printed with "%.17g":
 *     both      lo 9.3500000000000014  hi 10.75  (drops 25.0 and 0.5)
 *     none      lo -2.375              hi 8.625  (keeps all 7)
 *     ties0     lo 5                   hi 5      (IQR 0: drops 9.0 and 1.0)
 *     ties      lo 0.5                 hi 4.5    (drops 100.0)
 *     edge_in   lo -4                  hi 12     (-4 and 12 on the fences: kept)
 *     edge_out  lo -4                  hi 12     (-4.5 and 12.5 dropped)
 *     n1        lo 3.5                 hi 3.5
 *     n2        lo -0.5                hi 5.5
 * Tolerance 1e-9 relative on the fences: the same interpolation from the same
 * order statistics, so only rounding may differ. Kept values must be equal. */
#include <math.h>
#include <stddef.h>

#include <harmonia/stats.h>

#include "testutil.h"

#define LEN(a) (sizeof(a) / sizeof *(a))

static int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void check(const char *name, const double *x, size_t n, double want_lo, double want_hi,
                  const double *want, size_t want_n)
{
    double out[32], lo, hi;
    size_t kept = 99;
    HM_CHECK(hm_stats_tukey(x, n, out, &kept, &lo, &hi) == HM_OK, "%s: HM_OK", name);
    HM_CHECK(near_rel(lo, want_lo), "%s: lo %.17g, NumPy %.17g (diff %.3g)", name, lo, want_lo,
             lo - want_lo);
    HM_CHECK(near_rel(hi, want_hi), "%s: hi %.17g, NumPy %.17g (diff %.3g)", name, hi, want_hi,
             hi - want_hi);
    HM_CHECK(kept == want_n, "%s: kept %zu, NumPy %zu", name, kept, want_n);
    int same = kept == want_n;
    for (size_t i = 0; same && i < kept; i++) same = out[i] == want[i];
    HM_CHECK(same, "%s: kept values in input order", name);
}

int main(void)
{
    const double both[] = {10.2, 9.8, 10.0, 10.1, 9.9, 25.0, 10.3, 0.5, 10.0, 9.7, 10.4, 10.05};
    const double both_k[] = {10.2, 9.8, 10.0, 10.1, 9.9, 10.3, 10.0, 9.7, 10.4, 10.05};
    check("both", both, LEN(both), 9.3500000000000014, 10.75, both_k, LEN(both_k));

    const double none[] = {3.0, 1.0, 4.0, 1.5, 5.0, 2.0, 6.0};
    check("none", none, LEN(none), -2.375, 8.625, none, LEN(none));

    const double ties0[] = {5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 9.0, 5.0, 5.0, 1.0};
    const double ties0_k[] = {5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0};
    check("ties0", ties0, LEN(ties0), 5.0, 5.0, ties0_k, LEN(ties0_k));

    const double ties[] = {3.0, 2.0, 100.0, 2.0, 1.0, 3.0, 2.0, 4.0, 3.0};
    const double ties_k[] = {3.0, 2.0, 2.0, 1.0, 3.0, 2.0, 4.0, 3.0};
    check("ties", ties, LEN(ties), 0.5, 4.5, ties_k, LEN(ties_k));

    const double edge_in[] = {12.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -4.0};
    check("edge_in", edge_in, LEN(edge_in), -4.0, 12.0, edge_in, LEN(edge_in));

    const double edge_out[] = {12.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -4.5};
    const double edge_out_k[] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0};
    check("edge_out", edge_out, LEN(edge_out), -4.0, 12.0, edge_out_k, LEN(edge_out_k));

    const double n1[] = {3.5};
    check("n1", n1, 1, 3.5, 3.5, n1, 1);
    const double n2[] = {1.0, 4.0};
    check("n2", n2, 2, -0.5, 5.5, n2, 2);

    /* In place (out == x), and NULL fences. */
    double inplace[LEN(both)];
    for (size_t i = 0; i < LEN(both); i++) inplace[i] = both[i];
    size_t kept = 0;
    HM_CHECK(hm_stats_tukey(inplace, LEN(inplace), inplace, &kept, NULL, NULL) == HM_OK,
             "in place, NULL fences: HM_OK");
    int same = kept == LEN(both_k);
    for (size_t i = 0; same && i < kept; i++) same = inplace[i] == both_k[i];
    HM_CHECK(same, "in place: kept %zu values in input order", kept);

    /* n = 0 keeps nothing; the fences are NaN. */
    double lo = 0.0, hi = 0.0;
    kept = 99;
    HM_CHECK(hm_stats_tukey(NULL, 0, NULL, &kept, &lo, &hi) == HM_OK && kept == 0,
             "n = 0: kept %zu", kept);
    HM_CHECK(isnan(lo) && isnan(hi), "n = 0: fences NaN");
    return hm_test_finish();
}
