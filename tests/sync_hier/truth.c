/* tests/sync_hier/truth.c */
#include <math.h>

#include "truth.h"

int truth_open(truth_t *t, double drift, int domain)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_timer_options_t o = {.synthetic = 1,
                            .spec = {.offset_s = 1.0, .drift = drift, .jitter_s = 0},
                            .seed = 7,
                            .domain = domain,
                            .rank = rank};
    *t = (truth_t){0};
    int rc = hm_timer_create("monotonic", &o, &t->timer, NULL, 0);
    if (rc == HM_OK) rc = hm_timer_agree_origin(t->timer, MPI_COMM_WORLD);
    if (rc == HM_OK) rc = hm_clock_identity(t->timer, &t->base);
    double draw[2] = {0, 0};
    if (rc == HM_OK) rc = hm_timer_synthetic_draw(t->timer, &draw[0], &draw[1]);
    MPI_Bcast(draw, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    t->ref_offset_s = draw[0];
    t->ref_drift = draw[1];
    return rc;
}

void truth_close(truth_t *t)
{
    hm_clock_free(t->base);
    hm_timer_free(t->timer);
    *t = (truth_t){0};
}

double truth_error(const truth_t *t, hm_clock_t *global)
{
    double truth_s, global_s = hm_clock_now_truth(global, &truth_s);
    return global_s - (truth_s * (1.0 + t->ref_drift) + t->ref_offset_s);
}

double truth_max_error(const truth_t *t, hm_clock_t *global, int *worst_rank)
{
    struct {
        double err;
        int rank;
    } mine, max;
    MPI_Comm_rank(MPI_COMM_WORLD, &mine.rank);
    mine.err = fabs(truth_error(t, global));
    MPI_Allreduce(&mine, &max, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (worst_rank) *worst_rank = max.rank;
    return max.err;
}

void truth_params(hm_sync_params_t *p, int fitpoints, int exchanges)
{
    hm_sync_params_default(p);
    if (fitpoints > 0) p->fitpoints = fitpoints;
    if (exchanges > 0) p->exchanges = exchanges;
}
