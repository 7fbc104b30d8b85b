/* src/ops/ops_impl.h — the contract between the ops registry, the instance
 * life cycle (instance.c) and the operation families (movement.c,
 * reduction.c, nonblocking.c, pingpong.c). */
#ifndef HM_OPS_IMPL_H
#define HM_OPS_IMPL_H
#include <stddef.h>

#include <harmonia/ops.h>

/* Properties of a registry entry. */
enum {
    HM_OP_ROOTED = 1u << 0,      /* uses params->root */
    HM_OP_PINGPONG = 1u << 1,    /* uses params->peer, needs 2 ranks */
    HM_OP_NONBLOCKING = 1u << 2, /* run = call + MPI_Wait */
    HM_OP_INTS = 1u << 3,        /* MPI_INT/MPI_SUM: count = size / 4, at least 1 */
    HM_OP_PER_RANK = 1u << 4,    /* a buffer holds p blocks: count * p must fit an int */
    HM_OP_VCOUNTS = 1u << 5,     /* needs per-rank counts and displacements */
    HM_OP_NO_SIZE = 1u << 6,     /* ignores the size (barrier) */
    HM_OP_NCCL = 1u << 7         /* an NCCL operation (nccl.c): device buffers, run on a stream */
};

struct hm_op_instance {
    const hm_op_t *op;
    MPI_Comm comm;
    int rank, p, root, peer;
    int batch; /* NCCL: launches per run (hm_op_params_t.batch, at least 1) */
    int count; /* elements per message (per block) */
    size_t send_bytes, recv_bytes;
    unsigned char *send, *recv; /* input pattern; result (poisoned before each run) */
    int *counts, *displs;       /* alltoallv: count and d * count for every rank */
    int result_undefined;       /* the rank's result is undefined (exscan on rank 0) */
    MPI_Request request;        /* nonblocking: of the last start, MPI_REQUEST_NULL after
                                   its wait */
    void *dsend, *drecv;        /* device memory: what runs move (send and recv are their
                                 * host mirrors, which validation reads); NULL: host memory */
    int copies;                 /* device buffers: copies of each, launches rotate (device.c) */
    int copy;                   /* the copy the next NCCL launch uses */
    size_t send_stride, recv_stride; /* bytes from one copy to the next */
    void *nccl_comm, *stream;        /* NCCL operations: ncclComm_t and cudaStream_t */
};

/* The buffers a run hands to MPI or NCCL: the device copies where there are. */
#define HM_OP_SEND(inst) ((inst)->dsend ? (inst)->dsend : (void *)(inst)->send)
#define HM_OP_RECV(inst) ((inst)->drecv ? (inst)->drecv : (void *)(inst)->recv)
/* The device copies an NCCL launch moves (the rotation is in device.c). */
#define HM_OP_DSEND(inst)                                                                          \
    ((void *)((char *)(inst)->dsend + (size_t)(inst)->copy * (inst)->send_stride))
#define HM_OP_DRECV(inst)                                                                          \
    ((void *)((char *)(inst)->drecv + (size_t)(inst)->copy * (inst)->recv_stride))

/* Set send_bytes, recv_bytes (and result_undefined) from rank, p, root,
 * peer and count. */
typedef void (*hm_op_layout_fn)(hm_op_instance_t *inst);
/* The timed region: HM_OK or HM_EMPI. */
typedef int (*hm_op_run_fn)(hm_op_instance_t *inst);
/* Nonblocking: the call alone, its request in inst->request. */
typedef int (*hm_op_start_fn)(hm_op_instance_t *inst);
/* 1 when the result buffer holds what the operation must produce. */
typedef int (*hm_op_validate_fn)(const hm_op_instance_t *inst);

struct hm_op {
    const char *name;
    unsigned flags;
    hm_op_layout_fn layout;
    hm_op_run_fn run;
    hm_op_validate_fn validate;
    hm_op_start_fn start; /* nonblocking only; run is then hm__op_run_started */
};

/* Input patterns: a function of (rank, index in the sender's buffer), so a
 * misplaced block or element shows. Ints stay small: a sum over up to 16
 * million ranks fits an int. */
static inline unsigned char hm__op_byte(int rank, size_t i)
{
    return (unsigned char)(rank * 37u + i * 11u + i / 256u + 5u);
}
static inline int hm__op_int(int rank, size_t i)
{
    return rank % 64 + 1 + (int)(i % 61);
}
/* The sum of hm__op_int(s, i) over n ranks s = first .. first + n - 1 is
 * hm__op_rank_sum(first, n) + n * (i % 61). */
long long hm__op_rank_sum(int first, int n);
/* What a result byte/int holds before the run: no pattern value. */
enum { HM_OP_POISON = 0xA5 };

/* The status of an MPI call of a run: HM_OK, or HM_EMPI with the sentence
 * "FN: MPI_X failed: " and MPI's text, e.g. `return HM_OP_RC(MPI_Bcast(...));`.
 * The sentence is set out of line, so that a successful call costs the timed
 * region one compare; its MPI function is the call's text up to "(". */
int hm__op_mpi_failed(int mpi_rc, const char *fn, const char *call) __attribute__((cold));
static inline int hm__op_rc(int mpi_rc, const char *fn, const char *call)
{
    return mpi_rc == MPI_SUCCESS ? HM_OK : hm__op_mpi_failed(mpi_rc, fn, call);
}
#define HM_OP_RC(call) hm__op_rc((call), __func__, #call)

/* Families: layouts, validations and blocking runs. */
void hm__op_layout_none(hm_op_instance_t *inst);
int hm__op_valid_always(const hm_op_instance_t *inst);

void hm__op_layout_bcast(hm_op_instance_t *inst);
void hm__op_layout_gather(hm_op_instance_t *inst);
void hm__op_layout_scatter(hm_op_instance_t *inst);
void hm__op_layout_allgather(hm_op_instance_t *inst);
void hm__op_layout_alltoall(hm_op_instance_t *inst);
int hm__op_valid_bcast(const hm_op_instance_t *inst);
int hm__op_valid_gather(const hm_op_instance_t *inst);
int hm__op_valid_scatter(const hm_op_instance_t *inst);
int hm__op_valid_allgather(const hm_op_instance_t *inst);
int hm__op_valid_alltoall(const hm_op_instance_t *inst);
int hm__op_run_bcast(hm_op_instance_t *inst);
int hm__op_run_gather(hm_op_instance_t *inst);
int hm__op_run_scatter(hm_op_instance_t *inst);
int hm__op_run_allgather(hm_op_instance_t *inst);
int hm__op_run_alltoall(hm_op_instance_t *inst);
int hm__op_run_alltoallv(hm_op_instance_t *inst);
int hm__op_run_barrier(hm_op_instance_t *inst);

void hm__op_layout_reduce(hm_op_instance_t *inst);
void hm__op_layout_allreduce(hm_op_instance_t *inst);
void hm__op_layout_exscan(hm_op_instance_t *inst);
void hm__op_layout_reduce_scatter(hm_op_instance_t *inst);
int hm__op_valid_reduce(const hm_op_instance_t *inst);
int hm__op_valid_allreduce(const hm_op_instance_t *inst);
int hm__op_valid_scan(const hm_op_instance_t *inst);
int hm__op_valid_exscan(const hm_op_instance_t *inst);
int hm__op_valid_reduce_scatter(const hm_op_instance_t *inst);
int hm__op_run_reduce(hm_op_instance_t *inst);
int hm__op_run_allreduce(hm_op_instance_t *inst);
int hm__op_run_scan(hm_op_instance_t *inst);
int hm__op_run_exscan(hm_op_instance_t *inst);
int hm__op_run_reduce_scatter(hm_op_instance_t *inst);

/* Nonblocking: start, then MPI_Wait (the run of every nonblocking entry). */
int hm__op_run_started(hm_op_instance_t *inst);
int hm__op_start_ibcast(hm_op_instance_t *inst);
int hm__op_start_igather(hm_op_instance_t *inst);
int hm__op_start_iscatter(hm_op_instance_t *inst);
int hm__op_start_iallgather(hm_op_instance_t *inst);
int hm__op_start_ialltoall(hm_op_instance_t *inst);
int hm__op_start_ialltoallv(hm_op_instance_t *inst);
int hm__op_start_ibarrier(hm_op_instance_t *inst);
int hm__op_start_ireduce(hm_op_instance_t *inst);
int hm__op_start_iallreduce(hm_op_instance_t *inst);
int hm__op_start_iscan(hm_op_instance_t *inst);
int hm__op_start_iexscan(hm_op_instance_t *inst);
int hm__op_start_ireduce_scatter(hm_op_instance_t *inst);

void hm__op_layout_pingpong(hm_op_instance_t *inst);
int hm__op_valid_pingpong(const hm_op_instance_t *inst);
int hm__op_run_pingpong(hm_op_instance_t *inst);

/* Device copies (device.c): allocated on the current device and filled
 * from the host buffers (attach); the result fetched to the host mirror
 * (fetch); the inputs and the poisoned result put back (restore); freed.
 * HM_ENOTSUP without CUDA, HM_ENOMEM naming the bytes. Local. */
int hm__op_device_attach(hm_op_instance_t *inst);
int hm__op_device_fetch(hm_op_instance_t *inst);
int hm__op_device_restore(hm_op_instance_t *inst);
void hm__op_device_free(hm_op_instance_t *inst);

/* The host part of hm_op_prepare (instance.c): checked, laid out,
 * allocated, filled, agreed; count elements per block when count >= 0
 * (NCCL's sizes count otherwise), else from size_bytes. */
int hm__op_prepare_host(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                        const hm_op_params_t *params, long count, hm_op_instance_t **out);

/* Element count of op for size_bytes (check.c). */
size_t hm__op_elements(const hm_op_t *op, size_t size_bytes);
unsigned hm__op_flags(const hm_op_t *op);
#endif
