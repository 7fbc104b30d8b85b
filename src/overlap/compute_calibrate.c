/* src/overlap/compute_calibrate.c — the matrix order whose slowest thread
 * takes a target time [Denis et al. 2022, §4.3, §5.1]: the paper finds it
 * "using an iterative method" and stops "as soon as the error is below
 * 10 %"; here each step fits time = a n^b through two probes in log space,
 * which dgemm's n^3 growth makes nearly exact, so a calibration takes a few
 * probes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "common/error_set.h"

enum {
    FIRST_ORDER = 64, /* first probe without a current size: ~50 us, cheap at any target */
    GROWTH = 16,      /* most an extrapolation may move n by, either way, per probe */
    MAX_RUNS = 1000
};

void hm_compute_calib_params_default(hm_compute_calib_params_t *params)
{
    if (!params) {
        hm__error_null(__func__, "params");
        return;
    }
    params->target_s = 0.01;
    params->tolerance = 0.1;
    params->runs = 5;
    params->max_probes = 12;
}

const char *hm_overlap_outcome_name(hm_overlap_outcome_t outcome)
{
    static const char *const names[] = {"converged", "below-min",     "above-max",
                                        "gap",       "out-of-probes", "fixed"};
    return (unsigned)outcome < sizeof names / sizeof names[0] ? names[outcome] : NULL;
}

static int check_params(const hm_compute_calib_params_t *p)
{
    if (!(p->target_s > 0) || !isfinite(p->target_s))
        return hm__error_set(HM_EINVAL, "target %g s must be a positive number of seconds",
                             p->target_s);
    if (!(p->tolerance > 0 && p->tolerance < 1))
        return hm__error_set(HM_EINVAL, "tolerance %g must be between 0 and 1 (0.1 = 10 %%)",
                             p->tolerance);
    if (p->runs < 1 || p->runs > MAX_RUNS)
        return hm__error_set(HM_EINVAL, "runs %d must be 1 to %d", p->runs, MAX_RUNS);
    if (p->max_probes < 1 || p->max_probes > HM_COMPUTE_PROBES_MAX)
        return hm__error_set(HM_EINVAL, "max_probes %d must be 1 to %d", p->max_probes,
                             HM_COMPUTE_PROBES_MAX);
    return HM_OK;
}

/* Scratch of one calibration: every run's per-thread times, one thread's
 * column for its median, the medians of the probe and of the best one. */
typedef struct workspace {
    int threads, runs;
    double *times;                /* runs x threads */
    double *column;               /* runs */
    double *median, *best_median; /* threads */
} workspace_t;

static void workspace_free(workspace_t *w)
{
    free(w->times);
    free(w->column);
    free(w->median);
    free(w->best_median);
}

static int workspace_alloc(workspace_t *w, int threads, int runs)
{
    *w = (workspace_t){threads, runs, NULL, NULL, NULL, NULL};
    w->times = malloc((size_t)threads * runs * sizeof(double));
    w->column = malloc((size_t)runs * sizeof(double));
    w->median = malloc((size_t)threads * sizeof(double));
    w->best_median = malloc((size_t)threads * sizeof(double));
    if (w->times && w->column && w->median && w->best_median) return HM_OK;
    workspace_free(w);
    return hm__error_set(HM_ENOMEM, "out of memory");
}

static double slowest(const double *x, int n)
{
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m) m = x[i];
    return m;
}

static double rel_error(double time_s, double target_s)
{
    return (time_s - target_s) / target_s;
}

/* The runs a probe needs, seen its first run. Far from the target (beyond
 * 3 tolerances, at least 50 %), more runs would move the median by noise,
 * not by the factor that decides the next order; but noise only slows a
 * run: one far below the target decides alone, one far above may be a run
 * slowed by a neighbouring process, and three (their median) decide. */
static int runs_needed(double first_s, const hm_compute_calib_params_t *p)
{
    double far = 3 * p->tolerance > 0.5 ? 3 * p->tolerance : 0.5;
    double err = rel_error(first_s, p->target_s);
    if (err < -far) return 1;
    if (err > far) return p->runs < 3 ? p->runs : 3;
    return p->runs;
}

/* Time order n: up to p->runs runs, each thread's median, the slowest. */
static int probe(hm_compute_t *c, int n, const hm_compute_calib_params_t *p, workspace_t *w,
                 hm_compute_probe_t *out)
{
    const int T = w->threads;
    int rc = hm_compute_set_size(c, n), runs = 0, want = p->runs;
    while (rc == HM_OK && runs < want) {
        rc = hm_compute_run(c, w->times + (size_t)runs * T);
        if (rc == HM_OK && ++runs == 1) want = runs_needed(slowest(w->times, T), p);
    }
    if (rc != HM_OK) return rc;
    for (int t = 0; t < T; t++) {
        for (int r = 0; r < runs; r++) w->column[r] = w->times[(size_t)r * T + t];
        hm_stats_sort(w->column, (size_t)runs);
        w->median[t] = hm_stats_quantile_sorted(w->column, (size_t)runs, 0.5);
    }
    *out = (hm_compute_probe_t){n, slowest(w->median, T), runs};
    return HM_OK;
}

/* 1 when a later probe has the order of probe i: only the latest counts. */
static int superseded(const hm_compute_calibration_t *r, int i)
{
    for (int j = i + 1; j < r->probes; j++)
        if (r->probe[j].n == r->probe[i].n) return 1;
    return 0;
}

/* How many probes were taken at order n. */
static int times_probed(const hm_compute_calibration_t *r, int n)
{
    int k = 0;
    for (int i = 0; i < r->probes; i++) k += r->probe[i].n == n;
    return k;
}

/* The probes on either side of the tolerance band closest to it: lo the
 * largest order found too fast, hi the smallest found too slow (NULL: none
 * yet), each order by its latest probe. */
static void bracket(const hm_compute_calibration_t *r, double target_s,
                    const hm_compute_probe_t **lo, const hm_compute_probe_t **hi)
{
    *lo = *hi = NULL;
    for (int i = 0; i < r->probes; i++) {
        const hm_compute_probe_t *q = &r->probe[i];
        if (superseded(r, i)) continue;
        if (q->time_s < target_s) {
            if (!*lo || q->n > (*lo)->n) *lo = q;
        } else if (!*hi || q->n < (*hi)->n) {
            *hi = q;
        }
    }
}

/* The probe nearest the target in log time, of another order than skip,
 * each order by its latest probe (NULL: none). */
static const hm_compute_probe_t *nearest(const hm_compute_calibration_t *r, double target_s,
                                         const hm_compute_probe_t *skip)
{
    const hm_compute_probe_t *best = NULL;
    for (int i = 0; i < r->probes; i++) {
        const hm_compute_probe_t *q = &r->probe[i];
        if (superseded(r, i) || q->n == skip->n) continue;
        if (!best || fabs(log(q->time_s / target_s)) < fabs(log(best->time_s / target_s))) best = q;
    }
    return best;
}

/* The exponent b of time = a n^b through p0 and p1: 3, dgemm's flop count,
 * without a second probe or when the two give a slope no dgemm has (outside
 * [1, 4]: time falling with n, or rising faster than n^4), which is one of
 * them measured in noise, e.g. a run preempted for milliseconds. */
static double slope(const hm_compute_probe_t *p0, const hm_compute_probe_t *p1)
{
    if (!p1) return 3;
    double b = log(p1->time_s / p0->time_s) / log((double)p1->n / p0->n);
    return b >= 1 && b <= 4 ? b : 3; /* NaN fails both */
}

/* The order where time = a n^b through anchor (and other) reaches the target. */
static double extrapolate(const hm_compute_probe_t *anchor, const hm_compute_probe_t *other,
                          double target_s)
{
    return anchor->n * pow(target_s / anchor->time_s, 1 / slope(anchor, other));
}

/* A bracket that contradicts dgemm has an end measured in noise: its ends
 * inverted or its slope outside [1, 4] (seen: n = 402 at 6.9 ms, n = 452
 * at 30.3 ms, b = 12.6, after a neighbouring process slowed the single run
 * of 452 four times), or neighbouring orders on either side of the band
 * where dgemm's n^3 steps less than the band is wide, (1 + 1/lo)^3 <=
 * (1 + tol) / (1 - tol), i.e. above n = 15 at 10 %. The end probed fewer
 * times is probed again (hi on ties: noise slows). A slope below 1 is
 * rechecked once per end, since tiny orders, dominated by the call's
 * overhead, do grow slower than n; a gap always, so that a noisy machine
 * ends out of probes rather than with a gap the kernel does not have. A
 * slope above 4 always too, the older end first once both were probed
 * twice: no dgemm grows that fast, so the machine changed speed between
 * the ends, and the older one is stale (seen on a virtual machine whose
 * cores ran 1.6x slower for hundreds of milliseconds: n = 497 at 24.5 and
 * 23.7 ms, then n = 454 at 12.7 ms, b = 6.9; believed, the search crept
 * up from 470 one order per probe, each at 13.6 ms, and ran out of
 * probes). 0: believed. */
static int recheck(const hm_compute_calibration_t *r, const hm_compute_probe_t *lo,
                   const hm_compute_probe_t *hi, double tolerance)
{
    int k_lo = times_probed(r, lo->n), k_hi = times_probed(r, hi->n);
    int end = k_hi <= k_lo ? hi->n : lo->n;
    if (hi->n == lo->n + 1 && pow(1.0 + 1.0 / lo->n, 3) <= (1 + tolerance) / (1 - tolerance))
        return end;
    double b = log(hi->time_s / lo->time_s) / log((double)hi->n / lo->n);
    if (b > 4 && k_lo >= 2 && k_hi >= 2) return lo < hi ? lo->n : hi->n; /* the older probe */
    return !(b >= 1 && b <= 4) && (b > 4 || k_lo < 2 || k_hi < 2) ? end : 0;
}

/* The next order to probe, or 0 with *end set when none can do better.
 * Once the target is bracketed, the fit through the bracket, anchored at its
 * end nearer the target; before, the fit anchored at the latest probe (the
 * one aimed at the target) through the other probe nearest the target, the
 * step bounded by GROWTH. Kept strictly inside a consistent bracket. */
static int next_order(const hm_compute_calibration_t *r, const hm_compute_calib_params_t *p,
                      int max_n, hm_overlap_outcome_t *end)
{
    const hm_compute_probe_t *lo, *hi, *anchor = &r->probe[r->probes - 1];
    bracket(r, p->target_s, &lo, &hi);
    int again = lo && hi ? recheck(r, lo, hi, p->tolerance) : 0;
    if (again) return again;
    double n;
    if (lo && hi) {
        int lo_nearer = log(p->target_s / lo->time_s) < log(hi->time_s / p->target_s);
        n = lo_nearer ? extrapolate(lo, hi, p->target_s) : extrapolate(hi, lo, p->target_s);
    } else {
        n = extrapolate(anchor, nearest(r, p->target_s, anchor), p->target_s);
        if (n > (double)anchor->n * GROWTH) n = (double)anchor->n * GROWTH;
        if (n < (double)anchor->n / GROWTH) n = (double)anchor->n / GROWTH;
    }
    int low = lo ? lo->n + 1 : 1, high = hi ? hi->n - 1 : max_n;
    if (high > max_n) high = max_n;
    if (lo && hi && lo->n > hi->n) low = 1, high = max_n; /* inverted, rechecked: any order */
    if (low > high) {
        *end = hi && hi->n == 1       ? HM_OVERLAP_BELOW_MIN
               : lo && lo->n >= max_n ? HM_OVERLAP_ABOVE_MAX
                                      : HM_OVERLAP_GAP;
        return 0;
    }
    if (!(n >= low)) n = low; /* NaN too: a probe that took no measurable time */
    if (n > high) n = high;
    return (int)lround(n);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The sentence of a calibration that did not converge, and its status. */
static int not_converged(const hm_compute_calibration_t *r, const hm_compute_calib_params_t *p,
                         int max_n)
{
    const hm_compute_probe_t *lo, *hi;
    bracket(r, p->target_s, &lo, &hi);
    switch (r->outcome) {
    case HM_OVERLAP_BELOW_MIN:
        return hm__error_set(HM_ERANGE,
                             "target %.3g s is below the smallest dgemm: n = 1 takes %.3g s",
                             p->target_s, hi->time_s);
    case HM_OVERLAP_ABOVE_MAX:
        return hm__error_set(HM_ERANGE,
                             "target %.3g s is beyond the largest matrices memory allows: n = %d "
                             "takes %.3g s",
                             p->target_s, max_n, lo->time_s);
    case HM_OVERLAP_GAP:
        return hm__error_set(HM_ERANGE,
                             "no matrix order reaches %.3g s within %.0f %%: n = %d takes %.3g s, "
                             "n = %d takes %.3g s",
                             p->target_s, 100 * p->tolerance, lo->n, lo->time_s, hi->n, hi->time_s);
    default:
        return hm__error_set(HM_EAGAIN,
                             "no matrix order within %.0f %% of %.3g s after %d probes (closest: "
                             "n = %d, %.3g s)",
                             100 * p->tolerance, p->target_s, r->probes, r->n, r->time_s);
    }
}

/* Keep probe q as the result (its per-thread medians are w->median). */
static void keep(hm_compute_calibration_t *r, const hm_compute_probe_t *q, double target_s,
                 workspace_t *w)
{
    r->n = q->n, r->time_s = q->time_s, r->error = rel_error(q->time_s, target_s);
    memcpy(w->best_median, w->median, (size_t)w->threads * sizeof(double));
}

/* Probe until one is within tolerance, no order can do better, or the
 * probes run out. The result is the probe closest to the target, except at
 * the ends of the range, where it is the end itself (n = 1, or the largest
 * order): the probe that closed the search, whose neighbour in the band
 * would be out of range. */
static int search(hm_compute_t *c, const hm_compute_calib_params_t *p, workspace_t *w,
                  hm_compute_calibration_t *r)
{
    int n = hm_compute_size(c) > 0 ? hm_compute_size(c) : FIRST_ORDER,
        max_n = hm_compute_max_size(c);
    r->outcome = HM_OVERLAP_OUT_OF_PROBES;
    if (n > max_n) n = max_n;
    while (r->probes < p->max_probes) {
        hm_compute_probe_t *q = &r->probe[r->probes];
        int rc = probe(c, n, p, w, q);
        if (rc != HM_OK) return rc;
        r->probes++;
        double err = rel_error(q->time_s, p->target_s);
        if (r->probes == 1 || fabs(err) < fabs(r->error)) keep(r, q, p->target_s, w);
        if (fabs(err) <= p->tolerance) {
            r->outcome = HM_OVERLAP_CONVERGED;
            break;
        }
        n = next_order(r, p, max_n, &r->outcome);
        if (n == 0) {
            if (r->outcome != HM_OVERLAP_GAP) keep(r, q, p->target_s, w);
            break;
        }
    }
    r->converged = r->outcome == HM_OVERLAP_CONVERGED;
    return HM_OK;
}

int hm_compute_calibrate(hm_compute_t *c, const hm_compute_calib_params_t *params,
                         hm_compute_calibration_t *result, double *per_thread_s)
{
    hm_compute_calib_params_t p;
    workspace_t w;
    if (!c) return hm__error_null(__func__, "c");
    if (!result) return hm__error_null(__func__, "result");
    if (params)
        p = *params;
    else
        hm_compute_calib_params_default(&p);
    memset(result, 0, sizeof *result);
    int rc = check_params(&p);
    if (rc == HM_OK) rc = workspace_alloc(&w, hm_compute_threads(c), p.runs);
    if (rc != HM_OK) return rc;
    double t0 = now_s();
    rc = search(c, &p, &w, result);
    result->duration_s = now_s() - t0;
    if (rc == HM_OK && result->n != hm_compute_size(c)) rc = hm_compute_set_size(c, result->n);
    if (rc == HM_OK && per_thread_s)
        memcpy(per_thread_s, w.best_median, (size_t)w.threads * sizeof(double));
    workspace_free(&w);
    if (rc != HM_OK) return rc;
    return result->converged ? HM_OK : not_converged(result, &p, hm_compute_max_size(c));
}
