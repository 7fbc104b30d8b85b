/* src/common/comm_check.c — MPI's lifetime and MPI_COMM_NULL, checked
 * before any MPI call (comm_check.h). */
#include <harmonia/error.h>

#include "common/comm_check.h"
#include "common/error_set.h"

int hm__comm_check(MPI_Comm comm, const char *fn)
{
    int initialized = 0, finalized = 0;
    /* The two calls MPI allows at any time (MPI 4.0 §11.2.1). */
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized)
        return hm__error_set(HM_EMPI, "%s: MPI is not initialized (call it after MPI_Init)", fn);
    if (finalized)
        return hm__error_set(HM_EMPI, "%s: MPI is finalized (call it before MPI_Finalize)", fn);
    if (comm == MPI_COMM_NULL)
        return hm__error_set(HM_EINVAL, "%s: the communicator is MPI_COMM_NULL", fn);
    return HM_OK;
}
