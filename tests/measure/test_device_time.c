/* tests/measure/test_device_time.c — a target's device time and call
 * time beside the host's times (hm_measure_target_t.device_time and
 * call_time, result.device_s and call_s: the same reduction).
 *
 * Each rank reports (rank + 1) ms for every run, except that rank 0's
 * callback fails on every third run: the root's device_s must be the
 * maximum over the ranks, size ms, on every attempt (a failing rank does
 * not count; only where every rank fails is it NaN: a second target fails
 * everywhere). A target without the callback has no device_s. The same
 * callback as call_time gives call_s the same values. Exact: the values
 * are reported, not measured. */
#include <math.h>

#include <harmonia/measure.h>

#include "testutil.h"
#include "truth.h"

typedef struct counting {
    int rank, fail_all;
    long runs;
} counting_t;

static int run(void *ctx)
{
    ((counting_t *)ctx)->runs++;
    return HM_OK;
}

static int device_time(void *ctx, double *seconds)
{
    const counting_t *c = ctx;
    if (c->fail_all || (c->rank == 0 && c->runs % 3 == 0)) return HM_ENOTSUP;
    *seconds = (c->rank + 1) * 1e-3;
    return HM_OK;
}

static void check(hm_procsync_t *ps, int with_device, int fail_all, int rank, int size)
{
    counting_t c = {rank, fail_all, 0};
    hm_measure_target_t t = {.run = run, .ctx = &c, .participates = 1};
    if (with_device) t.device_time = t.call_time = device_time;
    hm_measure_params_t mp;
    hm_measure_result_t r;
    hm_measure_params_default(&mp);
    mp.nrep = 20, mp.warmup = 2;
    int rc = hm_measure_run(MPI_COMM_WORLD, ps, &t, &mp, &r);
    HM_CHECK(rc == HM_OK, "run (device time %d, failing everywhere %d): %d", with_device, fail_all,
             rc);
    if (rc != HM_OK || rank != 0) {
        if (rc == HM_OK) hm_measure_result_free(&r);
        return;
    }
    if (!with_device) {
        HM_CHECK(r.device_s == NULL && r.call_s == NULL, "no callback, no device_s, no call_s");
    } else {
        long right = 0, calls = 0;
        for (long i = 0; i < r.n; i++) {
            right += fail_all ? isnan(r.device_s[i]) : r.device_s[i] == size * 1e-3;
            calls += fail_all ? isnan(r.call_s[i]) : r.call_s[i] == size * 1e-3;
        }
        HM_CHECK(right == r.n, "device_s %s on %ld of %ld attempts", fail_all ? "NaN" : "= size ms",
                 right, r.n);
        HM_CHECK(calls == r.n, "call_s %s on %ld of %ld attempts", fail_all ? "NaN" : "= size ms",
                 calls, r.n);
    }
    hm_measure_result_free(&r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    hm_timer_t *timer = NULL;
    hm_clock_t *global = NULL;
    hm_procsync_t *ps = NULL;
    hm_procsync_params_t pp;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_procsync_params_default(&pp);
    int rc = hm_truth_shared_clock(MPI_COMM_WORLD, &timer, &global);
    if (rc == HM_OK) rc = hm_procsync_create("barrier", MPI_COMM_WORLD, global, &pp, &ps);
    HM_CHECK(rc == HM_OK, "set up");
    if (rc == HM_OK) {
        check(ps, 1, 0, rank, size);
        check(ps, 1, 1, rank, size);
        check(ps, 0, 0, rank, size);
    }
    hm_procsync_free(ps);
    hm_clock_free(global);
    hm_timer_free(timer);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
