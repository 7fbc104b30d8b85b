/* tests/analysis/test_scaling.c — hm_analysis_fit_scaling and
 * hm_analysis_scaling_crossover against answers known in closed form:
 * points on an exact curve give back its coefficients and r2 = 1, the
 * other shape fits them worse, and the crossover of 10 + 5 log2 p with p
 * is the fixed point of p = 10 + 5 log2 p, found here by iteration. */
#include <math.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "testutil.h"

enum { N = 9 };
static const double P[N] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

static void exact_log(void)
{
    double y[N];
    hm_scaling_fit_t lg = {0}, lin = {0};
    for (int i = 0; i < N; i++) y[i] = 3 + 2 * log2(P[i]);
    int rc = hm_analysis_fit_scaling(P, y, N, HM_SCALING_LOG, &lg);
    HM_CHECK(rc == HM_OK && fabs(lg.a - 3) < 1e-9 && fabs(lg.b - 2) < 1e-9 &&
                 fabs(lg.r2 - 1) < 1e-12,
             "log points: a %g b %g r2 %.15f", lg.a, lg.b, lg.r2);
    /* A line through log-spaced points of a logarithm misses most of them:
     * its r2 is well below 1 (0.68 here). */
    rc = hm_analysis_fit_scaling(P, y, N, HM_SCALING_LINEAR, &lin);
    HM_CHECK(rc == HM_OK && lin.r2 < 0.9, "the same points against p: r2 %g < 0.9", lin.r2);
    HM_CHECK(fabs(hm_analysis_scaling_at(&lg, 1024) - 23) < 1e-9, "fitted value at 1024: 23");
}

static void exact_linear_with_noise(void)
{
    double y[N], z[N];
    hm_scaling_fit_t lg = {0}, lin = {0};
    for (int i = 0; i < N; i++) y[i] = 5 + 0.5 * P[i];
    int rc = hm_analysis_fit_scaling(P, y, N, HM_SCALING_LINEAR, &lin);
    HM_CHECK(rc == HM_OK && fabs(lin.a - 5) < 1e-6 && fabs(lin.b - 0.5) < 1e-12 &&
                 fabs(lin.r2 - 1) < 1e-12,
             "linear points: a %g b %g r2 %.15f", lin.a, lin.b, lin.r2);
    rc = hm_analysis_fit_scaling(P, y, N, HM_SCALING_LOG, &lg);
    HM_CHECK(rc == HM_OK && lg.r2 < lin.r2, "the same points against log2 p: r2 %g < %g", lg.r2,
             lin.r2);
    /* +-1 % alternating: the right shape still wins by far. */
    for (int i = 0; i < N; i++) z[i] = (3 + 2 * log2(P[i])) * (i % 2 ? 1.01 : 0.99);
    rc = hm_analysis_fit_scaling(P, z, N, HM_SCALING_LOG, &lg);
    int rc2 = hm_analysis_fit_scaling(P, z, N, HM_SCALING_LINEAR, &lin);
    HM_CHECK(rc == HM_OK && rc2 == HM_OK && lg.r2 > 0.99 && lin.r2 < 0.9,
             "noisy log points: log r2 %g > 0.99, linear r2 %g < 0.9", lg.r2, lin.r2);
}

static void crossover(void)
{
    hm_scaling_fit_t tree = {HM_SCALING_LOG, 10, 5, 1}, line = {HM_SCALING_LINEAR, 0, 1, 1};
    double fixed = 100, p = 0;
    for (int i = 0; i < 200; i++) fixed = 10 + 5 * log2(fixed); /* contraction near 36 */
    int rc = hm_analysis_scaling_crossover(&tree, &line, 1, 4096, &p);
    HM_CHECK(rc == HM_OK && fabs(p - fixed) < 1e-5 * fixed,
             "p = 10 + 5 log2 p at %.6f (iteration: %.6f)", p, fixed);
    hm_scaling_fit_t slow = {HM_SCALING_LINEAR, 0, 0.001, 1};
    HM_CHECK(hm_analysis_scaling_crossover(&tree, &slow, 1, 4096, &p) == HM_ENOENT &&
                 strstr(hm_last_error(), "stays below"),
             "0.001 p never overtakes it below 4096: %s", hm_last_error());
    HM_CHECK(hm_analysis_scaling_crossover(&tree, &line, 64, 4096, &p) == HM_ENOENT &&
                 strstr(hm_last_error(), "above the first from p = 64"),
             "the line is above the tree from p = 64 on: %s", hm_last_error());
}

static void bad_input(void)
{
    double p2[N] = {16, 16, 16}, y[N] = {1, 2, 3}, bad[N] = {16, 0, 64};
    hm_scaling_fit_t f;
    HM_CHECK(hm_analysis_fit_scaling(P, y, 2, HM_SCALING_LOG, &f) == HM_EINVAL &&
                 strstr(hm_last_error(), "at least 3 points"),
             "2 points refused: %s", hm_last_error());
    HM_CHECK(hm_analysis_fit_scaling(bad, y, 3, HM_SCALING_LOG, &f) == HM_EINVAL &&
                 strstr(hm_last_error(), "point 1 (p = 0"),
             "p = 0 refused, named: %s", hm_last_error());
    HM_CHECK(hm_analysis_fit_scaling(p2, y, 3, HM_SCALING_LINEAR, &f) == HM_EINVAL &&
                 strstr(hm_last_error(), "every point is at p = 16"),
             "one p only refused: %s", hm_last_error());
}

int main(void)
{
    exact_log();
    exact_linear_with_noise();
    crossover();
    bad_input();
    return hm_test_finish();
}
