/* src/trace/requests.c — what each request number of a rank stands for,
 * while it can still be needed: an open-addressed table of the live
 * requests (the numbers are the tracer's count, never reused), so that a
 * merge holds the requests in flight instead of an index over every
 * event. */
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

static size_t home(uint32_t id, size_t cap)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static hm__trace_origin_t *slot_of(const hm__trace_requests_t *q, uint32_t id)
{
    for (size_t k = home(id, q->cap);; k = (k + 1) & (q->cap - 1))
        if (q->v[k].id == id || q->v[k].id == 0) return &q->v[k];
}

/* Twice the room, every entry placed again. */
static int grow(hm__trace_requests_t *q)
{
    size_t cap = q->cap ? 2 * q->cap : 256;
    hm__trace_origin_t *old = q->v;
    size_t n = q->cap;
    if (!(q->v = calloc(cap, sizeof *q->v))) return q->v = old, hm__error_nomem("hm_trace_merge");
    q->cap = cap;
    for (size_t k = 0; k < n; k++)
        if (old[k].id) *slot_of(q, old[k].id) = old[k];
    free(old);
    return HM_OK;
}

int hm__trace_requests_see(hm__trace_requests_t *q, const hm_trace_event_t *e, size_t i)
{
    if (!e->request) return HM_OK;
    if (2 * (q->n + 1) > q->cap) {
        int st = grow(q);
        if (st != HM_OK) return st;
    }
    hm__trace_origin_t *o = slot_of(q, e->request);
    if (o->id) return HM_OK; /* the earliest wins */
    *o = (hm__trace_origin_t){e->request, i, *e};
    q->n++;
    return HM_OK;
}

const hm__trace_origin_t *hm__trace_requests_find(const hm__trace_requests_t *q, uint32_t id)
{
    if (!id || !q->cap) return NULL;
    const hm__trace_origin_t *o = slot_of(q, id);
    return o->id ? o : NULL;
}

/* Removal from a linear-probing table: the entries after the hole that
 * would no longer be found are moved into it (Knuth 6.4, Algorithm R). */
static void forget(hm__trace_requests_t *q, hm__trace_origin_t *o)
{
    size_t i = (size_t)(o - q->v), j = i, mask = q->cap - 1;
    q->v[i].id = 0;
    q->n--;
    for (;;) {
        j = (j + 1) & mask;
        if (!q->v[j].id) return;
        size_t h = home(q->v[j].id, q->cap);
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            q->v[i] = q->v[j];
            q->v[j].id = 0;
            i = j;
        }
    }
}

static int persistent(int func)
{
    switch (func) {
    case HM_TRACE_MPI_Send_init:
    case HM_TRACE_MPI_Ssend_init:
    case HM_TRACE_MPI_Bsend_init:
    case HM_TRACE_MPI_Rsend_init:
    case HM_TRACE_MPI_Recv_init:
        return 1;
    default:
        return 0;
    }
}

void hm__trace_requests_done(hm__trace_requests_t *q, const hm_trace_event_t *e)
{
    int completed = e->func == HM_TRACE_MPI_T_completed, mrecv = e->func == HM_TRACE_MPI_Mrecv;
    if (!e->request || !q->cap || !(completed || mrecv)) return;
    hm__trace_origin_t *o = slot_of(q, e->request);
    if (o->id && !persistent(o->e.func)) forget(q, o);
}

void hm__trace_requests_free(hm__trace_requests_t *q)
{
    free(q->v);
    q->v = NULL, q->cap = q->n = 0;
}
