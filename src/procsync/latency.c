/* src/procsync/latency.c — the MPI_Bcast latency that sizes the slack of
 * harmonize (Schuchart et al. 2023, §5.2: "a starting value for the synchronization slack
 * is picked based on the latency of MPI_Bcast") and the start offset of
 * Round-Time (Hunold & Carpen-Amarie 2018, Alg. 5, line 1). */
#include <stdlib.h>

#include <harmonia/procsync.h>

#include "common/comm_check.h"
#include "common/error_set.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* reps MPI_Bcast latencies into lat, each the slowest rank's. */
static int time_bcasts(MPI_Comm comm, int reps, double *lat)
{
    double value = 0.0;
    for (int i = 0; i < reps; i++) {
        if (MPI_Barrier(comm) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Barrier");
        double t0 = MPI_Wtime();
        if (MPI_Bcast(&value, 1, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Bcast");
        lat[i] = MPI_Wtime() - t0;
    }
    if (MPI_Allreduce(MPI_IN_PLACE, lat, reps, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    return HM_OK;
}

/* Each repetition starts at a barrier's exit and ends when the double has
 * arrived; the slowest rank's time of a repetition is what a deadline sent
 * by broadcast must cover. The median over repetitions ignores the odd
 * preemption. */
int hm_procsync_bcast_latency(MPI_Comm comm, int reps, double *latency_s)
{
    if (!latency_s) return hm__error_null(__func__, "latency_s");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (reps < 1) return hm__error_set(HM_EINVAL, "%s: reps %d is below 1", __func__, reps);
    double *lat = malloc((size_t)reps * sizeof *lat);
    int ok = lat != NULL, all_ok;
    if (MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm) != MPI_SUCCESS) {
        free(lat);
        return hm__error_mpi(__func__, "MPI_Allreduce");
    }
    if (!all_ok) {
        free(lat);
        return hm__error_set(HM_ENOMEM, "%s: cannot allocate %d latencies on some rank", __func__,
                             reps);
    }
    int rc = time_bcasts(comm, reps, lat);
    if (rc == HM_OK) {
        qsort(lat, (size_t)reps, sizeof *lat, cmp_double);
        *latency_s = lat[reps / 2];
    }
    free(lat);
    return rc;
}
