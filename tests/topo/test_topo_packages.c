/* tests/topo/test_topo_packages.c — real sockets on a machine with several
 * packages, faked with an hwloc synthetic topology.
 *
 * The test machine has one package, so the paths for unbound processes and
 * for processes bound across packages never run on it. HWLOC_SYNTHETIC
 * describes a machine with one CPU per package, and HWLOC_THISSYSTEM makes
 * hwloc read the real binding of the process against it; each rank then
 * binds itself to the real CPUs 0 and 1 (the test bed's two cores):
 *
 *   split  (package:2 pu:1): ranks alternate CPU 0 (package 0) and CPU 1
 *          (package 1); with 3 or more ranks the last is left unbound (both
 *          CPUs = every package): one socket per package plus a group of
 *          its own for the unbound rank;
 *   spans  (package:3 pu:1): rank 0 on CPU 0, the others on CPUs 0-1, which
 *          covers packages 0 and 1 but not package 2: bound across
 *          packages, grouped together. */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/topo.h>

#include "testutil.h"
#include "topo_expect.h"

static int p, me;

/* Bind every thread of the process (MPI libraries run threads of their own,
 * and hwloc reads the binding of the whole process) to CPU `cpu`, or to
 * CPUs 0 and 1 when cpu < 0. Uses the real topology: call before the
 * synthetic one is set up. */
static int bind_to(int cpu)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int rc = -1;
    if (hwloc_topology_init(&topo) != 0) return -1;
    if (hwloc_topology_load(topo) == 0) {
        if (cpu >= 0)
            hwloc_bitmap_only(set, (unsigned)cpu);
        else
            hwloc_bitmap_set_range(set, 0, 1);
        rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS);
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return rc;
}

static void run(const hm_topo_t *topo, const int *want_pkg, const hm_topo_binding_t *want_bind,
                const char *const *parts)
{
    int *nodes = calloc((size_t)p, sizeof(int)), *pkg = calloc((size_t)p, sizeof(int));
    topo_expect_host_keys(nodes);
    topo_expect_package_keys(pkg);
    HM_CHECK(pkg[me] == want_pkg[me],
             "hwloc (covering object) puts rank %d in package %d (expected %d)", me, pkg[me],
             want_pkg[me]);
    HM_CHECK(hm_topo_package(topo) == want_pkg[me],
             "library puts rank %d in package %d (expected %d)", me, hm_topo_package(topo),
             want_pkg[me]);
    HM_CHECK(hm_topo_binding(topo) == want_bind[me], "binding class of rank %d: %d (expected %d)",
             me, (int)hm_topo_binding(topo), (int)want_bind[me]);
    topo_expect_layout(topo, nodes, want_pkg);
    topo_expect_description(topo, parts);
    free(nodes);
    free(pkg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int spans = argc > 1 && strcmp(argv[1], "spans") == 0;
    int *want_pkg = calloc((size_t)p, sizeof(int));
    hm_topo_binding_t *want_bind = calloc((size_t)p, sizeof *want_bind);
    int cpu_of_me = -1;

    for (int r = 0; r < p; r++) {
        int cpu = spans ? (r == 0 ? 0 : -1) : (p > 2 && r == p - 1 ? -1 : r % 2);
        if (r == me) cpu_of_me = cpu;
        want_pkg[r] = cpu;
        want_bind[r] =
            cpu >= 0 ? HM_TOPO_BIND_PACKAGE : (spans ? HM_TOPO_BIND_SPANS : HM_TOPO_BIND_NONE);
    }
    int brc = bind_to(cpu_of_me);
    HM_CHECK(brc == 0, "bind rank %d to %s (rc %d)", me, cpu_of_me >= 0 ? "one CPU" : "CPUs 0-1",
             brc);
    /* Set after MPI_Init and the binding so that only hwloc loads made from
     * here on (the library's and the expectations') see the synthetic
     * machine. */
    setenv("HWLOC_SYNTHETIC", spans ? "package:3 pu:1" : "package:2 pu:1", 1);
    setenv("HWLOC_THISSYSTEM", "1", 1);

    hm_topo_t *topo = NULL;
    int rc = hm_topo_create(MPI_COMM_WORLD, NULL, &topo);
    HM_CHECK(rc == HM_OK, "create with real sockets on a synthetic %s machine: %s",
             spans ? "3-package" : "2-package", hm_strerror(rc));
    if (rc == HM_OK) {
        char line[512];
        hm_topo_describe(topo, line, sizeof line);
        if (me == 0) hm_test_note("topology: %s", line);
        const char *split2[] = {"(real: hwloc, 2 packages; 2 ranks within one package)", NULL};
        const char *split3[] = {"(real: hwloc, 2 packages; ",
                                " within one package, 1 rank "
                                "unbound; ranks without a package form one group per node)",
                                NULL};
        const char *span[] = {"(real: hwloc, 3 packages; 1 rank within one package, ",
                              " bound across packages; ranks without a package form", NULL};
        run(topo, want_pkg, want_bind, spans ? span : p > 2 ? split3 : split2);
        hm_topo_free(topo);
    }
    free(want_pkg);
    free(want_bind);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
