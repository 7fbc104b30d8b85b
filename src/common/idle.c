/* src/common/idle.c — sleeping waits. */
#include "common/idle.h"

#include <errno.h>
#include <time.h>

/* 50 us: short against a synchronization's duration, long enough that the
 * waiter costs the measured pair almost nothing. */
enum { IDLE_NAP_NS = 50000 };

/* Poll this long before the first nap: a message that is about to arrive
 * (a partner a few microseconds behind) costs no nap's wake-up latency, and
 * a waiter that outnumbers the cores gives the core away after 20 us. */
static const double IDLE_POLL_S = 20e-6;

int hm__idle_wait(MPI_Request *req, MPI_Status *status)
{
#if HM_SMPI
    /* A simulated rank shares no core, and SMPI charges every MPI_Test
     * that fails simulated time (smpi/test, 100 us and growing). */
    return MPI_Wait(req, status);
#endif
    int done = 0, rc;
    struct timespec nap = {0, IDLE_NAP_NS};
    double until = MPI_Wtime() + IDLE_POLL_S;
    while ((rc = MPI_Test(req, &done, status)) == MPI_SUCCESS && !done && MPI_Wtime() < until)
        continue;
    while (rc == MPI_SUCCESS && !done && (rc = MPI_Test(req, &done, status)) == MPI_SUCCESS &&
           !done)
        nanosleep(&nap, NULL);
    return rc;
}

int hm__idle_allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    if (HM_SMPI) return MPI_Allreduce(send, recv, count, type, op, comm);
    MPI_Request req;
    int rc = MPI_Iallreduce(send, recv, count, type, op, comm, &req);
    return rc == MPI_SUCCESS ? hm__idle_wait(&req, MPI_STATUS_IGNORE) : rc;
}

int hm__idle_barrier(MPI_Comm comm)
{
    if (HM_SMPI) return MPI_Barrier(comm);
    MPI_Request req;
    int rc = MPI_Ibarrier(comm, &req);
    return rc == MPI_SUCCESS ? hm__idle_wait(&req, MPI_STATUS_IGNORE) : rc;
}

int hm__idle_scatter(const void *send, int send_count, MPI_Datatype send_type, void *recv,
                     int recv_count, MPI_Datatype recv_type, int root, MPI_Comm comm)
{
    if (HM_SMPI)
        return MPI_Scatter(send, send_count, send_type, recv, recv_count, recv_type, root, comm);
    MPI_Request req;
    int rc =
        MPI_Iscatter(send, send_count, send_type, recv, recv_count, recv_type, root, comm, &req);
    return rc == MPI_SUCCESS ? hm__idle_wait(&req, MPI_STATUS_IGNORE) : rc;
}

int hm__idle_wait_token(MPI_Comm comm, int src, int tag)
{
    MPI_Request req;
    int rc = MPI_Irecv(NULL, 0, MPI_BYTE, src, tag, comm, &req);
    return rc == MPI_SUCCESS ? hm__idle_wait(&req, MPI_STATUS_IGNORE) : rc;
}

void hm__idle_sleep(double s)
{
    if (!(s > 0)) return;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) continue;
}
