/* src/pattern/plan.c — a step of a pattern [CommBench, §4.1]: messages
 * added locally, committed with one exchange of O(P) data per rank (where
 * CommBench sends control messages per registered message), run by the
 * backend. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "pattern/pattern_impl.h"

int hm_plan_create(MPI_Comm comm, const hm_backend_t *backend, hm_plan_t **out)
{
    if (!backend) return hm__error_null(__func__, "backend");
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm_plan_t *p = calloc(1, sizeof *p);
    if (!p) return hm__error_set(HM_ENOMEM, "out of memory");
    p->comm = comm;
    p->wire = MPI_COMM_NULL;
    p->backend = backend;
    if (MPI_Comm_rank(comm, &p->rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &p->size) != MPI_SUCCESS) {
        free(p);
        return hm__error_set(HM_EMPI, "not a communicator");
    }
    *out = p;
    return HM_OK;
}

static int push(hm__message_list_t *l, const hm__message_t *m)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        hm__message_t *grown = realloc(l->m, cap * sizeof *grown);
        if (!grown) return hm__error_set(HM_ENOMEM, "out of memory for %zu messages", cap);
        l->m = grown;
        l->cap = cap;
    }
    l->m[l->n++] = *m;
    return HM_OK;
}

/* The region [off, off + bytes) lies in this rank's buf. */
static int check_region(const char *what, const hm_buffer_t *buf, size_t off, size_t bytes)
{
    if (!buf) return hm__error_set(HM_EINVAL, "%s: no buffer on the rank that owns it", what);
    if (off > buf->bytes || bytes > buf->bytes - off)
        return hm__error_set(HM_EINVAL,
                             "%s: %zu bytes at offset %zu go beyond the buffer's %zu bytes", what,
                             bytes, off, buf->bytes);
    return HM_OK;
}

int hm_plan_add(hm_plan_t *p, hm_buffer_t *sendbuf, size_t sendoff, hm_buffer_t *recvbuf,
                size_t recvoff, size_t bytes, int src, int dst)
{
    if (!p) return hm__error_null(__func__, "plan");
    if (p->committed) return hm__error_set(HM_EINVAL, "the plan is committed: add before commit");
    if (src < 0 || src >= p->size)
        return hm__error_set(HM_EINVAL, "src %d is outside 0..%d", src, p->size - 1);
    if (dst < 0 || dst >= p->size)
        return hm__error_set(HM_EINVAL, "dst %d is outside 0..%d", dst, p->size - 1);
    int rc = HM_OK;
    if (src == p->rank && (rc = check_region("sendbuf", sendbuf, sendoff, bytes)) == HM_OK)
        rc = push(&p->send, &(hm__message_t){dst, sendbuf, recvbuf, sendoff, recvoff, bytes});
    if (rc == HM_OK && dst == p->rank &&
        (rc = check_region("recvbuf", recvbuf, recvoff, bytes)) == HM_OK)
        rc = push(&p->recv, &(hm__message_t){src, recvbuf, sendbuf, recvoff, sendoff, bytes});
    return rc;
}

/* Per peer: messages, bytes, and a hash of their sizes in order (FNV-1a),
 * so that two lists that agree in count and total but not message by
 * message are caught too. */
enum { PER_PEER = 3 };

static void summarize_list(const hm__message_list_t *l, int size, uint64_t *v)
{
    memset(v, 0, (size_t)size * PER_PEER * sizeof *v);
    for (int q = 0; q < size; q++) v[q * PER_PEER + 2] = 1469598103934665603ull;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t *x = v + (size_t)l->m[i].peer * PER_PEER;
        x[0]++;
        x[1] += l->m[i].bytes;
        x[2] = (x[2] ^ l->m[i].bytes) * 1099511628211ull;
    }
}

/* Every receiver compares what each peer sends it with what it expects. */
static int check_pairs(hm_plan_t *p)
{
    size_t n = (size_t)p->size * PER_PEER;
    uint64_t *sent = malloc(n * sizeof *sent), *got = malloc(n * sizeof *got),
             *want = malloc(n * sizeof *want);
    int rc = sent && got && want ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    if (rc == HM_OK) {
        summarize_list(&p->send, p->size, sent);
        summarize_list(&p->recv, p->size, want);
        if (MPI_Alltoall(sent, PER_PEER, MPI_UINT64_T, got, PER_PEER, MPI_UINT64_T, p->comm) !=
            MPI_SUCCESS)
            rc = hm__error_set(HM_EMPI, "MPI_Alltoall failed");
    }
    for (int q = 0; rc == HM_OK && q < p->size; q++) {
        const uint64_t *g = got + (size_t)q * PER_PEER, *w = want + (size_t)q * PER_PEER;
        if (g[0] != w[0] || g[1] != w[1])
            rc = hm__error_set(HM_EINVAL,
                               "rank %d expects %" PRIu64 " messages (%" PRIu64
                               " bytes) from rank %d, which sends it %" PRIu64 " (%" PRIu64
                               " bytes)",
                               p->rank, w[0], w[1], q, g[0], g[1]);
        else if (g[2] != w[2])
            rc = hm__error_set(HM_EINVAL,
                               "rank %d and rank %d agree on %" PRIu64
                               " messages but not on their sizes in the order added",
                               q, p->rank, w[0]);
    }
    free(sent);
    free(got);
    free(want);
    return rc;
}

static int count_total(hm_plan_t *p)
{
    uint64_t mine = 0;
    for (size_t i = 0; i < p->send.n; i++) mine += p->send.m[i].bytes;
    if (MPI_Allreduce(&mine, &p->total_bytes, 1, MPI_UINT64_T, MPI_SUM, p->comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "MPI_Allreduce failed");
    return HM_OK;
}

/* The backend's state, then the stream its work was on. */
static void release(hm_plan_t *p)
{
    p->backend->release(p);
    hm__plan_stream_free(p);
}

int hm_plan_commit(hm_plan_t *p)
{
    if (!p) return hm__error_null(__func__, "plan");
    int rc = p->committed ? hm__error_set(HM_EINVAL, "the plan is committed already") : HM_OK;
    rc = hm_agree(p->comm, rc);
    if (rc == HM_OK) rc = hm_agree(p->comm, check_pairs(p));
    if (rc == HM_OK) rc = hm_agree(p->comm, count_total(p));
    if (rc == HM_OK && MPI_Comm_dup(p->comm, &p->wire) != MPI_SUCCESS)
        rc = hm__error_set(HM_EMPI, "MPI_Comm_dup failed");
    if (rc == HM_OK) {
        rc = hm_agree(p->comm, p->backend->commit(p));
        if (rc != HM_OK) release(p); /* collective, as the commit was */
    }
    if (rc == HM_OK) p->committed = 1;
    return rc;
}

int hm_plan_start(hm_plan_t *p)
{
    if (!p) return hm__error_null(__func__, "plan");
    if (!p->committed) return hm__error_set(HM_EINVAL, "start: the plan is not committed");
    return p->backend->start(p);
}

int hm_plan_wait(hm_plan_t *p)
{
    if (!p) return hm__error_null(__func__, "plan");
    if (!p->committed) return hm__error_set(HM_EINVAL, "wait: the plan is not committed");
    int rc = p->backend->on_stream ? hm__plan_stream_sync(p) : HM_OK;
    int after = p->backend->wait ? p->backend->wait(p) : HM_OK;
    return rc != HM_OK ? rc : after;
}

int hm_plan_device_time(const hm_plan_t *p, double *seconds)
{
    if (!p) return hm__error_null(__func__, "plan");
    if (!seconds) return hm__error_null(__func__, "seconds");
    if (!p->committed) return hm__error_set(HM_EINVAL, "device time: the plan is not committed");
    if (!p->backend->on_stream)
        return hm__error_set(HM_ENOTSUP, "the %s backend has no device time", p->backend->name);
    if (!p->device_timing) return hm__error_set(HM_ENOTSUP, "device timing is off for this plan");
    return hm__plan_stream_elapsed(p, seconds);
}

int hm_plan_set_device_timing(hm_plan_t *p, int on)
{
    if (!p) return hm__error_null(__func__, "plan");
    p->device_timing = on != 0;
    return HM_OK;
}

void hm_plan_free(hm_plan_t *p)
{
    if (!p) return;
    if (p->committed) release(p);
    if (p->wire != MPI_COMM_NULL) MPI_Comm_free(&p->wire);
    free(p->send.m);
    free(p->recv.m);
    free(p);
}

void hm_plan_counts(const hm_plan_t *p, size_t *nsend, size_t *nrecv)
{
    if (!p) hm__error_null(__func__, "plan");
    if (nsend) *nsend = p ? p->send.n : 0;
    if (nrecv) *nrecv = p ? p->recv.n : 0;
}

uint64_t hm_plan_total_bytes(const hm_plan_t *p)
{
    if (!p) hm__error_null(__func__, "plan");
    return p ? p->total_bytes : 0;
}

int hm_plan_matrix(const hm_plan_t *p, uint64_t *bytes)
{
    if (!p) return hm__error_null(__func__, "plan");
    uint64_t *row = calloc((size_t)p->size, sizeof *row);
    int rc = row ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    /* Agreed below, so that the other ranks leave the gather too. */
    if (rc == HM_OK && p->rank == 0 && !bytes) rc = hm__error_null(__func__, "bytes");
    for (size_t i = 0; row && i < p->send.n; i++) row[p->send.m[i].peer] += p->send.m[i].bytes;
    rc = hm_agree(p->comm, rc);
    if (rc == HM_OK && MPI_Gather(row, p->size, MPI_UINT64_T, bytes, p->size, MPI_UINT64_T, 0,
                                  p->comm) != MPI_SUCCESS)
        rc = hm__error_set(HM_EMPI, "MPI_Gather failed");
    free(row);
    return rc;
}

int hm__plan_exchange(hm_plan_t *p, const void *send, const int *counts, void **recv, int *rcounts)
{
    int *sdispl = calloc((size_t)p->size, sizeof *sdispl),
        *rdispl = calloc((size_t)p->size, sizeof *rdispl);
    int rc = sdispl && rdispl ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    *recv = NULL;
    if (rc == HM_OK &&
        MPI_Alltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, p->wire) != MPI_SUCCESS)
        rc = hm__error_set(HM_EMPI, "MPI_Alltoall failed");
    size_t total = 0;
    for (int q = 0; rc == HM_OK && q < p->size; q++) {
        sdispl[q] = q ? sdispl[q - 1] + counts[q - 1] : 0;
        rdispl[q] = (int)total;
        total += (size_t)rcounts[q];
    }
    if (rc == HM_OK && !(*recv = malloc(total ? total : 1)))
        rc = hm__error_set(HM_ENOMEM, "out of memory");
    if (rc == HM_OK && MPI_Alltoallv(send, counts, sdispl, MPI_BYTE, *recv, rcounts, rdispl,
                                     MPI_BYTE, p->wire) != MPI_SUCCESS)
        rc = hm__error_set(HM_EMPI, "MPI_Alltoallv failed");
    free(sdispl);
    free(rdispl);
    return rc;
}

int hm__plan_check_memory(const hm_plan_t *p, hm_memory_t memory, const char *backend)
{
    static const char *const kind[] = {"host memory", "shared memory", "device memory"};
    const hm__message_list_t *lists[2] = {&p->send, &p->recv};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            const hm__message_t *m = &lists[k]->m[i];
            if (m->buf->memory != memory)
                return hm__error_set(HM_EINVAL,
                                     "%s backend: rank %d's %s buffer of its message %s rank %d "
                                     "is %s (allocate it as %s)",
                                     backend, p->rank, k ? "receive" : "send", k ? "from" : "to",
                                     m->peer, kind[m->buf->memory], kind[memory]);
        }
    return HM_OK;
}

int hm__plan_self_copies(const hm_plan_t *p, hm__self_copy_t **out, size_t *n)
{
    *n = 0;
    if (!(*out = malloc((p->send.n ? p->send.n : 1) * sizeof **out)))
        return hm__error_set(HM_ENOMEM, "out of memory");
    size_t r = 0;
    for (size_t i = 0; i < p->send.n; i++) {
        const hm__message_t *m = &p->send.m[i];
        if (m->peer != p->rank) continue;
        while (p->recv.m[r].peer != p->rank) r++;
        const hm__message_t *in = &p->recv.m[r++];
        hm__self_copy_t *c = &(*out)[(*n)++];
        c->to = (char *)in->buf->data + in->off;
        c->from = (const char *)m->buf->data + m->off;
        c->bytes = m->bytes;
        c->overlap = !(c->to + c->bytes <= c->from || c->from + c->bytes <= c->to);
    }
    return HM_OK;
}
