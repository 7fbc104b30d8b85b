/* tests/procsync/harmonize/test_harmonize_refine.c — hm_harmonize over a
 * refining clock ("refine", issue 34): its re-synchronizations refine the
 * clock, and a refinement falling due is one more re-synchronization.
 *
 *   truth  2 ranks, synthetic clocks (offset within +-1 s, drift within
 *          +-100 ppm): the clock and refiner of hm_sync_run_refining are
 *          handed to hm_harmonize_configure (options.global, .refiner),
 *          then calls run for 2.5 s with resync_s 0.5. Refinements are due
 *          1, 2, 4, ... ms after the ready phase, 12 of them by 2.048 s,
 *          and each re-synchronization for resync_s refines too, so at
 *          least 11 refinements (one short: the last may fall due after
 *          the last call). The ready clock has no drift model: without the
 *          refinements 100 ppm would part the ranks by 50 us within 0.5 s;
 *          with them, the drift is refitted over spans that double, and the
 *          median true exit skew must be <= 5 us, the bound hca3's clock is
 *          held to in test_harmonize_truth. No full synchronization runs
 *          (the given clock saved the first, refinements replace the rest).
 *   own    any ranks, the real clock: no global clock given, clock_sync
 *          "refine": hm_harmonize synchronizes once (its own refiner) and
 *          then refines; 0.2 s of calls see the refinements due at 1 ... 128
 *          ms (8 when calls come every few microseconds; with calls C ms
 *          apart, the first is at C and the instants before are skipped:
 *          log2(200 / C) + 1, 3 still at C = 50 ms, a scheduler slice per
 *          call under MPICH's busy polling at 4 ranks on 2 cores), and
 *          exactly 1 full synchronization. */
#include <stdlib.h>
#include <string.h>

#include <harmonia/procsync.h>

#include "skew.h"
#include "testutil.h"
#include "truth.h"

enum { MAX_CALLS = 400000 };

/* Calls until run_s of global time passed: every rank decides alike, on the
 * deadline it received from the root. *exits: true time after each call
 * (timer may be NULL: not read). */
static int run_calls(MPI_Comm comm, double run_s, hm_timer_t *timer, double *exits, int *flags)
{
    hm_harmonize_info_t info;
    int n = 0, rc = hm_harmonize(comm, &flags[0]);
    hm_harmonize_info(comm, &info);
    double end = info.deadline_s + run_s;
    while (rc == HM_OK && n < MAX_CALLS) {
        rc = hm_harmonize(comm, &flags[n]);
        if (timer) hm_timer_now_truth(timer, &exits[n]);
        n++;
        hm_harmonize_info(comm, &info);
        if (info.deadline_s > end) break;
    }
    HM_CHECK(rc == HM_OK, "%d calls succeed (status %d)", n, rc);
    return n;
}

static void check_truth(MPI_Comm comm, const double *exits, const int *flags, int n,
                        const hm_sync_refiner_t *rf)
{
    hm_harmonize_info_t info = {0};
    hm_sync_refiner_stats_t rs = {0};
    skew_t s;
    hm_harmonize_info(comm, &info);
    hm_sync_refiner_stats(rf, &rs);
    if (skew_summarize(comm, exits, flags, n, &s) != 0) return;
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0) return;
    hm_test_note("true exit skew over %d/%d valid calls: median %.3f us, p90 %.3f us, max %.3f us",
                 s.valid, s.n, s.median_s * 1e6, s.p90_s * 1e6, s.max_s * 1e6);
    hm_test_note("%ld calls, %ld resyncs, %ld full, %ld refinements costing %.3f ms; on rank 0 "
                 "%ld missed, %ld clock errors, %ld late exits",
                 info.calls, info.resyncs, info.full_syncs, rs.refinements, rs.refine_cost_s * 1e3,
                 info.missed, info.clock_errors, info.late_exits);
    HM_CHECK(s.valid > 0 && s.median_s <= 5e-6, "median true exit skew %.3f us <= 5 us",
             s.median_s * 1e6);
    HM_CHECK(rs.refinements >= 11, "%ld refinements in 2.5 s (>= 11)", rs.refinements);
    HM_CHECK(info.resyncs == rs.refinements, "every re-synchronization a refinement (%ld, %ld)",
             info.resyncs, rs.refinements);
    HM_CHECK(info.full_syncs == 0, "no full synchronization (%ld)", info.full_syncs);
}

static void truth(MPI_Comm comm, double *exits, int *flags)
{
    hm_truth_t t = {0};
    hm_clock_t *global = NULL;
    hm_sync_refiner_t *rf = NULL;
    hm_synthetic_spec_t spec = {1.0, 1e-4, 0};
    int rc = hm_truth_open(&t, comm, spec, HM_TRUTH_SEED, HM_TRUTH_OWN_CLOCK);
    HM_CHECK(rc == HM_OK, "synthetic clocks (status %d)", rc);
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "refine";
    if (rc == HM_OK) rc = hm_sync_run_refining(comm, "refine", &o.sync, t.base, &global, NULL, &rf);
    HM_CHECK(rc == HM_OK && rf, "refine over the synthetic clocks (status %d)", rc);
    o.global = global, o.refiner = rf, o.resync_s = 0.5;
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup); /* the state goes with dup, freed before the refiner */
    if (rc == HM_OK) rc = hm_harmonize_configure(dup, &o);
    HM_CHECK(rc == HM_OK, "hm_harmonize_configure with the clock and its refiner (status %d)", rc);
    if (rc == HM_OK) check_truth(dup, exits, flags, run_calls(dup, 2.5, t.timer, exits, flags), rf);
    MPI_Comm_free(&dup);
    hm_sync_refiner_free(rf);
    hm_clock_free(global);
    hm_truth_close(&t);
}

static void own(MPI_Comm comm, double *exits, int *flags)
{
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "refine";
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    int size, rc = hm_harmonize_configure(dup, &o);
    MPI_Comm_size(dup, &size);
    HM_CHECK(rc == HM_OK, "hm_harmonize_configure under refine (status %d)", rc);
    if (rc == HM_OK) run_calls(dup, 0.2, NULL, exits, flags);
    hm_harmonize_info_t info = {0};
    hm_harmonize_info(dup, &info);
    hm_test_note("%ld resyncs, %ld full, %ld calls", info.resyncs, info.full_syncs, info.calls);
    HM_CHECK(info.full_syncs == 1, "one full synchronization (%ld)", info.full_syncs);
    /* Over one rank there is nothing to refine (no refiner): only the
     * re-synchronizations resync_s asks for, none in 0.2 s. */
    if (size > 1)
        HM_CHECK(info.resyncs - info.full_syncs >= 3, "%ld refinements in 0.2 s (>= 3)",
                 info.resyncs - info.full_syncs);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int *flags = calloc(MAX_CALLS, sizeof(int));
    double *exits = calloc(MAX_CALLS, sizeof(double));
    HM_CHECK(flags && exits, "arrays");
    const char *mode = argc > 1 ? argv[1] : "own";
    if (flags && exits && !strcmp(mode, "truth")) truth(MPI_COMM_WORLD, exits, flags);
    if (flags && exits && !strcmp(mode, "own")) own(MPI_COMM_WORLD, exits, flags);
    free(flags);
    free(exits);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
