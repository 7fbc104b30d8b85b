/* tests/topo/test_topo_real.c — the real topology of the test machine.
 *
 * All ranks run on one machine (see "Test bed" in the design), so MPI's
 * shared-memory split must give one node holding every rank, led by rank 0.
 * Sockets come from hwloc; they are checked against the package that covers
 * each rank's binding, found here by a different route than the library's. */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/topo.h>

#include "testutil.h"
#include "topo_expect.h"

static int p, me;

static int machine_packages(void)
{
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    hwloc_topology_load(t);
    int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    hwloc_topology_destroy(t);
    return n;
}

static void check_single_node(const hm_topo_t *topo)
{
    int *all = malloc(sizeof(int) * (size_t)p);
    for (int r = 0; r < p; r++) all[r] = r;
    HM_CHECK(hm_topo_nnodes(topo) == 1 && hm_topo_node_index(topo) == 0,
             "one machine: 1 node (got %d), my node index 0 (got %d)", hm_topo_nnodes(topo),
             hm_topo_node_index(topo));
    topo_expect_members(hm_topo_node_comm(topo), all, p, "node comm holds every rank");
    MPI_Comm leaders = hm_topo_node_leaders_comm(topo);
    if (me == 0) {
        int size = 0;
        if (leaders != MPI_COMM_NULL) MPI_Comm_size(leaders, &size);
        HM_CHECK(size == 1, "node leaders comm on rank 0 has 1 rank (got %d)", size);
        topo_expect_members(leaders, all, 1, "node leaders comm = world rank 0");
    } else {
        HM_CHECK(leaders == MPI_COMM_NULL, "node leaders comm is MPI_COMM_NULL on rank %d (%s)", me,
                 leaders == MPI_COMM_NULL ? "null" : "a communicator");
    }
    HM_CHECK(!hm_topo_node_is_virtual(topo) && !hm_topo_socket_is_virtual(topo),
             "no level virtual (node %d, socket %d)", hm_topo_node_is_virtual(topo),
             hm_topo_socket_is_virtual(topo));
    free(all);
}

static void check_sockets(const hm_topo_t *topo, const int *package_key)
{
    int npkg = machine_packages();
    hm_topo_binding_t b = hm_topo_binding(topo);
    HM_CHECK(b != HM_TOPO_BIND_NOT_ASKED, "real sockets: hwloc was asked (binding %d)", (int)b);
    if (npkg == 1)
        HM_CHECK(b == HM_TOPO_BIND_PACKAGE && hm_topo_package(topo) == 0,
                 "one package on this machine: every rank lies within package 0 (binding %d, "
                 "package %d)",
                 (int)b, hm_topo_package(topo));
    HM_CHECK(hm_topo_package(topo) == package_key[me], "package %d (hwloc covering object says %d)",
             hm_topo_package(topo), package_key[me]);
    char pk[64], nodes[96];
    snprintf(pk, sizeof pk, "(real: hwloc, %d package%s; ", npkg, npkg == 1 ? "" : "s");
    snprintf(nodes, sizeof nodes, "1 node x %d rank%s (real: MPI_COMM_TYPE_SHARED); ", p,
             p == 1 ? "" : "s");
    const char *parts[] = {nodes, pk, NULL};
    topo_expect_description(topo, parts);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    hm_topo_t *topo = NULL, *zeroed = NULL;
    const hm_topo_options_t zero = {0, 0};

    int rc = hm_topo_create(MPI_COMM_WORLD, NULL, &topo);
    HM_CHECK(rc == HM_OK, "create with the real topology (NULL options) on %d ranks: %s", p,
             hm_strerror(rc));
    int rc2 = hm_topo_create(MPI_COMM_WORLD, &zero, &zeroed);
    HM_CHECK(rc2 == HM_OK, "create with zeroed options: %s", hm_strerror(rc2));
    if (rc == HM_OK && rc2 == HM_OK) {
        char line[512], line0[512];
        int *host = malloc(sizeof(int) * (size_t)p), *pkg = malloc(sizeof(int) * (size_t)p);
        hm_topo_describe(topo, line, sizeof line);
        hm_topo_describe(zeroed, line0, sizeof line0);
        if (me == 0) hm_test_note("topology: %s", line);
        HM_CHECK(strcmp(line, line0) == 0, "zeroed options describe as NULL options: \"%s\"",
                 line0);
        topo_expect_host_keys(host);
        topo_expect_package_keys(pkg);
        topo_expect_layout(topo, host, pkg);
        check_single_node(topo);
        check_sockets(topo, pkg);
        free(host);
        free(pkg);
    }
    hm_topo_free(zeroed);
    hm_topo_free(topo);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
