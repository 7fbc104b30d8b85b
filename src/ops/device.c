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

int hm__op_device_attach(hm_op_instance_t *inst)
{
    cudaError_t e = cudaMalloc(&inst->dsend, inst->send_bytes ? inst->send_bytes : 1);
    if (e != cudaSuccess)
        return inst->dsend = NULL, cuda_failed(e, "an allocation", inst->send_bytes);
    e = cudaMalloc(&inst->drecv, inst->recv_bytes ? inst->recv_bytes : 1);
    if (e != cudaSuccess)
        return inst->drecv = NULL, cuda_failed(e, "an allocation", inst->recv_bytes);
    return hm__op_device_restore(inst);
}

int hm__op_device_fetch(hm_op_instance_t *inst)
{
    cudaError_t e = inst->recv_bytes ? cudaMemcpy(inst->recv, inst->drecv, inst->recv_bytes,
                                                  cudaMemcpyDeviceToHost)
                                     : cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_failed(e, "a copy", inst->recv_bytes);
}

int hm__op_device_restore(hm_op_instance_t *inst)
{
    int rc = upload(inst->dsend, inst->send, inst->send_bytes);
    return rc == HM_OK ? upload(inst->drecv, inst->recv, inst->recv_bytes) : rc;
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
