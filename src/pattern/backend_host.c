/* src/pattern/backend_host.c — the host backend: memcpy. A message to
 * itself is a copy inside the process; a message to another process of the
 * node is a put: the sender copies straight into the receiver's buffer, a
 * slice of an MPI-3 shared window (MPI_Win_shared_query gives its address),
 * as CommBench's IPC backend writes into a peer's GPU memory. Two counters
 * per pair of ranks in a flags window of the node order the copies without
 * any MPI call at run time: the receiver's start publishes ready = its
 * iteration (its buffer may be overwritten), the sender copies once ready
 * has reached its own iteration and then publishes done, and the
 * receiver's wait returns once done has reached its iteration from every
 * sender. */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

typedef struct host_state {
    MPI_Comm node;              /* ranks of the plan on this node */
    MPI_Win flags_win;          /* per rank: ready[node size], done[node size] */
    _Atomic uint64_t *mine;     /* this rank's ready and done */
    _Atomic uint64_t **of_peer; /* by node rank: that rank's flags */
    int node_size, node_rank;
    int *node_of;  /* plan rank -> node rank (-1: another node) */
    void **put_at; /* per send message: the receiver's address (NULL: self) */
    uint64_t iteration;
    int *senders, nsenders;     /* node ranks this rank receives from (not itself) */
    int *receivers, nreceivers; /* node ranks it sends to (not itself) */
    unsigned char *sent;        /* per receiver, during a start: copied yet */
} host_state_t;

static int node_ranks(hm_plan_t *p, host_state_t *s)
{
    MPI_Group plan_group, node_group;
    int *all = malloc((size_t)p->size * sizeof *all);
    s->node_of = malloc((size_t)p->size * sizeof *s->node_of);
    if (!all || !s->node_of) return free(all), hm_error_set(HM_ENOMEM, "out of memory");
    for (int r = 0; r < p->size; r++) all[r] = r;
    MPI_Comm_group(p->wire, &plan_group);
    MPI_Comm_group(s->node, &node_group);
    int rc = MPI_Group_translate_ranks(plan_group, p->size, all, node_group, s->node_of);
    for (int r = 0; r < p->size; r++)
        if (s->node_of[r] == MPI_UNDEFINED) s->node_of[r] = -1;
    MPI_Group_free(&plan_group);
    MPI_Group_free(&node_group);
    free(all);
    return rc == MPI_SUCCESS ? HM_OK : hm_error_set(HM_EMPI, "MPI_Group_translate_ranks failed");
}

/* The address of rank peer's slice of buf (a shared window) in this
 * process, at off. */
static int peer_address(const hm_plan_t *p, const hm_message_t *m, void **at)
{
    const hm_buffer_t *b = m->peer_buf;
    if (!b || b->memory != HM_MEMORY_SHARED)
        return hm_error_set(HM_EINVAL,
                            "host backend: the receive buffer of the message from rank %d to "
                            "rank %d is not shared memory (allocate it HM_MEMORY_SHARED)",
                            p->rank, m->peer);
    MPI_Group plan_group, buf_group;
    int peer_in_buf;
    MPI_Comm_group(p->wire, &plan_group);
    MPI_Comm_group(b->node, &buf_group);
    MPI_Group_translate_ranks(plan_group, 1, &m->peer, buf_group, &peer_in_buf);
    MPI_Group_free(&plan_group);
    MPI_Group_free(&buf_group);
    void *base;
    if (peer_in_buf == MPI_UNDEFINED || hm_buffer_shared_at(b, peer_in_buf, &base) != HM_OK)
        return hm_error_set(HM_EINVAL, "host backend: rank %d cannot reach rank %d's buffer",
                            p->rank, m->peer);
    *at = (char *)base + m->peer_off;
    return HM_OK;
}

/* The distinct node ranks of the peers of l other than this rank. */
static int peers_of(const hm_plan_t *p, const host_state_t *s, const hm_message_list_t *l,
                    int **out, int *n)
{
    unsigned char *seen = calloc((size_t)s->node_size, 1);
    *out = malloc((size_t)s->node_size * sizeof **out);
    *n = 0;
    if (!seen || !*out) return free(seen), hm_error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        int q = s->node_of[l->m[i].peer];
        if (l->m[i].peer == p->rank || seen[q]) continue;
        seen[q] = 1;
        (*out)[(*n)++] = q;
    }
    free(seen);
    return HM_OK;
}

static int check_reach(const hm_plan_t *p, const host_state_t *s)
{
    const hm_message_list_t *lists[2] = {&p->send, &p->recv};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            const hm_message_t *m = &lists[k]->m[i];
            if (s->node_of[m->peer] < 0)
                return hm_error_set(HM_EINVAL,
                                    "host backend: rank %d and rank %d are on different nodes "
                                    "(the host backend copies within a node; use mpi)",
                                    p->rank, m->peer);
            if (m->buf->memory == HM_MEMORY_DEVICE)
                return hm_error_set(HM_EINVAL, "host backend: rank %d's buffer is device memory",
                                    p->rank);
        }
    return HM_OK;
}

static int map_flags(host_state_t *s)
{
    MPI_Aint bytes = (MPI_Aint)(2 * (size_t)s->node_size * sizeof(uint64_t));
    void *base;
    if (MPI_Win_allocate_shared(bytes, (int)sizeof(uint64_t), MPI_INFO_NULL, s->node, &base,
                                &s->flags_win) != MPI_SUCCESS) {
        s->flags_win = MPI_WIN_NULL;
        return hm_error_set(HM_ENOMEM, "host backend: no shared window for the flags");
    }
    s->mine = base;
    for (int i = 0; i < 2 * s->node_size; i++) atomic_init(&s->mine[i], 0);
    s->of_peer = malloc((size_t)s->node_size * sizeof *s->of_peer);
    if (!s->of_peer) return hm_error_set(HM_ENOMEM, "out of memory");
    for (int q = 0; q < s->node_size; q++) {
        MPI_Aint size;
        int disp;
        void *at;
        MPI_Win_shared_query(s->flags_win, q, &size, &disp, &at);
        s->of_peer[q] = at;
    }
    /* Every rank's flags are zero before any start reads them. */
    return MPI_Barrier(s->node) == MPI_SUCCESS ? HM_OK : hm_error_set(HM_EMPI, "barrier");
}

static int host_commit(hm_plan_t *p)
{
    host_state_t *s = calloc(1, sizeof *s);
    if (!s) return hm_error_set(HM_ENOMEM, "out of memory");
    s->node = MPI_COMM_NULL;
    s->flags_win = MPI_WIN_NULL;
    p->state = s;
    int rc = MPI_Comm_split_type(p->wire, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &s->node) ==
                     MPI_SUCCESS
                 ? HM_OK
                 : hm_error_set(HM_EMPI, "MPI_Comm_split_type failed");
    if (rc == HM_OK) {
        MPI_Comm_size(s->node, &s->node_size);
        MPI_Comm_rank(s->node, &s->node_rank);
        rc = node_ranks(p, s);
    }
    /* Collective from here on: every rank maps the flags, even one whose
     * messages cannot be moved (the agreement comes after). */
    int rc_flags = map_flags(s);
    if (rc == HM_OK) rc = rc_flags;
    if (rc == HM_OK) rc = check_reach(p, s);
    if (rc == HM_OK && !(s->put_at = calloc(p->send.n ? p->send.n : 1, sizeof *s->put_at)))
        rc = hm_error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; rc == HM_OK && i < p->send.n; i++)
        if (p->send.m[i].peer != p->rank) rc = peer_address(p, &p->send.m[i], &s->put_at[i]);
    if (rc == HM_OK) rc = peers_of(p, s, &p->recv, &s->senders, &s->nsenders);
    if (rc == HM_OK) rc = peers_of(p, s, &p->send, &s->receivers, &s->nreceivers);
    /* Made once: a start allocates nothing (a self copy of 1 KiB takes 50 ns,
     * as long as a calloc and free). */
    if (rc == HM_OK && !(s->sent = malloc((size_t)(s->nreceivers ? s->nreceivers : 1))))
        rc = hm_error_set(HM_ENOMEM, "out of memory");
    return rc;
}

static _Atomic uint64_t *ready_of(host_state_t *s, int owner, int peer)
{
    return &s->of_peer[owner][peer];
}

static _Atomic uint64_t *done_of(host_state_t *s, int owner, int peer)
{
    return &s->of_peer[owner][s->node_size + peer];
}

/* Spinning, yielding the core now and then: with more ranks than cores
 * the rank being waited for needs it. */
static void await(_Atomic uint64_t *flag, uint64_t value)
{
    for (unsigned spins = 0; atomic_load_explicit(flag, memory_order_acquire) < value; spins++)
        if (spins % 64 == 63) sched_yield();
}

static void copy_to(hm_plan_t *p, host_state_t *s, int node_peer)
{
    for (size_t i = 0; i < p->send.n; i++) {
        const hm_message_t *m = &p->send.m[i];
        if (m->peer != p->rank && s->node_of[m->peer] == node_peer)
            memcpy(s->put_at[i], (const char *)m->buf->data + m->off, m->bytes);
    }
    atomic_store_explicit(done_of(s, node_peer, s->node_rank), s->iteration, memory_order_release);
}

static void copy_self(hm_plan_t *p)
{
    /* A rank's messages to itself, matched in the order added. */
    size_t r = 0;
    for (size_t i = 0; i < p->send.n; i++) {
        const hm_message_t *m = &p->send.m[i];
        if (m->peer != p->rank) continue;
        while (p->recv.m[r].peer != p->rank) r++;
        const hm_message_t *in = &p->recv.m[r++];
        char *to = (char *)in->buf->data + in->off;
        const char *from = (const char *)m->buf->data + m->off;
        /* memmove only where the regions may overlap (a forwarding step in
         * place): its check costs a few ns of the 20 ns a 1 KiB copy takes. */
        if (to + m->bytes <= from || from + m->bytes <= to)
            memcpy(to, from, m->bytes);
        else
            memmove(to, from, m->bytes);
    }
}

static int host_start(hm_plan_t *p)
{
    host_state_t *s = p->state;
    s->iteration++;
    for (int i = 0; i < s->nsenders; i++)
        atomic_store_explicit(ready_of(s, s->node_rank, s->senders[i]), s->iteration,
                              memory_order_release);
    copy_self(p);
    /* Each receiver as soon as it is ready, not in a fixed order. */
    int left = s->nreceivers;
    unsigned char *sent = s->sent;
    if (left > 0) memset(sent, 0, (size_t)left);
    for (unsigned spins = 0; left > 0; spins++) {
        for (int i = 0; i < s->nreceivers; i++) {
            int q = s->receivers[i];
            if (sent[i] || atomic_load_explicit(ready_of(s, q, s->node_rank),
                                                memory_order_acquire) < s->iteration)
                continue;
            copy_to(p, s, q);
            sent[i] = 1;
            left--;
        }
        if (spins % 64 == 63) sched_yield();
    }
    return HM_OK;
}

static int host_wait(hm_plan_t *p)
{
    host_state_t *s = p->state;
    for (int i = 0; i < s->nsenders; i++)
        await(done_of(s, s->node_rank, s->senders[i]), s->iteration);
    return HM_OK;
}

static void host_release(hm_plan_t *p)
{
    host_state_t *s = p->state;
    if (!s) return;
    if (s->flags_win != MPI_WIN_NULL) MPI_Win_free(&s->flags_win);
    if (s->node != MPI_COMM_NULL) MPI_Comm_free(&s->node);
    free(s->of_peer);
    free(s->node_of);
    free(s->put_at);
    free(s->senders);
    free(s->receivers);
    free(s->sent);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm_backend_host = {"host",     HM_MEMORY_SHARED, host_commit,
                                      host_start, host_wait,        host_release};
