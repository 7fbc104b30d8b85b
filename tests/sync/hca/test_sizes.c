/* tests/sync/hca/test_sizes.c — hca and hca2 over communicators of every size
 * from 1 to the number of ranks (run with 3, 4, 5 and 7 ranks: the sizes that
 * are not powers of two go through Sync_Clocks_Remaining), the tree with
 * concurrent pairs, and the agreement on an error.
 *
 * Functional bound: every rank's true error right after the synchronization
 * is at most 50 us. With more ranks than cores a rank can lose its core in
 * the middle of a ping-pong, but SKaMPI keeps the fastest round trip of each
 * measurement and hca2 adds at most floor(log2 p) + 1 pairwise errors of a
 * microsecond or so; 50 us still fails on a wrong model of any rank (the
 * injected offsets are up to 1 s, the drifts 100 ppm). Beside other work
 * the bound widens with the preemptions seen (hm_test_clock_bound_s). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sync/hca_tree.h"
#include "hca_util.h"
#include "testutil.h"
#include "truth.h"

/* Cheaper than the precision test: this one checks structure, not precision. */
enum { FITPOINTS = 100, EXCHANGES = 50 };

/* hca2's tree with the pairs of a round measuring at the same time, as on a
 * machine with a core per rank (HM_HCA_TURNS_NEVER; on this oversubscribed
 * machine hca and hca2 take turns, HM_HCA_TURNS_AUTO): the messages of
 * concurrent pairs must not cross. Few fit points: with more busy-polling
 * ranks than cores (MPICH) a ping-pong waits for both of its ranks to be
 * scheduled, and 100 points of 50 ping-pongs per pair took 12 s at 5 ranks.
 * Bound: 10 ms. The pairs share cores, so all exchanges of an intercept's
 * measurement may wait for the scheduler (time slices of ms; measured up to
 * 1.9 ms with 10 exchanges) and hca2 adds the intercept errors of up to 3
 * pairs on a path; 10 ms still fails on a model that crossed pairs or lost
 * an intercept (the injected offsets are up to 1 s). */
static int concurrent_tree(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                           hm_clock_t **out, hm__sync_stats_t *stats)
{
    hm_lm_t lm;
    hm_sync_params_t few = *params;
    few.fitpoints = 10;
    int rc = hm__hca_tree(comm, base, &few, HM_HCA_TURNS_NEVER, &lm, stats);
    return hm__hca_finish(comm, base, lm, rc, out, "tree");
}

static void check_size(const char *name, hm_sync_fn fn, const hm_truth_t *tb, int n, double bound_s)
{
    int rank;
    MPI_Comm sub;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bound_s = hm_test_clock_bound_s(MPI_COMM_WORLD, bound_s);
    MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &sub);
    if (sub != MPI_COMM_NULL) {
        hm_sync_params_t params;
        hm__sync_stats_t stats = {0};
        hm_clock_t *global = NULL;
        double duration_s;
        params = hm_truth_params_skampi(FITPOINTS, EXCHANGES);
        int rc = hca_sync(fn, sub, tb->base, &params, &global, &stats, &duration_s);
        double error_s = rc == HM_OK ? hm_truth_error(tb, global, NULL) : NAN;
        HM_CHECK(rc == HM_OK, "%s over %d ranks: status %d (%s)", name, n, rc, hm_strerror(rc));
        HM_CHECK(fabs(error_s) <= bound_s,
                 "%s over %d ranks: true error %.3f us (<= %.0f us), %.1f ms", name, n,
                 error_s * 1e6, bound_s * 1e6, duration_s * 1e3);
        if (rank == 0)
            HM_CHECK(global == tb->base, "%s over %d ranks: rank 0 keeps its base clock", name, n);
        else
            HM_CHECK(stats.pingpongs > 0, "%s over %d ranks: %ld ping-pongs counted", name, n,
                     stats.pingpongs);
        hm_clock_free(global);
        MPI_Comm_free(&sub);
    }
    hm_test_idle_barrier(MPI_COMM_WORLD); /* the others sleep meanwhile */
}

/* One fit point is refused by hm__sync_learn_pair on the ranks of the pairs
 * only; every rank must still come back with the same status, the same
 * sentence and no clock. */
static void check_agreement(const char *name, hm_sync_fn fn, const hm_truth_t *tb)
{
    int size, rc, lowest, highest, same_why;
    char why[128] = "", why0[128];
    hm_sync_params_t params;
    hm__sync_stats_t stats = {0};
    hm_clock_t *global = NULL;
    double duration_s;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    params = hm_truth_params_skampi(1, EXCHANGES);
    rc = hca_sync(fn, MPI_COMM_WORLD, tb->base, &params, &global, &stats, &duration_s);
    snprintf(why, sizeof why, "%s", hm_last_error());
    MPI_Allreduce(&rc, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&rc, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    memcpy(why0, why, sizeof why);
    MPI_Bcast(why0, sizeof why0, MPI_CHAR, 0, MPI_COMM_WORLD);
    int mine = strcmp(why, why0) == 0;
    MPI_Allreduce(&mine, &same_why, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (size > 1)
        HM_CHECK(rc == HM_EINVAL && lowest == highest && global == NULL && same_why,
                 "%s with 1 fit point: status %d on this rank, %d to %d over all, clock %s, "
                 "why \"%s\" (%s on every rank)",
                 name, rc, lowest, highest, global ? "set" : "not set", why,
                 same_why ? "same" : "not the same");
    hm_clock_free(global);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_truth_t tb;
    int rc = hm_truth_open(&tb, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED,
                           HM_TRUTH_OWN_CLOCK);
    HM_CHECK(rc == HM_OK, "synthetic clocks set up: status %d", rc);
    for (int n = 1; rc == HM_OK && n <= size; n++) {
        check_size("hca", hm__sync_hca, &tb, n, 50e-6);
        check_size("hca2", hm__sync_hca2, &tb, n, 50e-6);
        check_size("concurrent tree", concurrent_tree, &tb, n, 10e-3);
    }
    if (rc == HM_OK) {
        check_agreement("hca", hm__sync_hca, &tb);
        check_agreement("hca2", hm__sync_hca2, &tb);
    }
    hm_truth_close(&tb);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
