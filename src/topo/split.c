/* src/topo/split.c — the communicators of each level, real or virtual. */
#include "common/error_set.h"
#include "topo/topo_impl.h"

/* Given a split of parent into groups, make the communicator of the group
 * leaders (group rank 0, i.e. the lowest parent rank since groups are split
 * with the parent rank as key) and tell every member how many groups there
 * are and the index of its own, groups being ordered by their leader. */
static int split_leaders(MPI_Comm parent, MPI_Comm group, MPI_Comm *leaders, int *ngroups,
                         int *index)
{
    int prank, grank, info[2] = {0, 0};
    MPI_Comm_rank(parent, &prank);
    MPI_Comm_rank(group, &grank);
    if (MPI_Comm_split(parent, grank == 0 ? 0 : MPI_UNDEFINED, prank, leaders) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_split");
    if (*leaders != MPI_COMM_NULL) {
        MPI_Comm_size(*leaders, &info[0]);
        MPI_Comm_rank(*leaders, &info[1]);
    }
    if (MPI_Bcast(info, 2, MPI_INT, 0, group) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *ngroups = info[0];
    *index = info[1];
    return HM_OK;
}

int hm__topo_split_nodes(hm_topo_t *t)
{
    int rank, rc, rpn = t->opts.ranks_per_node;
    MPI_Comm_rank(t->comm, &rank);
    if (rpn > 0)
        rc = MPI_Comm_split(t->comm, rank / rpn, rank, &t->node);
    else
        rc = MPI_Comm_split_type(t->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &t->node);
    if (rc != MPI_SUCCESS)
        return hm__mpi_status(rc, __func__, rpn > 0 ? "MPI_Comm_split" : "MPI_Comm_split_type");
    return split_leaders(t->comm, t->node, &t->node_leaders, &t->nnodes, &t->node_index);
}

int hm__topo_split_sockets(hm_topo_t *t)
{
    int nrank, color, rps = t->opts.ranks_per_socket;
    MPI_Comm_rank(t->node, &nrank);
    if (rps > 0) {
        color = nrank / rps;
    } else {
        hm__topo_detect_package(&t->binding, &t->package, &t->npackages);
        /* Ranks without a package of their own share color 0. */
        color = t->package + 1;
    }
    if (MPI_Comm_split(t->node, color, nrank, &t->socket) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_split");
    return split_leaders(t->node, t->socket, &t->socket_leaders, &t->nsockets, &t->socket_index);
}
