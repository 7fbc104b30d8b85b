/* src/overlap/run.c — the overlap run of [Denis et al. 2022, Alg. 1]:
 * t1, the nonblocking collective's call, t2, the computation, t3, MPI_Wait,
 * t4, with no MPI_Test between. Repetitions go through the measurement
 * engine (process synchronization, validity, warm-up), whose global
 * run-time of a repetition is t_measured = max t4 - min t1 on the global
 * clock; each rank keeps its own t_call, t_comp and t_wait. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <harmonia/measure.h>
#include <harmonia/agree.h>
#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "common/comm_check.h"
#include "common/error_set.h"

typedef struct overlap_ctx {
    const hm_overlap_comm_t *comm;
    hm_compute_t *compute; /* NULL: the communication alone (t_comm_ref) */
    hm_timer_t *timer;
    double *per_thread_s; /* scratch for hm_compute_run */
    long calls, warmup, capacity;
    double *call_s, *comp_s, *wait_s; /* this rank, per attempt */
} overlap_ctx_t;

static void record(overlap_ctx_t *c, double t1, double t2, double t3, double t4)
{
    long i = c->calls++ - c->warmup;
    if (i < 0 || i >= c->capacity) return;
    c->call_s[i] = t2 - t1;
    c->comp_s[i] = t3 - t2;
    c->wait_s[i] = t4 - t3;
}

static int overlap_rep(void *ctx)
{
    overlap_ctx_t *c = ctx;
    int rc_comp = HM_OK;
    if (c->comm->before) c->comm->before(c->comm->ctx);
    double t1 = hm_timer_now(c->timer);
    int rc = c->comm->start(c->comm->ctx);
    double t2 = hm_timer_now(c->timer);
    if (c->compute) rc_comp = hm_compute_run(c->compute, c->per_thread_s);
    double t3 = hm_timer_now(c->timer);
    int rc_wait = rc == HM_OK ? c->comm->wait(c->comm->ctx) : rc;
    double t4 = hm_timer_now(c->timer);
    record(c, t1, t2, t3, t4);
    return rc != HM_OK ? rc : rc_wait != HM_OK ? rc_wait : rc_comp;
}

static int overlap_validate(void *ctx, int *ok)
{
    overlap_ctx_t *c = ctx;
    return c->comm->validate(c->comm->ctx, ok);
}

static int op_start(void *inst)
{
    return hm_op_start(inst);
}

static int op_wait(void *inst)
{
    return hm_op_wait(inst);
}

static int op_validate(void *inst, int *ok)
{
    return hm_op_validate(inst, ok);
}

void hm_overlap_comm_op(hm_overlap_comm_t *comm, hm_op_instance_t *inst)
{
    if (!comm || !inst) {
        hm__error_null(__func__, !comm ? "comm" : "inst");
        return;
    }
    *comm = (hm_overlap_comm_t){
        .start = op_start, .wait = op_wait, .validate = op_validate, .ctx = inst};
}

void hm_overlap_result_free(hm_overlap_result_t *r)
{
    if (!r) return;
    free(r->measured_s);
    free(r->valid);
    free(r->rank_call_s);
    free(r->rank_comp_s);
    free(r->rank_wait_s);
    free(r->max_comp_s);
    free(r->max_mpi_s);
    memset(r, 0, sizeof *r);
}

static int alloc_ctx(overlap_ctx_t *c, long capacity, int threads)
{
    c->capacity = capacity;
    c->call_s = calloc((size_t)capacity, sizeof *c->call_s);
    c->comp_s = calloc((size_t)capacity, sizeof *c->comp_s);
    c->wait_s = calloc((size_t)capacity, sizeof *c->wait_s);
    c->per_thread_s = calloc((size_t)(threads > 0 ? threads : 1), sizeof *c->per_thread_s);
    return c->call_s && c->comp_s && c->wait_s && c->per_thread_s ? HM_OK
                                                                  : hm__error_nomem(__func__);
}

/* Root: max over ranks of t_comp and of t_call + t_wait, per attempt.
 * Collective: the allocations are agreed before the reductions, so a rank
 * out of memory leaves none waiting in them. */
static int reduce_ranks(MPI_Comm comm, const overlap_ctx_t *c, long n, hm_overlap_result_t *r)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t len = (size_t)(n ? n : 1);
    double *mpi_s = malloc(len * sizeof *mpi_s);
    if (rank == 0) {
        r->max_comp_s = malloc(len * sizeof *r->max_comp_s);
        r->max_mpi_s = malloc(len * sizeof *r->max_mpi_s);
    }
    int ok = mpi_s && (rank != 0 || (r->max_comp_s && r->max_mpi_s));
    int rc = hm_agree(comm, ok ? HM_OK : hm__error_nomem(__func__));
    for (long i = 0; rc == HM_OK && i < n; i++) mpi_s[i] = c->call_s[i] + c->wait_s[i];
    if (rc == HM_OK &&
        (MPI_Reduce(c->comp_s, r->max_comp_s, (int)n, MPI_DOUBLE, MPI_MAX, 0, comm) !=
             MPI_SUCCESS ||
         MPI_Reduce(mpi_s, r->max_mpi_s, (int)n, MPI_DOUBLE, MPI_MAX, 0, comm) != MPI_SUCCESS))
        rc = hm__error_mpi(__func__, "MPI_Reduce");
    free(mpi_s);
    return rc;
}

/* Root: the means behind the legacy overlap % (hm_overlap_osu_pct,
 * hm_overlap_imb_pct), each rank's over the repetitions the root's flags
 * (valid, root only) call valid. */
static int reduce_means(MPI_Comm comm, const overlap_ctx_t *c, long n, const unsigned char *valid,
                        hm_overlap_result_t *r)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    unsigned char *flags = malloc((size_t)(n ? n : 1));
    if (rank == 0 && flags && n) memcpy(flags, valid, (size_t)n);
    int all = hm_agree(comm, flags ? HM_OK : hm__error_nomem(__func__));
    if (all == HM_OK && MPI_Bcast(flags, (int)n, MPI_UNSIGNED_CHAR, 0, comm) != MPI_SUCCESS)
        all = hm__error_mpi(__func__, "MPI_Bcast");
    double sum[2] = {0, 0}, mean[2] = {NAN, NAN}, total[2] = {0, 0}, most = NAN;
    long k = 0;
    for (long i = 0; all == HM_OK && i < n; i++) {
        if (!flags[i]) continue;
        sum[0] += c->call_s[i] + c->comp_s[i] + c->wait_s[i];
        sum[1] += c->comp_s[i];
        k++;
    }
    if (k > 0) mean[0] = sum[0] / (double)k, mean[1] = sum[1] / (double)k;
    if (all == HM_OK &&
        (MPI_Reduce(mean, total, 2, MPI_DOUBLE, MPI_SUM, 0, comm) != MPI_SUCCESS ||
         MPI_Reduce(&mean[0], &most, 1, MPI_DOUBLE, MPI_MAX, 0, comm) != MPI_SUCCESS))
        all = hm__error_mpi(__func__, "MPI_Reduce");
    r->mean_overall_s = r->mean_comp_s = r->max_overall_s = NAN;
    if (all == HM_OK && rank == 0 && k > 0) {
        r->mean_overall_s = total[0] / size;
        r->mean_comp_s = total[1] / size;
        r->max_overall_s = most;
    }
    free(flags);
    return all;
}

/* The engine's result becomes ours: its global run-times and validity are
 * the root's t_measured and flags; the rank's own times are handed over. */
static void take(hm_overlap_result_t *r, hm_measure_result_t *m, overlap_ctx_t *c)
{
    r->n = m->attempts; /* m->n is the root's count only */
    r->nvalid = m->nvalid;
    r->measured_s = m->global_s;
    r->valid = m->valid;
    m->global_s = NULL;
    m->valid = NULL;
    memcpy(r->procsync, m->procsync, sizeof r->procsync);
    r->rank_call_s = c->call_s;
    r->rank_comp_s = c->comp_s;
    r->rank_wait_s = c->wait_s;
    c->call_s = c->comp_s = c->wait_s = NULL;
}

int hm_overlap_run(MPI_Comm comm, hm_procsync_t *ps, const hm_overlap_comm_t *nbc,
                   hm_compute_t *compute, const hm_measure_params_t *params,
                   hm_overlap_result_t *result)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !ps           ? "ps"
                       : !nbc        ? "nbc"
                       : !params     ? "params"
                       : !result     ? "result"
                       : !nbc->start ? "nbc->start"
                       : !nbc->wait  ? "nbc->wait"
                                     : NULL;
    if (null) return hm__error_null(__func__, null);
    memset(result, 0, sizeof *result);
    long max_attempts = params->max_attempts > 0 ? params->max_attempts : 10 * params->nrep + 100;
    overlap_ctx_t c = {.comm = nbc,
                       .compute = compute,
                       .timer = hm_clock_timer(hm_procsync_clock(ps)),
                       .warmup = params->warmup};
    int rc = alloc_ctx(&c, max_attempts, compute ? hm_compute_threads(compute) : 1);
    hm_measure_target_t target = {.run = overlap_rep,
                                  .validate = nbc->validate ? overlap_validate : NULL,
                                  .ctx = &c,
                                  .participates = 1};
    hm_measure_result_t m;
    memset(&m, 0, sizeof m);
    /* The allocation is agreed by the engine's first collective only if it
     * runs: agree here so that no rank enters it alone. */
    if ((rc = hm_agree(comm, rc)) == HM_OK) rc = hm_measure_run(comm, ps, &target, params, &m);
    if (rc == HM_OK || rc == HM_EAGAIN) {
        int rc2 = reduce_ranks(comm, &c, m.attempts, result);
        if (rc2 == HM_OK) rc2 = reduce_means(comm, &c, m.attempts, m.valid, result);
        take(result, &m, &c);
        if (rc2 != HM_OK) rc = rc2;
    }
    hm_measure_result_free(&m);
    free(c.call_s);
    free(c.comp_s);
    free(c.wait_s);
    free(c.per_thread_s);
    return rc;
}

/* The reference computation is timed as the overlap run times it (t3 - t2,
 * around hm_compute_run, the team's fork and join included) and reduced the
 * same way, the median over runs of the slowest rank's time, so that eq. 3
 * compares like with like: the median of per-run maxima exceeds the
 * largest per-rank median by the ranks' spread (6-9 % here at 2 ranks,
 * which read as a slowdown when the reference took the latter). Every run
 * starts together after a barrier, as the ranks compute at once in the
 * overlap run. */
int hm_overlap_comp_ref(MPI_Comm comm, hm_compute_t *compute, int runs, double *comp_ref_s)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!compute) return hm__error_null(__func__, "compute");
    if (!comp_ref_s) return hm__error_null(__func__, "comp_ref_s");
    if (runs < 1)
        return hm__error_set(HM_EINVAL, "%s: runs %d (accepted: 1 or more)", __func__, runs);
    double *t = malloc((size_t)runs * sizeof *t);
    double *per_thread = malloc((size_t)hm_compute_threads(compute) * sizeof *per_thread);
    int rc = t && per_thread ? HM_OK : hm__error_nomem(__func__);
    /* One run unrecorded: the first after a change of order touches its
     * new matrices (MPICH once gave a reference 0.65 of the next runs'). */
    if (rc == HM_OK) rc = hm_compute_run(compute, per_thread);
    for (int i = 0; i < runs; i++) {
        struct timespec a, b;
        if (MPI_Barrier(comm) != MPI_SUCCESS) rc = hm__error_mpi(__func__, "MPI_Barrier");
        clock_gettime(CLOCK_MONOTONIC, &a);
        if (rc == HM_OK) rc = hm_compute_run(compute, per_thread);
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (t) t[i] = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    }
    int all = hm_agree(comm, rc);
    if (all == HM_OK &&
        MPI_Allreduce(MPI_IN_PLACE, t, runs, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
        all = hm__error_mpi(__func__, "MPI_Allreduce");
    if (all == HM_OK) {
        hm_stats_sort(t, (size_t)runs);
        *comp_ref_s = hm_stats_quantile_sorted(t, (size_t)runs, 0.5);
    }
    free(t);
    free(per_thread);
    return all;
}
