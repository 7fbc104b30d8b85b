/* src/trace/durations.c — the median of a function's durations in
 * bounded memory. The first EXACT durations are kept and their median is
 * exact (hm_stats_quantile_select, as for any sample); beyond that, every
 * duration is counted in a log-spaced histogram: 1024 bins per power of
 * two (the top 10 bits of the mantissa), so a bin's middle is within
 * 2^-11 (4.9e-4) of any value in it, relative, and so is the median read
 * from it (the bins of the two middle values, interpolated as
 * hm_stats_quantile_select does, clamped to the smallest and largest
 * duration seen: exact when all are equal). A bin array is made for a
 * power of two when a duration first falls in it: 8 KiB each. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "common/error_set.h"
#include "trace/durations.h"

enum { BINS = 1024, EXP_MIN = -64, EXP_MAX = 64, NEXP = EXP_MAX - EXP_MIN + 1 };

struct hm__trace_durations {
    uint64_t n;
    uint64_t nonpositive;   /* durations <= 0 (a clock step back): */
    double nonpositive_max; /* counted below every bin, valued at their largest */
    double min, max;
    double *exact; /* the first EXACT */
    uint64_t *bins[NEXP];
};

int hm__trace_durations_open(hm__trace_durations_t **out)
{
    hm__trace_durations_t *d = calloc(1, sizeof *d);
    if (d) d->exact = malloc(HM__TRACE_DURATIONS_EXACT * sizeof *d->exact);
    if (!d || !d->exact) return free(d), hm__error_nomem("hm_trace_merge");
    d->nonpositive_max = -INFINITY, d->min = INFINITY, d->max = -INFINITY;
    *out = d;
    return HM_OK;
}

/* v > 0 as (power of two, bin): v = m 2^e, m in [0.5, 1). */
static void bin_of(double v, int *e, int *b)
{
    double m = frexp(v, e);
    *b = (int)((m - 0.5) * 2 * BINS);
    if (*b >= BINS) *b = BINS - 1;
    if (*e < EXP_MIN) *e = EXP_MIN, *b = 0;
    if (*e > EXP_MAX) *e = EXP_MAX, *b = BINS - 1;
}

static int count(hm__trace_durations_t *d, double v)
{
    if (!(v > 0)) {
        d->nonpositive++;
        d->nonpositive_max = fmax(d->nonpositive_max, v);
        return HM_OK;
    }
    int e, b;
    bin_of(v, &e, &b);
    uint64_t **bins = &d->bins[e - EXP_MIN];
    if (!*bins && !(*bins = calloc(BINS, sizeof **bins))) return hm__error_nomem("hm_trace_merge");
    (*bins)[b]++;
    return HM_OK;
}

int hm__trace_durations_add(hm__trace_durations_t *d, double v)
{
    d->min = fmin(d->min, v), d->max = fmax(d->max, v);
    if (d->n < HM__TRACE_DURATIONS_EXACT) d->exact[d->n] = v;
    d->n++;
    if (d->n < HM__TRACE_DURATIONS_EXACT) return HM_OK;
    int st = HM_OK;
    /* The kept ones counted once the histogram takes over. */
    if (d->n == HM__TRACE_DURATIONS_EXACT)
        for (size_t k = 0; st == HM_OK && k < HM__TRACE_DURATIONS_EXACT; k++)
            st = count(d, d->exact[k]);
    else
        st = count(d, v);
    return st;
}

/* The k-th smallest (0-based) as the histogram has it. */
static double kth(const hm__trace_durations_t *d, uint64_t k)
{
    if (k < d->nonpositive) return d->nonpositive_max;
    k -= d->nonpositive;
    for (int e = 0; e < NEXP; e++)
        for (int b = 0; d->bins[e] && b < BINS; b++) {
            if (k >= d->bins[e][b]) {
                k -= d->bins[e][b];
                continue;
            }
            double mid = ldexp(0.5 + (b + 0.5) / (2.0 * BINS), e + EXP_MIN);
            return fmin(fmax(mid, d->min), d->max);
        }
    return d->max;
}

double hm__trace_durations_median(hm__trace_durations_t *d)
{
    if (d->n == 0) return NAN;
    if (d->n <= HM__TRACE_DURATIONS_EXACT) return hm_stats_quantile_select(d->exact, d->n, 0.5);
    double h = (double)(d->n - 1) * 0.5;
    uint64_t lo = (uint64_t)floor(h);
    double x = kth(d, lo);
    return h == (double)lo ? x : x + (h - (double)lo) * (kth(d, lo + 1) - x);
}

void hm__trace_durations_free(hm__trace_durations_t *d)
{
    if (!d) return;
    for (int e = 0; e < NEXP; e++) free(d->bins[e]);
    free(d->exact);
    free(d);
}
