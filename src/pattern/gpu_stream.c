/* src/pattern/gpu_stream.c — what the GPU backends share: a plan's own
 * stream (created at commit, destroyed at release, non-blocking so that
 * the legacy default stream never orders it), two events around each
 * start's work for the device's own time, copies on it. A build without
 * CUDA has the same calls, refusing. */
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

static int cuda_error(cudaError_t e, const char *backend, const char *call)
{
    return hm__error_set(e == cudaErrorMemoryAllocation ? HM_ENOMEM : HM_EINVAL,
                         "%s backend: %s: %s", backend, call, cudaGetErrorString(e));
}

int hm__gpu_stream_create(const char *backend, hm__gpu_stream_t **out)
{
    hm__gpu_stream_t *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    cudaError_t e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) return free(s), cuda_error(e, backend, "cudaStreamCreate");
    e = cudaEventCreate(&s->begin);
    if (e == cudaSuccess) {
        e = cudaEventCreate(&s->end);
        if (e != cudaSuccess) cudaEventDestroy(s->begin);
    }
    if (e != cudaSuccess) {
        cudaStreamDestroy(s->stream);
        free(s);
        return cuda_error(e, backend, "cudaEventCreate");
    }
    *out = s;
    return HM_OK;
}

void hm__gpu_stream_free(hm__gpu_stream_t *s)
{
    if (!s) return;
    cudaEventDestroy(s->begin);
    cudaEventDestroy(s->end);
    cudaStreamDestroy(s->stream);
    free(s);
}

void *hm__gpu_stream_handle(hm__gpu_stream_t *s)
{
    return s->stream;
}

int hm__gpu_stream_begin(hm__gpu_stream_t *s, int timed, const char *backend)
{
    s->recorded = 0;
    if (!timed) return HM_OK;
    cudaError_t e = cudaEventRecord(s->begin, s->stream);
    return e == cudaSuccess ? HM_OK : cuda_error(e, backend, "cudaEventRecord");
}

int hm__gpu_stream_end(hm__gpu_stream_t *s, int timed, const char *backend)
{
    if (!timed) return HM_OK;
    cudaError_t e = cudaEventRecord(s->end, s->stream);
    s->recorded = e == cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_error(e, backend, "cudaEventRecord");
}

int hm__gpu_stream_sync(hm__gpu_stream_t *s, const char *backend)
{
    cudaError_t e = cudaStreamSynchronize(s->stream);
    return e == cudaSuccess ? HM_OK : cuda_error(e, backend, "cudaStreamSynchronize");
}

int hm__gpu_stream_elapsed(const hm__gpu_stream_t *s, double *seconds)
{
    float ms = 0;
    if (!s->recorded) return hm__error_set(HM_EINVAL, "no start was recorded on the stream");
    cudaError_t e = cudaEventElapsedTime(&ms, s->begin, s->end);
    if (e != cudaSuccess) return cuda_error(e, "GPU", "cudaEventElapsedTime");
    *seconds = (double)ms * 1e-3;
    return HM_OK;
}

int hm__gpu_stream_copy(hm__gpu_stream_t *s, void *to, const void *from, size_t bytes,
                        const char *backend)
{
    /* cudaMemcpyDefault: unified addressing tells the devices apart, so one
     * call serves a copy within a device, to a peer device (peer access where
     * enabled, else staged by the driver) and into an IPC mapping. */
    cudaError_t e =
        bytes ? cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, s->stream) : cudaSuccess;
    return e == cudaSuccess ? HM_OK : cuda_error(e, backend, "cudaMemcpyAsync");
}

#else /* !HM_HAVE_CUDA */

struct hm__gpu_stream {
    int unused;
};

static int no_cuda(const char *backend)
{
    return hm__error_set(HM_ENOTSUP,
                         "the %s backend needs a build with CUDA (configure with "
                         "-DHARMONIA_CUDA=on)",
                         backend);
}

int hm__gpu_stream_create(const char *backend, hm__gpu_stream_t **out)
{
    *out = NULL;
    return no_cuda(backend);
}

void hm__gpu_stream_free(hm__gpu_stream_t *s)
{
    (void)s;
}

void *hm__gpu_stream_handle(hm__gpu_stream_t *s)
{
    (void)s;
    return NULL;
}

int hm__gpu_stream_begin(hm__gpu_stream_t *s, int timed, const char *backend)
{
    (void)s, (void)timed;
    return no_cuda(backend);
}

int hm__gpu_stream_end(hm__gpu_stream_t *s, int timed, const char *backend)
{
    (void)s, (void)timed;
    return no_cuda(backend);
}

int hm__gpu_stream_sync(hm__gpu_stream_t *s, const char *backend)
{
    (void)s;
    return no_cuda(backend);
}

int hm__gpu_stream_elapsed(const hm__gpu_stream_t *s, double *seconds)
{
    (void)s, (void)seconds;
    return no_cuda("GPU");
}

int hm__gpu_stream_copy(hm__gpu_stream_t *s, void *to, const void *from, size_t bytes,
                        const char *backend)
{
    (void)s, (void)to, (void)from, (void)bytes;
    return no_cuda(backend);
}
#endif
