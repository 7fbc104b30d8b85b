/* src/trace/messages.c — the point-to-point messages of a trace, matched
 * on the records alone as the events come in global order: every send
 * instance (a send call, the send of a Sendrecv, a start of a persistent
 * send) and every receive instance (a receive call, the receive of a
 * Sendrecv, a completed request of a nonblocking or persistent receive)
 * is put on its channel (communicator, source, destination, tag; a
 * receive's as its status said), and on each channel the k-th send posted
 * matches the k-th receive posted: MPI's order (MPI-3.1 §3.5, "Order":
 * messages do not overtake one another on a channel). Then the clock
 * condition (Lamport 1978): a receive cannot complete before its send
 * started. A violation on the global clock means the clocks were not good
 * enough; on local clocks they are what a tracer without harmonia's clock
 * shows.
 *
 * A channel is a queue of the sides waiting for their other side, so
 * memory holds the messages in flight. Sends come in their rank's order,
 * which is their posting order. A receive is known when it completes, but
 * it takes its place by when it was posted: a completed receive waits on
 * its rank until no receive posted before it is still open (a nonblocking
 * or persistent receive, a probed message), then joins its channel. The
 * pairs are those of sorting each channel's sides by posting order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

/* One side of a message: the times its judge and its flow need (a send's
 * entry, a receive's exit). */
typedef struct side {
    int rank;
    double glob_s, local_s;
} side_t;

typedef struct chan_key {
    uint64_t comm;
    int src, dst, tag;
} chan_key_t;

/* A channel's waiting sides, all sends or all receives, first in first. */
typedef struct channel {
    chan_key_t key;
    side_t *q;
    size_t head, n, cap;
    int sends; /* what q holds */
} channel_t;

/* A completed receive waiting for the receives posted before it. */
typedef struct pending {
    size_t order;
    chan_key_t key;
    side_t side;
} pending_t;

/* A receive posted and not complete (id: its request number). */
typedef struct post {
    size_t order;
    uint32_t id;
} post_t;

typedef struct rank_state {
    hm__trace_requests_t req;
    post_t *posts; /* open, in posting order */
    size_t nposts, capposts;
    pending_t *heap; /* by order */
    size_t nheap, capheap;
} rank_state_t;

struct hm__trace_matcher {
    int nranks;
    rank_state_t *ranks;
    channel_t *chans;
    size_t nchans, capchans;
    size_t *table; /* channel index + 1, open addressing */
    size_t captable;
    FILE *flows;
    int flows_failed;
    hm__trace_messages_t out;
};

static int grow(void **v, size_t *cap, size_t want, size_t size)
{
    if (want <= *cap) return HM_OK;
    size_t c = *cap ? 2 * *cap : 64;
    while (c < want) c *= 2;
    void *p = realloc(*v, c * size);
    if (!p) return hm__error_nomem("hm_trace_merge");
    *v = p, *cap = c;
    return HM_OK;
}

/* ---- Channels ---- */

static size_t key_hash(const chan_key_t *k, size_t cap)
{
    uint64_t h = k->comm * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)k->src << 32 | (uint32_t)k->dst) * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)(uint32_t)k->tag * 0x165667b19e3779f9ull;
    h ^= h >> 29;
    return (size_t)h & (cap - 1);
}

static int key_eq(const chan_key_t *a, const chan_key_t *b)
{
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static size_t *find_slot(const hm__trace_matcher_t *m, const chan_key_t *k)
{
    for (size_t s = key_hash(k, m->captable);; s = (s + 1) & (m->captable - 1))
        if (!m->table[s] || key_eq(&m->chans[m->table[s] - 1].key, k)) return &m->table[s];
}

static int rehash(hm__trace_matcher_t *m)
{
    size_t cap = m->captable ? 2 * m->captable : 1024;
    size_t *t = calloc(cap, sizeof *t);
    if (!t) return hm__error_nomem("hm_trace_merge");
    free(m->table);
    m->table = t, m->captable = cap;
    for (size_t c = 0; c < m->nchans; c++) *find_slot(m, &m->chans[c].key) = c + 1;
    return HM_OK;
}

static int channel(hm__trace_matcher_t *m, const chan_key_t *k, channel_t **out)
{
    if (2 * (m->nchans + 1) > m->captable) {
        int st = rehash(m);
        if (st != HM_OK) return st;
    }
    size_t *s = find_slot(m, k);
    if (!*s) {
        int st = grow((void **)&m->chans, &m->capchans, m->nchans + 1, sizeof *m->chans);
        if (st != HM_OK) return st;
        m->chans[m->nchans] = (channel_t){.key = *k};
        *s = ++m->nchans;
    }
    *out = &m->chans[*s - 1];
    return HM_OK;
}

static int enqueue(channel_t *c, side_t x, int send)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        side_t *q = malloc(cap * sizeof *q);
        if (!q) return hm__error_nomem("hm_trace_merge");
        for (size_t k = 0; k < c->n; k++) q[k] = c->q[(c->head + k) % c->cap];
        free(c->q);
        c->q = q, c->cap = cap, c->head = 0;
    }
    c->q[(c->head + c->n++) % c->cap] = x;
    c->sends = send;
    return HM_OK;
}

static void judge(hm__trace_matcher_t *m, const side_t *s, const side_t *r)
{
    hm__trace_messages_t *out = &m->out;
    double early = s->glob_s - r->glob_s, early_local = s->local_s - r->local_s;
    if (early > 0) {
        out->violations++;
        if (!(early <= out->violation_max_s)) out->violation_max_s = early;
    }
    if (early_local > 0) {
        out->violations_local++;
        if (!(early_local <= out->violation_max_local_s)) out->violation_max_local_s = early_local;
    }
    out->n++;
    hm__trace_flow_t f = {s->rank, r->rank, s->glob_s, r->glob_s};
    if (m->flows && fwrite(&f, sizeof f, 1, m->flows) != 1) m->flows_failed = 1;
}

/* A side on its channel: paired with the oldest of the other kind, or
 * queued. */
static int put(hm__trace_matcher_t *m, const chan_key_t *k, side_t x, int send)
{
    channel_t *c;
    int st = channel(m, k, &c);
    if (st != HM_OK) return st;
    if (!c->n || c->sends == send) return enqueue(c, x, send);
    side_t y = c->q[c->head];
    c->head = (c->head + 1) % c->cap, c->n--;
    judge(m, send ? &x : &y, send ? &y : &x);
    return HM_OK;
}

/* ---- Receives in posting order ---- */

static void heap_down(pending_t *h, size_t n, size_t k)
{
    for (size_t c; (c = 2 * k + 1) < n; k = c) {
        if (c + 1 < n && h[c + 1].order < h[c].order) c++;
        if (h[k].order <= h[c].order) return;
        pending_t t = h[c];
        h[c] = h[k], h[k] = t;
    }
}

static int heap_push(rank_state_t *rs, pending_t p)
{
    int st = grow((void **)&rs->heap, &rs->capheap, rs->nheap + 1, sizeof *rs->heap);
    if (st != HM_OK) return st;
    size_t k = rs->nheap++;
    for (; k && rs->heap[(k - 1) / 2].order > p.order; k = (k - 1) / 2)
        rs->heap[k] = rs->heap[(k - 1) / 2];
    rs->heap[k] = p;
    return HM_OK;
}

/* The completed receives of a rank that no open receive precedes. */
static int release(hm__trace_matcher_t *m, rank_state_t *rs)
{
    size_t open = rs->nposts ? rs->posts[0].order : SIZE_MAX;
    int st = HM_OK;
    while (st == HM_OK && rs->nheap && rs->heap[0].order < open) {
        pending_t p = rs->heap[0];
        rs->heap[0] = rs->heap[--rs->nheap];
        heap_down(rs->heap, rs->nheap, 0);
        st = put(m, &p.key, p.side, 0);
    }
    return st;
}

static int post_open(rank_state_t *rs, uint32_t id, size_t order)
{
    int st = grow((void **)&rs->posts, &rs->capposts, rs->nposts + 1, sizeof *rs->posts);
    if (st == HM_OK) rs->posts[rs->nposts++] = (post_t){order, id};
    return st;
}

/* Request id's open receive closed (searched from the oldest: requests
 * mostly complete in the order they were posted). */
static void post_close(rank_state_t *rs, uint32_t id)
{
    for (size_t k = 0; k < rs->nposts; k++)
        if (rs->posts[k].id == id) {
            memmove(&rs->posts[k], &rs->posts[k + 1], (rs->nposts - k - 1) * sizeof *rs->posts);
            rs->nposts--;
            return;
        }
}

/* ---- The events of a rank ---- */

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

/* What can post a receive that completes later: its request stays open
 * until then (a probed message until its receive). */
static int opens_receive(int func)
{
    return func == HM_TRACE_MPI_Irecv || func == HM_TRACE_MPI_Imrecv ||
           func == HM_TRACE_MPI_Mprobe || func == HM_TRACE_MPI_Improbe;
}

static side_t send_side(int r, const hm__trace_ev_t *ev)
{
    return (side_t){r, ev->glob[0], ev->e.enter_s};
}

static side_t recv_side(int r, const hm__trace_ev_t *ev)
{
    return (side_t){r, ev->glob[1], ev->e.exit_s};
}

static int receive(hm__trace_matcher_t *m, rank_state_t *rs, size_t order, chan_key_t k, side_t x)
{
    int st = heap_push(rs, (pending_t){order, k, x});
    return st == HM_OK ? release(m, rs) : st;
}

/* A request record or start: a send instance, a receive instance, or
 * nothing (collectives, one-sided, I/O). */
static int request_side(hm__trace_matcher_t *m, rank_state_t *rs, int r, const hm__trace_ev_t *ev)
{
    const hm_trace_event_t *e = &ev->e;
    const hm__trace_origin_t *o = hm__trace_requests_find(&rs->req, e->request);
    int of = o ? o->e.func : -1;
    int start = e->func == HM_TRACE_MPI_Start || e->func == HM_TRACE_MPI_T_started;
    chan_key_t k = {e->comm_key, r, e->peer, e->tag};
    if (start && is_send_init(of)) return put(m, &k, send_side(r, ev), 1);
    if (start && of == HM_TRACE_MPI_Recv_init) {
        post_close(rs, e->request); /* a restart without a completion: the newest counts */
        return post_open(rs, e->request, ev->i);
    }
    if (e->func != HM_TRACE_MPI_T_completed) return HM_OK;
    size_t order = SIZE_MAX;
    if (of == HM_TRACE_MPI_Irecv || of == HM_TRACE_MPI_Imrecv) order = o->i;
    for (size_t q = 0; of == HM_TRACE_MPI_Recv_init && q < rs->nposts; q++)
        if (rs->posts[q].id == e->request) order = rs->posts[q].order;
    post_close(rs, e->request);
    if (e->peer < 0 || order == SIZE_MAX) return release(m, rs);
    k.src = e->peer, k.dst = r;
    return receive(m, rs, order, k, recv_side(r, ev));
}

/* Receive calls: a Recv or Mrecv (a probed message was taken from the
 * channel at its probe), the receive of a Sendrecv. */
static int call_receive(hm__trace_matcher_t *m, rank_state_t *rs, int r, const hm__trace_ev_t *ev)
{
    const hm_trace_event_t *e = &ev->e;
    int f = e->func;
    if ((f == HM_TRACE_MPI_Sendrecv || f == HM_TRACE_MPI_Sendrecv_replace) && e->recv_peer >= 0)
        return receive(m, rs, ev->i, (chan_key_t){e->comm_key, e->recv_peer, r, e->recv_tag},
                       recv_side(r, ev));
    if ((f != HM_TRACE_MPI_Recv && f != HM_TRACE_MPI_Mrecv) || e->peer < 0) return HM_OK;
    size_t order = ev->i;
    const hm__trace_origin_t *o = hm__trace_requests_find(&rs->req, e->request);
    if (f == HM_TRACE_MPI_Mrecv && o) order = o->i;
    if (f == HM_TRACE_MPI_Mrecv) post_close(rs, e->request);
    return receive(m, rs, order, (chan_key_t){e->comm_key, e->peer, r, e->tag}, recv_side(r, ev));
}

int hm__trace_matcher_event(hm__trace_matcher_t *m, int r, const hm__trace_ev_t *ev)
{
    rank_state_t *rs = &m->ranks[r];
    const hm_trace_event_t *e = &ev->e;
    int first = e->request && !hm__trace_requests_find(&rs->req, e->request);
    int st = hm__trace_requests_see(&rs->req, e, ev->i);
    if (st == HM_OK && first && opens_receive(e->func)) st = post_open(rs, e->request, ev->i);
    int f = e->func;
    if (st == HM_OK &&
        (is_send(f) || f == HM_TRACE_MPI_Sendrecv || f == HM_TRACE_MPI_Sendrecv_replace) &&
        e->peer >= 0)
        st = put(m, &(chan_key_t){e->comm_key, r, e->peer, e->tag}, send_side(r, ev), 1);
    if (st == HM_OK) st = call_receive(m, rs, r, ev);
    if (st == HM_OK && e->request) st = request_side(m, rs, r, ev);
    hm__trace_requests_done(&rs->req, e);
    return st;
}

int hm__trace_matcher_open(int nranks, FILE *flows, hm__trace_matcher_t **out)
{
    hm__trace_matcher_t *m = calloc(1, sizeof *m);
    if (m) m->ranks = calloc(nranks > 0 ? (size_t)nranks : 1, sizeof *m->ranks);
    if (!m || !m->ranks) return free(m), hm__error_nomem("hm_trace_merge");
    m->nranks = nranks, m->flows = flows;
    m->out.violation_max_s = m->out.violation_max_local_s = NAN;
    *out = m;
    return HM_OK;
}

int hm__trace_matcher_finish(hm__trace_matcher_t *m, hm__trace_messages_t *out)
{
    int st = HM_OK;
    /* Receives never completed hold back no one any more. */
    for (int r = 0; st == HM_OK && r < m->nranks; r++) {
        m->ranks[r].nposts = 0;
        st = release(m, &m->ranks[r]);
    }
    for (size_t c = 0; c < m->nchans; c++)
        *(m->chans[c].sends ? &m->out.sends_unmatched : &m->out.receives_unmatched) +=
            m->chans[c].n;
    *out = m->out;
    if (st == HM_OK && m->flows_failed)
        st = hm__error_set(HM_EIO, "cannot keep the messages aside for trace.json (disk full?)");
    return st;
}

void hm__trace_matcher_free(hm__trace_matcher_t *m)
{
    if (!m) return;
    for (int r = 0; r < m->nranks; r++) {
        hm__trace_requests_free(&m->ranks[r].req);
        free(m->ranks[r].posts), free(m->ranks[r].heap);
    }
    for (size_t c = 0; c < m->nchans; c++) free(m->chans[c].q);
    free(m->ranks), free(m->chans), free(m->table);
    free(m);
}
