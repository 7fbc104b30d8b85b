/* src/procsync/dissem_method.c — --sync dissem: harmonia's own
 * dissemination barrier (dissem.c) before every repetition. Like barrier it
 * has no deadline, but its exit pattern is the same under every MPI library,
 * so results compare across libraries whatever their MPI_Barrier does. */
#include <stdio.h>

#include "procsync/procsync_impl.h"

static int dissem_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    (void)deadline_s; /* stays NaN */
    *flag = 1;
    return hm_procsync_dissem_barrier(ps->comm);
}

static void dissem_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    (void)ps;
    snprintf(buf, len, "dissemination barrier (no deadline)");
}

const hm__procsync_method_t hm__procsync_dissem_method = {
    .name = "dissem",
    .has_deadline = 0,
    .reads = HM_PROCSYNC_PARAM_CHECK_EVERY,
    .start = dissem_start,
    .describe = dissem_describe,
};
