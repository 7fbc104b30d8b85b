/* include/harmonia/ops.h — the catalogue of measured operations.
 *
 * Each operation is a registry entry with a name (the name on the command
 * line and in result files), a way to set up buffers for a message size, a
 * run (the timed region: one call, or for a nonblocking operation the call
 * and its MPI_Wait), and a validation of the result of the last run.
 *
 * Size meaning, in bytes per message (as OSU and IMB count):
 *   - data movement (bcast, gather, scatter, allgather, alltoall, alltoallv,
 *     pingpong and their nonblocking forms): MPI_CHAR, count = size; for
 *     gather/scatter/allgather/alltoall(v) the size is what one rank sends to
 *     (or receives from) one other rank;
 *   - reductions (reduce, allreduce, scan, exscan, reduce_scatter_block and
 *     nonblocking forms): MPI_INT with MPI_SUM, count = size / sizeof(int)
 *     (at least 1), so a reported size is rounded down to whole ints; for
 *     reduce_scatter_block the size is each rank's block;
 *   - barrier and ibarrier ignore the size.
 * pingpong is the half round trip between rank 0 and params->peer (other
 * ranks take no part); its run is one round trip, and the measurement layer
 * halves it. */
#ifndef HARMONIA_OPS_H
#define HARMONIA_OPS_H
#include <harmonia/export.h>

#include <stddef.h>

#include <mpi.h>

#include <harmonia/error.h>
#include <harmonia/gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_op hm_op_t;                   /* a registry entry */
typedef struct hm_op_instance hm_op_instance_t; /* an op set up for (comm, size) */

typedef struct hm_op_params {
    int root; /* root of rooted collectives (bcast, reduce, gather, scatter) */
    int peer; /* pingpong partner of rank 0 (>= 1) */
    /* NCCL operations: launched this many times back to back in one run,
     * the stream synchronized once at its end (nccl-tests' operations per
     * timed interval); 0 or 1: once. MPI operations run once. */
    int batch;
} hm_op_params_t;

/* Registry: count, i-th name, lookup (NULL when unknown), and the list
 * "bcast, reduce, ..." for help and error texts. */
HM_EXPORT size_t hm_op_count(void);
HM_EXPORT const char *hm_op_name_at(size_t i);
HM_EXPORT const hm_op_t *hm_op_find(const char *name);
HM_EXPORT void hm_op_names(char *buf, size_t len);

/* Properties of an entry ("" and 0 for a NULL op, with the last error). */
HM_EXPORT const char *hm_op_name(const hm_op_t *op);
HM_EXPORT int hm_op_is_rooted(const hm_op_t *op);      /* uses params->root */
HM_EXPORT int hm_op_is_pingpong(const hm_op_t *op);    /* uses params->peer; half round trip */
HM_EXPORT int hm_op_is_nonblocking(const hm_op_t *op); /* timed as call + MPI_Wait */
HM_EXPORT int hm_op_uses_size(const hm_op_t *op);      /* 0 for barrier, ibarrier */

/* Check what can be checked without allocating: root in [0, p), peer in
 * [1, p) for pingpong (and p >= 2), size representable as an int count.
 * HM_EINVAL with the last error naming the parameter and value, e.g.
 * "root 4 is outside the communicator (4 ranks)". Local; identical status
 * and sentence on every rank for identical arguments. */
HM_EXPORT int hm_op_check(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                          const hm_op_params_t *params);

/* What hm_op_check_which found wrong, for a caller that names the option. */
typedef enum hm_op_check_failed {
    HM_OP_CHECK_OK = 0,
    HM_OP_CHECK_RANKS, /* the communicator: too few ranks (pingpong), unusable, no op */
    HM_OP_CHECK_ROOT,  /* params->root */
    HM_OP_CHECK_PEER,  /* params->peer */
    HM_OP_CHECK_SIZE   /* size_bytes */
} hm_op_check_failed_t;

/* hm_op_check, and *failed (not NULL) says which argument failed. */
HM_EXPORT int hm_op_check_which(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                                const hm_op_params_t *params, hm_op_check_failed_t *failed);

/* Collective over comm: allocate and fill the buffers of op for size_bytes.
 * Every rank returns the same status and last error: HM_EINVAL as
 * hm_op_check, HM_ENOMEM on any rank's failed allocation (the last error
 * naming the bytes asked for), HM_EMPI when the agreement fails. Inputs are
 * filled with a pattern that depends on rank and index, so that validation
 * can compute the expected result. */
HM_EXPORT int hm_op_prepare(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                            const hm_op_params_t *params, hm_op_instance_t **out);

/* Collective over comm: as hm_op_prepare, with the buffers in device
 * memory (cudaMalloc on the current device, hm_gpu_select) that the runs
 * hand to MPI, beside host mirrors that validation reads after fetching the
 * result (hm_op_result_buffer is the mirror). The MPI must be CUDA-aware
 * (hm_gpu_mpi_cuda_aware: the caller checks). HM_ENOTSUP without CUDA or
 * a device, HM_ENOMEM naming the bytes: the same status and sentence on
 * every rank. */
HM_EXPORT int hm_op_prepare_device(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                                   const hm_op_params_t *params, hm_op_instance_t **out);

/* ---- NCCL operations (bench --backend nccl) ----
 * allreduce, reduce_scatter, reduce (int32, sum), allgather, alltoall (a
 * group of ncclSend/ncclRecv, as nccl-tests), bcast (int8) and sendrecv
 * (each rank to the next, from the previous, as nccl-tests' sendrecv).
 * Sizes are nccl-tests': the whole buffer of allgather, reduce_scatter and
 * alltoall, rounded down to whole elements per rank (at least one). A run
 * enqueues the call on the communicator's stream and synchronizes it: the
 * end is taken on the host. Registry as above; the instance API (run,
 * validate, free) is the same. */
HM_EXPORT size_t hm_op_nccl_count(void);
HM_EXPORT const char *hm_op_nccl_name_at(size_t i);
HM_EXPORT const hm_op_t *hm_op_nccl_find(const char *name);
HM_EXPORT void hm_op_nccl_names(char *buf, size_t len);

/* nccl-tests' columns for op at size_bytes on nranks ranks. */
typedef struct hm_op_figures {
    size_t size_bytes; /* nccl-tests' size after rounding (see above) */
    size_t count;      /* elements of the type in size_bytes */
    const char *type;  /* "int8" or "int32" */
    const char *redop; /* "sum" or "none" */
    int root;          /* -1 where the operation has none */
    double bus_factor; /* busbw = algbw x this: 2(n-1)/n allreduce; (n-1)/n allgather,
                        * reduce_scatter, alltoall; 1 bcast, reduce, sendrecv
                        * (nccl-tests' doc/PERFORMANCE.md) */
} hm_op_figures_t;

/* Local: HM_EINVAL for an operation that is not NCCL's or nranks < 1. */
HM_EXPORT int hm_op_nccl_figures(const hm_op_t *op, size_t size_bytes, int nranks, int root,
                                 hm_op_figures_t *out);

/* Collective over comm (the communicator nccl was created over): op set
 * up for size_bytes in device memory with host mirrors, as
 * hm_op_prepare_device. HM_EINVAL for an operation that is not NCCL's or
 * a root outside comm; the same status on every rank. */
HM_EXPORT int hm_op_prepare_nccl(const hm_op_t *op, MPI_Comm comm, hm_gpu_nccl_t *nccl,
                                 size_t size_bytes, const hm_op_params_t *params,
                                 hm_op_instance_t **out);

/* Run the operation once: the timed region. Nothing is allocated or
 * printed. Returns HM_OK or HM_EMPI. */
HM_EXPORT int hm_op_run(hm_op_instance_t *inst);

/* A nonblocking operation in two halves, for a caller that works between
 * them (an overlap run, [Denis et al. 2022, Alg. 1]): hm_op_start makes the
 * call and keeps its request in the instance, hm_op_wait completes it with
 * MPI_Wait; hm_op_run is the two back to back. HM_EINVAL for a blocking
 * operation, or a start while the last one was not waited for; HM_OK or
 * HM_EMPI otherwise. Nothing is allocated. */
HM_EXPORT int hm_op_start(hm_op_instance_t *inst);
HM_EXPORT int hm_op_wait(hm_op_instance_t *inst);

/* Check the result of the last run on this rank against what the operation
 * must produce from the input pattern; *ok = 1 when right. Local (no
 * communication). Restores whatever the run may have overwritten so that
 * the next run starts from the same input. */
HM_EXPORT int hm_op_validate(hm_op_instance_t *inst, int *ok);

/* The receive (result) buffer of this rank and its length in bytes (0 and
 * NULL where the rank receives nothing): tests corrupt it to check that
 * validation notices. */
HM_EXPORT void *hm_op_result_buffer(hm_op_instance_t *inst, size_t *len_bytes);

/* Release the buffers (local). NULL is accepted. */
HM_EXPORT void hm_op_free(hm_op_instance_t *inst);

#ifdef __cplusplus
}
#endif
#endif
