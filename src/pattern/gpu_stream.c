/* src/pattern/gpu_stream.c — what the GPU backends share: the plan's own
 * stream (created by the backend's commit, non-blocking so that the legacy
 * default stream never orders it), two events around each start's work for
 * the device's own time, copies on it. The plan itself synchronizes it at
 * every wait, reads the device time from it and frees it at release
 * (plan.c), so the cuda, ipc and nccl backends have only their own work to
 * do. A build without CUDA has the same calls, refusing. */
#include <stdlib.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>

struct hm__gpu_stream {
    cudaStream_t stream;
    cudaEvent_t begin, end;
    int recorded; /* both events of the last start were recorded */
};

static int cuda_error(cudaError_t e, const hm_plan_t *p, const char *call)
{
    return hm__error_set(e == cudaErrorMemoryAllocation ? HM_ENOMEM : HM_EINVAL,
                         "%s backend: %s: %s", p->backend->name, call, cudaGetErrorString(e));
}

int hm__plan_stream_create(hm_plan_t *p)
{
    hm__gpu_stream_t *s = calloc(1, sizeof *s);
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    cudaError_t e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) return free(s), cuda_error(e, p, "cudaStreamCreate");
    e = cudaEventCreate(&s->begin);
    if (e == cudaSuccess) {
        e = cudaEventCreate(&s->end);
        if (e != cudaSuccess) cudaEventDestroy(s->begin);
    }
    if (e != cudaSuccess) {
        cudaStreamDestroy(s->stream);
        free(s);
        return cuda_error(e, p, "cudaEventCreate");
    }
    p->stream = s;
    return HM_OK;
}

void hm__plan_stream_free(hm_plan_t *p)
{
    hm__gpu_stream_t *s = p->stream;
    if (!s) return;
    cudaEventDestroy(s->begin);
    cudaEventDestroy(s->end);
    cudaStreamDestroy(s->stream);
    free(s);
    p->stream = NULL;
}

void *hm__plan_stream_handle(const hm_plan_t *p)
{
    return p->stream->stream;
}

int hm__plan_stream_begin(hm_plan_t *p)
{
    hm__gpu_stream_t *s = p->stream;
    s->recorded = 0;
    if (!p->device_timing) return HM_OK;
    cudaError_t e = cudaEventRecord(s->begin, s->stream);
    return e == cudaSuccess ? HM_OK : cuda_error(e, p, "cudaEventRecord");
}

int hm__plan_stream_end(hm_plan_t *p)
{
    hm__gpu_stream_t *s = p->stream;
    if (!p->device_timing) return HM_OK;
    cudaError_t e = cudaEventRecord(s->end, s->stream);
    s->recorded = e == cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_error(e, p, "cudaEventRecord");
}

int hm__plan_stream_sync(hm_plan_t *p)
{
    cudaError_t e = cudaStreamSynchronize(p->stream->stream);
    return e == cudaSuccess ? HM_OK : cuda_error(e, p, "cudaStreamSynchronize");
}

int hm__plan_stream_elapsed(const hm_plan_t *p, double *seconds)
{
    const hm__gpu_stream_t *s = p->stream;
    float ms = 0;
    if (!s->recorded) return hm__error_set(HM_EINVAL, "no start was recorded on the stream");
    cudaError_t e = cudaEventElapsedTime(&ms, s->begin, s->end);
    if (e != cudaSuccess) return cuda_error(e, p, "cudaEventElapsedTime");
    *seconds = (double)ms * 1e-3;
    return HM_OK;
}

int hm__plan_stream_copy(hm_plan_t *p, void *to, const void *from, size_t bytes)
{
    /* cudaMemcpyDefault: unified addressing tells the devices apart, so one
     * call serves a copy within a device, to a peer device (peer access where
     * enabled, else staged by the driver) and into an IPC mapping. */
    cudaError_t e = bytes ? cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, p->stream->stream)
                          : cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_error(e, p, "cudaMemcpyAsync");
}

#else /* !HM_HAVE_CUDA */

struct hm__gpu_stream {
    int unused;
};

static int no_cuda(const hm_plan_t *p)
{
    return hm__error_set(HM_ENOTSUP,
                         "the %s backend needs a build with CUDA (configure with "
                         "-DHARMONIA_CUDA=on)",
                         p->backend->name);
}

int hm__plan_stream_create(hm_plan_t *p)
{
    return no_cuda(p);
}

void hm__plan_stream_free(hm_plan_t *p)
{
    p->stream = NULL;
}

void *hm__plan_stream_handle(const hm_plan_t *p)
{
    (void)p;
    return NULL;
}

int hm__plan_stream_begin(hm_plan_t *p)
{
    return no_cuda(p);
}

int hm__plan_stream_end(hm_plan_t *p)
{
    return no_cuda(p);
}

int hm__plan_stream_sync(hm_plan_t *p)
{
    return no_cuda(p);
}

int hm__plan_stream_elapsed(const hm_plan_t *p, double *seconds)
{
    (void)seconds;
    return no_cuda(p);
}

int hm__plan_stream_copy(hm_plan_t *p, void *to, const void *from, size_t bytes)
{
    (void)to, (void)from, (void)bytes;
    return no_cuda(p);
}
#endif
