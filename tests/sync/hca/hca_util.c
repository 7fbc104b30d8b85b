/* tests/sync/hca/hca_util.c */
#include "hca_util.h"

int hca_sync(hm_sync_fn fn, MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
             hm_clock_t **out, hm__sync_stats_t *stats, double *duration_s)
{
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    MPI_Barrier(dup);
    double start = MPI_Wtime();
    int rc = fn(dup, base, params, out, stats);
    double mine = MPI_Wtime() - start;
    MPI_Allreduce(&mine, duration_s, 1, MPI_DOUBLE, MPI_MAX, dup);
    MPI_Comm_free(&dup);
    return rc;
}
