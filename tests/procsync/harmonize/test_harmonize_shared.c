/* tests/procsync/harmonize/test_harmonize_shared.c — refreshes under a hierarchical
 * clock_sync ("skampi+prop", virtual nodes of 2 ranks): after a miss forces
 * a refresh, every rank of a node holds its leader's clock exactly, as the
 * full synchronization left it, instead of an estimate of its own. Checked
 * by evaluating each rank's clock at one local time: the ranks of a node
 * read one time source, so the copies must give bit-identical values
 * (exact, no tolerance). Before this, a refresh measured every rank against
 * the root and the members of rank 0's node ended 0.1-0.3 us off over TCP.
 * Also: the refresh runs (one more re-synchronization) and a member alone
 * on its node (rank 2 of 3) measures as before. */
#include <harmonia/procsync.h>
#include <harmonia/testing.h>

#include "testutil.h"

enum { WARMUP = 20, RANKS_PER_NODE = 2 };

/* Rank 0: every rank's clock at local time 1000 s, gathered. */
static void check_copies(MPI_Comm comm, int rank, int size)
{
    double mine = hm_clock_from_local(hm_harmonize_clock(comm), 1000.0), all[64];
    if (size > 64) return;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, comm);
    if (rank != 0) return;
    int same = 0, pairs = 0;
    for (int r = 1; r < size; r++) {
        if (r % RANKS_PER_NODE == 0) continue; /* a leader: its own estimate */
        pairs++;
        same += all[r] == all[r - r % RANKS_PER_NODE];
    }
    HM_CHECK(same == pairs, "%d of %d members hold their leader's clock exactly", same, pairs);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int rank, size, flag = 0, rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "skampi+prop";
    o.sync.exchanges = 10;
    o.sync.ranks_per_node = RANKS_PER_NODE;
    rc = hm_harmonize_configure(comm, &o);
    HM_CHECK(rc == HM_OK, "configure skampi+prop, 2 ranks per node (status %d)", rc);
    for (int i = 0; i < WARMUP && rc == HM_OK; i++) rc = hm_harmonize(comm, &flag);
    hm_harmonize_info_t before, after;
    hm_harmonize_info(comm, &before);
    /* A miss on the last rank: the next call refreshes the clocks. */
    if (rc == HM_OK && rank == size - 1)
        rc = hm_harmonize_inject_delay(comm, 5 * before.slack_s + 1e-3);
    for (int i = 0; i < 2 && rc == HM_OK; i++) rc = hm_harmonize(comm, &flag);
    HM_CHECK(rc == HM_OK, "every call succeeds (status %d)", rc);
    hm_harmonize_info(comm, &after);
    if (size > 1) {
        HM_CHECK(after.resyncs > before.resyncs && after.full_syncs == before.full_syncs,
                 "a refresh ran (resyncs %ld -> %ld, full %ld -> %ld)", before.resyncs,
                 after.resyncs, before.full_syncs, after.full_syncs);
        if (rc == HM_OK) check_copies(comm, rank, size);
    }
    MPI_Comm_free(&comm);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
