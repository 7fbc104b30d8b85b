/* src/topo/load.c — how many ranks share this rank's node, against its
 * processors: the measurement behind every "oversubscribed" decision (the
 * late-start tolerance and yielding waits of procsync, the taking turns of
 * the hca pairs), so that they all see the same machine. */
#include <stdlib.h>
#include <sys/sysinfo.h>

#include <harmonia/topo.h>

#if HM_SMPI
#include <simgrid/host.h>
#endif

#include "common/comm_check.h"
#include "common/error_set.h"

/* Under SMPI the node is the simulated host (SMPI's MPI_COMM_TYPE_SHARED
 * groups the ranks of one host) and its processors are the platform's
 * cores, not this machine's. */
static int node_processors(void)
{
#if HM_SMPI
    return sg_host_core_count(sg_host_self());
#else
    return get_nprocs();
#endif
}

int hm_topo_node_ranks(MPI_Comm comm, int *ranks, int *processors)
{
    if (!ranks) return hm__error_null(__func__, "ranks");
    if (!processors) return hm__error_null(__func__, "processors");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    MPI_Comm node;
    int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    *ranks = 1;
    *processors = node_processors();
    if (rc != MPI_SUCCESS) return hm__error_set(HM_EMPI, "%s: cannot split comm by node", __func__);
    MPI_Comm_size(node, ranks);
    MPI_Comm_free(&node);
    return HM_OK;
}

/* The launcher's count of the job's processes on this node: Open MPI's
 * mpirun (ORTE/PRRTE) sets OMPI_COMM_WORLD_LOCAL_SIZE, MPICH's Hydra
 * MPI_LOCALNRANKS. 0 when neither is set or readable. */
static int launcher_node_ranks(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (v && *v && !*end && n > 0 && n < 1L << 24) return (int)n;
    }
    return 0;
}

int hm_topo_job_node_ranks(MPI_Comm comm, int *ranks, int *processors)
{
    if (!ranks) return hm__error_null(__func__, "ranks");
    if (!processors) return hm__error_null(__func__, "processors");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int rc = hm_topo_node_ranks(comm, ranks, processors);
    int job = HM_SMPI ? 0 : launcher_node_ranks();
    if (job > *ranks) *ranks = job;
    return rc;
}
