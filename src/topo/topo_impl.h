/* src/topo/topo_impl.h — the topology handle and the pieces that build it. */
#ifndef HM_TOPO_IMPL_H
#define HM_TOPO_IMPL_H
#include <harmonia/topo.h>

/* Counts gathered over the parent communicator at creation, so that
 * hm_topo_describe is local and prints the same line on every rank. */
typedef struct hm__topo_summary {
    int node_size_min, node_size_max; /* ranks per node */
    int sockets_per_node_min, sockets_per_node_max;
    int socket_size_min, socket_size_max; /* ranks per socket */
    int nsockets_total;                   /* sockets over all nodes */
    int packages_min, packages_max;       /* hwloc packages per machine (real sockets) */
    int nbind[HM_TOPO_BIND_UNKNOWN + 1];  /* ranks per hm_topo_binding_t */
} hm__topo_summary_t;

struct hm_topo {
    MPI_Comm comm;           /* duplicate of the parent */
    MPI_Comm node;           /* ranks of my node */
    MPI_Comm node_leaders;   /* lowest rank of each node; MPI_COMM_NULL elsewhere */
    MPI_Comm socket;         /* ranks of my socket */
    MPI_Comm socket_leaders; /* lowest rank of each socket of my node; MPI_COMM_NULL elsewhere */
    hm_topo_options_t opts;  /* as given: 0 = real level */
    int nnodes, node_index;
    int nsockets, socket_index;
    hm_topo_binding_t binding;
    int package;   /* logical index, -1 when not within one package */
    int npackages; /* packages hwloc saw on this machine (0 if not asked) */
    hm__topo_summary_t summary;
};

/* Where the calling process is bound, according to hwloc: *binding, the
 * logical index of the package the binding lies within (-1 otherwise) and
 * the number of packages of the machine. Loads the hwloc topology once.
 * Never fails: what hwloc cannot tell is HM_TOPO_BIND_UNKNOWN. Local. */
void hm__topo_detect_package(hm_topo_binding_t *binding, int *package, int *npackages);

/* Split t->comm into nodes and node leaders; sets node, node_leaders,
 * nnodes and node_index. Collective over t->comm. */
int hm__topo_split_nodes(hm_topo_t *t);

/* Split t->node into sockets and socket leaders; sets socket,
 * socket_leaders, nsockets and socket_index (and the binding fields when
 * sockets are real). Collective over t->node. */
int hm__topo_split_sockets(hm_topo_t *t);

/* Fill t->summary. Collective over t->comm. */
int hm__topo_summarize(hm_topo_t *t);
#endif
