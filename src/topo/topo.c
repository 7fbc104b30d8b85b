/* src/topo/topo.c — creating, freeing and reading a topology. */
#include <stdlib.h>

#include "common/comm_check.h"
#include "topo/topo_impl.h"

/* Checks that need no communication. Invalid values are replaced by 0 in
 * *o so that the agreement below never negates INT_MIN. */
static int validate(hm_topo_options_t *o, hm_topo_t **out)
{
    int st = HM_OK;
    if (!out) st = HM_EINVAL;
    if (o->ranks_per_node < 0 || o->ranks_per_socket < 0) st = HM_EINVAL;
    if (o->ranks_per_node > 0 && o->ranks_per_socket > o->ranks_per_node) st = HM_EINVAL;
    if (st != HM_OK) *o = (hm_topo_options_t){0, 0};
    return st;
}

/* Every rank learns the worst status and whether all ranks were given the
 * same options; a disagreement on options is HM_EINVAL everywhere. */
static int agree_options(MPI_Comm comm, int st, const hm_topo_options_t *o)
{
    int v[5] = {st, o->ranks_per_node, -o->ranks_per_node, o->ranks_per_socket,
                -o->ranks_per_socket};
    if (MPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return HM_EMPI;
    if (v[0] != HM_OK) return v[0];
    if (v[1] != -v[2] || v[3] != -v[4]) return HM_EINVAL;
    return HM_OK;
}

static int agree_status(MPI_Comm comm, int st)
{
    if (MPI_Allreduce(MPI_IN_PLACE, &st, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return HM_EMPI;
    return st;
}

static hm_topo_t *topo_alloc(const hm_topo_options_t *o)
{
    hm_topo_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->comm = t->node = t->node_leaders = MPI_COMM_NULL;
    t->socket = t->socket_leaders = MPI_COMM_NULL;
    t->opts = *o;
    t->binding = HM_TOPO_BIND_NOT_ASKED;
    t->package = -1;
    return t;
}

static int build(hm_topo_t *t, MPI_Comm comm)
{
    int st;
    if (MPI_Comm_dup(comm, &t->comm) != MPI_SUCCESS) return HM_EMPI;
    if ((st = hm__topo_split_nodes(t)) != HM_OK) return st;
    if ((st = hm__topo_split_sockets(t)) != HM_OK) return st;
    return hm__topo_summarize(t);
}

int hm_topo_create(MPI_Comm comm, const hm_topo_options_t *opts, hm_topo_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm_topo_options_t o = opts ? *opts : (hm_topo_options_t){0, 0};
    hm_topo_t *t = NULL;
    int inter = 0;

    if (out) *out = NULL;
    if (comm == MPI_COMM_NULL) return HM_EINVAL;
    /* Every rank of an intercommunicator sees the same answer. */
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return HM_EMPI;
    if (inter) return HM_EINVAL;

    int st = validate(&o, out);
    if (st == HM_OK && !(t = topo_alloc(&o))) st = HM_ENOMEM;
    st = agree_options(comm, st, &o);
    if (st == HM_OK) st = build(t, comm);
    st = agree_status(comm, st);
    if (st != HM_OK) {
        hm_topo_free(t);
        return st;
    }
    *out = t;
    return HM_OK;
}

static void comm_release(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

void hm_topo_free(hm_topo_t *t)
{
    if (!t) return;
    comm_release(&t->socket_leaders);
    comm_release(&t->socket);
    comm_release(&t->node_leaders);
    comm_release(&t->node);
    comm_release(&t->comm);
    free(t);
}

int hm_topo_level_comm(const hm_topo_t *t, int level, int nlevels, MPI_Comm *comm)
{
    if (!t || !comm || nlevels < 1 || nlevels > 3 || level < 0 || level >= nlevels)
        return HM_EINVAL;
    /* Outermost first: rows are nlevels, columns the level. */
    const MPI_Comm levels[3][3] = {
        {t->comm, MPI_COMM_NULL, MPI_COMM_NULL},
        {t->node_leaders, t->node, MPI_COMM_NULL},
        {t->node_leaders, t->socket_leaders, t->socket},
    };
    *comm = levels[nlevels - 1][level];
    return HM_OK;
}

MPI_Comm hm_topo_comm(const hm_topo_t *t)
{
    return t->comm;
}

MPI_Comm hm_topo_node_comm(const hm_topo_t *t)
{
    return t->node;
}

MPI_Comm hm_topo_node_leaders_comm(const hm_topo_t *t)
{
    return t->node_leaders;
}

MPI_Comm hm_topo_socket_comm(const hm_topo_t *t)
{
    return t->socket;
}

MPI_Comm hm_topo_socket_leaders_comm(const hm_topo_t *t)
{
    return t->socket_leaders;
}

int hm_topo_nnodes(const hm_topo_t *t)
{
    return t->nnodes;
}

int hm_topo_node_index(const hm_topo_t *t)
{
    return t->node_index;
}

int hm_topo_nsockets(const hm_topo_t *t)
{
    return t->nsockets;
}

int hm_topo_socket_index(const hm_topo_t *t)
{
    return t->socket_index;
}

int hm_topo_node_is_virtual(const hm_topo_t *t)
{
    return t->opts.ranks_per_node > 0;
}

int hm_topo_socket_is_virtual(const hm_topo_t *t)
{
    return t->opts.ranks_per_socket > 0;
}

hm_topo_binding_t hm_topo_binding(const hm_topo_t *t)
{
    return t->binding;
}

int hm_topo_package(const hm_topo_t *t)
{
    return t->package;
}
