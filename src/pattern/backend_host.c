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
    hm__node_flags_t flags;
    void **put_at; /* per send message: the receiver's address (NULL: self) */
    uint64_t iteration;
    int *senders, nsenders;     /* node ranks this rank receives from (not itself) */
    int *receivers, nreceivers; /* node ranks it sends to (not itself) */
    unsigned char *sent;        /* per receiver, during a start: copied yet */
    hm__self_copy_t *self;      /* this rank's messages to itself, resolved at commit: a
                                 * 1 KiB copy takes 20 ns, finding the pair at each start 5 */
    size_t nself;
} host_state_t;

/* The address of rank peer's slice of buf (a shared window) in this
 * process, at off. */
static int peer_address(const hm_plan_t *p, const hm__message_t *m, void **at)
{
    const hm_buffer_t *b = m->peer_buf;
    if (!b || b->memory != HM_MEMORY_SHARED)
        return hm__error_set(HM_EINVAL,
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
    if (peer_in_buf == MPI_UNDEFINED || hm__buffer_shared_at(b, peer_in_buf, &base) != HM_OK)
        return hm__error_set(HM_EINVAL, "host backend: rank %d cannot reach rank %d's buffer",
                             p->rank, m->peer);
    *at = (char *)base + m->peer_off;
    return HM_OK;
}

static int check_memory(const hm_plan_t *p)
{
    const hm__message_list_t *lists[2] = {&p->send, &p->recv};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++)
            if (lists[k]->m[i].buf->memory == HM_MEMORY_DEVICE)
                return hm__error_set(HM_EINVAL, "host backend: rank %d's buffer is device memory",
                                     p->rank);
    return HM_OK;
}

static int host_commit(hm_plan_t *p)
{
    host_state_t *s = calloc(1, sizeof *s);
    if (!s) return hm__error_set(HM_ENOMEM, "out of memory");
    p->state = s;
    int rc = hm__node_flags_create(p, &s->flags);
    if (rc == HM_OK) rc = hm__node_flags_reach(p, &s->flags, "host");
    if (rc == HM_OK) rc = check_memory(p);
    if (rc == HM_OK && !(s->put_at = calloc(p->send.n ? p->send.n : 1, sizeof *s->put_at)))
        rc = hm__error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; rc == HM_OK && i < p->send.n; i++)
        if (p->send.m[i].peer != p->rank) rc = peer_address(p, &p->send.m[i], &s->put_at[i]);
    if (rc == HM_OK) rc = hm__node_flags_peers(p, &s->flags, &p->recv, &s->senders, &s->nsenders);
    if (rc == HM_OK)
        rc = hm__node_flags_peers(p, &s->flags, &p->send, &s->receivers, &s->nreceivers);
    /* Made once: a start allocates nothing (a self copy of 1 KiB takes 50 ns,
     * as long as a calloc and free). */
    if (rc == HM_OK && !(s->sent = malloc((size_t)(s->nreceivers ? s->nreceivers : 1))))
        rc = hm__error_set(HM_ENOMEM, "out of memory");
    if (rc == HM_OK) rc = hm__plan_self_copies(p, &s->self, &s->nself);
    return rc;
}

static void copy_to(hm_plan_t *p, host_state_t *s, int node_peer)
{
    for (size_t i = 0; i < p->send.n; i++) {
        const hm__message_t *m = &p->send.m[i];
        if (m->peer != p->rank && s->flags.node_of[m->peer] == node_peer)
            memcpy(s->put_at[i], (const char *)m->buf->data + m->off, m->bytes);
    }
    hm__node_flag_publish(&s->flags, HM_FLAG_DONE, node_peer, s->flags.node_rank, s->iteration);
}

static void copy_self(const host_state_t *s)
{
    for (size_t i = 0; i < s->nself; i++) {
        const hm__self_copy_t *c = &s->self[i];
        if (c->overlap)
            memmove(c->to, c->from, c->bytes);
        else
            memcpy(c->to, c->from, c->bytes);
    }
}

static int host_start(hm_plan_t *p)
{
    host_state_t *s = p->state;
    const hm__node_flags_t *f = &s->flags;
    s->iteration++;
    for (int i = 0; i < s->nsenders; i++)
        hm__node_flag_publish(f, HM_FLAG_READY, f->node_rank, s->senders[i], s->iteration);
    copy_self(s);
    /* Each receiver as soon as it is ready, not in a fixed order. */
    int left = s->nreceivers;
    unsigned char *sent = s->sent;
    if (left > 0) memset(sent, 0, (size_t)left);
    for (unsigned spins = 0; left > 0; spins++) {
        for (int i = 0; i < s->nreceivers; i++) {
            int q = s->receivers[i];
            if (sent[i] || !hm__node_flag_reached(f, HM_FLAG_READY, q, f->node_rank, s->iteration))
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
        hm__node_flag_await(&s->flags, HM_FLAG_DONE, s->flags.node_rank, s->senders[i],
                            s->iteration);
    return HM_OK;
}

static void host_release(hm_plan_t *p)
{
    host_state_t *s = p->state;
    if (!s) return;
    hm__node_flags_free(&s->flags);
    free(s->put_at);
    free(s->senders);
    free(s->receivers);
    free(s->sent);
    free(s->self);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm__backend_host = {.name = "host",
                                       .memory = HM_MEMORY_SHARED,
                                       .commit = host_commit,
                                       .start = host_start,
                                       .wait = host_wait,
                                       .release = host_release};
