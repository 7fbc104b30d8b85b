/* src/procsync/dissem.c — harmonia's dissemination barrier. */
#include <stddef.h>

#include <harmonia/procsync.h>

#include "common/comm_check.h"
#include "common/error_set.h"

/* ASCII "DB": distinct from the tags of the offset and sync layers. */
enum { TAG_DISSEM = 0x4442 };

int hm_procsync_dissem_barrier(MPI_Comm comm)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "%s: the communicator is not usable", __func__);
    /* ceil(log2 p) rounds: distance 1, 2, 4, ... while below p. */
    for (int dist = 1; dist < size; dist *= 2) {
        int to = (rank + dist) % size, from = (rank - dist + size) % size;
        if (MPI_Sendrecv(NULL, 0, MPI_BYTE, to, TAG_DISSEM, NULL, 0, MPI_BYTE, from, TAG_DISSEM,
                         comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Sendrecv");
    }
    return HM_OK;
}
