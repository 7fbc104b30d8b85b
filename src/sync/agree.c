/* src/sync/agree.c — agreement on a status. */
#include <stdio.h>

#include <harmonia/error.h>

#include "common/idle.h"
#include "sync/agree.h"

typedef struct verdict {
    int rc;
    char why[HM_SYNC_WHY_MAX];
} verdict_t;

/* The lowest failing rank tells the others its status and sentence: one
 * reduction, and a broadcast only when something failed. */
int hm_sync_agree(MPI_Comm comm, int rc, char *why, size_t why_len)
{
    int me, size, first;
    MPI_Request req;
    if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return HM_EMPI;
    int mine = rc != HM_OK ? me : size;
    if (MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &req) != MPI_SUCCESS ||
        hm_idle_wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return HM_EMPI;
    if (first == size) return HM_OK;
    verdict_t v = {rc, ""};
    if (me == first && why && why_len) snprintf(v.why, sizeof v.why, "%s", why);
    if (MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, first, comm) != MPI_SUCCESS) return HM_EMPI;
    if (why && why_len) snprintf(why, why_len, "%s", v.why);
    return v.rc;
}
