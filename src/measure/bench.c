/* src/measure/bench.c — hm_bench_run: the experiments of a latency
 * benchmark (operation x size), checked before any clock is synchronized,
 * run in a shuffled order, each handed over as a row. */
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>
#include <harmonia/bench.h>
#include <harmonia/gpu.h>

#include "common/comm_check.h"
#include "common/error_set.h"

typedef struct experiment {
    const hm_op_t *op;
    size_t size_bytes;
} experiment_t;

struct hm_bench_run {
    MPI_Comm comm;
    hm_bench_run_params_t params; /* sizes and ops not kept: the experiments hold them */
    const hm_op_t **ops;
    int nops;
    hm_gpu_nccl_t *nccl; /* made at the first hm_bench_run_measure of an NCCL run */
    experiment_t *experiments;
    size_t nexperiments;
    size_t *order;
};

static void set_failed(hm_bench_failed_t *failed, hm_bench_failed_t what)
{
    if (failed) *failed = what;
}

static int unknown_op(const hm_bench_run_t *run, const char *name)
{
    char known[512];
    if (run->params.nccl)
        hm_op_nccl_names(known, sizeof known);
    else
        hm_op_names(known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown %soperation \"%.64s\" (known: %s)",
                         run->params.nccl ? "NCCL " : "", name, known);
}

/* The operations of the comma-separated list, in its order. */
static int find_ops(hm_bench_run_t *run, const char *list)
{
    size_t len = strlen(list);
    char *buf = malloc(len + 1);
    run->ops = malloc((len / 2 + 1) * sizeof *run->ops); /* at most one per two characters */
    if (!buf || !run->ops) return free(buf), hm__error_nomem(__func__);
    memcpy(buf, list, len + 1);
    int rc = HM_OK;
    for (char *item = buf, *next; item && rc == HM_OK; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        const hm_op_t *op = run->params.nccl ? hm_op_nccl_find(item) : hm_op_find(item);
        if (op)
            run->ops[run->nops++] = op;
        else
            rc = unknown_op(run, item);
    }
    free(buf);
    return rc;
}

/* Root, peer and every size of every operation, against the communicator. */
static int check_ops(const hm_bench_run_t *run, hm_bench_failed_t *failed)
{
    /* An operation that needs more ranks is the choice of the operations. */
    static const hm_bench_failed_t what[] = {[HM_OP_CHECK_OK] = HM_BENCH_FAILED_OPS,
                                             [HM_OP_CHECK_RANKS] = HM_BENCH_FAILED_OPS,
                                             [HM_OP_CHECK_ROOT] = HM_BENCH_FAILED_ROOT,
                                             [HM_OP_CHECK_PEER] = HM_BENCH_FAILED_PEER,
                                             [HM_OP_CHECK_SIZE] = HM_BENCH_FAILED_SIZE};
    hm_op_check_failed_t which;
    for (int i = 0; i < run->nops; i++)
        for (int s = 0; s < run->params.nsizes; s++) {
            int rc = hm_op_check_which(run->ops[i], run->comm, run->params.sizes[s],
                                       &run->params.op, &which);
            if (rc == HM_OK) continue;
            set_failed(failed, what[which]);
            return hm__error_set(rc, "%s (operation %s)", hm_last_error(), hm_op_name(run->ops[i]));
        }
    return HM_OK;
}

/* Op-major, sizes as given: the rows' index; the run order shuffled. */
static int list_experiments(hm_bench_run_t *run)
{
    size_t most = (size_t)run->nops * (size_t)run->params.nsizes;
    run->experiments = malloc(most * sizeof *run->experiments);
    run->order = malloc(most * sizeof *run->order);
    if (!run->experiments || !run->order) return hm__error_nomem(__func__);
    for (int i = 0; i < run->nops; i++)
        for (int k = 0; k < run->params.nsizes; k++) {
            int sized = hm_op_uses_size(run->ops[i]);
            if (!sized && k > 0) break;
            experiment_t e = {run->ops[i], sized ? run->params.sizes[k] : 0};
            run->experiments[run->nexperiments++] = e;
        }
    hm_measure_shuffle(run->order, run->nexperiments, run->params.seed);
    return HM_OK;
}

static int create(MPI_Comm comm, const hm_bench_run_params_t *params, hm_bench_run_t *run,
                  hm_bench_failed_t *failed)
{
    if (!params->ops || !params->sizes || params->nsizes < 1) {
        set_failed(failed, params->ops ? HM_BENCH_FAILED_SIZE : HM_BENCH_FAILED_OPS);
        return hm__error_set(HM_EINVAL, "%s", params->ops ? "no size" : "no operation");
    }
    if (params->op.batch > 1 && !params->nccl) {
        set_failed(failed, HM_BENCH_FAILED_BATCH);
        return hm__error_set(HM_EINVAL,
                             "%d operations a run are for NCCL's (one stream synchronization "
                             "after them); an MPI operation runs once a repetition",
                             params->op.batch);
    }
    run->comm = comm;
    run->params = *params;
    set_failed(failed, HM_BENCH_FAILED_OPS);
    int rc = find_ops(run, params->ops);
    if (rc == HM_OK) rc = check_ops(run, failed);
    if (rc == HM_OK) set_failed(failed, HM_BENCH_FAILED_NONE), rc = list_experiments(run);
    if (rc == HM_ENOMEM)
        set_failed(failed, HM_BENCH_FAILED_RUN), hm__error_set(rc, "no memory for the experiments");
    return rc;
}

int hm_bench_run_create(MPI_Comm comm, const hm_bench_run_params_t *params, hm_bench_run_t **out,
                        hm_bench_failed_t *failed)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    set_failed(failed, HM_BENCH_FAILED_NONE);
    if (!params) return hm__error_null(__func__, "params");
    if (!out) return hm__error_null(__func__, "out");
    hm_bench_failed_t what = HM_BENCH_FAILED_NONE;
    hm_bench_run_t *run = calloc(1, sizeof *run);
    int rc = run ? create(comm, params, run, &what) : hm__error_set(HM_ENOMEM, "no memory");
    rc = hm_agree(comm, rc);
    /* The parameters are the same on every rank, and so is what they fail
     * on; a rank that failed alone (memory) names it on all. */
    int code = rc == HM_OK ? 0 : (int)what;
    if (rc != HM_OK && MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        code = HM_BENCH_FAILED_RUN;
    set_failed(failed, (hm_bench_failed_t)code);
    if (rc != HM_OK) hm_bench_run_free(run), run = NULL;
    *out = run;
    return rc;
}

size_t hm_bench_run_rows(const hm_bench_run_t *run)
{
    if (!run) return hm__error_null(__func__, "run"), 0;
    return run->nexperiments;
}

/* Collective: the operation at size in the run's memory, on its backend. */
static int prepare(const hm_bench_run_t *run, const experiment_t *x, hm_op_instance_t **inst)
{
    const hm_op_params_t *p = &run->params.op;
    if (run->params.nccl)
        return hm_op_prepare_nccl(x->op, run->comm, run->nccl, x->size_bytes, p, inst);
    if (run->params.device_memory)
        return hm_op_prepare_device(x->op, run->comm, x->size_bytes, p, inst);
    return hm_op_prepare(x->op, run->comm, x->size_bytes, p, inst);
}

/* A run of batch launches timed as one: the times of one operation are
 * the run's divided by batch (root's arrays; the start spread stays the
 * run's). */
static void per_operation(hm_measure_result_t *r, int batch)
{
    for (long i = 0; batch > 1 && r->global_s && i < r->n; i++) {
        r->global_s[i] /= batch;
        if (r->local_s) r->local_s[i] /= batch;
    }
}

/* One experiment: prepared, measured, handed over, freed. */
static int run_one(hm_bench_run_t *run, hm_procsync_t *ps, const hm_measure_params_t *params,
                   size_t k, hm_bench_row_fn row, void *ctx, hm_bench_failed_t *failed)
{
    const experiment_t *x = &run->experiments[run->order[k]];
    const char *name = hm_op_name(x->op);
    hm_op_instance_t *inst = NULL;
    int rank;
    MPI_Comm_rank(run->comm, &rank);
    set_failed(failed, HM_BENCH_FAILED_RUN);
    int rc = hm_agree(run->comm, prepare(run, x, &inst));
    if (rc != HM_OK) {
        hm_op_free(inst);
        return hm__error_set(rc, "%s %zu B: %s", name, x->size_bytes, hm_last_error());
    }
    hm_measure_target_t target;
    hm_measure_result_t r;
    hm_measure_target_op(&target, x->op, inst, rank, run->params.op.peer);
    double t0 = MPI_Wtime();
    rc = hm_measure_run(run->comm, ps, &target, params, &r);
    if (rc == HM_OK || rc == HM_EAGAIN) per_operation(&r, run->params.op.batch);
    hm_bench_row_t out = {x->op, x->size_bytes, run->order[k], k, rc, &r, MPI_Wtime() - t0};
    if (rc == HM_OK || rc == HM_EAGAIN) {
        rc = row(ctx, &out);
        if (rc != HM_OK) set_failed(failed, HM_BENCH_FAILED_ROW);
    } else {
        hm__error_set(rc, "%s %zu B: %s", name, x->size_bytes, hm_last_error());
    }
    hm_measure_result_free(&r);
    hm_op_free(inst);
    return rc;
}

int hm_bench_run_measure(hm_bench_run_t *run, hm_procsync_t *ps, const hm_measure_params_t *params,
                         hm_bench_row_fn row, void *ctx, hm_bench_failed_t *failed)
{
    set_failed(failed, HM_BENCH_FAILED_NONE);
    const char *null = !run ? "run" : !ps ? "ps" : !params ? "params" : !row ? "row" : NULL;
    if (null) return hm__error_null(__func__, null);
    int rc = HM_OK;
    if (run->params.nccl && !run->nccl) {
        rc = hm_gpu_nccl_create(run->comm, &run->nccl);
        if (rc != HM_OK) set_failed(failed, HM_BENCH_FAILED_NCCL);
    }
    for (size_t k = 0; k < run->nexperiments && rc == HM_OK; k++)
        rc = run_one(run, ps, params, k, row, ctx, failed);
    if (rc == HM_OK) set_failed(failed, HM_BENCH_FAILED_NONE);
    return rc;
}

void hm_bench_run_free(hm_bench_run_t *run)
{
    if (!run) return;
    hm_gpu_nccl_free(run->nccl);
    free(run->ops);
    free(run->experiments);
    free(run->order);
    free(run);
}
