/* tests/sync/hier/test_hca3_precision.c — hca3 against the truth at 2 ranks.
 *
 * Usage: test_hca3_precision [FITPOINTS EXCHANGES [WAIT_S]] (0 = default).
 *
 * Two synchronizations over synthetic clocks (offset +-1 s): one with drift
 * within +-100 ppm, one without drift. Each rank's global clock must match
 * rank 0's clock within
 *  - 2 us right after: the intercept is re-measured at the end of the fit
 *    (Alg. 2), and a SKaMPI offset over shared memory errs by at most half
 *    the asymmetry of its best ping-pong, ~0.1 us; 2 us leaves room for a
 *    loaded machine while a missed intercept (up to 2 s) fails;
 *  - 5 us ten seconds later with drift: the slope of a fit over ~0.2 s of
 *    offsets is known to ~0.1 ppm, i.e. ~1 us after 10 s, while an ignored
 *    drift (up to 200 ppm between two clocks) would show 2000 us;
 *  - 2 us ten seconds later without drift: drift auto must drop the
 *    insignificant slope (or keep one too small to matter), so the error
 *    stays at the intercept's.
 * Both waits run at once (one sleep) to keep the test short. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "truth.h"

enum { FITPOINTS = 1000, EXCHANGES = 100, WAIT_S = 10 };

typedef struct outcome {
    hm_clock_t *global;
    hm_sync_report_t report;
    double now_s, later_s; /* max |true error| over ranks */
} outcome_t;

static int sync_one(const hm_truth_t *t, const hm_sync_params_t *p, outcome_t *o)
{
    int rc = hm_sync_run(MPI_COMM_WORLD, "hca3", p, t->base, &o->global, &o->report);
    HM_CHECK(rc == HM_OK, "hca3 over 2 ranks succeeds (status %d: %s)", rc, hm_last_error());
    if (rc == HM_OK) o->now_s = hm_truth_max_error(t, o->global, NULL);
    return rc;
}

static void describe(const char *what, const hm_sync_params_t *p, const outcome_t *o, int wait_s)
{
    hm_test_note("%s, hca3/%d/skampi/%d: true error %.3f us now, %.3f us after %d s; "
                 "duration %.3f s; %d drift / %d offset models; %ld ping-pongs on this rank",
                 what, p->fitpoints, p->exchanges, o->now_s * 1e6, o->later_s * 1e6, wait_s,
                 o->report.duration_s, o->report.drift_models[0], o->report.offset_models[0],
                 o->report.pingpongs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, wait_s = argc > 3 ? atoi(argv[3]) : WAIT_S;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_sync_params_t p;
    hm_truth_params_default(&p, argc > 2 ? atoi(argv[1]) : FITPOINTS,
                            argc > 2 ? atoi(argv[2]) : EXCHANGES);
    hm_truth_t drifting = {0}, steady = {0};
    outcome_t d = {0}, s = {0};
    hm_synthetic_spec_t drift = {1.0, 1e-4, 0}, none = {1.0, 0, 0};
    int ok = hm_truth_open(&drifting, MPI_COMM_WORLD, drift, HM_TRUTH_SEED, rank) == HM_OK &&
             hm_truth_open(&steady, MPI_COMM_WORLD, none, HM_TRUTH_SEED, rank) == HM_OK;
    HM_CHECK(ok, "synthetic clocks (offset 1 s, drift 100 ppm and 0) created");
    if (ok && sync_one(&drifting, &p, &d) == HM_OK && sync_one(&steady, &p, &s) == HM_OK) {
        sleep((unsigned)wait_s);
        d.later_s = hm_truth_max_error(&drifting, d.global, NULL);
        s.later_s = hm_truth_max_error(&steady, s.global, NULL);
        if (rank == 0) {
            describe("drift 100 ppm", &p, &d, wait_s);
            describe("no drift", &p, &s, wait_s);
        }
        HM_CHECK(d.now_s <= 2e-6, "drift 100 ppm: max true error right after %.3f us <= 2 us",
                 d.now_s * 1e6);
        HM_CHECK(d.later_s <= 5e-6, "drift 100 ppm: max true error %d s later %.3f us <= 5 us",
                 wait_s, d.later_s * 1e6);
        HM_CHECK(d.report.drift_models[0] == 1 && d.report.offset_models[0] == 0,
                 "drift 100 ppm: the one model keeps its slope (%d drift, %d offset models)",
                 d.report.drift_models[0], d.report.offset_models[0]);
        HM_CHECK(s.now_s <= 2e-6, "no drift: max true error right after %.3f us <= 2 us",
                 s.now_s * 1e6);
        HM_CHECK(s.later_s <= 2e-6, "no drift: max true error %d s later %.3f us <= 2 us", wait_s,
                 s.later_s * 1e6);
    }
    hm_clock_free(d.global);
    hm_clock_free(s.global);
    hm_truth_close(&drifting);
    hm_truth_close(&steady);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
