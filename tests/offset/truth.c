/* tests/offset/truth.c */
#include "truth.h"

#include <stdlib.h>

int truth_init(truth_t *t, MPI_Comm comm, double offset_s, double drift, double jitter_s)
{
    MPI_Comm_rank(comm, &t->rank);
    MPI_Comm_size(comm, &t->size);
    hm_timer_options_t o = {.synthetic = 1,
                            .seed = 7,
                            .domain = t->rank,
                            .rank = t->rank,
                            .spec = {.offset_s = offset_s, .drift = drift, .jitter_s = jitter_s}};
    int rc = hm_timer_create("monotonic", &o, &t->timer, NULL, 0);
    if (rc != HM_OK) return rc;
    if ((rc = hm_timer_agree_origin(t->timer, comm)) != HM_OK) return rc;
    if ((rc = hm_clock_identity(t->timer, &t->clock)) != HM_OK) return rc;
    double mine[2], *all = malloc(2 * sizeof(double) * (size_t)t->size);
    t->offset_s = malloc(sizeof(double) * (size_t)t->size);
    t->drift = malloc(sizeof(double) * (size_t)t->size);
    if (!all || !t->offset_s || !t->drift) return HM_ENOMEM;
    hm_timer_synthetic_draw(t->timer, &mine[0], &mine[1]);
    MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, comm);
    for (int r = 0; r < t->size; r++) t->offset_s[r] = all[2 * r], t->drift[r] = all[2 * r + 1];
    free(all);
    return HM_OK;
}

void truth_free(truth_t *t)
{
    hm_clock_free(t->clock);
    hm_timer_free(t->timer);
    free(t->offset_s);
    free(t->drift);
}

double truth_reading(const truth_t *t, int rank, double true_s)
{
    return true_s * (1 + t->drift[rank]) + t->offset_s[rank];
}

double truth_slope(const truth_t *t, int ref, int client)
{
    return 1 - (1 + t->drift[ref]) / (1 + t->drift[client]);
}
