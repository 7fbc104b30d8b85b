/* src/stats/wilcoxon.c — Wilcoxon rank-sum (Mann-Whitney) test, as R's
 * wilcox.test(x, y, alternative, correct = TRUE, exact = NULL). All counts
 * and moments are doubles: n m / 2 is not an integer for odd n m, and the
 * number of arrangements, C(98, 49) ~ 2.5e28, overflows any integer. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <harmonia/stats.h>

#include "common/error_set.h"

#define WX_EXACT_MAX 50 /* exact distribution when n < 50 and m < 50 */

typedef struct pooled {
    double value;
    int from_x;
} pooled_t;

static int cmp_pooled(const void *a, const void *b)
{
    double u = ((const pooled_t *)a)->value, v = ((const pooled_t *)b)->value;
    return (u > v) - (u < v);
}

/* Mid-ranks of the pooled sample: *rank_sum_x the sum of the ranks of x,
 * *ties sum(t^3 - t) over the groups of t equal values. */
static int rank_pooled(const double *x, size_t n, const double *y, size_t m, double *rank_sum_x,
                       double *ties)
{
    size_t total = n + m;
    pooled_t *all = malloc(total * sizeof *all);
    if (!all) return hm__error_nomem(__func__);
    for (size_t i = 0; i < n; i++) all[i] = (pooled_t){x[i], 1};
    for (size_t j = 0; j < m; j++) all[n + j] = (pooled_t){y[j], 0};
    qsort(all, total, sizeof *all, cmp_pooled);
    double sum = 0.0, tie_sum = 0.0;
    for (size_t lo = 0; lo < total;) {
        size_t hi = lo + 1; /* all[lo..hi-1] are equal */
        while (hi < total && all[hi].value == all[lo].value) hi++;
        double t = (double)(hi - lo);
        double mid_rank = ((double)lo + 1.0 + (double)hi) / 2.0; /* mean of lo+1..hi */
        for (size_t k = lo; k < hi; k++)
            if (all[k].from_x) sum += mid_rank;
        tie_sum += t * t * t - t;
        lo = hi;
    }
    free(all);
    *rank_sum_x = sum;
    *ties = tie_sum;
    return HM_OK;
}

/* Number of arrangements of n x's and m y's for each value u = 0..n m of W
 * (the number of pairs x > y) into count[0..n m]. Placing the pooled ranks
 * 1..n+m in order, an x placed at rank r as the (j+1)-th x has r - 1 - j y's
 * below it, which it adds to W: a knapsack over (j, W) with additions only. */
static int exact_counts(size_t n, size_t m, double *count)
{
    size_t wmax = n * m, stride = wmax + 1;
    double *ways = calloc((n + 1) * stride, sizeof *ways); /* ways[j * stride + w] */
    if (!ways) return hm__error_nomem(__func__);
    ways[0] = 1.0;
    for (size_t r = 1; r <= n + m; r++) {
        size_t jmax = r - 1 < n - 1 ? r - 1 : n - 1; /* x's already placed, at most n - 1 */
        size_t jmin = r - 1 > m ? r - 1 - m : 0;     /* at most m y's below rank r */
        for (size_t j = jmax + 1; j-- > jmin;) {
            size_t below = r - 1 - j; /* y's below rank r */
            const double *from = ways + j * stride;
            double *to = ways + (j + 1) * stride;
            for (size_t w = 0; w + below <= wmax; w++) to[w + below] += from[w];
        }
    }
    for (size_t w = 0; w <= wmax; w++) count[w] = ways[n * stride + w];
    free(ways);
    return HM_OK;
}

/* Exact p of the observed w (an integer without ties) for the alternative. */
static int exact_p(size_t n, size_t m, double w, hm_alternative_t alternative, double *p)
{
    size_t wmax = n * m;
    double *count = malloc((wmax + 1) * sizeof *count);
    if (!count) return hm__error_nomem(__func__);
    int rc = exact_counts(n, m, count);
    if (rc != HM_OK) {
        free(count);
        return rc;
    }
    size_t k = (size_t)w;
    double total = 0.0, below = 0.0, above = 0.0; /* P(W <= w), P(W >= w) unnormalized */
    for (size_t u = 0; u <= wmax; u++) {
        total += count[u];
        if (u <= k) below += count[u];
        if (u >= k) above += count[u];
    }
    free(count);
    double lower = below / total, upper = above / total;
    if (alternative == HM_ALT_LESS)
        *p = lower;
    else if (alternative == HM_ALT_GREATER)
        *p = upper;
    else
        *p = fmin(1.0, 2.0 * fmin(lower, upper));
    return HM_OK;
}

/* Normal approximation with the tie-corrected variance and the continuity
 * correction of 0.5 towards the mean (R's wilcox.test, correct = TRUE). */
static double normal_p(size_t n, size_t m, double w, double ties, hm_alternative_t alternative)
{
    double nd = (double)n, md = (double)m, total = nd + md;
    double d = w - nd * md / 2.0;
    double var = nd * md / 12.0 * ((total + 1.0) - ties / (total * (total - 1.0)));
    if (!(var > 0.0)) return 1.0; /* every value equal: W is its mean */
    double correction;
    if (alternative == HM_ALT_GREATER)
        correction = 0.5;
    else if (alternative == HM_ALT_LESS)
        correction = -0.5;
    else
        correction = d > 0 ? 0.5 : (d < 0 ? -0.5 : 0.0);
    double z = (d - correction) / sqrt(var);
    if (alternative == HM_ALT_LESS) return gsl_cdf_ugaussian_P(z);
    if (alternative == HM_ALT_GREATER) return gsl_cdf_ugaussian_Q(z);
    return fmin(1.0, 2.0 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z)));
}

int hm_stats_wilcoxon(const double *x, size_t n, const double *y, size_t m,
                      hm_alternative_t alternative, hm_wilcoxon_t *out)
{
    if (!out) return hm__error_null(__func__, "out");
    if (!x && n > 0) return hm__error_null(__func__, "x");
    if (!y && m > 0) return hm__error_null(__func__, "y");
    if (n == 0 || m == 0)
        return hm__error_set(HM_EINVAL, "%s: %zu and %zu values (both need some)", __func__, n, m);
    if (alternative != HM_ALT_TWO_SIDED && alternative != HM_ALT_LESS &&
        alternative != HM_ALT_GREATER)
        return hm__error_set(HM_EINVAL, "%s: unknown alternative %d", __func__, (int)alternative);
    double rank_sum = 0.0, ties = 0.0;
    int rc = rank_pooled(x, n, y, m, &rank_sum, &ties);
    if (rc != HM_OK) return rc;
    double nd = (double)n;
    out->w = rank_sum - nd * (nd + 1.0) / 2.0;
    out->exact = n < WX_EXACT_MAX && m < WX_EXACT_MAX && ties == 0.0;
    if (out->exact) return exact_p(n, m, out->w, alternative, &out->p);
    out->p = normal_p(n, m, out->w, ties, alternative);
    return HM_OK;
}
