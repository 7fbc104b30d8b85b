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

int hm_idle_wait(MPI_Request *req, MPI_Status *status)
{
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

int hm_idle_wait_token(MPI_Comm comm, int src, int tag)
{
    MPI_Request req;
    int rc = MPI_Irecv(NULL, 0, MPI_BYTE, src, tag, comm, &req);
    return rc == MPI_SUCCESS ? hm_idle_wait(&req, MPI_STATUS_IGNORE) : rc;
}

void hm_idle_sleep(double s)
{
    if (!(s > 0)) return;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) continue;
}
