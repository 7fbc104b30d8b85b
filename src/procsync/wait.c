/* src/procsync/wait.c — waiting for a deadline on the global clock. */
#include <sched.h>
#include <time.h>

#include <harmonia/topo.h>

#include "procsync/procsync_impl.h"

/* Naps of at most 1 ms: the clock is re-read after each, so a long wait
 * cannot oversleep by more than one nap's wake-up latency beyond spin_s. */
enum { MAX_NAP_NS = 1000000 };

double hm_procsync_wait_until(hm_clock_t *global, double target_s, double spin_s, int yield)
{
    /* Simulated time (SMPI) has no wake-up latency: a nap ends exactly, and
     * each read of the clock costs simulated time (smpi/wtime, 10 ns), so
     * naps go all the way to the deadline instead of spinning. */
    if (HM_SMPI) spin_s = 0, yield = 0;
    double now = hm_clock_now(global);
    for (double left; (left = target_s - now) > spin_s; now = hm_clock_now(global)) {
        double nap_s = left - spin_s;
        long nap_ns = nap_s * 1e9 < MAX_NAP_NS ? (long)(nap_s * 1e9) : MAX_NAP_NS;
        struct timespec ts = {0, nap_ns > 0 ? nap_ns : 1};
        nanosleep(&ts, NULL);
    }
    while (now < target_s) {
        if (yield) sched_yield();
        now = hm_clock_now(global);
    }
    return now;
}

/* The one place that decides whether comm is oversubscribed: the node with
 * the most ranks beyond its online processors (MAXLOC on the excess, its
 * rank count as the index) has any. Everything that changes under
 * oversubscription (the yielding spin, the late-start tolerance of
 * hm_procsync_fit) follows from this answer. */
int hm_procsync_node_load(MPI_Comm comm, int *ranks, int *processors)
{
    int local, nprocs;
    hm_topo_node_ranks(comm, &local, &nprocs);
    int mine[2] = {local - nprocs, local}, worst[2] = {mine[0], mine[1]};
    MPI_Allreduce(mine, worst, 1, MPI_2INT, MPI_MAXLOC, comm);
    if (ranks) *ranks = worst[1];
    if (processors) *processors = worst[1] - worst[0];
    return worst[0] > 0;
}

int hm_procsync_oversubscribed(MPI_Comm comm)
{
    return hm_procsync_node_load(comm, NULL, NULL);
}
