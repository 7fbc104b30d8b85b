/* src/procsync/wait.c — waiting for a deadline on the global clock. */
#include <math.h>
#include <sched.h>
#include <time.h>

#include <harmonia/topo.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "procsync/procsync_impl.h"

/* Naps of at most 1 ms: the clock is re-read after each, so a long wait
 * cannot oversleep by more than one nap's wake-up latency beyond spin_s. */
enum { MAX_NAP_NS = 1000000 };

/* Simulated time (SMPI) has no wake-up latency: a nap ends exactly, and
 * each read of the clock and each nap cost the simulation an event, so the
 * naps are not cut into milliseconds (a 10 s wait of 4096 ranks would be 41
 * million events) and nothing spins. A nap sleeps all but 1/1000 of what is
 * left, since the global clock runs at the simulated time's rate only to
 * within its drift (ppm): a few naps reach the deadline, none passes it. */
static double smpi_wait_until(hm_clock_t *global, double target_s, double now)
{
    for (double left; (left = target_s - now) > 0; now = hm_clock_now(global)) {
        double nap_s = left * (1 - 1e-3);
        struct timespec ts = {(time_t)nap_s, (long)((nap_s - (double)(time_t)nap_s) * 1e9)};
        if (ts.tv_sec == 0 && ts.tv_nsec == 0) ts.tv_nsec = 1;
        nanosleep(&ts, NULL);
    }
    return now;
}

double hm_procsync_wait_until(hm_clock_t *global, double target_s, double spin_s, int yield)
{
    if (!global) {
        hm__error_null(__func__, "global");
        return NAN;
    }
    double now = hm_clock_now(global);
    if (HM_SMPI) return smpi_wait_until(global, target_s, now);
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
 * rank count as the index) has any. The ranks are the job's on the node,
 * not only comm's (hm_topo_job_node_ranks): the odd ranks of 4 on 2 cores
 * share them with the even ones, and judged as 2 ranks on 2 processors
 * their hm_harmonize flagged 0-87% of calls successful against 99% on the
 * world communicator of the same job. Everything that changes under
 * oversubscription (the yielding spin, the late-start tolerance of
 * hm_procsync_fit) follows from this answer. */
int hm__procsync_node_load(MPI_Comm comm, int *ranks, int *processors)
{
    int local, nprocs;
    hm_topo_job_node_ranks(comm, &local, &nprocs);
    int mine[2] = {local - nprocs, local}, worst[2] = {mine[0], mine[1]};
    MPI_Allreduce(mine, worst, 1, MPI_2INT, MPI_MAXLOC, comm);
    if (ranks) *ranks = worst[1];
    if (processors) *processors = worst[1] - worst[0];
    return worst[0] > 0;
}

int hm_procsync_oversubscribed(MPI_Comm comm)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    return hm__procsync_node_load(comm, NULL, NULL);
}
