/* tests/overlap/test_calibrate.c — the dgemm calibration reaches its target
 * within 10 %, and the kernel re-measured at the order found takes the
 * target within 10 % too (no MPI ranks; every core computes).
 *
 * Tolerance: 10 % is the paper's own criterion of convergence [Denis et al.
 * 2022, §5.1], so the test asks no more than the method promises. The truth
 * here is the clock, not another run of the calibration: the re-measurement
 * is a fresh median of 7 runs at the calibrated order. On the shared 2-core
 * test machine a neighbour's process that takes one core for a time slice
 * (milliseconds) delays one thread's 20 ms dgemm by tens of percent; a
 * median of 5 (calibration) or 7 (re-measurement) runs drops such runs
 * unless more than half are hit, and a machine loaded throughout fails both
 * attempts of `make check` (label precision). 20 ms: long enough against
 * timer and scheduling noise, short enough for a test of about a second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "testutil.h"

enum { REMEASURE_RUNS = 7 };

/* The slowest thread's median over runs at the handle's current order. */
static double remeasure(hm_compute_t *c, int threads)
{
    double *times = malloc((size_t)threads * REMEASURE_RUNS * sizeof *times);
    double column[REMEASURE_RUNS], slowest = NAN;
    int rc = times ? HM_OK : HM_ENOMEM;
    for (int r = 0; rc == HM_OK && r < REMEASURE_RUNS; r++)
        rc = hm_compute_run(c, times + r * threads);
    for (int t = 0; rc == HM_OK && t < threads; t++) {
        for (int r = 0; r < REMEASURE_RUNS; r++) column[r] = times[r * threads + t];
        hm_stats_sort(column, REMEASURE_RUNS);
        double median = hm_stats_quantile_sorted(column, REMEASURE_RUNS, 0.5);
        if (isnan(slowest) || median > slowest) slowest = median;
    }
    free(times);
    return slowest;
}

static void print_probes(const hm_compute_calibration_t *r)
{
    for (int i = 0; i < r->probes; i++)
        hm_test_note("probe %d: n = %d, %.4f s (%d runs)", i + 1, r->probe[i].n, r->probe[i].time_s,
                     r->probe[i].runs);
}

/* Calibrate c to target_s, then check the result and the re-measurement. */
static void calibrate(hm_compute_t *c, double target_s)
{
    int threads = hm_compute_threads(c);
    double *per_thread = calloc((size_t)threads, sizeof *per_thread);
    hm_compute_calib_params_t p;
    hm_compute_calibration_t r;
    hm_compute_calib_params_default(&p);
    p.target_s = target_s;
    int rc = per_thread ? hm_compute_calibrate(c, &p, &r, per_thread) : HM_ENOMEM;
    if (rc != HM_ENOMEM) print_probes(&r);
    HM_CHECK(rc == HM_OK && r.converged && fabs(r.error) <= 0.1 && hm_compute_size(c) == r.n,
             "%.0f ms: n = %d, %.4f s (error %+.1f %%) after %d probes in %.2f s: %d %s",
             target_s * 1e3, r.n, r.time_s, 100 * r.error, r.probes, r.duration_s, rc,
             hm_last_error());
    double slowest = 0;
    for (int t = 0; rc == HM_OK && t < threads; t++) {
        HM_CHECK(per_thread[t] > 0, "thread %d: median %.4f s", t, per_thread[t]);
        if (per_thread[t] > slowest) slowest = per_thread[t];
    }
    HM_CHECK(rc != HM_OK || slowest == r.time_s, "the result's time is the slowest thread's");
    double again = remeasure(c, threads);
    HM_CHECK(fabs(again - target_s) <= 0.1 * target_s,
             "re-measured at n = %d: %.4f s, %+.1f %% from %.0f ms", r.n, again,
             100 * (again - target_s) / target_s, target_s * 1e3);
    free(per_thread);
}

int main(void)
{
    hm_compute_t *c;
    int rc = hm_compute_create(NULL, &c);
    HM_CHECK(rc == HM_OK, "create: %d %s", rc, hm_last_error());
    if (rc != HM_OK) return hm_test_finish();
    calibrate(c, 0.02);
    hm_compute_free(c);
    return hm_test_finish();
}
