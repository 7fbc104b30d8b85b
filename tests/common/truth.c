/* tests/common/truth.c */
#include "truth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int hm_truth_open(hm_truth_t *t, MPI_Comm comm, hm_synthetic_spec_t spec, uint64_t seed, int domain)
{
    *t = (hm_truth_t){.comm = comm};
    MPI_Comm_rank(comm, &t->rank);
    MPI_Comm_size(comm, &t->size);
    hm_timer_options_t o = {.synthetic = 1,
                            .spec = spec,
                            .seed = seed,
                            .domain = domain == HM_TRUTH_OWN_CLOCK ? t->rank : domain,
                            .rank = t->rank};
    size_t n = (size_t)t->size;
    double mine[2] = {0, 0}, *all = calloc(2 * n, sizeof(double));
    t->offsets_s = calloc(n, sizeof(double));
    t->drifts = calloc(n, sizeof(double));
    int local = all && t->offsets_s && t->drifts ? HM_OK : HM_ENOMEM, rc;
    if (local == HM_OK) local = hm_timer_create("monotonic", &o, &t->timer);
    if (local != HM_OK)
        fprintf(stderr, "[rank %d] synthetic timer: %s\n", t->rank,
                local == HM_ENOMEM ? hm_strerror(local) : hm_last_error());
    MPI_Allreduce(&local, &rc, 1, MPI_INT, MPI_MIN, comm); /* before a collective */
    if (rc == HM_OK) {
        local = hm_timer_agree_origin(t->timer, comm);
        if (local == HM_OK) local = hm_clock_identity(t->timer, &t->base);
        if (local == HM_OK) local = hm_timer_synthetic_draw(t->timer, &mine[0], &mine[1]);
        MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, comm);
        for (size_t r = 0; r < n; r++) t->offsets_s[r] = all[2 * r], t->drifts[r] = all[2 * r + 1];
        MPI_Allreduce(&local, &rc, 1, MPI_INT, MPI_MIN, comm);
    }
    free(all);
    return rc;
}

void hm_truth_close(hm_truth_t *t)
{
    hm_clock_free(t->base);
    hm_timer_free(t->timer);
    free(t->offsets_s);
    free(t->drifts);
    *t = (hm_truth_t){0};
}

double hm_truth_offset(const hm_truth_t *t, int rank)
{
    return t->offsets_s[rank];
}

double hm_truth_drift(const hm_truth_t *t, int rank)
{
    return t->drifts[rank];
}

double hm_truth_reading(const hm_truth_t *t, int rank, double true_s)
{
    return true_s * (1 + t->drifts[rank]) + t->offsets_s[rank];
}

double hm_truth_slope(const hm_truth_t *t, int ref, int client)
{
    return (t->drifts[client] - t->drifts[ref]) / (1 + t->drifts[client]);
}

double hm_truth_error(const hm_truth_t *t, hm_clock_t *global, double *truth_s)
{
    double T, now = hm_clock_now_truth(global, &T);
    if (truth_s) *truth_s = T;
    return now - hm_truth_reading(t, 0, T);
}

double hm_truth_max_error(const hm_truth_t *t, hm_clock_t *global, int *worst_rank)
{
    struct {
        double err;
        int rank;
    } mine = {fabs(hm_truth_error(t, global, NULL)), t->rank}, max;
    MPI_Allreduce(&mine, &max, 1, MPI_DOUBLE_INT, MPI_MAXLOC, t->comm);
    if (worst_rank) *worst_rank = max.rank;
    return max.err;
}

void hm_truth_params_default(hm_sync_params_t *p, int fitpoints, int exchanges)
{
    hm_sync_params_default(p);
    if (fitpoints > 0) p->fitpoints = fitpoints;
    if (exchanges > 0) p->exchanges = exchanges;
}

hm_sync_params_t hm_truth_params_skampi(int fitpoints, int exchanges)
{
    return (hm_sync_params_t){.fitpoints = fitpoints,
                              .exchanges = exchanges,
                              .offset = HM_OFFSET_SKAMPI,
                              .drift = HM_DRIFT_AUTO,
                              .drift_sigmas = 3,
                              .recompute_intercept = 1};
}

int hm_truth_shared_clock(MPI_Comm comm, hm_timer_t **timer, hm_clock_t **global)
{
    int rc = hm_timer_create("monotonic", NULL, timer), all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm); /* before a collective */
    if (all == HM_OK) rc = hm_timer_agree_origin(*timer, comm);
    if (all == HM_OK && rc == HM_OK) rc = hm_clock_identity(*timer, global);
    if (all == HM_OK) MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}
