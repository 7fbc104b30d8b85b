/* src/topo/package.c — the hwloc package (socket) a process is bound to. */
#include <hwloc.h>

#include "topo/topo_impl.h"

/* The package whose cpuset contains all of set, or NULL when the set lies in
 * none or in several (an empty set lies in every package: NULL). */
static hwloc_obj_t only_package(hwloc_topology_t topo, hwloc_const_cpuset_t set)
{
    hwloc_obj_t found = NULL, pkg = NULL;
    int n = 0;
    if (hwloc_bitmap_iszero(set)) return NULL;
    while ((pkg = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pkg))) {
        if (pkg->cpuset && hwloc_bitmap_isincluded(set, pkg->cpuset)) {
            found = pkg;
            n++;
        }
    }
    return n == 1 ? found : NULL;
}

static void classify(hwloc_topology_t topo, hwloc_cpuset_t set, hm_topo_binding_t *binding,
                     int *package)
{
    /* The kernel may report CPUs this process is not allowed to use (or that
     * hwloc filtered out); only the usable ones say where it can run. */
    hwloc_bitmap_and(set, set, hwloc_topology_get_topology_cpuset(topo));
    hwloc_obj_t pkg = only_package(topo, set);
    if (pkg) {
        *binding = HM_TOPO_BIND_PACKAGE;
        *package = (int)pkg->logical_index;
    } else if (hwloc_bitmap_iszero(set)) {
        *binding = HM_TOPO_BIND_UNKNOWN;
    } else if (hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topo), set)) {
        *binding = HM_TOPO_BIND_NONE;
    } else {
        *binding = HM_TOPO_BIND_SPANS;
    }
}

void hm__topo_detect_package(hm_topo_binding_t *binding, int *package, int *npackages)
{
    hwloc_topology_t topo;
    *binding = HM_TOPO_BIND_UNKNOWN;
    *package = -1;
    *npackages = 0;
    /* A simulated host has no sockets: SMPI platforms give hosts and cores
     * only, and hwloc would describe the machine running the simulation. */
    if (HM_SMPI || hwloc_topology_init(&topo) != 0) return;
    if (hwloc_topology_load(topo) == 0) {
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
        hwloc_cpuset_t set = hwloc_bitmap_alloc();
        *npackages = n > 0 ? n : 0;
        if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0)
            classify(topo, set, binding, package);
        hwloc_bitmap_free(set);
    }
    hwloc_topology_destroy(topo);
}
