/* src/common/agree.c — agreement on a status, for every layer and for the
 * program. */
#include <stdio.h>

#include <harmonia/agree.h>
#include <harmonia/error.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/idle.h"

typedef struct verdict {
    int rc;
    char sentence[HM_ERROR_MAX];
} verdict_t;

/* The lowest failing rank tells the others its status and sentence: one
 * reduction, and a broadcast only when something failed. */
int hm_agree_with(MPI_Comm comm, int rc, const char *sentence)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int me, size, first;
    if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_size");
    int mine = rc != HM_OK ? me : size;
    int mpi_rc = hm__idle_allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (mpi_rc != MPI_SUCCESS) return hm__mpi_status(mpi_rc, __func__, "MPI_Allreduce");
    if (first == size) return HM_OK;
    verdict_t v = {rc, ""};
    if (me == first) {
        const char *said = sentence ? sentence : hm_last_error();
        /* Never an empty sentence on every rank: the status's text then
         * (an exit status of a program: its number). */
        if (said[0])
            snprintf(v.sentence, sizeof v.sentence, "%s", said);
        else if (rc < 0)
            snprintf(v.sentence, sizeof v.sentence, "%s on rank %d", hm_strerror(rc), me);
        else
            snprintf(v.sentence, sizeof v.sentence, "status %d on rank %d", rc, me);
    }
    mpi_rc = MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, first, comm);
    if (mpi_rc != MPI_SUCCESS) return hm__mpi_status(mpi_rc, __func__, "MPI_Bcast");
    return hm__error_set(v.rc, "%s", v.sentence);
}

int hm_agree(MPI_Comm comm, int rc)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    return hm_agree_with(comm, rc, NULL);
}
