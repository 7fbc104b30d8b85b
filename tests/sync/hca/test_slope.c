/* tests/sync/hca/test_slope.c — merging along the tree, seen in the slopes.
 * Run with 4 ranks: rank 3's model is merged from the pairs (2, 3) and
 * (0, 2), rank 1's comes straight from (0, 1), rank 2's from (0, 2).
 *
 * Each rank's final slope must equal the slope that maps its synthetic clock
 * exactly onto rank 0's, (d_r - d_0) / (1 + d_r) (hm_truth_slope), within
 * 1e-6. The relative drifts of seed 7 are 1.6e-5 to 3.4e-5 in magnitude, so
 * a merge that lost, doubled or negated a slope is off by 1.6e-5 or more; a
 * correct one is off by the fit errors of the (at most two) pairs on the
 * rank's path plus the product term s_ab s_bc of Merge_LMs (~3e-10, which
 * the merge computes exactly). Fit errors, measured with 4 ranks on 2 cores
 * (the pairs take turns, hca_tree.c), for 200 points of 100 ping-pongs:
 * below 3e-7 on a quiet machine, up to 7e-6 under other jobs' load, and
 * under MPICH pairs wander as described in test_precision.c (up to 7.6e-7
 * per pair for 500 points); 2000 points (a 160 ms span) keep them near
 * 1e-7 (at most 1.2e-7 measured over 14 runs of test_precision). */
#include <math.h>

#include "hca_util.h"
#include "testutil.h"
#include "truth.h"

enum { FITPOINTS = 2000, EXCHANGES = 100 };

static void check_slope(const char *name, hm_sync_fn fn, const hm_truth_t *tb)
{
    int rank;
    hm_sync_params_t params;
    hm__sync_stats_t stats = {0};
    hm_clock_t *global = NULL;
    double duration_s;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    params = hm_truth_params_skampi(FITPOINTS, EXCHANGES);
    int rc = hca_sync(fn, MPI_COMM_WORLD, tb->base, &params, &global, &stats, &duration_s);
    HM_CHECK(rc == HM_OK, "%s: status %d (%s)", name, rc, hm_strerror(rc));
    if (rc == HM_OK && rank > 0) {
        double want = hm_truth_slope(tb, 0, rank), got = hm_clock_lm(global).slope;
        HM_CHECK(hm_clock_kind(global) == HM_CLOCK_LINEAR, "%s: linear model (kind %d)", name,
                 (int)hm_clock_kind(global));
        HM_CHECK(fabs(got - want) <= 1e-6, "%s: slope %.4e, injected %.4e (error %.2e, <= 1e-6)",
                 name, got, want, got - want);
    }
    hm_clock_free(global);
    hm_test_idle_barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hm_truth_t tb;
    int rc = hm_truth_open(&tb, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED,
                           HM_TRUTH_OWN_CLOCK);
    HM_CHECK(rc == HM_OK, "synthetic clocks set up: status %d", rc);
    if (rc == HM_OK) {
        check_slope("hca", hm__sync_hca, &tb);
        check_slope("hca2", hm__sync_hca2, &tb);
    }
    hm_truth_close(&tb);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
