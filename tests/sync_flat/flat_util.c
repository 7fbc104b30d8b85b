/* tests/sync_flat/flat_util.c */
#include "flat_util.h"

#include <math.h>
#include <sched.h>

#include "common/idle.h"
#include "testutil.h"

int flat_bed_init(flat_bed_t *bed, MPI_Comm comm, hm_synthetic_spec_t spec)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    *bed = (flat_bed_t){0};
    hm_timer_options_t o = {
        .synthetic = 1, .spec = spec, .seed = FLAT_SEED, .domain = rank, .rank = rank};
    int rc = hm_timer_create("monotonic", &o, &bed->timer, NULL, 0);
    if (rc == HM_OK) rc = hm_timer_agree_origin(bed->timer, comm);
    if (rc == HM_OK) rc = hm_clock_identity(bed->timer, &bed->base);
    if (rc == HM_OK) rc = hm_timer_synthetic_draw(bed->timer, &bed->offset_s, &bed->drift);
    double ref[2] = {bed->offset_s, bed->drift};
    MPI_Bcast(ref, 2, MPI_DOUBLE, 0, comm);
    bed->ref_offset_s = ref[0];
    bed->ref_drift = ref[1];
    return rc;
}

void flat_bed_free(flat_bed_t *bed)
{
    hm_clock_free(bed->base);
    hm_timer_free(bed->timer);
}

double flat_true_error(const flat_bed_t *bed, hm_clock_t *global, double *truth_s)
{
    double t, now = hm_clock_now_truth(global, &t);
    if (truth_s) *truth_s = t;
    return now - (t * (1 + bed->ref_drift) + bed->ref_offset_s);
}

int flat_pin(int rank)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int n = CPU_COUNT(&allowed);
    if (n <= 1) return 0;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed) || k++ != rank % n) continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one);
    }
    return -1;
}

double flat_max(MPI_Comm comm, double v)
{
    double m = v;
    MPI_Request req;
    MPI_Iallreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, comm, &req);
    hm_idle_wait(&req, MPI_STATUS_IGNORE);
    return m;
}

double flat_max_abs(MPI_Comm comm, double v)
{
    return flat_max(comm, fabs(v));
}

void flat_allreduce_int(MPI_Comm comm, const int *in, int *out, int n, MPI_Op op)
{
    MPI_Request req;
    MPI_Iallreduce(in, out, n, MPI_INT, op, comm, &req);
    hm_idle_wait(&req, MPI_STATUS_IGNORE);
}

hm_sync_params_t flat_params(int fitpoints, int exchanges)
{
    return (hm_sync_params_t){.fitpoints = fitpoints,
                              .exchanges = exchanges,
                              .offset = HM_OFFSET_SKAMPI,
                              .drift = HM_DRIFT_AUTO,
                              .drift_sigmas = 3,
                              .recompute_intercept = 1};
}

int flat_sync(hm_sync_fn fn, MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
              hm_clock_t **out, hm_sync_stats_t *stats, double *duration_s)
{
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    hm_test_idle_barrier(dup);
    double t0 = MPI_Wtime();
    int rc = fn(dup, base, params, out, stats, NULL, 0);
    *duration_s = MPI_Wtime() - t0;
    MPI_Comm_free(&dup);
    return rc;
}
