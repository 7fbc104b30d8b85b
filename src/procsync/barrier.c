/* src/procsync/barrier.c — --sync barrier: MPI_Barrier before every
 * repetition (what OSU and IMB do). No deadline: every repetition is valid,
 * and the exit pattern is whatever the MPI library's barrier gives (Hunold & Carpen-Amarie 2016
 * §4.3, Fig. 10). */
#include <stdio.h>

#include "common/error_set.h"
#include "procsync/procsync_impl.h"

static int barrier_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    (void)deadline_s; /* stays NaN */
    *flag = 1;
    return MPI_Barrier(ps->comm) == MPI_SUCCESS ? HM_OK : hm__error_mpi(__func__, "MPI_Barrier");
}

static void barrier_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    (void)ps;
    snprintf(buf, len, "MPI_Barrier (no deadline)");
}

const hm__procsync_method_t hm__procsync_barrier_method = {
    .name = "barrier",
    .has_deadline = 0,
    .reads = HM_PROCSYNC_PARAM_CHECK_EVERY,
    .start = barrier_start,
    .describe = barrier_describe,
};
