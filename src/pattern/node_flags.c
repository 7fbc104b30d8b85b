/* src/pattern/node_flags.c — the ready/done counters that order copies
 * between processes of a node without any MPI call at run time (the host
 * and ipc backends). Each rank of the node owns 2 x node-size counters in
 * an MPI-3 shared window: ready[peer] and done[peer]. The rank whose
 * memory is written (host and ipc put: the receiver; ipc get: the sender,
 * whose buffer is read) publishes ready = its iteration: the other side
 * may touch its memory; the other side publishes done once its copies
 * have landed. Counters only grow, so a late reader never misses one. */
#include <sched.h>
#include <stdlib.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

static int node_ranks(const hm_plan_t *p, hm__node_flags_t *f)
{
    MPI_Group plan_group, node_group;
    int *all = malloc((size_t)p->size * sizeof *all);
    f->node_of = malloc((size_t)p->size * sizeof *f->node_of);
    if (!all || !f->node_of) return free(all), hm__error_set(HM_ENOMEM, "out of memory");
    for (int r = 0; r < p->size; r++) all[r] = r;
    MPI_Comm_group(p->wire, &plan_group);
    MPI_Comm_group(f->node, &node_group);
    int rc = MPI_Group_translate_ranks(plan_group, p->size, all, node_group, f->node_of);
    for (int r = 0; r < p->size; r++)
        if (f->node_of[r] == MPI_UNDEFINED) f->node_of[r] = -1;
    MPI_Group_free(&plan_group);
    MPI_Group_free(&node_group);
    free(all);
    return rc == MPI_SUCCESS ? HM_OK : hm__error_set(HM_EMPI, "MPI_Group_translate_ranks failed");
}

static int map_flags(hm__node_flags_t *f)
{
    MPI_Aint bytes = (MPI_Aint)(2 * (size_t)f->node_size * sizeof(uint64_t));
    void *base;
    if (MPI_Win_allocate_shared(bytes, (int)sizeof(uint64_t), MPI_INFO_NULL, f->node, &base,
                                &f->win) != MPI_SUCCESS) {
        f->win = MPI_WIN_NULL;
        return hm__error_set(HM_ENOMEM, "no shared window for the ready/done flags");
    }
    _Atomic uint64_t *mine = base;
    for (int i = 0; i < 2 * f->node_size; i++) atomic_init(&mine[i], 0);
    f->of_peer = malloc((size_t)f->node_size * sizeof *f->of_peer);
    if (!f->of_peer) return hm__error_set(HM_ENOMEM, "out of memory");
    for (int q = 0; q < f->node_size; q++) {
        MPI_Aint size;
        int disp;
        void *at;
        MPI_Win_shared_query(f->win, q, &size, &disp, &at);
        f->of_peer[q] = at;
    }
    /* Every rank's flags are zero before any start reads them. */
    return MPI_Barrier(f->node) == MPI_SUCCESS ? HM_OK : hm__error_set(HM_EMPI, "barrier");
}

int hm__node_flags_create(const hm_plan_t *p, hm__node_flags_t *f)
{
    f->node = MPI_COMM_NULL;
    f->win = MPI_WIN_NULL;
    int rc = MPI_Comm_split_type(p->wire, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &f->node) ==
                     MPI_SUCCESS
                 ? HM_OK
                 : hm__error_set(HM_EMPI, "MPI_Comm_split_type failed");
    if (rc != HM_OK) return rc;
    MPI_Comm_size(f->node, &f->node_size);
    MPI_Comm_rank(f->node, &f->node_rank);
    rc = node_ranks(p, f);
    /* Collective from here on: every rank maps the flags, even one that
     * failed above (its caller agrees after). */
    int rc_flags = map_flags(f);
    return rc == HM_OK ? rc_flags : rc;
}

void hm__node_flags_free(hm__node_flags_t *f)
{
    if (f->win != MPI_WIN_NULL) MPI_Win_free(&f->win);
    if (f->node != MPI_COMM_NULL) MPI_Comm_free(&f->node);
    free(f->of_peer);
    free(f->node_of);
    f->of_peer = NULL, f->node_of = NULL;
}

int hm__node_flags_reach(const hm_plan_t *p, const hm__node_flags_t *f, const char *backend)
{
    const hm__message_list_t *lists[2] = {&p->send, &p->recv};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++)
            if (f->node_of[lists[k]->m[i].peer] < 0)
                return hm__error_set(HM_EINVAL,
                                     "%s backend: rank %d and rank %d are on different nodes "
                                     "(the %s backend copies within a node; use %s)",
                                     backend, p->rank, lists[k]->m[i].peer, backend,
                                     p->backend->memory == HM_MEMORY_DEVICE ? "nccl" : "mpi");
    return HM_OK;
}

int hm__node_flags_peers(const hm_plan_t *p, const hm__node_flags_t *f, const hm__message_list_t *l,
                         int **out, int *n)
{
    unsigned char *seen = calloc((size_t)f->node_size, 1);
    *out = malloc((size_t)f->node_size * sizeof **out);
    *n = 0;
    if (!seen || !*out) return free(seen), hm__error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        int q = f->node_of[l->m[i].peer];
        if (l->m[i].peer == p->rank || seen[q]) continue;
        seen[q] = 1;
        (*out)[(*n)++] = q;
    }
    free(seen);
    return HM_OK;
}

_Atomic uint64_t *hm__node_flag(const hm__node_flags_t *f, hm__node_flag_t which, int owner,
                                int peer)
{
    return &f->of_peer[owner][which == HM_FLAG_DONE ? f->node_size + peer : peer];
}

void hm__node_flag_publish(const hm__node_flags_t *f, hm__node_flag_t which, int owner, int peer,
                           uint64_t value)
{
    atomic_store_explicit(hm__node_flag(f, which, owner, peer), value, memory_order_release);
}

int hm__node_flag_reached(const hm__node_flags_t *f, hm__node_flag_t which, int owner, int peer,
                          uint64_t value)
{
    return atomic_load_explicit(hm__node_flag(f, which, owner, peer), memory_order_acquire) >=
           value;
}

/* Spinning, yielding the core now and then: with more ranks than cores
 * the rank being waited for needs it. */
void hm__node_flag_await(const hm__node_flags_t *f, hm__node_flag_t which, int owner, int peer,
                         uint64_t value)
{
    for (unsigned spins = 0; !hm__node_flag_reached(f, which, owner, peer, value); spins++)
        if (spins % 64 == 63) sched_yield();
}
