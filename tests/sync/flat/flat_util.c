/* tests/sync/flat/flat_util.c */
#include "flat_util.h"

#include <math.h>
#include <sched.h>

#include "common/idle.h"
#include "testutil.h"

int flat_pin(int rank)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int n = CPU_COUNT(&allowed);
    if (n <= 1) return 0;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed) || k++ != rank % n) continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one);
    }
    return -1;
}

double flat_max(MPI_Comm comm, double v)
{
    double m = v;
    MPI_Request req;
    MPI_Iallreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, comm, &req);
    hm__idle_wait(&req, MPI_STATUS_IGNORE);
    return m;
}

double flat_max_abs(MPI_Comm comm, double v)
{
    return flat_max(comm, fabs(v));
}

void flat_allreduce_int(MPI_Comm comm, const int *in, int *out, int n, MPI_Op op)
{
    MPI_Request req;
    MPI_Iallreduce(in, out, n, MPI_INT, op, comm, &req);
    hm__idle_wait(&req, MPI_STATUS_IGNORE);
}

int flat_sync(hm_sync_fn fn, MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
              hm_clock_t **out, hm__sync_stats_t *stats, double *duration_s)
{
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    hm_test_idle_barrier(dup);
    double t0 = MPI_Wtime();
    int rc = fn(dup, base, params, out, stats);
    *duration_s = MPI_Wtime() - t0;
    MPI_Comm_free(&dup);
    return rc;
}
