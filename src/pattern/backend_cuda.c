/* src/pattern/backend_cuda.c — the cuda backend: cudaMemcpyAsync device to
 * device within a process, on the plan's stream (CommBench's memcpy
 * within a GPU, §3.2). A process that allocated its buffers on two devices
 * copies between them with peer access where cudaDeviceCanAccessPeer says
 * the pair has it (enabled at commit), staged by the driver otherwise.
 * Messages to another process are refused at commit: they are ipc's
 * (same node) or nccl's. */
#include <stdlib.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

typedef struct cuda_state {
    hm__self_copy_t *copies;
    size_t ncopies;
} cuda_state_t;

static int check_self(const hm_plan_t *p)
{
    const hm__message_list_t *lists[2] = {&p->send, &p->recv};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++)
            if (lists[k]->m[i].peer != p->rank)
                return hm__error_set(HM_EINVAL,
                                     "cuda backend: rank %d %s rank %d, and the cuda backend "
                                     "copies within a process (between processes of a node: ipc; "
                                     "between nodes: nccl)",
                                     p->rank, k ? "receives from" : "sends to",
                                     lists[k]->m[i].peer);
    return HM_OK;
}

/* Peer access between the devices of each copy's two buffers, where the
 * pair has it; already enabled is fine. */
static int enable_peers(const hm_plan_t *p)
{
#if HM_HAVE_CUDA
    int current;
    if (cudaGetDevice(&current) != cudaSuccess) return HM_OK;
    for (size_t i = 0; i < p->send.n; i++) {
        int from = p->send.m[i].buf->device, to = p->send.m[i].peer_buf->device, can = 0;
        if (from == to || cudaDeviceCanAccessPeer(&can, to, from) != cudaSuccess || !can) continue;
        cudaSetDevice(to);
        cudaError_t e = cudaDeviceEnablePeerAccess(from, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError(); /* clear it */
        cudaSetDevice(current);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            return hm__error_set(HM_EINVAL, "cuda backend: peer access from GPU %d to GPU %d: %s",
                                 to, from, cudaGetErrorString(e));
    }
#else
    (void)p;
#endif
    return HM_OK;
}

static int cuda_commit(hm_plan_t *p)
{
    cuda_state_t *s = calloc(1, sizeof *s);
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    p->state = s;
    int rc = hm__plan_check_memory(p, HM_MEMORY_DEVICE, "cuda");
    if (rc == HM_OK) rc = check_self(p);
    if (rc == HM_OK) rc = hm__plan_stream_create(p);
    if (rc == HM_OK) rc = enable_peers(p);
    if (rc == HM_OK) rc = hm__plan_self_copies(p, &s->copies, &s->ncopies);
    for (size_t i = 0; rc == HM_OK && i < s->ncopies; i++)
        if (s->copies[i].overlap)
            rc = hm__error_set(HM_EINVAL,
                               "cuda backend: rank %d copies %zu bytes onto a region they overlap, "
                               "which cudaMemcpyAsync does not define",
                               p->rank, s->copies[i].bytes);
    return rc;
}

static int cuda_start(hm_plan_t *p)
{
    cuda_state_t *s = p->state;
    int rc = hm__plan_stream_begin(p);
    for (size_t i = 0; rc == HM_OK && i < s->ncopies; i++)
        rc = hm__plan_stream_copy(p, s->copies[i].to, s->copies[i].from, s->copies[i].bytes);
    if (rc == HM_OK) rc = hm__plan_stream_end(p);
    return rc;
}

static void cuda_release(hm_plan_t *p)
{
    cuda_state_t *s = p->state;
    if (!s) return;
    free(s->copies);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm__backend_cuda = {.name = "cuda",
                                       .memory = HM_MEMORY_DEVICE,
                                       .commit = cuda_commit,
                                       .start = cuda_start,
                                       .release = cuda_release,
                                       .on_stream = 1};
