/* src/ops/device.c — an operation's buffers in device memory: copies of the
 * host buffers on the current device (cudaMalloc, never managed memory),
 * which the runs hand to a CUDA-aware MPI or to NCCL; the host buffers
 * stay as mirrors, filled with the input pattern and read by validation
 * after the result is fetched, outside the timed region. */
#include <string.h>

#include "common/error_set.h"
#include "ops/ops_impl.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>

static int cuda_failed(cudaError_t e, const char *what, size_t bytes)
{
    return hm__error_set(e == cudaErrorMemoryAllocation ? HM_ENOMEM : HM_ENOTSUP,
                         "%s of %zu bytes of device memory: %s", what, bytes,
                         cudaGetErrorString(e));
}

static int upload(void *to, const void *from, size_t bytes)
{
    cudaError_t e = bytes ? cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice) : cudaSuccess;
    /* From pageable memory the copy may return before its DMA lands, and
     * NCCL's stream is non-blocking: wait until the bytes are there (an
     * H200 validated reduce wrong in 80 of 100 runs before this). */
    if (e == cudaSuccess && bytes) e = cudaDeviceSynchronize();
    return e == cudaSuccess ? HM_OK : cuda_failed(e, "a copy", bytes);
}

/* NCCL launches rotate through copies of their buffers spread over
 * ROTATE_BYTES, as nccl-tests shifts its buffers every iteration "to avoid
 * cache effects": on one H200, an 8 MiB allreduce launched 100 times on
 * the same two buffers took 4.2 us (they stay in the L2 cache, 4 TB/s of
 * traffic) against nccl-tests' 7.1 us, the only size of 13 where the two
 * differed by more than 15 % (docs/gpu.md). 256 MiB is twice the largest
 * L2 cache of current GPUs; a buffer at least that large has one copy.
 * Copies start 256 B apart at least (NCCL's alignment for its fastest
 * paths), and at most MAX_COPIES are made of a small buffer. */
#define ROTATE_BYTES     ((size_t)256 << 20)
#define COPY_ALIGN_BYTES ((size_t)256)
#define MAX_COPIES       1024

static size_t stride_of(size_t bytes)
{
    size_t b = bytes ? bytes : 1;
    return (b + COPY_ALIGN_BYTES - 1) / COPY_ALIGN_BYTES * COPY_ALIGN_BYTES;
}

static int copies_of(const hm_op_instance_t *inst)
{
    if (!(inst->op->flags & HM_OP_NCCL)) return 1; /* an MPI call moves copy 0 */
    size_t widest =
        stride_of(inst->send_bytes > inst->recv_bytes ? inst->send_bytes : inst->recv_bytes);
    size_t n = ROTATE_BYTES / widest;
    return n < 1 ? 1 : n > MAX_COPIES ? MAX_COPIES : (int)n;
}

int hm__op_device_attach(hm_op_instance_t *inst)
{
    inst->copies = copies_of(inst);
    inst->copy = 0;
    inst->send_stride = stride_of(inst->send_bytes);
    inst->recv_stride = stride_of(inst->recv_bytes);
    size_t send_total = inst->send_stride * (size_t)inst->copies;
    size_t recv_total = inst->recv_stride * (size_t)inst->copies;
    cudaError_t e = cudaMalloc(&inst->dsend, send_total);
    if (e != cudaSuccess) return inst->dsend = NULL, cuda_failed(e, "an allocation", send_total);
    e = cudaMalloc(&inst->drecv, recv_total);
    if (e != cudaSuccess) return inst->drecv = NULL, cuda_failed(e, "an allocation", recv_total);
    return hm__op_device_restore(inst);
}

/* The copy the last launch wrote: the one before inst->copy. */
static size_t last_copy(const hm_op_instance_t *inst)
{
    return (size_t)((inst->copy + inst->copies - 1) % inst->copies);
}

int hm__op_device_fetch(hm_op_instance_t *inst)
{
    const char *from = (const char *)inst->drecv + last_copy(inst) * inst->recv_stride;
    cudaError_t e = inst->recv_bytes
                        ? cudaMemcpy(inst->recv, from, inst->recv_bytes, cudaMemcpyDeviceToHost)
                        : cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_failed(e, "a copy", inst->recv_bytes);
}

/* Copy 0 from the host, then the others by doubling on the device (10
 * device copies for 1024 copies, not 1024 uploads). */
static int replicate(char *base, size_t stride, int copies, const void *from, size_t bytes)
{
    int rc = upload(base, from, bytes);
    cudaError_t e = cudaSuccess;
    for (size_t done = 1; rc == HM_OK && e == cudaSuccess && done < (size_t)copies; done *= 2) {
        size_t n = done < (size_t)copies - done ? done : (size_t)copies - done;
        e = cudaMemcpy(base + done * stride, base, n * stride, cudaMemcpyDeviceToDevice);
    }
    if (rc == HM_OK && e == cudaSuccess && copies > 1) e = cudaDeviceSynchronize();
    return rc != HM_OK ? rc : e == cudaSuccess ? HM_OK : cuda_failed(e, "a copy", stride);
}

/* Every copy gets the input and the poisoned result, so that whichever
 * copy a run ends on holds a result validation can check. */
int hm__op_device_restore(hm_op_instance_t *inst)
{
    int rc = replicate(inst->dsend, inst->send_stride, inst->copies, inst->send, inst->send_bytes);
    return rc == HM_OK ? replicate(inst->drecv, inst->recv_stride, inst->copies, inst->recv,
                                   inst->recv_bytes)
                       : rc;
}

void hm__op_device_free(hm_op_instance_t *inst)
{
    if (inst->dsend) cudaFree(inst->dsend);
    if (inst->drecv) cudaFree(inst->drecv);
    inst->dsend = inst->drecv = NULL;
}

#else /* !HM_HAVE_CUDA */

static int no_cuda(void)
{
    return hm__error_set(
        HM_ENOTSUP, "device memory needs a build with CUDA (configure with -DHARMONIA_CUDA=on)");
}

int hm__op_device_attach(hm_op_instance_t *inst)
{
    (void)inst;
    return no_cuda();
}

int hm__op_device_fetch(hm_op_instance_t *inst)
{
    (void)inst;
    return no_cuda();
}

int hm__op_device_restore(hm_op_instance_t *inst)
{
    (void)inst;
    return no_cuda();
}

void hm__op_device_free(hm_op_instance_t *inst)
{
    (void)inst;
}
#endif
