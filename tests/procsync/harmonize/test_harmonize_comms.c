/* tests/procsync/harmonize/test_harmonize_comms.c — hm_harmonize on several
 * communicators at once, at any size (functional, no precision).
 *
 *  - info and the clock of a communicator never used are HM_ENOENT / NULL,
 *    and bad options are refused alike on every rank (no state is made);
 *  - calls on MPI_COMM_WORLD and on a split of it (even / odd ranks),
 *    interleaved, all succeed, each communicator keeping its own state: the
 *    calls counted per communicator, one clock each, and a deadline that
 *    every rank of the communicator received alike;
 *  - configuring a communicator again replaces its state;
 *  - freeing the split frees its state: the state's private duplicate is
 *    released then (MPI_Comm_free is counted by interposition, PMPI), and
 *    info on a new communicator that may reuse the handle is HM_ENOENT.
 * World runs with the defaults (no configure) at 1 and 2 ranks; beyond, and
 * for the split, skampi with few exchanges keeps re-synchronizations short
 * under MPICH's busy-polling over more ranks than cores. */
#include <harmonia/procsync.h>

#include "testutil.h"

static long comm_frees; /* MPI_Comm_free calls, the library's included */

int MPI_Comm_free(MPI_Comm *comm)
{
    comm_frees++;
    return PMPI_Comm_free(comm);
}

static void configure_light(MPI_Comm comm)
{
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "skampi";
    o.sync.exchanges = 10;
    int rc = hm_harmonize_configure(comm, &o);
    HM_CHECK(rc == HM_OK, "configure (status %d)", rc);
}

static void check_fresh(void)
{
    MPI_Comm fresh;
    hm_harmonize_info_t info;
    MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
    int rc = hm_harmonize_info(fresh, &info);
    HM_CHECK(rc == HM_ENOENT, "info on a fresh communicator: HM_ENOENT (%d)", rc);
    HM_CHECK(hm_harmonize_clock(fresh) == NULL, "no clock on a fresh communicator");
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "hca4";
    rc = hm_harmonize_configure(fresh, &o);
    HM_CHECK(rc == HM_ENOENT, "configure with clock sync hca4: HM_ENOENT (%d)", rc);
    hm_harmonize_options_default(&o);
    o.timer = "sundial";
    rc = hm_harmonize_configure(fresh, &o);
    HM_CHECK(rc == HM_ENOENT, "configure with timer sundial: HM_ENOENT (%d)", rc);
    hm_harmonize_options_default(&o);
    o.resync_s = 0;
    rc = hm_harmonize_configure(fresh, &o);
    HM_CHECK(rc == HM_EINVAL, "configure with resync_s 0: HM_EINVAL (%d)", rc);
    rc = hm_harmonize_info(fresh, &info);
    HM_CHECK(rc == HM_ENOENT, "no state after refused options (%d)", rc);
    MPI_Comm_free(&fresh);
}

/* The deadline of the last call is the same on every rank of comm. */
static void check_state(MPI_Comm comm, const char *name, long calls)
{
    hm_harmonize_info_t info = {0};
    int rc = hm_harmonize_info(comm, &info);
    double d[2] = {info.deadline_s, -info.deadline_s};
    MPI_Allreduce(MPI_IN_PLACE, d, 2, MPI_DOUBLE, MPI_MAX, comm);
    HM_CHECK(rc == HM_OK && info.calls == calls, "%s: %ld calls counted (%ld)", name, calls,
             info.calls);
    HM_CHECK(d[0] == -d[1], "%s: one deadline on every rank (%.9f, %.9f)", name, d[0], -d[1]);
    HM_CHECK(info.resyncs >= 1 && info.slack_s >= info.bcast_latency_s,
             "%s: clocks synchronized (%ld), slack %.3f us >= MPI_Bcast %.3f us", name,
             info.resyncs, info.slack_s * 1e6, info.bcast_latency_s * 1e6);
}

int main(int argc, char **argv)
{
    int rank, size, rc = HM_OK, flag, valid[2] = {0, 0};
    MPI_Comm split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int calls = size > 2 ? 20 : 200;
    check_fresh();
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
    if (size > 2) configure_light(MPI_COMM_WORLD);
    configure_light(split);
    for (int i = 0; i < calls && rc == HM_OK; i++) {
        if ((rc = hm_harmonize(MPI_COMM_WORLD, &flag)) == HM_OK) valid[0] += flag;
        if (rc == HM_OK && (rc = hm_harmonize(split, &flag)) == HM_OK) valid[1] += flag;
    }
    HM_CHECK(rc == HM_OK, "%d interleaved calls on world and the split succeed (status %d)", calls,
             rc);
    hm_test_note("valid: %d/%d on world, %d/%d on the split", valid[0], calls, valid[1], calls);
    check_state(MPI_COMM_WORLD, "world", calls);
    check_state(split, "split", calls);
    HM_CHECK(hm_harmonize_clock(split) != hm_harmonize_clock(MPI_COMM_WORLD),
             "each communicator has its own clock");
    configure_light(split); /* replaces the state: counters start again */
    hm_harmonize_info_t info = {0};
    rc = hm_harmonize(split, &flag);
    hm_harmonize_info(split, &info);
    HM_CHECK(rc == HM_OK && info.calls == 1 && info.resyncs == 1,
             "configured again: a new state (%ld call, %ld synchronization)", info.calls,
             info.resyncs);
    long frees = comm_frees;
    MPI_Comm_free(&split);
    HM_CHECK(comm_frees - frees == 2,
             "freeing the split also freed its state's duplicate "
             "(%ld MPI_Comm_free calls, expected 2)",
             comm_frees - frees);
    check_fresh();
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
