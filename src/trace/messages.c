/* src/trace/messages.c — the point-to-point messages of a loaded trace,
 * matched on the records alone: every send instance (a send call, the
 * send of a Sendrecv, a start of a persistent send) and every receive
 * instance (a receive call, the receive of a Sendrecv, a completed
 * request of a nonblocking or persistent receive) is put on its channel
 * (communicator, source, destination, tag; a receive's as its status
 * said), and on each channel the k-th send posted matches the k-th
 * receive posted: MPI's order (MPI-3.1 §3.5, "Order": messages do not
 * overtake one another on a channel). Then the clock condition (Lamport
 * 1978): a receive cannot complete before its send started. A violation
 * on the global clock means the clocks were not good enough; on local
 * clocks they are what a tracer without harmonia's clock shows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

/* One side of a message: its channel, where its rank posted it (the index
 * of the posting call: the order MPI matches in), and the event that
 * started (send) or completed (receive) it. */
typedef struct side {
    uint64_t comm;
    int src, dst, tag;
    int rank;
    size_t order, at;
} side_t;

typedef struct sides {
    side_t *v;
    size_t n, cap;
} sides_t;

static int push(sides_t *s, side_t x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        side_t *v = realloc(s->v, cap * sizeof *v);
        if (!v) return hm__error_nomem("hm_trace_merge");
        s->v = v, s->cap = cap;
    }
    s->v[s->n++] = x;
    return HM_OK;
}

static int is_send(int func)
{
    switch (func) {
    case HM_TRACE_MPI_Send:
    case HM_TRACE_MPI_Ssend:
    case HM_TRACE_MPI_Bsend:
    case HM_TRACE_MPI_Rsend:
    case HM_TRACE_MPI_Isend:
    case HM_TRACE_MPI_Issend:
    case HM_TRACE_MPI_Ibsend:
    case HM_TRACE_MPI_Irsend:
        return 1;
    default:
        return 0;
    }
}

static int is_send_init(int func)
{
    return func == HM_TRACE_MPI_Send_init || func == HM_TRACE_MPI_Ssend_init ||
           func == HM_TRACE_MPI_Bsend_init || func == HM_TRACE_MPI_Rsend_init;
}

/* Per rank: the last start of each persistent request seen so far. */
typedef struct starts {
    size_t *at;
    uint32_t max;
} starts_t;

static int starts_open(const hm__trace_rank_t *tr, starts_t *o)
{
    o->max = tr->max_request;
    if (!(o->at = hm__trace_big_alloc(((size_t)o->max + 1) * sizeof *o->at)))
        return hm__error_nomem("hm_trace_merge");
    for (size_t k = 0; k <= o->max; k++) o->at[k] = SIZE_MAX;
    return HM_OK;
}

static int origin_func(const hm__trace_rank_t *tr, uint32_t id)
{
    const hm_trace_event_t *o = hm__trace_origin(tr, id);
    return o ? o->func : -1;
}

static size_t origin_at(const hm__trace_rank_t *tr, uint32_t id)
{
    const hm_trace_event_t *o = hm__trace_origin(tr, id);
    return o ? (size_t)(o - tr->events) : SIZE_MAX;
}

/* A request record or start: a send instance, a receive instance, or
 * nothing (collectives, one-sided, I/O). */
static int request_side(const hm__trace_rank_t *tr, int r, size_t i, starts_t *o, sides_t *sends,
                        sides_t *recvs)
{
    const hm_trace_event_t *e = &tr->events[i];
    int of = origin_func(tr, e->request);
    int start = e->func == HM_TRACE_MPI_Start || e->func == HM_TRACE_MPI_T_started;
    side_t x = {e->comm_key, r, e->peer, e->tag, r, i, i};
    if (start && is_send_init(of)) return push(sends, x);
    if (start && of == HM_TRACE_MPI_Recv_init) o->at[e->request] = i;
    if (e->func != HM_TRACE_MPI_T_completed || e->peer < 0) return HM_OK;
    if (of == HM_TRACE_MPI_Irecv || of == HM_TRACE_MPI_Imrecv)
        x.order = origin_at(tr, e->request);
    else if (of == HM_TRACE_MPI_Recv_init && o->at[e->request] != SIZE_MAX)
        x.order = o->at[e->request];
    else
        return HM_OK;
    x.src = e->peer, x.dst = r;
    return push(recvs, x);
}

/* The sides of rank r's events, in its order. */
static int rank_sides(const hm__trace_rank_t *tr, int r, sides_t *sends, sides_t *recvs)
{
    starts_t o;
    int st = starts_open(tr, &o);
    for (size_t i = 0; st == HM_OK && i < tr->n; i++) {
        const hm_trace_event_t *e = &tr->events[i];
        int f = e->func;
        side_t x = {e->comm_key, r, e->peer, e->tag, r, i, i};
        if ((is_send(f) || f == HM_TRACE_MPI_Sendrecv || f == HM_TRACE_MPI_Sendrecv_replace) &&
            e->peer >= 0)
            st = push(sends, x);
        if (st == HM_OK && (f == HM_TRACE_MPI_Sendrecv || f == HM_TRACE_MPI_Sendrecv_replace) &&
            e->recv_peer >= 0)
            st = push(recvs, (side_t){e->comm_key, e->recv_peer, r, e->recv_tag, r, i, i});
        if (st == HM_OK && (f == HM_TRACE_MPI_Recv || f == HM_TRACE_MPI_Mrecv) && e->peer >= 0) {
            x.src = e->peer, x.dst = r;
            /* A probed message was taken from the channel at its probe. */
            if (f == HM_TRACE_MPI_Mrecv && origin_at(tr, e->request) != SIZE_MAX)
                x.order = origin_at(tr, e->request);
            st = push(recvs, x);
        }
        if (st == HM_OK && e->request) st = request_side(tr, r, i, &o, sends, recvs);
    }
    free(o.at);
    return st;
}

static int channel_cmp(const side_t *x, const side_t *y)
{
    if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
    return 0;
}

static int by_channel(const void *a, const void *b)
{
    const side_t *x = a, *y = b;
    int c = channel_cmp(x, y);
    if (c) return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void judge(const hm__trace_rank_t *ranks, const side_t *s, const side_t *r,
                  hm__trace_messages_t *out)
{
    const hm__trace_rank_t *a = &ranks[s->rank], *b = &ranks[r->rank];
    double early = a->glob[2 * s->at] - b->glob[2 * r->at + 1];
    double early_local = a->events[s->at].enter_s - b->events[r->at].exit_s;
    if (early > 0) {
        out->violations++;
        if (!(early <= out->violation_max_s)) out->violation_max_s = early;
    }
    if (early_local > 0) {
        out->violations_local++;
        if (!(early_local <= out->violation_max_local_s)) out->violation_max_local_s = early_local;
    }
}

/* The k-th send of each channel with its k-th receive. */
static int pair(const hm__trace_rank_t *ranks, const sides_t *sends, const sides_t *recvs,
                hm__trace_messages_t *out)
{
    size_t cap = sends->n < recvs->n ? sends->n : recvs->n;
    out->m = hm__trace_big_alloc((cap ? cap : 1) * sizeof *out->m);
    if (!out->m) return hm__error_nomem("hm_trace_merge");
    size_t i = 0, j = 0;
    while (i < sends->n || j < recvs->n) {
        int c = i == sends->n ? 1 : j == recvs->n ? -1 : channel_cmp(&sends->v[i], &recvs->v[j]);
        if (c < 0) {
            out->sends_unmatched++, i++;
            continue;
        }
        if (c > 0) {
            out->receives_unmatched++, j++;
            continue;
        }
        const side_t *s = &sends->v[i++], *r = &recvs->v[j++];
        out->m[out->n++] = (hm__trace_match_t){s->rank, s->at, r->rank, r->at};
        judge(ranks, s, r, out);
    }
    return HM_OK;
}

int hm__trace_messages_match(const hm__trace_rank_t *ranks, int nranks, hm__trace_messages_t *out)
{
    memset(out, 0, sizeof *out);
    out->violation_max_s = out->violation_max_local_s = NAN;
    sides_t sends = {0}, recvs = {0};
    int st = HM_OK;
    for (int r = 0; st == HM_OK && r < nranks; r++) st = rank_sides(&ranks[r], r, &sends, &recvs);
    if (st == HM_OK) {
        qsort(sends.v, sends.n, sizeof *sends.v, by_channel);
        qsort(recvs.v, recvs.n, sizeof *recvs.v, by_channel);
        st = pair(ranks, &sends, &recvs, out);
    }
    free(sends.v), free(recvs.v);
    if (st != HM_OK) hm__trace_messages_free(out);
    return st;
}

void hm__trace_messages_free(hm__trace_messages_t *msgs)
{
    free(msgs->m);
    msgs->m = NULL, msgs->n = 0;
}
