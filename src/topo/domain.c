/* src/topo/domain.c — which ranks share a synthetic clock: the ranks of one
 * node, as the cores of a node share one oscillator. That is what makes
 * clock propagation inside a node correct (Hunold and Carpen-Amarie 2018,
 * §IV-B) wherever the node's ranks sit in the communicator. */
#include "common/comm_check.h"
#include "common/error_set.h"
#include "topo/topo_impl.h"

/* Under SMPI every rank stands on a simulated host, and a host's cores share
 * its clock; on one real machine every process stands for a node of its own
 * (docs/testbed.md) unless virtual nodes group them. */
int hm_topo_clock_domain(MPI_Comm comm, int ranks_per_node, int *domain)
{
    if (!domain) return hm__error_null(__func__, "domain");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (ranks_per_node < 0)
        return hm__error_set(HM_EINVAL, "%s: ranks_per_node %d is negative", __func__,
                             ranks_per_node);
    if (ranks_per_node == 0 && !HM_SMPI)
        return MPI_Comm_rank(comm, domain) == MPI_SUCCESS
                   ? HM_OK
                   : hm__error_set(HM_EMPI, "%s: cannot read the rank", __func__);
    hm_topo_t t = {.comm = comm, .opts = {.ranks_per_node = ranks_per_node}};
    t.node = t.node_leaders = MPI_COMM_NULL;
    int rc = hm__topo_split_nodes(&t);
    *domain = t.node_index;
    if (t.node != MPI_COMM_NULL) MPI_Comm_free(&t.node);
    if (t.node_leaders != MPI_COMM_NULL) MPI_Comm_free(&t.node_leaders);
    return rc;
}
