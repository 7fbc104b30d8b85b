/* tests/overlap/test_compute.c — the compute kernel of the overlap layer
 * (no MPI ranks): thread counts resolved and refused with the value and the
 * limit, one positive time per thread, the caller's binding kept, and the
 * calibration's refusals and non-convergence reported, never silent. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/overlap.h>

#include "testutil.h"

/* The processors this thread may run on, as the kernel does not count
 * them: an independent upper bound of the cores (one per core at least). */
static int affinity_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    return sched_getaffinity(0, sizeof *set, set) == 0 ? CPU_COUNT(set) : -1;
}

static void test_threads(int cores)
{
    cpu_set_t set;
    int cpus = affinity_cpus(&set);
    HM_CHECK(cores >= 1 && cores <= cpus,
             "cores %d: at least 1, at most the %d CPUs of the "
             "affinity mask",
             cores, cpus);

    hm_compute_t *c = NULL;
    hm_compute_params_t p;
    hm_compute_params_default(&p);
    HM_CHECK(p.threads == 0, "default threads 0 (one per core): %d", p.threads);
    int rc = hm_compute_create(&p, &c);
    HM_CHECK(rc == HM_OK && c, "threads 0: created (%d %s)", rc, hm_last_error());
    if (!c) return;
    HM_CHECK(hm_compute_threads(c) == cores && hm_compute_cores_of(c) == cores,
             "threads 0 -> %d threads of %d cores (expected all %d)", hm_compute_threads(c),
             hm_compute_cores_of(c), cores);
    int ascending = 1;
    for (int t = 1; t < hm_compute_threads(c); t++)
        ascending = ascending && hm_compute_core(c, t) > hm_compute_core(c, t - 1);
    HM_CHECK(ascending && hm_compute_core(c, 0) >= 0 && hm_compute_core(c, cores) == -1,
             "one core per thread, in order, none beyond the last thread");
    hm_compute_free(c);
}

static void expect_refused(int threads, const char *text)
{
    static char not_null;
    hm_compute_t *c = (hm_compute_t *)&not_null; /* the call must clear it */
    hm_compute_params_t p = {.threads = threads};
    int rc = hm_compute_create(&p, &c);
    HM_CHECK(rc == HM_EINVAL && c == NULL && strcmp(hm_last_error(), text) == 0,
             "threads %d: %d \"%s\" (expected HM_EINVAL \"%s\")", threads, rc, hm_last_error(),
             text);
}

static void test_refusals(int cores)
{
    char text[256];
    snprintf(text, sizeof text,
             "threads -1 must be 0 (one per core) or 1 to %d (the cores the calling thread may "
             "run on)",
             cores);
    expect_refused(-1, text);
    snprintf(text, sizeof text,
             "threads %d is more than the %d core%s the calling thread may run on", cores + 1,
             cores, cores == 1 ? "" : "s");
    expect_refused(cores + 1, text);
}

/* per_thread_s gets exactly threads entries: one sentinel past them stays. */
static void test_run(void)
{
    enum { N = 200 };
    hm_compute_t *c;
    if (hm_compute_create(NULL, &c) != HM_OK) {
        HM_CHECK(0, "create: %s", hm_last_error());
        return;
    }
    int threads = hm_compute_threads(c);
    char text[512];
    hm_compute_describe(c, text, sizeof text);
    HM_CHECK(strstr(text, "dgemm") && !strstr(text, "n="), "describe, no order yet: \"%s\"", text);
    double *times = malloc((size_t)(threads + 1) * sizeof *times);
    if (!times) return;
    for (int i = 0; i <= threads; i++) times[i] = NAN;
    HM_CHECK(hm_compute_run(c, times) == HM_EINVAL && isnan(times[0]),
             "run before any size: HM_EINVAL, nothing written (%s)", hm_last_error());
    int max = hm_compute_max_size(c);
    HM_CHECK(hm_compute_set_size(c, 0) == HM_EINVAL && hm_compute_set_size(c, max + 1) == HM_EINVAL,
             "orders 0 and %d refused: \"%s\"", max + 1, hm_last_error());

    cpu_set_t before, after;
    affinity_cpus(&before);
    int rc = hm_compute_set_size(c, N);
    if (rc == HM_OK) rc = hm_compute_run(c, times);
    affinity_cpus(&after);
    HM_CHECK(rc == HM_OK && hm_compute_size(c) == N, "n = %d: run %d (%s)", N, rc, hm_last_error());
    /* 2 n^3 = 16 Mflop: above 1 TFLOP/s per core would be no dgemm at all,
     * and the slowest machine takes well under a second. */
    double fastest = hm_compute_flop(N) / 1e12;
    for (int t = 0; t < threads; t++)
        HM_CHECK(times[t] > fastest && times[t] < 1.0, "thread %d: %.6f s (%.1f GFLOP/s)", t,
                 times[t], hm_compute_flop(N) / times[t] * 1e-9);
    HM_CHECK(isnan(times[threads]), "no time written past the %d threads", threads);
    HM_CHECK(CPU_EQUAL(&before, &after), "the calling thread's binding is the same after the run");

    hm_compute_describe(c, text, sizeof text);
    HM_CHECK(strstr(text, "dgemm") && strstr(text, "n=200"), "describe: \"%s\"", text);
    free(times);
    hm_compute_free(c);
}

static void expect_bad_calib(hm_compute_t *c, hm_compute_calib_params_t p, const char *text)
{
    hm_compute_calibration_t r;
    int rc = hm_compute_calibrate(c, &p, &r, NULL);
    HM_CHECK(rc == HM_EINVAL && strcmp(hm_last_error(), text) == 0 && r.probes == 0,
             "%d \"%s\" (expected HM_EINVAL \"%s\", no probe)", rc, hm_last_error(), text);
}

static void test_calibration_input(hm_compute_t *c)
{
    hm_compute_calib_params_t d, p;
    hm_compute_calib_params_default(&d);
    HM_CHECK(d.target_s == 0.01 && d.tolerance == 0.1 && d.runs == 5 && d.max_probes == 12,
             "defaults: 10 ms, 10 %%, 5 runs, 12 probes");
    p = d, p.target_s = 0;
    expect_bad_calib(c, p, "target 0 s must be a positive number of seconds");
    p = d, p.target_s = INFINITY;
    expect_bad_calib(c, p, "target inf s must be a positive number of seconds");
    p = d, p.tolerance = 1.5;
    expect_bad_calib(c, p, "tolerance 1.5 must be between 0 and 1 (0.1 = 10 %)");
    p = d, p.runs = 0;
    expect_bad_calib(c, p, "runs 0 must be 1 to 1000");
    p = d, p.max_probes = HM_COMPUTE_PROBES_MAX + 1;
    expect_bad_calib(c, p, "max_probes 17 must be 1 to 16");
    HM_CHECK(strcmp(hm_overlap_outcome_name(HM_OVERLAP_GAP), "gap") == 0 &&
                 hm_overlap_outcome_name((hm_overlap_outcome_t)99) == NULL,
             "outcome names");
}

/* A target no dgemm reaches (1 ns: n = 1 alone is slower) and a probe
 * budget too small (one probe at n = 64 for 20 ms): each is a status and a
 * flag, with the result filled. */
static void test_not_converged(hm_compute_t *c)
{
    hm_compute_calibration_t r;
    hm_compute_calib_params_t p;
    hm_compute_calib_params_default(&p);
    p.target_s = 1e-9;
    int rc = hm_compute_calibrate(c, &p, &r, NULL);
    HM_CHECK(rc == HM_ERANGE && !r.converged && r.outcome == HM_OVERLAP_BELOW_MIN && r.n == 1 &&
                 hm_compute_size(c) == 1 && strstr(hm_last_error(), "n = 1 takes"),
             "1 ns: %d %s after %d probes, n = %d: \"%s\"", rc, hm_overlap_outcome_name(r.outcome),
             r.probes, r.n, hm_last_error());

    hm_compute_free(c), c = NULL;
    if (hm_compute_create(NULL, &c) != HM_OK) return; /* a fresh handle: first probe 64 */
    double *per_thread = calloc((size_t)hm_compute_threads(c), sizeof *per_thread);
    if (!per_thread) return;
    p.target_s = 0.02, p.max_probes = 1;
    rc = hm_compute_calibrate(c, &p, &r, per_thread);
    HM_CHECK(rc == HM_EAGAIN && !r.converged && r.outcome == HM_OVERLAP_OUT_OF_PROBES &&
                 r.probes == 1 && r.n == 64 && r.probe[0].runs == 1 && per_thread[0] > 0 &&
                 r.time_s == r.probe[0].time_s,
             "20 ms in 1 probe: %d %s, n = %d, %.2g s in %d run(s): \"%s\"", rc,
             hm_overlap_outcome_name(r.outcome), r.n, r.time_s, r.probe[0].runs, hm_last_error());
    free(per_thread);
    hm_compute_free(c);
}

int main(void)
{
    int cores = 0;
    int rc = hm_compute_cores(&cores);
    HM_CHECK(rc == HM_OK, "hm_compute_cores: %d (%s)", rc, hm_last_error());
    if (rc != HM_OK) return hm_test_finish();
    test_threads(cores);
    test_refusals(cores);
    test_run();
    hm_compute_t *c;
    if (hm_compute_create(NULL, &c) == HM_OK) {
        test_calibration_input(c);
        test_not_converged(c); /* frees c */
    }
    return hm_test_finish();
}
