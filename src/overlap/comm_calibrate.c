/* src/overlap/comm_calibrate.c — the message size at which a nonblocking
 * collective takes a target time [Denis et al. 2022, §4.3, §5.1]: probes
 * of the median global run-time (the call and its MPI_Wait, started
 * together by the process synchronization, max end - min start on the
 * global clock), the next size from quadratic interpolation through the
 * probes nearest the target, until one is within the tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>
#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "common/comm_check.h"
#include "common/error_set.h"

void hm_overlap_comm_params_default(hm_overlap_comm_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    *p = (hm_overlap_comm_params_t){.target_s = 1e-3,
                                    .tolerance = 0.1,
                                    .runs = 21,
                                    .max_probes = 12,
                                    .min_bytes = 1,
                                    .max_bytes = (size_t)256 << 20};
}

static int check_params(const hm_overlap_comm_params_t *p)
{
    if (!(p->target_s > 0) || !isfinite(p->target_s))
        return hm__error_set(HM_EINVAL, "target %g s: a time above 0", p->target_s);
    if (!(p->tolerance > 0 && p->tolerance < 1))
        return hm__error_set(HM_EINVAL, "tolerance %g: between 0 and 1", p->tolerance);
    if (p->runs < 1 || p->runs > 100000)
        return hm__error_set(HM_EINVAL, "runs %ld: 1 to 100000", p->runs);
    if (p->max_probes < 1 || p->max_probes > HM_OVERLAP_PROBES_MAX)
        return hm__error_set(HM_EINVAL, "max_probes %d: 1 to %d", p->max_probes,
                             HM_OVERLAP_PROBES_MAX);
    if (p->min_bytes < 1 || p->max_bytes < p->min_bytes)
        return hm__error_set(HM_EINVAL, "sizes %zu to %zu bytes: at least 1, ascending",
                             p->min_bytes, p->max_bytes);
    return HM_OK;
}

/* Root: the median of v over the valid repetitions of r. */
static double median_valid(const hm_measure_result_t *r, const double *v)
{
    hm_stats_summary_t s;
    return hm_stats_summarize_flagged(v, r->valid, 1, (size_t)r->n, &s) == HM_OK ? s.median : NAN;
}

/* Collective: runs repetitions at size_bytes after warmup; q's times the
 * same on every rank. */
static int measure(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op, const hm_op_params_t *opp,
                   size_t size_bytes, long runs, long warmup, hm_overlap_comm_probe_t *q)
{
    hm_op_instance_t *inst = NULL;
    hm_measure_target_t target;
    hm_measure_params_t mp;
    hm_measure_result_t r;
    int rank;
    MPI_Comm_rank(comm, &rank);
    int rc = hm_op_prepare(op, comm, size_bytes, opp, &inst);
    if (rc != HM_OK) return rc;
    hm_measure_target_op(&target, op, inst, rank, opp ? opp->peer : 1);
    hm_measure_params_default(&mp);
    mp.nrep = runs;
    mp.warmup = warmup;
    rc = hm_measure_run(comm, ps, &target, &mp, &r);
    double t[2] = {NAN, NAN};
    if (rc == HM_OK && rank == 0)
        t[0] = median_valid(&r, r.global_s), t[1] = median_valid(&r, r.local_s);
    if (rc == HM_OK) hm_measure_result_free(&r);
    hm_op_free(inst);
    if (rc == HM_OK && MPI_Bcast(t, 2, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Bcast");
    q->size_bytes = size_bytes;
    q->time_s = t[0];
    q->local_s = t[1];
    return rc;
}

/* Warm-up runs that fill WARMUP_S of an operation of time_s: the first
 * runs of a size set up what the library keeps per message (MPICH's first
 * 4 KiB iallreduce took 26 us, the next ones 5-12; its small iallreduces
 * needed about 100 runs to settle). */
#define WARMUP_S 20e-3
static long warmup_for(double time_s)
{
    double n = time_s > 0 ? ceil(WARMUP_S / time_s) : 100;
    return (long)fmin(100, fmax(5, n));
}

/* Collective: one probe at size_bytes, aimed at p->target_s. */
static int probe(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op, const hm_op_params_t *opp,
                 const hm_overlap_comm_params_t *p, size_t size_bytes, hm_overlap_comm_probe_t *q)
{
    return measure(comm, ps, op, opp, size_bytes, p->runs, warmup_for(p->target_s), q);
}

int hm_overlap_measure_comm(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op,
                            const hm_op_params_t *op_params, size_t size_bytes, long runs,
                            hm_overlap_comm_probe_t *out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !ps ? "ps" : !op ? "op" : !out ? "out" : NULL;
    if (null) return hm__error_null(__func__, null);
    hm_overlap_comm_params_t defaults;
    hm_overlap_comm_params_default(&defaults);
    if (!hm_op_is_nonblocking(op))
        return hm__error_set(HM_EINVAL, "%s: %s is blocking (a nonblocking operation is needed)",
                             __func__, hm_op_name(op));
    if (runs < 0 || runs > 100000) return hm__error_set(HM_EINVAL, "runs %ld: 0 to 100000", runs);
    int rc = measure(comm, ps, op, op_params, size_bytes, 5, 5, out);
    if (rc != HM_OK) return rc;
    return measure(comm, ps, op, op_params, size_bytes, runs ? runs : defaults.runs,
                   warmup_for(out->time_s), out);
}

/* The probes bracketing the target: *lo the largest size faster than it,
 * *hi the smallest slower (-1 where none). */
static void bracket(const hm_overlap_comm_calibration_t *c, double target_s, int *lo, int *hi)
{
    *lo = *hi = -1;
    for (int i = 0; i < c->probes; i++) {
        const hm_overlap_comm_probe_t *q = &c->probe[i];
        if (q->time_s < target_s && (*lo < 0 || q->size_bytes > c->probe[*lo].size_bytes)) *lo = i;
        if (q->time_s > target_s && (*hi < 0 || q->size_bytes < c->probe[*hi].size_bytes)) *hi = i;
    }
}

/* The size where the parabola through three probes crosses the target,
 * inside (lo, hi); NAN when it does not (Lagrange form, sizes scaled to
 * keep the coefficients well conditioned). */
static double quadratic_root(const hm_overlap_comm_probe_t *q[3], double target_s, double lo,
                             double hi)
{
    double scale = hi, x[3], y[3];
    for (int i = 0; i < 3; i++) x[i] = (double)q[i]->size_bytes / scale, y[i] = q[i]->time_s;
    double d0 = (x[0] - x[1]) * (x[0] - x[2]), d1 = (x[1] - x[0]) * (x[1] - x[2]),
           d2 = (x[2] - x[0]) * (x[2] - x[1]);
    if (d0 == 0 || d1 == 0 || d2 == 0) return NAN;
    double w0 = y[0] / d0, w1 = y[1] / d1, w2 = y[2] / d2;
    double a = w0 + w1 + w2;
    double b = -(w0 * (x[1] + x[2]) + w1 * (x[0] + x[2]) + w2 * (x[0] + x[1]));
    double c = w0 * x[1] * x[2] + w1 * x[0] * x[2] + w2 * x[0] * x[1] - target_s;
    double roots[2] = {NAN, NAN};
    if (fabs(a) < 1e-12 * (fabs(b) + fabs(c))) {
        if (b != 0) roots[0] = -c / b;
    } else {
        double disc = b * b - 4 * a * c;
        if (disc >= 0)
            roots[0] = (-b + sqrt(disc)) / (2 * a), roots[1] = (-b - sqrt(disc)) / (2 * a);
    }
    for (int i = 0; i < 2; i++)
        if (roots[i] * scale > lo && roots[i] * scale < hi) return roots[i] * scale;
    return NAN;
}

/* The three probes nearest the target in log time, the bracket included. */
static void nearest_three(const hm_overlap_comm_calibration_t *c, double target_s, int lo, int hi,
                          const hm_overlap_comm_probe_t *out[3])
{
    int pick[3] = {lo, hi, -1};
    double best = INFINITY;
    for (int i = 0; i < c->probes; i++) {
        double d = fabs(log(c->probe[i].time_s / target_s));
        if (i != lo && i != hi && c->probe[i].size_bytes != c->probe[lo].size_bytes &&
            c->probe[i].size_bytes != c->probe[hi].size_bytes && d < best)
            best = d, pick[2] = i;
    }
    for (int i = 0; i < 3; i++) out[i] = pick[i] >= 0 ? &c->probe[pick[i]] : NULL;
}

/* Inside the bracket: the parabola's crossing, else the line's; kept off
 * the ends (at least 5 % of the way in, in log size), so that noise cannot
 * stall the search at one end, which then closes like a bisection. */
static double inside(const hm_overlap_comm_calibration_t *c, double target_s, int lo, int hi)
{
    double s_lo = (double)c->probe[lo].size_bytes, s_hi = (double)c->probe[hi].size_bytes;
    double t_lo = c->probe[lo].time_s, t_hi = c->probe[hi].time_s;
    const hm_overlap_comm_probe_t *q[3];
    nearest_three(c, target_s, lo, hi, q);
    double s = q[2] ? quadratic_root(q, target_s, s_lo, s_hi) : NAN;
    if (!isfinite(s)) s = s_lo + (target_s - t_lo) * (s_hi - s_lo) / (t_hi - t_lo);
    double l_lo = log(s_lo), l_hi = log(s_hi), margin = 0.05 * (l_hi - l_lo);
    double l = log(s > 0 ? s : s_lo);
    if (l < l_lo + margin || l > l_hi - margin) l = 0.5 * (l_lo + l_hi);
    return exp(l);
}

/* Outside every probe: scale the nearest one by the ratio of times (a
 * collective's time grows at most linearly with its size), at most 64x per
 * step. */
static double outside(const hm_overlap_comm_calibration_t *c, double target_s, int lo, int hi)
{
    const hm_overlap_comm_probe_t *q = &c->probe[lo >= 0 ? lo : hi];
    /* Downwards at least 8x: below a few KiB a collective's time is its
     * latency, nearly flat in the size, and the ratio of times would creep
     * towards the smallest size one probe at a time. */
    double ratio = lo >= 0 ? fmax(1.1, target_s / q->time_s) : fmax(8.0, q->time_s / target_s);
    ratio = fmin(64.0, ratio);
    return lo >= 0 ? (double)q->size_bytes * ratio : (double)q->size_bytes / ratio;
}

/* The next size, or 0 when none is left to try (result->outcome says why). */
static size_t next_size(hm_overlap_comm_calibration_t *c, const hm_overlap_comm_params_t *p)
{
    int lo, hi;
    bracket(c, p->target_s, &lo, &hi);
    if (lo < 0 && hi < 0) return 0; /* no probe with a time (none valid): out of probes */
    /* Sizes within 1 % of each other on either side of the band: a step
     * of the library (MPICH's iallreduce: 5 us at 4071 B, 23 us at 4096 B),
     * not a slope to interpolate on. */
    if (lo >= 0 && hi >= 0 &&
        c->probe[hi].size_bytes - c->probe[lo].size_bytes <= 1 + c->probe[lo].size_bytes / 100) {
        c->outcome = HM_OVERLAP_GAP;
        return 0;
    }
    double s =
        lo >= 0 && hi >= 0 ? inside(c, p->target_s, lo, hi) : outside(c, p->target_s, lo, hi);
    if (hi < 0 && lo >= 0 && c->probe[lo].size_bytes >= p->max_bytes) {
        c->outcome = HM_OVERLAP_ABOVE_MAX;
        return 0;
    }
    if (lo < 0 && hi >= 0 && c->probe[hi].size_bytes <= p->min_bytes) {
        c->outcome = HM_OVERLAP_BELOW_MIN;
        return 0;
    }
    s = fmin(fmax(s, (double)p->min_bytes), (double)p->max_bytes);
    size_t size = (size_t)llround(s);
    if (lo >= 0 && size <= c->probe[lo].size_bytes) size = c->probe[lo].size_bytes + 1;
    if (hi >= 0 && size >= c->probe[hi].size_bytes) size = c->probe[hi].size_bytes - 1;
    return size;
}

/* Neighbouring sizes on either side of the tolerance band are more often
 * one noisy probe than a step of the library (MPICH: 12 us at 1864 B between
 * 5 us at 1853 and 1863 B): both ends are measured again, once, and their
 * new times replace the old before the search goes on. */
static int recheck_bracket(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op,
                           const hm_op_params_t *opp, const hm_overlap_comm_params_t *p,
                           hm_overlap_comm_calibration_t *c)
{
    int lo, hi, rc = HM_OK;
    bracket(c, p->target_s, &lo, &hi);
    if (lo >= 0) rc = probe(comm, ps, op, opp, p, c->probe[lo].size_bytes, &c->probe[lo]);
    if (rc == HM_OK && hi >= 0)
        rc = probe(comm, ps, op, opp, p, c->probe[hi].size_bytes, &c->probe[hi]);
    return rc;
}

/* Keep the probe nearest the target (in relative error) as the result. */
static void keep_nearest(hm_overlap_comm_calibration_t *c, double target_s)
{
    int best = 0;
    for (int i = 1; i < c->probes; i++)
        if (fabs(c->probe[i].time_s - target_s) < fabs(c->probe[best].time_s - target_s)) best = i;
    c->size_bytes = c->probe[best].size_bytes;
    c->time_s = c->probe[best].time_s;
    c->local_s = c->probe[best].local_s;
    c->error = (c->time_s - target_s) / target_s;
}

static size_t first_size(const hm_overlap_comm_params_t *p, size_t start_bytes)
{
    size_t s = start_bytes ? start_bytes : 4096;
    return s < p->min_bytes ? p->min_bytes : s > p->max_bytes ? p->max_bytes : s;
}

int hm_overlap_calibrate_comm(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op,
                              const hm_op_params_t *op_params,
                              const hm_overlap_comm_params_t *params, size_t start_bytes,
                              hm_overlap_comm_calibration_t *result)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !ps ? "ps" : !op ? "op" : !result ? "result" : NULL;
    if (null) return hm__error_null(__func__, null);
    hm_overlap_comm_params_t defaults;
    if (!params) hm_overlap_comm_params_default(&defaults), params = &defaults;
    if (!hm_op_is_nonblocking(op))
        return hm__error_set(HM_EINVAL, "%s: %s is blocking (a nonblocking operation is needed)",
                             __func__, hm_op_name(op));
    int rc = check_params(params);
    if (rc != HM_OK) return rc;
    memset(result, 0, sizeof *result);
    result->outcome = HM_OVERLAP_OUT_OF_PROBES;
    double t0 = MPI_Wtime();
    int rechecked = 0;
    size_t size = first_size(params, start_bytes);
    while (size && result->probes < params->max_probes) {
        hm_overlap_comm_probe_t *q = &result->probe[result->probes];
        q->size_bytes = size;
        rc = probe(comm, ps, op, op_params, params, size, q);
        if (rc != HM_OK) return rc;
        result->probes++;
        if (fabs(q->time_s - params->target_s) <= params->tolerance * params->target_s) {
            result->outcome = HM_OVERLAP_CONVERGED;
            break;
        }
        size = next_size(result, params);
        if (!size && result->outcome == HM_OVERLAP_GAP && !rechecked++) {
            rc = recheck_bracket(comm, ps, op, op_params, params, result);
            if (rc != HM_OK) return rc;
            result->outcome = HM_OVERLAP_OUT_OF_PROBES;
            size = next_size(result, params);
        }
    }
    keep_nearest(result, params->target_s);
    /* The recheck of a gap's two ends measures them again without a test
     * against the band: a neighbour's noise that made the gap leaves, and
     * the end nearest the target may now be within it (a 1 ms iallreduce
     * beside two busy loops kept 3108729 B at +5.0 % as a "gap", its cells
     * INVALID). Whatever ended the search, a kept probe within the band is
     * what CONVERGED means. */
    if (fabs(result->error) <= params->tolerance) result->outcome = HM_OVERLAP_CONVERGED;
    result->converged = result->outcome == HM_OVERLAP_CONVERGED;
    result->duration_s = MPI_Wtime() - t0;
    if (result->converged) return HM_OK;
    return hm__error_set(result->outcome == HM_OVERLAP_OUT_OF_PROBES ? HM_EAGAIN : HM_ERANGE,
                         "%s: no size within %g %% of %g s (%s; nearest %zu B at %g s)",
                         hm_op_name(op), params->tolerance * 100, params->target_s,
                         hm_overlap_outcome_name(result->outcome), result->size_bytes,
                         result->time_s);
}
