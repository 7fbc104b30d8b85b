/* src/pattern/backend_nccl.c — the nccl backend: every message of the rank
 * as ncclSend / ncclRecv between ncclGroupStart and ncclGroupEnd on the
 * plan's stream (CommBench's NCCL backend, §3.2). The communicator is the
 * plan's (hm_gpu_nccl_create over the plan's MPI communicator: rank 0's
 * unique id broadcast, ncclCommInitRank) made at commit, destroyed at
 * release.
 * NCCL takes one rank per device: two ranks on one GPU are refused by
 * ncclCommInitRank ("Duplicate GPU detected"), and its sentence is ours.
 * A message to itself goes through NCCL too (a send to self and its
 * receive in the same group), so that one rank on one GPU measures NCCL's
 * point-to-point path, as nccl-tests' sendrecv_perf does with -g 1. */
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/agree.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

#if HM_HAVE_NCCL
#include <nccl.h>
#endif

typedef struct nccl_state {
    hm_gpu_nccl_t *nccl; /* the communicator (gpu layer), created at commit */
} nccl_state_t;

#if HM_HAVE_NCCL
static int nccl_error(ncclResult_t r, const char *call)
{
    return hm__error_set(r == ncclSystemError ? HM_ENOMEM : HM_EINVAL, "nccl backend: %s: %s (%s)",
                         call, ncclGetErrorString(r), ncclGetLastError(NULL));
}
#endif

static int nccl_commit(hm_plan_t *p)
{
    nccl_state_t *s = calloc(1, sizeof *s);
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    p->state = s;
    int rc = hm__plan_check_memory(p, HM_MEMORY_DEVICE, "nccl");
    if (rc == HM_OK) rc = hm__plan_stream_create(p);
    /* Collective: entered by every rank once all agreed (no rank is left
     * inside ncclCommInitRank waiting for one that refused). */
    rc = hm_agree(p->wire, rc);
    if (rc == HM_OK) rc = hm_gpu_nccl_create(p->wire, &s->nccl);
    return rc;
}

#if HM_HAVE_NCCL
/* This rank's messages in the open group, receives first; NCCL matches a
 * pair's messages in the order posted, as the plan matched them. Counts
 * are size_t: a message above 2 GiB goes whole. */
static int post(const hm_plan_t *p, const nccl_state_t *s, cudaStream_t stream)
{
    for (size_t i = 0; i < p->recv.n; i++) {
        const hm__message_t *m = &p->recv.m[i];
        if (m->bytes == 0) continue;
        ncclResult_t r = ncclRecv((char *)m->buf->data + m->off, m->bytes, ncclInt8, m->peer,
                                  hm_gpu_nccl_comm(s->nccl), stream);
        if (r != ncclSuccess) return nccl_error(r, "ncclRecv");
    }
    for (size_t i = 0; i < p->send.n; i++) {
        const hm__message_t *m = &p->send.m[i];
        if (m->bytes == 0) continue;
        ncclResult_t r = ncclSend((const char *)m->buf->data + m->off, m->bytes, ncclInt8, m->peer,
                                  hm_gpu_nccl_comm(s->nccl), stream);
        if (r != ncclSuccess) return nccl_error(r, "ncclSend");
    }
    return HM_OK;
}
#endif

static int nccl_start(hm_plan_t *p)
{
    int rc = hm__plan_stream_begin(p);
#if HM_HAVE_NCCL
    if (rc == HM_OK) {
        ncclResult_t r = ncclGroupStart();
        if (r != ncclSuccess) return nccl_error(r, "ncclGroupStart");
        rc = post(p, p->state, hm__plan_stream_handle(p));
        /* The group is closed whatever happened inside it. */
        r = ncclGroupEnd();
        if (rc == HM_OK && r != ncclSuccess) rc = nccl_error(r, "ncclGroupEnd");
    }
#endif
    if (rc == HM_OK) rc = hm__plan_stream_end(p);
    return rc;
}

static void nccl_release(hm_plan_t *p)
{
    nccl_state_t *s = p->state;
    if (!s) return;
    hm_gpu_nccl_free(s->nccl);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm__backend_nccl = {.name = "nccl",
                                       .memory = HM_MEMORY_DEVICE,
                                       .needs_nccl = 1,
                                       .commit = nccl_commit,
                                       .start = nccl_start,
                                       .release = nccl_release,
                                       .on_stream = 1};
