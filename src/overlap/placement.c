/* src/overlap/placement.c — one slice of a node's processors per rank for
 * the computation. The methodology runs one rank per node with a thread on
 * each core [Denis et al. 2022, §5.1]; with several ranks on a node the
 * threads of each must stay on cores of their own, or the computations of
 * the ranks fight over the same cores and every ratio measures that. Open
 * MPI binds each rank to its cores (at most 2 ranks: a core each); MPICH's
 * Hydra binds none, so every rank sees every processor. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include <harmonia/agree.h>
#include <harmonia/overlap.h>

#include "common/comm_check.h"
#include "common/error_set.h"

/* A digest of the set's text, equal for equal sets (FNV-1a). */
static uint64_t digest(hwloc_const_bitmap_t set)
{
    char *text = NULL;
    uint64_t h = 1469598103934665603ULL;
    if (hwloc_bitmap_asprintf(&text, set) < 0) return 0;
    for (const char *c = text; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    free(text);
    return h;
}

/* The slice-th of nslices equal runs of the processors of all, in order. */
static void slice_of(hwloc_const_bitmap_t all, int slice, int nslices, hwloc_bitmap_t mine)
{
    int per = hwloc_bitmap_weight(all) / nslices, seen = 0, pu;
    hwloc_bitmap_zero(mine);
    hwloc_bitmap_foreach_begin(pu, all)
    {
        if (seen++ / per == slice) hwloc_bitmap_set(mine, (unsigned)pu);
    }
    hwloc_bitmap_foreach_end();
}

/* Collective over node: bind the process to its slice when every rank of
 * the node has the same processors and there are enough of them. */
static int share(MPI_Comm node, hwloc_topology_t topo, hwloc_bitmap_t set)
{
    int local, nlocal, same;
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &nlocal);
    uint64_t mine = digest(set), first = mine;
    MPI_Bcast(&first, 1, MPI_UINT64_T, 0, node);
    same = first == mine;
    MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, node);
    /* Fewer processors than ranks: they must share (the oversubscription
     * notice says so); ranks bound apart keep their binding. */
    if (!same || nlocal < 2 || hwloc_bitmap_weight(set) < nlocal) return HM_OK;
    hwloc_bitmap_t slice = hwloc_bitmap_alloc();
    if (!slice) return hm__error_set(HM_ENOMEM, "a processor set could not be allocated");
    slice_of(set, local, nlocal, slice);
    int rc = hwloc_set_cpubind(topo, slice, HWLOC_CPUBIND_PROCESS) == 0
                 ? HM_OK
                 : hm__error_set(HM_ENOTSUP, "this rank cannot be bound to its processors");
    if (rc == HM_OK) hwloc_bitmap_copy(set, slice);
    hwloc_bitmap_free(slice);
    return rc;
}

int hm_overlap_share_node(MPI_Comm comm, int *cpus)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hwloc_topology_t topo;
    MPI_Comm node;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
        return hm__error_set(HM_ENOTSUP, "hwloc cannot read the topology");
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int rc = set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0
                 ? HM_OK
                 : hm__error_set(HM_ENOTSUP, "the processors of this rank cannot be read");
    /* Every rank takes part in the collectives, whatever its own status. */
    int all = hm_agree(comm, rc);
    if (all == HM_OK &&
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        all = share(node, topo, set);
        MPI_Comm_free(&node);
    } else if (all == HM_OK) {
        all = hm__error_set(HM_EMPI, "the ranks of this node could not be found");
    }
    if (cpus) *cpus = all == HM_OK ? hwloc_bitmap_weight(set) : 0;
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return all;
}
