/* tests/sync_hca/testbed.c */
#include "testbed.h"

#include <stdio.h>

int testbed_open(testbed_t *tb, double drift)
{
    int rank;
    char why[256] = "";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_timer_options_t o = {.synthetic = 1,
                            .spec = {.offset_s = 1.0, .drift = drift, .jitter_s = 0},
                            .seed = 7,
                            .domain = rank,
                            .rank = rank};
    *tb = (testbed_t){0};
    int mine = hm_timer_create("monotonic", &o, &tb->timer, why, sizeof why), rc;
    if (mine != HM_OK) fprintf(stderr, "[rank %d] synthetic timer: %s\n", rank, why);
    MPI_Allreduce(&mine, &rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* before a collective */
    if (rc == HM_OK) rc = hm_timer_agree_origin(tb->timer, MPI_COMM_WORLD);
    if (rc == HM_OK) rc = hm_clock_identity(tb->timer, &tb->base);
    if (rc == HM_OK) rc = hm_timer_synthetic_draw(tb->timer, &tb->offset_s, &tb->drift);
    double ref[2] = {tb->offset_s, tb->drift};
    MPI_Bcast(ref, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    tb->ref_offset_s = ref[0];
    tb->ref_drift = ref[1];
    return rc;
}

void testbed_close(testbed_t *tb)
{
    hm_clock_free(tb->base);
    hm_timer_free(tb->timer);
    *tb = (testbed_t){0};
}

double testbed_true_error(const testbed_t *tb, hm_clock_t *global)
{
    double truth_s;
    double now = hm_clock_now_truth(global, &truth_s);
    return now - (truth_s * (1 + tb->ref_drift) + tb->ref_offset_s);
}

double testbed_true_slope(const testbed_t *tb)
{
    return (tb->drift - tb->ref_drift) / (1 + tb->drift);
}

void testbed_params(hm_sync_params_t *params, int fitpoints, int exchanges)
{
    *params = (hm_sync_params_t){.fitpoints = fitpoints,
                                 .exchanges = exchanges,
                                 .offset = HM_OFFSET_SKAMPI,
                                 .drift = HM_DRIFT_AUTO,
                                 .drift_sigmas = 3,
                                 .recompute_intercept = 1};
}

int testbed_sync(hm_sync_fn fn, MPI_Comm comm, const testbed_t *tb, const hm_sync_params_t *params,
                 hm_clock_t **out, hm_sync_stats_t *stats, double *duration_s, char *why,
                 size_t why_len)
{
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    MPI_Barrier(dup);
    double start = MPI_Wtime();
    int rc = fn(dup, tb->base, params, out, stats, why, why_len);
    double mine = MPI_Wtime() - start;
    MPI_Allreduce(&mine, duration_s, 1, MPI_DOUBLE, MPI_MAX, dup);
    MPI_Comm_free(&dup);
    return rc;
}
