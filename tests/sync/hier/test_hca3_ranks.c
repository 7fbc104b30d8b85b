/* tests/sync/hier/test_hca3_ranks.c — hca3 over any number of ranks.
 *
 * Run with 3, 4 and 5 ranks on 2 cores: the binomial rounds over the ranks
 * below the largest power of two and the last step for the others (3 and 5)
 * are all exercised. Synthetic clocks, offset +-1 s, drift +-100 ppm, one per
 * rank. Checked right after the synchronization:
 *  - every rank's true error <= 50 us. Oversubscribed, a ping-pong can wait
 *    for a scheduler slice, and the errors of the chain add up over log2(p)
 *    rounds; 50 us still fails any rank left unsynchronized (offsets up to
 *    2 s) or synchronized to the wrong reference;
 *  - each rank but 0 learned exactly one model (Alg. 1: a client once), so
 *    the report counts p - 1 models. */
#include "testutil.h"
#include "truth.h"

enum { FITPOINTS = 100, EXCHANGES = 20 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, worst = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_sync_params_t p;
    hm_truth_params_default(&p, FITPOINTS, EXCHANGES);
    hm_truth_t t;
    hm_clock_t *global = NULL;
    hm_sync_report_t rep = {0};
    int rc =
        hm_truth_open(&t, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED, rank);
    HM_CHECK(rc == HM_OK, "synthetic clock created (status %d)", rc);
    if (rc == HM_OK) rc = hm_sync_run(MPI_COMM_WORLD, "hca3", &p, t.base, &global, &rep);
    HM_CHECK(rc == HM_OK, "hca3 over %d ranks succeeds (status %d: %s)", size, rc, hm_last_error());
    if (rc == HM_OK) {
        double err = hm_truth_max_error(&t, global, &worst);
        HM_CHECK(err <= 50e-6, "%d ranks: max true error right after %.3f us (rank %d) <= 50 us",
                 size, err * 1e6, worst);
        int models = rep.drift_models[0] + rep.offset_models[0];
        HM_CHECK(rep.nlevels == 1 && models == size - 1,
                 "%d ranks: one level (%d), %d models learned (%d drift, %d offset), one per "
                 "client",
                 size, rep.nlevels, models, rep.drift_models[0], rep.offset_models[0]);
        if (rank == 0)
            hm_test_note("hca3/%d/skampi/%d over %d ranks: duration %.3f s", p.fitpoints,
                         p.exchanges, size, rep.duration_s);
    }
    hm_clock_free(global);
    hm_truth_close(&t);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
