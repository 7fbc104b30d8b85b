/* src/stats/summary.c — order statistics and moments. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "common/error_set.h"

#include "stats/stats_impl.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void hm_stats_sort(double *x, size_t n)
{
    if (!x && n > 0) {
        hm__error_null(__func__, "x");
        return;
    }
    qsort(x, n, sizeof *x, cmp_double);
}

/* Hyndman and Fan's type 7: the q-quantile of n values lies at h = (n -
 * 1) q, between the order statistics lo = floor(h) (at most n - 1) and lo
 * + 1. Returns lo; *h the position. */
static size_t quantile_position(size_t n, double q, double *h)
{
    *h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(*h);
    return lo < n - 1 ? lo : n - 1;
}

double hm_stats_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0) return NAN;
    if (!sorted) {
        hm__error_null(__func__, "sorted");
        return NAN;
    }
    double h;
    size_t lo = quantile_position(n, q, &h);
    if (lo == n - 1) return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

static void swap(double *x, size_t a, size_t b)
{
    double t = x[a];
    x[a] = x[b], x[b] = t;
}

/* x[k] the k-th smallest, none larger before it nor smaller after it
 * (Wirth's FIND: Hoare's partition around the current x[k]). */
static void select_kth(double *x, size_t n, size_t k_)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, k = (ptrdiff_t)k_;
    while (lo < hi) {
        double pivot = x[k];
        ptrdiff_t i = lo, j = hi;
        do {
            while (x[i] < pivot) i++;
            while (pivot < x[j]) j--;
            if (i <= j) swap(x, (size_t)i++, (size_t)j--);
        } while (i <= j);
        if (j < k) lo = i;
        if (k < i) hi = j;
    }
}

double hm_stats_quantile_select(double *x, size_t n, double q)
{
    if (n == 0) return NAN;
    if (!x) {
        hm__error_null(__func__, "x");
        return NAN;
    }
    double h;
    size_t lo = quantile_position(n, q, &h);
    select_kth(x, n, lo);
    if (lo == n - 1 || h == (double)lo) return x[lo];
    double next = x[lo + 1]; /* the smallest after x[lo] */
    for (size_t i = lo + 2; i < n; i++) next = x[i] < next ? x[i] : next;
    return x[lo] + (h - (double)lo) * (next - x[lo]);
}

/* Welford's update: stable for run-times that differ in the last digits. */
void hm__stats_moments(const double *x, size_t n, double *mean, double *sd)
{
    double m = 0.0, s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - m;
        m += d / (double)(i + 1);
        s += d * (x[i] - m);
    }
    *mean = m;
    *sd = n > 1 ? sqrt(s / (double)(n - 1)) : 0.0;
}

int hm_stats_summarize(const double *x, size_t n, hm_stats_summary_t *s)
{
    if (!s) return hm__error_null(__func__, "summary");
    /* x may be NULL only when it holds nothing (n = 0). */
    if (!x && n > 0) return hm__error_null(__func__, "x");
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0) {
        s->min = s->q1 = s->median = s->q3 = s->max = s->p90 = s->p99 = NAN;
        s->mean = s->sd = NAN;
        return HM_OK;
    }
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted) return hm__error_nomem(__func__);
    memcpy(sorted, x, n * sizeof *sorted);
    hm_stats_sort(sorted, n);
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->q1 = hm_stats_quantile_sorted(sorted, n, 0.25);
    s->median = hm_stats_quantile_sorted(sorted, n, 0.5);
    s->q3 = hm_stats_quantile_sorted(sorted, n, 0.75);
    s->p90 = hm_stats_quantile_sorted(sorted, n, 0.90);
    s->p99 = hm_stats_quantile_sorted(sorted, n, 0.99);
    hm__stats_moments(x, n, &s->mean, &s->sd);
    free(sorted);
    return HM_OK;
}

int hm_stats_summarize_flagged(const double *x, const unsigned char *flags, int flagged, size_t n,
                               hm_stats_summary_t *s)
{
    if (!s) return hm__error_null(__func__, "summary");
    if (!x && n > 0) return hm__error_null(__func__, "x");
    hm_stats_summarize(NULL, 0, s);
    if (n == 0) return HM_OK;
    double *kept = malloc(n * sizeof *kept);
    if (!kept) return hm__error_nomem(__func__);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!flags || (flags[i] != 0) == (flagged != 0)) kept[k++] = x[i];
    int rc = hm_stats_summarize(kept, k, s);
    free(kept);
    return rc;
}
