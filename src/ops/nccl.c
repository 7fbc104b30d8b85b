/* src/ops/nccl.c — NCCL's collectives and point-to-point as operations of
 * bench (--backend nccl), with nccl-tests' sizes and bus factors. The
 * buffers, their input pattern and the validations are those of the MPI
 * operations of the same shape: an NCCL allgather must leave what
 * MPI_Allgather leaves, so the oracle is the same code. */
#include <string.h>

#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/names.h"
#include "ops/ops_impl.h"

#if HM_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

/* sendrecv (nccl-tests' sendrecv_perf): each rank sends count bytes to the
 * next and receives as many from the previous. */
static void layout_sendrecv(hm_op_instance_t *inst)
{
    inst->send_bytes = inst->recv_bytes = (size_t)inst->count;
}

/* bcast out of place: every rank's result holds the root's input, the
 * root's too (hm__op_valid_bcast checks the whole result). */
static void layout_bcast(hm_op_instance_t *inst)
{
    inst->send_bytes = inst->rank == inst->root ? (size_t)inst->count : 0;
    inst->recv_bytes = (size_t)inst->count;
}

static int valid_sendrecv(const hm_op_instance_t *inst)
{
    int from = (inst->rank + inst->p - 1) % inst->p;
    for (size_t k = 0; k < inst->recv_bytes; k++)
        if (inst->recv[k] != hm__op_byte(from, k)) return 0;
    return 1;
}

#if HM_HAVE_NCCL
typedef ncclResult_t (*launch_fn)(hm_op_instance_t *inst);

/* A run: inst->batch launches back to back on the stream (each waits on
 * the one before there, not on the host), then one synchronization, as
 * nccl-tests times its -n operations. Each launch moves the next copy of
 * the buffers (device.c), across runs too. */
static int batched(hm_op_instance_t *inst, launch_fn launch)
{
    ncclResult_t r = ncclSuccess;
    for (int b = 0; r == ncclSuccess && b < inst->batch; b++) {
        r = launch(inst);
        inst->copy = (inst->copy + 1) % inst->copies;
    }
    if (r != ncclSuccess)
        return hm__error_set(HM_EMPI, "NCCL %s failed: %s", inst->op->name, ncclGetErrorString(r));
    cudaError_t e = cudaStreamSynchronize(inst->stream);
    if (e != cudaSuccess)
        return hm__error_set(HM_EMPI, "NCCL %s: cudaStreamSynchronize failed: %s", inst->op->name,
                             cudaGetErrorString(e));
    return HM_OK;
}

static ncclResult_t launch_allreduce(hm_op_instance_t *inst)
{
    return ncclAllReduce(HM_OP_DSEND(inst), HM_OP_DRECV(inst), (size_t)inst->count, ncclInt32,
                         ncclSum, inst->nccl_comm, inst->stream);
}

static ncclResult_t launch_reduce(hm_op_instance_t *inst)
{
    return ncclReduce(HM_OP_DSEND(inst), HM_OP_DRECV(inst), (size_t)inst->count, ncclInt32, ncclSum,
                      inst->root, inst->nccl_comm, inst->stream);
}

static ncclResult_t launch_reduce_scatter(hm_op_instance_t *inst)
{
    return ncclReduceScatter(HM_OP_DSEND(inst), HM_OP_DRECV(inst), (size_t)inst->count, ncclInt32,
                             ncclSum, inst->nccl_comm, inst->stream);
}

static ncclResult_t launch_allgather(hm_op_instance_t *inst)
{
    return ncclAllGather(HM_OP_DSEND(inst), HM_OP_DRECV(inst), (size_t)inst->count, ncclInt8,
                         inst->nccl_comm, inst->stream);
}

/* Out of place, as nccl-tests' broadcast_perf (its out-of-place column):
 * the root copies its input into its own result as well. In place, NCCL
 * at one rank launches nothing (0.7-1.8 us at every size on an H100, a
 * bandwidth of 74 TB/s at 128 MiB), and the row would be a figure of no
 * traffic. */
static ncclResult_t launch_bcast(hm_op_instance_t *inst)
{
    return ncclBroadcast(HM_OP_DSEND(inst), HM_OP_DRECV(inst), (size_t)inst->count, ncclInt8,
                         inst->root, inst->nccl_comm, inst->stream);
}

/* A group of sends and receives, block d to and from rank d, as
 * nccl-tests' alltoall does (ncclAlltoAll is NCCL 2.28's only). */
static ncclResult_t launch_alltoall(hm_op_instance_t *inst)
{
    size_t c = (size_t)inst->count;
    ncclResult_t r = ncclGroupStart();
    for (int d = 0; r == ncclSuccess && d < inst->p; d++) {
        r = ncclSend((char *)HM_OP_DSEND(inst) + d * c, c, ncclInt8, d, inst->nccl_comm,
                     inst->stream);
        if (r == ncclSuccess)
            r = ncclRecv((char *)HM_OP_DRECV(inst) + d * c, c, ncclInt8, d, inst->nccl_comm,
                         inst->stream);
    }
    ncclResult_t end = ncclGroupEnd();
    return r == ncclSuccess ? end : r;
}

static ncclResult_t launch_sendrecv(hm_op_instance_t *inst)
{
    int next = (inst->rank + 1) % inst->p, prev = (inst->rank + inst->p - 1) % inst->p;
    size_t c = (size_t)inst->count;
    ncclResult_t r = ncclGroupStart();
    if (r == ncclSuccess)
        r = ncclSend(HM_OP_DSEND(inst), c, ncclInt8, next, inst->nccl_comm, inst->stream);
    if (r == ncclSuccess)
        r = ncclRecv(HM_OP_DRECV(inst), c, ncclInt8, prev, inst->nccl_comm, inst->stream);
    ncclResult_t end = ncclGroupEnd();
    return r == ncclSuccess ? end : r;
}

#define BATCHED(name)                                                                              \
    static int run_##name(hm_op_instance_t *inst)                                                  \
    {                                                                                              \
        return batched(inst, launch_##name);                                                       \
    }
BATCHED(allreduce)
BATCHED(reduce)
BATCHED(reduce_scatter)
BATCHED(allgather)
BATCHED(bcast)
BATCHED(alltoall)
BATCHED(sendrecv)
#define RUN(f) f
#else
static int no_nccl(hm_op_instance_t *inst)
{
    return hm__error_set(HM_ENOTSUP,
                         "NCCL %s needs a build with NCCL (HARMONIA_CUDA=on, NCCL found)",
                         inst->op->name);
}
#define RUN(f) no_nccl
#endif

enum { NC = HM_OP_NCCL, INTS = HM_OP_INTS, PER_RANK = HM_OP_PER_RANK, ROOTED = HM_OP_ROOTED };

/* clang-format off */
static const hm_op_t nccl_ops[] = {
    {"allreduce", NC | INTS, hm__op_layout_allreduce, RUN(run_allreduce), hm__op_valid_allreduce, NULL},
    {"allgather", NC | PER_RANK, hm__op_layout_allgather, RUN(run_allgather), hm__op_valid_allgather, NULL},
    {"reduce_scatter", NC | INTS | PER_RANK, hm__op_layout_reduce_scatter, RUN(run_reduce_scatter),
     hm__op_valid_reduce_scatter, NULL},
    {"alltoall", NC | PER_RANK, hm__op_layout_alltoall, RUN(run_alltoall), hm__op_valid_alltoall, NULL},
    {"bcast", NC | ROOTED, layout_bcast, RUN(run_bcast), hm__op_valid_bcast, NULL},
    {"reduce", NC | ROOTED | INTS, hm__op_layout_reduce, RUN(run_reduce), hm__op_valid_reduce, NULL},
    {"sendrecv", NC, layout_sendrecv, RUN(run_sendrecv), valid_sendrecv, NULL},
};
/* clang-format on */
enum { NNCCL = sizeof nccl_ops / sizeof nccl_ops[0] };

size_t hm_op_nccl_count(void)
{
    return NNCCL;
}

const char *hm_op_nccl_name_at(size_t i)
{
    return i < NNCCL ? nccl_ops[i].name : NULL;
}

const hm_op_t *hm_op_nccl_find(const char *name)
{
    if (!name) return hm__error_null(__func__, "name"), NULL;
    for (size_t i = 0; i < NNCCL; i++)
        if (strcmp(nccl_ops[i].name, name) == 0) return &nccl_ops[i];
    return NULL;
}

void hm_op_nccl_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_op_nccl_name_at, NNCCL, buf, len);
}

/* Elements per block: of the whole size, divided among the ranks for the
 * operations whose size is every rank's blocks together; at least one. */
static size_t block_count(const hm_op_t *op, size_t size_bytes, int nranks)
{
    size_t total = (op->flags & HM_OP_INTS) ? size_bytes / sizeof(int) : size_bytes;
    if (op->flags & HM_OP_PER_RANK) total /= (size_t)nranks;
    return total ? total : 1;
}

int hm_op_nccl_figures(const hm_op_t *op, size_t size_bytes, int nranks, int root,
                       hm_op_figures_t *out)
{
    if (!op) return hm__error_null(__func__, "op");
    if (!out) return hm__error_null(__func__, "out");
    if (!(op->flags & HM_OP_NCCL) || nranks < 1)
        return hm__error_set(HM_EINVAL, "nccl-tests' figures: an NCCL operation and ranks");
    int ints = (op->flags & HM_OP_INTS) != 0, per_rank = (op->flags & HM_OP_PER_RANK) != 0;
    double n = nranks;
    out->count = block_count(op, size_bytes, nranks) * (per_rank ? (size_t)nranks : 1);
    out->size_bytes = out->count * (ints ? sizeof(int) : 1);
    out->type = ints ? "int32" : "int8";
    out->redop = ints ? "sum" : "none";
    out->root = (op->flags & HM_OP_ROOTED) ? root : -1;
    if (!strcmp(op->name, "allreduce"))
        out->bus_factor = 2 * (n - 1) / n;
    else if (per_rank)
        out->bus_factor = (n - 1) / n;
    else
        out->bus_factor = 1;
    return HM_OK;
}

int hm_op_prepare_nccl(const hm_op_t *op, MPI_Comm comm, hm_gpu_nccl_t *nccl, size_t size_bytes,
                       const hm_op_params_t *params, hm_op_instance_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !op ? "op" : !nccl ? "nccl" : !out ? "out" : NULL;
    if (null) return hm__error_null(__func__, null);
    int p;
    *out = NULL;
    if (!(op->flags & HM_OP_NCCL))
        return hm__error_set(HM_EINVAL, "%s is not an NCCL operation", op->name);
    if (MPI_Comm_size(comm, &p) != MPI_SUCCESS)
        return hm__error_set(HM_EINVAL, "the communicator is not usable: MPI_Comm_size failed");
    size_t count = block_count(op, size_bytes, p);
    int rc = hm__op_prepare_host(op, comm, size_bytes, params, (long)count, out);
    if (rc != HM_OK) return rc;
    (*out)->nccl_comm = hm_gpu_nccl_comm(nccl);
    (*out)->stream = hm_gpu_nccl_stream(nccl);
    rc = hm_agree(comm, hm__op_device_attach(*out));
    if (rc != HM_OK) {
        hm_op_free(*out);
        *out = NULL;
    }
    return rc;
}
