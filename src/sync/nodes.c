/* src/sync/nodes.c — which ping-pongs of a synchronization cross nodes: the
 * cost hierarchical synchronization saves (Hunold and Carpen-Amarie 2018,
 * SIV: one model between node leaders instead of one per rank). */
#include <stdlib.h>

#include "sync/sync_impl.h"

struct hm__sync_nodes {
    MPI_Group group; /* the synchronized communicator's */
    int me;          /* this rank in it */
    int *node_of;    /* node of each rank: its node's lowest rank */
};

/* This rank's node, named by the node's lowest rank of comm. */
static int my_node(MPI_Comm comm, int me, int ranks_per_node, int *node)
{
    if (ranks_per_node > 0) {
        *node = me / ranks_per_node * ranks_per_node;
        return HM_OK;
    }
    MPI_Comm shared;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &shared) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_split_type");
    int rc = MPI_Allreduce(&me, node, 1, MPI_INT, MPI_MIN, shared);
    MPI_Comm_free(&shared);
    return hm__mpi_status(rc, __func__, "MPI_Allreduce");
}

int hm__sync_nodes_create(MPI_Comm comm, int ranks_per_node, hm__sync_nodes_t **out)
{
    int me, size, node = 0, all = 1;
    *out = NULL;
    if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_size");
    hm__sync_nodes_t *n = calloc(1, sizeof *n);
    if (n) n->me = me, n->node_of = malloc((size_t)size * sizeof *n->node_of);
    /* Every rank takes part in the collectives whatever its allocations. */
    int failed = !n || !n->node_of;
    int rc = hm__mpi_status(MPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_MAX, comm), __func__,
                            "MPI_Allreduce");
    if (rc == HM_OK && all)
        rc = hm__error_set(HM_ENOMEM, "%s: out of memory%s", __func__,
                           failed ? "" : " on another rank");
    if (rc == HM_OK) rc = my_node(comm, me, ranks_per_node, &node);
    if (rc == HM_OK &&
        MPI_Allgather(&node, 1, MPI_INT, n->node_of, 1, MPI_INT, comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Allgather");
    if (rc == HM_OK && MPI_Comm_group(comm, &n->group) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Comm_group");
    if (rc != HM_OK) {
        if (n) free(n->node_of);
        free(n);
        return rc;
    }
    *out = n;
    return HM_OK;
}

void hm__sync_nodes_free(hm__sync_nodes_t *n)
{
    if (!n) return;
    MPI_Group_free(&n->group);
    free(n->node_of);
    free(n);
}

void hm__sync_tally(hm__sync_stats_t *stats, MPI_Comm comm, int peer, long count)
{
    if (!stats) return;
    stats->pingpongs += count;
    if (!stats->nodes || count == 0) return;
    MPI_Group group;
    int whole_peer = MPI_UNDEFINED;
    if (MPI_Comm_group(comm, &group) != MPI_SUCCESS) return;
    MPI_Group_translate_ranks(group, 1, &peer, stats->nodes->group, &whole_peer);
    MPI_Group_free(&group);
    const hm__sync_nodes_t *n = stats->nodes;
    if (whole_peer != MPI_UNDEFINED && n->node_of[whole_peer] != n->node_of[n->me])
        stats->internode_pingpongs += count;
}

void hm__sync_tally_pair(hm__sync_stats_t *stats, const hm_offset_pair_t *pair)
{
    MPI_Comm comm;
    int peer;
    if (hm_offset_pair_peer(pair, &comm, &peer) == HM_OK)
        hm__sync_tally(stats, comm, peer, hm_offset_pair_pingpongs(pair));
}
