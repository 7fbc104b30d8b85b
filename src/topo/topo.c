/* src/topo/topo.c — creating, freeing and reading a topology. */
#include <stdlib.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "topo/topo_impl.h"

/* Checks that need no communication. Invalid values are replaced by 0 in
 * *o so that the agreement below never negates INT_MIN. */
static int validate(hm_topo_options_t *o, hm_topo_t **out)
{
    int st = HM_OK;
    if (o->ranks_per_node < 0 || o->ranks_per_socket < 0)
        st = hm__error_set(HM_EINVAL,
                           "hm_topo_create: ranks_per_node %d or ranks_per_socket %d is negative",
                           o->ranks_per_node, o->ranks_per_socket);
    else if (o->ranks_per_node > 0 && o->ranks_per_socket > o->ranks_per_node)
        st = hm__error_set(HM_EINVAL,
                           "hm_topo_create: ranks_per_socket %d exceeds ranks_per_node %d",
                           o->ranks_per_socket, o->ranks_per_node);
    if (!out) st = hm__error_null("hm_topo_create", "out");
    if (st != HM_OK) *o = (hm_topo_options_t){0, 0};
    return st;
}

/* The agreed status; a rank whose own part succeeded says why it fails too. */
static int agreed(int mine, int worst)
{
    if (worst == HM_OK || mine != HM_OK) return worst;
    return hm__error_set(worst, "hm_topo_create: another rank failed (%s)", hm_strerror(worst));
}

static int agree(MPI_Comm comm, int st)
{
    int worst = st;
    if (MPI_Allreduce(&st, &worst, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "hm_topo_create: cannot agree on the status");
    return agreed(st, worst);
}

/* Every rank learns the worst status and whether all ranks were given the
 * same options; a disagreement on options is HM_EINVAL everywhere. */
static int agree_options(MPI_Comm comm, int st, const hm_topo_options_t *o)
{
    int v[5] = {st, o->ranks_per_node, -o->ranks_per_node, o->ranks_per_socket,
                -o->ranks_per_socket};
    if (MPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "hm_topo_create: cannot agree on the options");
    if (v[0] != HM_OK) return agreed(st, v[0]);
    if (v[1] != -v[2] || v[3] != -v[4])
        return hm__error_set(HM_EINVAL, "hm_topo_create: the ranks were given different options");
    return HM_OK;
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
    if (MPI_Comm_dup(comm, &t->comm) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_dup");
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
    /* Every rank of an intercommunicator sees the same answer. */
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "%s: cannot test the communicator", __func__);
    if (inter) return hm__error_set(HM_EINVAL, "%s: comm is an intercommunicator", __func__);

    int st = validate(&o, out);
    if (st == HM_OK && !(t = topo_alloc(&o)))
        st = hm__error_set(HM_ENOMEM, "%s: cannot allocate a topology", __func__);
    st = agree_options(comm, st, &o);
    if (st == HM_OK) st = build(t, comm);
    st = agree(comm, st);
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
    if (!t) return hm__error_null(__func__, "topo");
    if (!comm) return hm__error_null(__func__, "comm");
    if (nlevels < 1 || nlevels > 3 || level < 0 || level >= nlevels)
        return hm__error_set(HM_EINVAL, "%s: level %d of %d levels (nlevels 1..3)", __func__, level,
                             nlevels);
    /* Outermost first: rows are nlevels, columns the level. */
    const MPI_Comm levels[3][3] = {
        {t->comm, MPI_COMM_NULL, MPI_COMM_NULL},
        {t->node_leaders, t->node, MPI_COMM_NULL},
        {t->node_leaders, t->socket_leaders, t->socket},
    };
    *comm = levels[nlevels - 1][level];
    return HM_OK;
}

/* A NULL topology: the sentence, for accessors that return its neutral
 * value. */
static int is_null(const hm_topo_t *t, const char *fn)
{
    if (!t) hm__error_null(fn, "topo");
    return !t;
}

MPI_Comm hm_topo_comm(const hm_topo_t *t)
{
    return is_null(t, __func__) ? MPI_COMM_NULL : t->comm;
}

MPI_Comm hm_topo_node_comm(const hm_topo_t *t)
{
    return is_null(t, __func__) ? MPI_COMM_NULL : t->node;
}

MPI_Comm hm_topo_node_leaders_comm(const hm_topo_t *t)
{
    return is_null(t, __func__) ? MPI_COMM_NULL : t->node_leaders;
}

MPI_Comm hm_topo_socket_comm(const hm_topo_t *t)
{
    return is_null(t, __func__) ? MPI_COMM_NULL : t->socket;
}

MPI_Comm hm_topo_socket_leaders_comm(const hm_topo_t *t)
{
    return is_null(t, __func__) ? MPI_COMM_NULL : t->socket_leaders;
}

int hm_topo_nnodes(const hm_topo_t *t)
{
    return is_null(t, __func__) ? 0 : t->nnodes;
}

int hm_topo_node_index(const hm_topo_t *t)
{
    return is_null(t, __func__) ? -1 : t->node_index;
}

int hm_topo_nsockets(const hm_topo_t *t)
{
    return is_null(t, __func__) ? 0 : t->nsockets;
}

int hm_topo_socket_index(const hm_topo_t *t)
{
    return is_null(t, __func__) ? -1 : t->socket_index;
}

int hm_topo_node_is_virtual(const hm_topo_t *t)
{
    return is_null(t, __func__) ? 0 : t->opts.ranks_per_node > 0;
}

int hm_topo_socket_is_virtual(const hm_topo_t *t)
{
    return is_null(t, __func__) ? 0 : t->opts.ranks_per_socket > 0;
}

hm_topo_binding_t hm_topo_binding(const hm_topo_t *t)
{
    return is_null(t, __func__) ? HM_TOPO_BIND_UNKNOWN : t->binding;
}

int hm_topo_package(const hm_topo_t *t)
{
    return is_null(t, __func__) ? -1 : t->package;
}
