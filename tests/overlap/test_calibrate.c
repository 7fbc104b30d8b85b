/* tests/overlap/test_calibrate.c — the dgemm calibration reaches its target
 * within 10 %, and the kernel re-measured at the order found takes the time
 * the calibration reported, within 10 % (no MPI ranks; every core computes).
 *
 * Tolerance: 10 % is the paper's own criterion of convergence [Denis et al.
 * 2022, §5.1], so the test asks no more than the method promises. The truth
 * here is the clock, not another run of the calibration: the re-measurement
 * is 7 fresh runs at the calibrated order. It is held to the time the
 * calibration reported, not to the target: a calibration that ended at
 * -9 % of the target is right, and a re-measurement 2 % lower with it. Noise
 * only slows a run, so "not slower than reported" is witnessed by the
 * slowest thread's fastest run, and "not faster" by its median (the
 * calibration's own statistic). 20 ms: long enough against timer and
 * scheduling noise, short enough for a test of about a second.
 *
 * Both can only hold on a machine that kept its speed. The test machine's
 * virtual cores do not: with nothing else running in the guest (no steal
 * time in /proc/stat), one core's single-threaded dgemm of order 512 took
 * 17.2 ms for seconds, then 25 to 30 ms for hundreds of milliseconds (the
 * host's other tenants), and the two cores were 1.7x apart during one
 * calibration. (The search itself copes: test_calibrate_model.) So each
 * attempt is bracketed by a reference, a second handle's dgemm of a fixed
 * order timed before the calibration, between it and the re-measurement,
 * and after: an attempt is judged only when no thread's reference moved by
 * more than the tolerance, 10 %. Judged without that gate, 3 of 40
 * attempts here failed, at moves of 28 %, 36 % and 101 %; none of the 11
 * that moved 15 % or less did. The reference is independent of the
 * calibrated handle, so a calibration that leaves the wrong order, or
 * reports a time its order does not take, still fails a judged attempt.
 * The references cannot see inside the calibration: in make check one
 * judged attempt missed with references within 6 % (2.2 ms) while the
 * calibration's probes ran slow (n = 502 at 20.8 ms, re-measured 18.5).
 * So a judged attempt that misses is printed, and the next judged one
 * decides: a calibration that is wrong misses both. Up to 12 attempts
 * (0.3 to 1 s each); when none could be judged the test is skipped with
 * the references it saw, not passed. Precision test (retried once).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "testutil.h"

enum {
    REMEASURE_RUNS = 7,
    REFERENCE_RUNS = 5,
    REFERENCE_ORDER = 256, /* ~2.5 ms here: 5 runs cost little beside 20 ms ones */
    ATTEMPTS = 12,
    REFERENCES = 3 /* before the calibration, before and after the re-measurement */
};
#define TARGET_S 0.02
#define STABLE   0.10 /* most a thread's reference may move for a judged attempt */

/* What runs of c at its current order took: each thread's median into
 * median (threads entries), the slowest thread's median, and the slowest
 * thread's fastest run (the slowest of the per-thread minima); NAN when a
 * run failed. */
typedef struct {
    double median_s, fastest_s;
} runs_t;

static runs_t time_runs(hm_compute_t *c, int runs, double *median)
{
    int threads = hm_compute_threads(c);
    double *times = malloc((size_t)threads * runs * sizeof *times);
    double *column = malloc((size_t)runs * sizeof *column);
    runs_t out = {NAN, NAN};
    int rc = times && column ? HM_OK : HM_ENOMEM;
    for (int r = 0; rc == HM_OK && r < runs; r++) rc = hm_compute_run(c, times + r * threads);
    for (int t = 0; rc == HM_OK && t < threads; t++) {
        for (int r = 0; r < runs; r++) column[r] = times[r * threads + t];
        hm_stats_sort(column, (size_t)runs);
        median[t] = hm_stats_quantile_sorted(column, (size_t)runs, 0.5);
        if (isnan(out.median_s) || median[t] > out.median_s) out.median_s = median[t];
        if (isnan(out.fastest_s) || column[0] > out.fastest_s) out.fastest_s = column[0];
    }
    HM_CHECK(rc == HM_OK, "%d runs of order %d: %d %s", runs, hm_compute_size(c), rc,
             rc == HM_OK ? "" : hm_last_error());
    free(times);
    free(column);
    return out;
}

/* The largest relative move of any thread's reference over the attempt;
 * ref holds REFERENCES rows of threads medians. */
static double reference_move(const double *ref, int threads)
{
    double worst = 0;
    for (int t = 0; t < threads; t++) {
        double lo = ref[t], hi = ref[t];
        for (int k = 1; k < REFERENCES; k++) {
            double v = ref[k * threads + t];
            lo = v < lo ? v : lo, hi = v > hi ? v : hi;
        }
        if (!(lo > 0)) return INFINITY;
        if (hi / lo - 1 > worst) worst = hi / lo - 1;
    }
    return worst;
}

static void note_references(int attempt, const double *ref, int threads, double move)
{
    char line[512];
    int len = snprintf(line, sizeof line, "attempt %d: references (ms, per thread)", attempt);
    for (int t = 0; t < threads && len > 0 && (size_t)len < sizeof line; t++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %d: %.2f %.2f %.2f", t,
                        1e3 * ref[t], 1e3 * ref[threads + t], 1e3 * ref[2 * threads + t]);
    hm_test_note("%s; moved %.1f %%%s", line, 100 * move,
                 move <= STABLE ? "" : ", more than 10 %: not judged");
}

static void print_probes(const hm_compute_calibration_t *r)
{
    for (int i = 0; i < r->probes; i++)
        hm_test_note("probe %d: n = %d, %.4f s (%d runs)", i + 1, r->probe[i].n, r->probe[i].time_s,
                     r->probe[i].runs);
}

/* Calibrate c to TARGET_S. Always checked: the call succeeded or did not
 * converge (HM_EAGAIN, HM_ERANGE), left c at the order it reports, and
 * reports the slowest thread's time. Convergence itself is the machine's
 * as much as the method's, so the attempt judges it (converged_ok). */
static int calibrate(hm_compute_t *c, double *per_thread, hm_compute_calibration_t *r)
{
    hm_compute_calib_params_t p;
    hm_compute_calib_params_default(&p);
    p.target_s = TARGET_S;
    int rc = hm_compute_calibrate(c, &p, r, per_thread);
    if (rc != HM_ENOMEM) print_probes(r);
    int ok = rc == HM_OK || rc == HM_EAGAIN || rc == HM_ERANGE;
    HM_CHECK(ok && hm_compute_size(c) == r->n,
             "%.0f ms: n = %d, %.4f s (error %+.1f %%) after %d probes in %.2f s: %d %s",
             TARGET_S * 1e3, r->n, r->time_s, 100 * r->error, r->probes, r->duration_s, rc,
             rc == HM_OK ? "" : hm_last_error());
    double slowest = 0;
    for (int t = 0; ok && t < hm_compute_threads(c); t++) {
        HM_CHECK(per_thread[t] > 0, "thread %d: median %.4f s", t, per_thread[t]);
        if (per_thread[t] > slowest) slowest = per_thread[t];
    }
    HM_CHECK(!ok || slowest == r->time_s, "the result's time is the slowest thread's");
    return ok;
}

static int converged_ok(const hm_compute_calibration_t *r)
{
    return r->converged && fabs(r->error) <= 0.1;
}

typedef enum { NOT_JUDGED, PASSED, FAILED, ERRED } outcome_t;

/* One attempt. A judged one's checks are recorded when they pass or when
 * deciding (a judged attempt failed before); a first failure is a note,
 * and the next judged attempt decides. */
static outcome_t attempt(int k, hm_compute_t *c, hm_compute_t *reference, double *ref,
                         double *scratch, int deciding)
{
    int threads = hm_compute_threads(c);
    hm_compute_calibration_t r;
    time_runs(reference, REFERENCE_RUNS, ref);
    if (!calibrate(c, scratch, &r)) return ERRED; /* recorded: never the machine's */
    time_runs(reference, REFERENCE_RUNS, ref + threads);
    runs_t again = time_runs(c, REMEASURE_RUNS, scratch);
    time_runs(reference, REFERENCE_RUNS, ref + 2 * threads);
    double move = reference_move(ref, threads);
    note_references(k, ref, threads, move);
    if (move > STABLE) return NOT_JUDGED;
    int converged = converged_ok(&r);
    int agrees = again.fastest_s <= 1.1 * r.time_s && again.median_s >= 0.9 * r.time_s;
    char what[320];
    snprintf(what, sizeof what,
             "converged (%s, error %+.1f %% of %.0f ms) and re-measured at n = %d: fastest "
             "%.4f s (at most +10 %%: %+.1f %%), median %.4f s (at least -10 %%: %+.1f %%) of "
             "the calibration's %.4f s",
             hm_overlap_outcome_name(r.outcome), 100 * r.error, TARGET_S * 1e3, r.n,
             again.fastest_s, 100 * (again.fastest_s / r.time_s - 1), again.median_s,
             100 * (again.median_s / r.time_s - 1), r.time_s);
    if (converged && agrees) {
        HM_CHECK(1, "%s", what);
        return PASSED;
    }
    if (deciding) {
        HM_CHECK(0, "%s (a second judged attempt)", what);
        return FAILED;
    }
    hm_test_note("judged, missed: %s; the next judged attempt decides", what);
    return FAILED;
}

int main(void)
{
    hm_compute_t *c = NULL, *reference = NULL;
    int rc = hm_compute_create(NULL, &c);
    if (rc == HM_OK) rc = hm_compute_create(NULL, &reference);
    if (rc == HM_OK) rc = hm_compute_set_size(reference, REFERENCE_ORDER);
    HM_CHECK(rc == HM_OK, "two handles, the reference at n = %d: %d %s", REFERENCE_ORDER, rc,
             hm_last_error());
    int threads = rc == HM_OK ? hm_compute_threads(c) : 0, missed = 0, decided = 0;
    double *ref = calloc((size_t)REFERENCES * threads + 1, sizeof *ref);
    double *scratch = calloc((size_t)threads + 1, sizeof *scratch);
    for (int k = 1; rc == HM_OK && ref && scratch && !decided && k <= ATTEMPTS; k++) {
        outcome_t o = attempt(k, c, reference, ref, scratch, missed);
        decided = o == PASSED || o == ERRED || (o == FAILED && missed);
        missed = missed || o == FAILED;
    }
    HM_CHECK(decided || !missed, "the judged attempt that missed, with no other judged after it");
    free(ref);
    free(scratch);
    hm_compute_free(reference);
    hm_compute_free(c);
    if (rc == HM_OK && !decided && !missed && hm_test_failures() == 0) {
        printf("skipped: the reference dgemm moved by more than 10 %% in each of %d attempts "
               "(the machine's speed changed; see the references above)\n",
               ATTEMPTS);
        return HM_TEST_SKIPPED;
    }
    return hm_test_finish();
}
