/* tests/measure/test_ops_sync.c — every operation under every process
 * synchronization completes with the counts asked for, correct results
 * (validated every repetition) and positive times.
 *
 * Usage: test_ops_sync [functional]. At 2 ranks on a quiet machine the
 * methods run with their defaults. With "functional" (3 and 4 ranks on 2
 * cores, oversubscribed), or at 2 ranks beside other work (measured as
 * bench measures it, hm_interference_measure: MPICH at 2 ranks beside two
 * compilers ran out of attempts for scan, exscan and reduce_scatter_block
 * under window's 1 us tolerance), the
 * late-start tolerance and roundtime's lead are those fitted to the machine
 * (hm_procsync_fit, what bench uses) and the window is a fixed 10 ms after
 * that tolerance: ranks that outnumber the cores cannot all run at one
 * instant, and the test is that everything completes and is counted, not how
 * precisely: with the tolerance capped at half an operation's run-time, most
 * starts of a 256 B operation come too late there, so the attempts have the
 * budget of a busy machine (bench's) and an experiment that spends it ends
 * partial, its counts adding up. pingpong runs between rank 0
 * and the last rank, rooted operations at the last rank, so that non-zero
 * roots and peers are exercised. */
#include <string.h>

#include <harmonia/measure.h>
#include <harmonia/topo.h>

#include "testutil.h"
#include "truth.h"

enum { NREP = 12, WARMUP = 2 };

/* What a run must show: nrep valid; or, under the budget, every attempt of
 * the budget tried and counted. */
static int counted(const hm_measure_result_t *r, int rc, int budget)
{
    if (rc == HM_OK) return r->nvalid == NREP;
    return budget && rc == HM_EAGAIN && r->end == HM_MEASURE_END_BUDGET &&
           r->attempts == r->most_attempts && r->nvalid + r->ninvalid == r->attempts;
}

static int run_one(const hm_op_t *op, hm_procsync_t *ps, int rank, int size, int budget,
                   long *bad_times)
{
    hm_op_params_t p = {.root = size - 1, .peer = size > 1 ? size - 1 : 1};
    hm_op_instance_t *inst = NULL;
    hm_measure_target_t t;
    hm_measure_params_t mp;
    hm_measure_result_t r;
    size_t bytes = 256;
    if (hm_op_check(op, MPI_COMM_WORLD, bytes, &p) != HM_OK) return HM_OK;
    int rc = hm_op_prepare(op, MPI_COMM_WORLD, bytes, &p, &inst);
    if (rc != HM_OK) return rc;
    hm_measure_target_op(&t, op, inst, rank, p.peer);
    hm_measure_params_default(&mp);
    mp.nrep = NREP, mp.warmup = WARMUP, mp.validate = 1;
    if (budget) mp.budget_factor = HM_MEASURE_BUDGET_FACTOR;
    rc = hm_measure_run(MPI_COMM_WORLD, ps, &t, &mp, &r);
    if ((rc == HM_OK || rc == HM_EAGAIN) && (!counted(&r, rc, budget) || r.wrong_results != 0))
        rc = HM_EINTERNAL;
    else if (rc == HM_EAGAIN)
        rc = HM_OK;
    for (long i = 0; rank == 0 && rc == HM_OK && i < r.n; i++)
        *bad_times += r.valid[i] && !(r.global_s[i] > 0 && r.local_s[i] > 0);
    if (rc != HM_OK && rank == 0)
        hm_test_note("%s: status %d, %ld valid, %ld wrong results", hm_op_name(op), rc, r.nvalid,
                     r.wrong_results);
    hm_measure_result_free(&r);
    hm_op_free(inst);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, functional = argc > 1 && strcmp(argv[1], "functional") == 0;
    hm_timer_t *timer = NULL;
    hm_clock_t *global = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = hm_truth_shared_clock(MPI_COMM_WORLD, &timer, &global);
    hm_procsync_params_t fitted;
    hm_procsync_params_default(&fitted);
    hm_interference_t interference = {0};
    hm_procsync_fit_t fit = {0};
    if (rc == HM_OK) rc = hm_interference_measure(MPI_COMM_WORLD, 0.1, &interference);
    if (rc == HM_OK) /* once, as bench does; nothing on a quiet machine at 2 ranks */
        rc = hm_procsync_fit(MPI_COMM_WORLD, global, 0, &interference, &fitted, &fit);
    HM_CHECK(rc == HM_OK, "interference measured, late-start tolerance fitted where busy: %.1f us",
             fitted.late_s * 1e6);
    functional = functional || fit.derived;
    if (functional && rc == HM_OK) {
        fitted.window_s = 10e-3 + fitted.late_s;
        /* Without the fit's cap at half the run-time (issue 27): with more
         * ranks than cores most starts come later than that, and the subject
         * here is the counts (the cap: tests/procsync/test_fit.c). */
        fitted.late_cap_fraction = 0;
    }
    for (size_t m = 0; rc == HM_OK && m < hm_procsync_count(); m++) {
        const char *method = hm_procsync_name_at(m);
        hm_procsync_params_t pp = fitted;
        hm_procsync_t *ps = NULL;
        rc = hm_procsync_create(method, MPI_COMM_WORLD, global, &pp, &ps);
        HM_CHECK(rc == HM_OK, "%s created (%s)", method, hm_last_error());
        long failed = 0, bad_times = 0, ran = 0;
        for (size_t i = 0; rc == HM_OK && i < hm_op_count(); i++, ran++)
            failed += run_one(hm_op_find(hm_op_name_at(i)), ps, rank, size, functional,
                              &bad_times) != HM_OK;
        HM_CHECK(failed == 0,
                 "%s: %ld operations measured %d valid repetitions each%s, results "
                 "validated (%ld failed)",
                 method, ran, NREP, functional ? " or every attempt of the budget" : "", failed);
        if (rank == 0)
            HM_CHECK(bad_times == 0, "%s: every valid time positive (%ld not)", method, bad_times);
        hm_procsync_free(ps);
    }
    hm_clock_free(global);
    hm_timer_free(timer);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
