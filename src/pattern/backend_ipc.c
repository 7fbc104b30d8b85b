/* src/pattern/backend_ipc.c — the ipc backends: CUDA IPC between processes
 * of a node, as CommBench's IPC and IPC-get (§3.2). One side maps the other
 * side's device buffer (cudaIpcGetMemHandle there, cudaIpcOpenMemHandle
 * here, once at commit; closed at release) and copies with cudaMemcpyAsync
 * on the plan's stream:
 *   ipc      put: the sender writes into the receiver's buffer;
 *   ipc-get  get: the receiver reads from the sender's buffer.
 * The rank whose memory is touched (the owner: put's receiver, get's
 * sender) publishes ready = its iteration at its start (its memory may be
 * touched: the receive buffer is free, or the send data is in place); the
 * other side enqueues its copies to an owner once ready, and at its wait
 * synchronizes the stream and publishes done; the owner's wait returns once
 * every other side is done. The flags are host memory of the node
 * (node_flags.c), so no MPI call runs between commit and release.
 * A rank's messages to itself are copies on its stream. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

enum { HANDLE_BYTES = 64 }; /* sizeof(cudaIpcMemHandle_t) */

typedef struct ipc_state {
    int get; /* the protocol: 0 put, 1 get */
    const char *name;
    hm__node_flags_t flags;
    const hm__message_list_t *mine, *theirs; /* messages this rank copies / whose memory it owns */
    void **remote;          /* per message of mine: the peer's mapped address (NULL: self) */
    void **opened;          /* distinct mappings, closed at release */
    unsigned char *handles; /* their handles, HANDLE_BYTES each, to find one again */
    size_t nopened;
    uint64_t iteration;
    int *owners, nowners; /* node ranks whose memory this rank touches */
    int *users, nusers;   /* node ranks that touch this rank's memory */
    unsigned char *issued;
    hm__self_copy_t *self;
    size_t nself;
} ipc_state_t;

#if HM_HAVE_CUDA
/* What this rank sends each peer: one handle per message of theirs (the
 * peer maps them in the order the plan matched the pair's messages). */
static int pack_handles(const hm_plan_t *p, const ipc_state_t *s, unsigned char **out, int *counts)
{
    size_t n = 0;
    memset(counts, 0, (size_t)p->size * sizeof *counts);
    for (size_t i = 0; i < s->theirs->n; i++)
        if (s->theirs->m[i].peer != p->rank) counts[s->theirs->m[i].peer] += HANDLE_BYTES, n++;
    unsigned char *buf = malloc(n ? n * HANDLE_BYTES : 1);
    if (!(*out = buf)) return hm__error_set(HM_ENOMEM, "out of memory");
    /* Laid out by peer, in the order of the list within each peer. */
    size_t *at = calloc((size_t)p->size, sizeof *at);
    if (!at) return hm__error_set(HM_ENOMEM, "out of memory");
    for (int q = 1; q < p->size; q++) at[q] = at[q - 1] + (size_t)counts[q - 1];
    for (size_t i = 0; i < s->theirs->n; i++) {
        const hm__message_t *m = &s->theirs->m[i];
        if (m->peer == p->rank) continue;
        cudaIpcMemHandle_t h;
        cudaError_t e = cudaIpcGetMemHandle(&h, m->buf->data);
        if (e != cudaSuccess) {
            free(at);
            return hm__error_set(HM_EINVAL, "%s backend: cudaIpcGetMemHandle: %s", s->name,
                                 cudaGetErrorString(e));
        }
        memcpy(buf + at[m->peer], &h, HANDLE_BYTES);
        at[m->peer] += HANDLE_BYTES;
    }
    free(at);
    return HM_OK;
}

/* The mapping of handle h, opened once per process. */
static int open_handle(ipc_state_t *s, const unsigned char *h, void **base)
{
    for (size_t k = 0; k < s->nopened; k++)
        if (!memcmp(s->handles + k * HANDLE_BYTES, h, HANDLE_BYTES))
            return *base = s->opened[k], HM_OK;
    cudaIpcMemHandle_t handle;
    memcpy(&handle, h, HANDLE_BYTES);
    cudaError_t e = cudaIpcOpenMemHandle(base, handle, cudaIpcMemLazyEnablePeerAccess);
    if (e != cudaSuccess)
        return hm__error_set(HM_EINVAL, "%s backend: cudaIpcOpenMemHandle: %s", s->name,
                             cudaGetErrorString(e));
    s->opened[s->nopened] = *base;
    memcpy(s->handles + s->nopened * HANDLE_BYTES, h, HANDLE_BYTES);
    s->nopened++;
    return HM_OK;
}

/* Each message of mine to another rank: the peer's buffer, mapped, at the
 * peer's offset. */
static int map_peers(const hm_plan_t *p, ipc_state_t *s, const unsigned char *got,
                     const int *rcounts)
{
    size_t n = s->mine->n ? s->mine->n : 1;
    size_t *at = calloc((size_t)p->size, sizeof *at);
    s->remote = calloc(n, sizeof *s->remote);
    s->opened = calloc(n, sizeof *s->opened);
    s->handles = malloc(n * HANDLE_BYTES);
    if (!at || !s->remote || !s->opened || !s->handles)
        return free(at), hm__error_set(HM_ENOMEM, "out of memory");
    for (int q = 1; q < p->size; q++) at[q] = at[q - 1] + (size_t)rcounts[q - 1];
    int rc = HM_OK;
    for (size_t i = 0; rc == HM_OK && i < s->mine->n; i++) {
        const hm__message_t *m = &s->mine->m[i];
        if (m->peer == p->rank) continue;
        void *base;
        rc = open_handle(s, got + at[m->peer], &base);
        at[m->peer] += HANDLE_BYTES;
        if (rc == HM_OK) s->remote[i] = (char *)base + m->peer_off;
    }
    free(at);
    return rc;
}

static int exchange_handles(hm_plan_t *p, ipc_state_t *s)
{
    int *counts = malloc((size_t)p->size * sizeof *counts),
        *rcounts = malloc((size_t)p->size * sizeof *rcounts);
    unsigned char *packed = NULL;
    void *got = NULL;
    int rc = counts && rcounts ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    if (rc == HM_OK) rc = pack_handles(p, s, &packed, counts);
    /* Every rank has its handles before any exchanges: a peer that has none
     * to give would leave this rank mapping what it never sent. */
    rc = hm_agree(p->wire, rc);
    if (rc == HM_OK) rc = hm_agree(p->wire, hm__plan_exchange(p, packed, counts, &got, rcounts));
    if (rc == HM_OK) rc = map_peers(p, s, got, rcounts);
    free(counts), free(rcounts), free(packed), free(got);
    return rc;
}
#endif

static int ipc_commit_as(hm_plan_t *p, int get)
{
    ipc_state_t *s = calloc(1, sizeof *s);
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    p->state = s;
    s->get = get;
    s->name = get ? "ipc-get" : "ipc";
    s->mine = get ? &p->recv : &p->send;
    s->theirs = get ? &p->send : &p->recv;
    int rc = hm__node_flags_create(p, &s->flags);
    if (rc == HM_OK) rc = hm__node_flags_reach(p, &s->flags, s->name);
    if (rc == HM_OK) rc = hm__plan_check_memory(p, HM_MEMORY_DEVICE, s->name);
    if (rc == HM_OK) rc = hm__plan_stream_create(p);
#if HM_HAVE_CUDA
    /* Collective: every rank agrees on the checks above before any hands
     * out a handle to its memory. */
    rc = hm_agree(p->wire, rc);
    if (rc == HM_OK) rc = exchange_handles(p, s);
#endif
    if (rc == HM_OK) rc = hm__node_flags_peers(p, &s->flags, s->mine, &s->owners, &s->nowners);
    if (rc == HM_OK) rc = hm__node_flags_peers(p, &s->flags, s->theirs, &s->users, &s->nusers);
    if (rc == HM_OK && !(s->issued = malloc((size_t)(s->nowners ? s->nowners : 1))))
        rc = hm__error_set(HM_ENOMEM, "out of memory");
    if (rc == HM_OK) rc = hm__plan_self_copies(p, &s->self, &s->nself);
    return rc;
}

static int ipc_put_commit(hm_plan_t *p)
{
    return ipc_commit_as(p, 0);
}

static int ipc_get_commit(hm_plan_t *p)
{
    return ipc_commit_as(p, 1);
}

/* This rank's copies to or from node rank owner, on the stream. */
static int issue(hm_plan_t *p, ipc_state_t *s, int owner)
{
    int rc = HM_OK;
    for (size_t i = 0; rc == HM_OK && i < s->mine->n; i++) {
        const hm__message_t *m = &s->mine->m[i];
        if (m->peer == p->rank || s->flags.node_of[m->peer] != owner) continue;
        char *local = (char *)m->buf->data + m->off;
        rc = s->get ? hm__plan_stream_copy(p, local, s->remote[i], m->bytes)
                    : hm__plan_stream_copy(p, s->remote[i], local, m->bytes);
    }
    return rc;
}

static int ipc_start(hm_plan_t *p)
{
    ipc_state_t *s = p->state;
    const hm__node_flags_t *f = &s->flags;
    s->iteration++;
    for (int i = 0; i < s->nusers; i++)
        hm__node_flag_publish(f, HM_FLAG_READY, f->node_rank, s->users[i], s->iteration);
    int rc = hm__plan_stream_begin(p);
    for (size_t i = 0; rc == HM_OK && i < s->nself; i++)
        rc = hm__plan_stream_copy(p, s->self[i].to, s->self[i].from, s->self[i].bytes);
    /* Each owner as soon as it is ready, not in a fixed order. */
    int left = s->nowners;
    if (left > 0) memset(s->issued, 0, (size_t)left);
    for (unsigned spins = 0; rc == HM_OK && left > 0; spins++) {
        for (int i = 0; rc == HM_OK && i < s->nowners; i++) {
            int q = s->owners[i];
            if (s->issued[i] ||
                !hm__node_flag_reached(f, HM_FLAG_READY, q, f->node_rank, s->iteration))
                continue;
            rc = issue(p, s, q);
            s->issued[i] = 1;
            left--;
        }
        if (spins % 64 == 63) sched_yield();
    }
    if (rc == HM_OK) rc = hm__plan_stream_end(p);
    /* A failed start is not followed by a wait (hm_plan_measure's run
     * stops there): the owners waiting for this rank's done would spin for
     * ever, so it is published here. */
    for (int i = 0; rc != HM_OK && i < s->nowners; i++)
        hm__node_flag_publish(f, HM_FLAG_DONE, s->owners[i], f->node_rank, s->iteration);
    return rc;
}

/* After the plan synchronized the stream, and even when that failed: an
 * owner waiting for this rank's done is not left hanging. */
static int ipc_wait(hm_plan_t *p)
{
    ipc_state_t *s = p->state;
    const hm__node_flags_t *f = &s->flags;
    for (int i = 0; i < s->nowners; i++)
        hm__node_flag_publish(f, HM_FLAG_DONE, s->owners[i], f->node_rank, s->iteration);
    for (int i = 0; i < s->nusers; i++)
        hm__node_flag_await(f, HM_FLAG_DONE, f->node_rank, s->users[i], s->iteration);
    return HM_OK;
}

static void ipc_release(hm_plan_t *p)
{
    ipc_state_t *s = p->state;
    if (!s) return;
#if HM_HAVE_CUDA
    for (size_t k = 0; k < s->nopened; k++) cudaIpcCloseMemHandle(s->opened[k]);
#endif
    /* No rank frees a buffer another still has mapped: the flags' window
     * is freed collectively (a barrier of the node) after every close. */
    hm__node_flags_free(&s->flags);
    free(s->remote), free(s->opened), free(s->handles);
    free(s->owners), free(s->users), free(s->issued), free(s->self);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm__backend_ipc = {.name = "ipc",
                                      .memory = HM_MEMORY_DEVICE,
                                      .commit = ipc_put_commit,
                                      .start = ipc_start,
                                      .wait = ipc_wait,
                                      .release = ipc_release,
                                      .on_stream = 1};

const hm_backend_t hm__backend_ipc_get = {.name = "ipc-get",
                                          .memory = HM_MEMORY_DEVICE,
                                          .commit = ipc_get_commit,
                                          .start = ipc_start,
                                          .wait = ipc_wait,
                                          .release = ipc_release,
                                          .on_stream = 1};
