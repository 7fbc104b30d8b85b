/* include/harmonia/topo.h — process topology: nodes and sockets, real or virtual.
 *
 * Hierarchical clock synchronization works on three levels: between nodes,
 * between sockets of a node, and between the cores of a socket. A topology
 * splits a parent communicator into the communicators of those levels.
 *
 * Each level is either real or virtual:
 * - real nodes are the shared-memory domains MPI reports
 *   (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED);
 * - real sockets are hwloc packages: a rank whose CPU binding (of the whole
 *   process, all threads) lies within one package belongs to that
 *   package's socket. A rank that is unbound (on
 *   a machine with more than one package), bound across packages, or whose
 *   binding hwloc cannot report has no socket: all such ranks of a node form
 *   one group of their own. On a machine with one package every rank lies
 *   within it, bound or not;
 * - virtual nodes (hm_topo_options_t.ranks_per_node = N) are groups of N
 *   consecutive ranks of the parent, virtual sockets (ranks_per_socket = M) groups of M
 *   consecutive ranks of the node, so that hierarchical algorithms can be
 *   tested on one machine. The last node (socket) is smaller when the count
 *   does not divide evenly.
 *
 * Groups are ordered by their lowest parent rank, which is their leader:
 * node index 0 is the node of parent rank 0, and within a communicator of a
 * level, ranks keep the order of the parent. */
#ifndef HARMONIA_TOPO_H
#define HARMONIA_TOPO_H
#include <harmonia/export.h>

#include <stddef.h>

#include <mpi.h>

#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_topo hm_topo_t;

/* How the topology is built; a zeroed struct (or NULL) means real nodes and
 * real sockets. */
typedef struct hm_topo_options {
    int ranks_per_node;   /* > 0: virtual nodes of this many consecutive ranks; 0 = real */
    int ranks_per_socket; /* > 0: virtual sockets of this many consecutive ranks
                           * within a node (real or virtual); 0 = real */
} hm_topo_options_t;

/* What hwloc reported about the CPU binding of the calling process. */
typedef enum hm_topo_binding {
    HM_TOPO_BIND_NOT_ASKED = 0, /* sockets are virtual: hwloc was not consulted */
    HM_TOPO_BIND_PACKAGE,       /* the binding lies within one package */
    HM_TOPO_BIND_NONE,          /* unbound, and the machine has several packages */
    HM_TOPO_BIND_SPANS,         /* bound to CPUs of several packages */
    HM_TOPO_BIND_UNKNOWN        /* hwloc could not load the topology or read the binding */
} hm_topo_binding_t;

/* Build the topology of comm, an intracommunicator. Collective over comm.
 * opts may be NULL (real topology). On success *out is owned by the caller
 * (release with hm_topo_free). On error *out is NULL and every rank returns
 * the same status:
 *   HM_EINVAL  a count is negative, virtual sockets are larger than virtual
 *              nodes, the ranks were given different options, out is NULL
 *              on some rank, or comm is an intercommunicator;
 *   HM_ENOMEM  an allocation failed on some rank;
 *   HM_EMPI    an MPI call failed (only where the error handler returns).
 * comm == MPI_COMM_NULL gives HM_EINVAL without communicating. Real sockets
 * load the hwloc topology once; a binding hwloc cannot read leaves the
 * process without a socket (HM_TOPO_BIND_UNKNOWN), never an error. */
HM_EXPORT int hm_topo_create(MPI_Comm comm, const hm_topo_options_t *opts, hm_topo_t **out);

/* Release the topology and every communicator it created. Collective over
 * the parent communicator (MPI_Comm_free is collective); call it before
 * MPI_Finalize. NULL is accepted. */
HM_EXPORT void hm_topo_free(hm_topo_t *topo);

/* The communicators below are owned by the topology: valid until
 * hm_topo_free, never to be freed by the caller. Local calls. */

/* The parent communicator (a duplicate of the one given to hm_topo_create). */
HM_EXPORT MPI_Comm hm_topo_comm(const hm_topo_t *topo);

/* The ranks of my node, in parent order. */
HM_EXPORT MPI_Comm hm_topo_node_comm(const hm_topo_t *topo);

/* One rank per node, the lowest parent rank of each, ordered by node index;
 * MPI_COMM_NULL on ranks that are not node leaders. */
HM_EXPORT MPI_Comm hm_topo_node_leaders_comm(const hm_topo_t *topo);

/* The ranks of my socket (a subset of my node), in parent order. */
HM_EXPORT MPI_Comm hm_topo_socket_comm(const hm_topo_t *topo);

/* One rank per socket of my node, the lowest of each, ordered by socket
 * index; MPI_COMM_NULL on ranks that are not socket leaders. */
HM_EXPORT MPI_Comm hm_topo_socket_leaders_comm(const hm_topo_t *topo);

/* Communicator of level `level` (0 = outermost) of a hierarchy of nlevels:
 *   nlevels 1: level 0 = the parent communicator;
 *   nlevels 2: level 0 = node leaders, 1 = node;
 *   nlevels 3: level 0 = node leaders, 1 = socket leaders of my node,
 *              2 = socket.
 * *comm is MPI_COMM_NULL where the calling rank takes no part in the level.
 * Returns HM_EINVAL when nlevels is not 1..3 or level not 0..nlevels-1. */
HM_EXPORT int hm_topo_level_comm(const hm_topo_t *topo, int level, int nlevels, MPI_Comm *comm);

/* Collective over comm (MPI_Comm_split_type): the ranks of comm on this
 * rank's node (shared-memory domain) and the node's online processors. On
 * HM_EMPI *ranks is 1, as if alone. Needs no topology object. */
HM_EXPORT int hm_topo_node_ranks(MPI_Comm comm, int *ranks, int *processors);

/* Collective over comm: as hm_topo_node_ranks, but *ranks counts the ranks
 * of the whole job on this node where the launcher says how many there are
 * (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH Hydra's MPI_LOCALNRANKS),
 * when that is more than comm's: the ranks of a sub-communicator share the
 * node's processors with the rest of the job. What every decision about
 * ranks sharing processors reads. */
HM_EXPORT int hm_topo_job_node_ranks(MPI_Comm comm, int *ranks, int *processors);

/* ---- Interference from other work on the node ---- */

/* What other work takes from the ranks of a job (hm_interference_measure). */
typedef struct hm_interference {
    int measured;          /* 0: not measured (probe_s 0, or a simulation, SMPI) */
    int busy;              /* other work competes: other runnable threads outnumbered
                            * the processors the job leaves free on a node, or (when
                            * not oversubscribed, where the ranks take each other's
                            * turns) some rank was off its processor >= 15% of the
                            * probe */
    int oversubscribed;    /* the job has more ranks than processors on a node */
    double probe_s;        /* length of the probe */
    double off_share;      /* largest over ranks: share of the probe a rank spent off
                            * its processor (fixed-work quanta that took > 10 us
                            * longer than the fastest) */
    int off_rank;          /* the rank with that share */
    double longest_off_s;  /* largest over ranks: the longest such absence */
    double others_running; /* largest over nodes: median during the probe of the
                            * node's runnable threads beyond the job's ranks that
                            * probed (/proc/loadavg); NaN where unreadable */
    double load_avg;       /* largest over nodes: 1-minute load average; NaN unreadable */
    int node_ranks;        /* the node with the most ranks beyond its processors: its
                            * ranks of the job (hm_topo_job_node_ranks) */
    int processors;        /* and its online processors */
} hm_interference_t;

/* Collective over comm: every rank spins through fixed work quanta for
 * probe_s of wall time at once, timing each (an absence from the processor
 * shows as a quantum that took too long), while the run queue is read;
 * then the figures are reduced to the worst rank and node, the same on
 * every rank. probe_s 0 measures nothing (measured 0). A simulated rank
 * (SMPI) shares no core of this machine: nothing is measured. HM_EINVAL
 * for a negative or non-finite probe_s, HM_EMPI. */
HM_EXPORT int hm_interference_measure(MPI_Comm comm, double probe_s, hm_interference_t *out);

/* One line for result files and messages, e.g. "busy (rank 1 off its
 * processor 48.2% of a 0.10 s probe, longest 5912.3 us; 2 other runnable
 * threads; load average 3.95; 2 ranks on 2 processors)". Local. */
HM_EXPORT void hm_interference_describe(const hm_interference_t *it, char *buf, size_t len);

/* Room for hm_interference_describe's line. */
#define HM_INTERFERENCE_TEXT_MAX 256

/* The probe's length that hm_experiment_open and the commands use: long
 * enough to span several scheduler slices (a few ms each under CFS), short
 * next to any measurement. */
#define HM_INTERFERENCE_PROBE_S 0.1

/* Collective over comm: the synthetic clock domain of this rank (timer.h,
 * hm_timer_options_t.domain), so that the ranks of one node share a clock:
 * the index of its node as hm_topo_node_index numbers them, virtual nodes
 * of ranks_per_node ranks when > 0, else, in an SMPI build, the simulated
 * host; otherwise the rank itself (on one machine every process stands for
 * a node). HM_EINVAL when ranks_per_node < 0, HM_EMPI when a split fails.
 * Needs no topology object and loads no hwloc topology. */
HM_EXPORT int hm_topo_clock_domain(MPI_Comm comm, int ranks_per_node, int *domain);

/* Number of nodes, and the index (0..nnodes-1) of mine. */
HM_EXPORT int hm_topo_nnodes(const hm_topo_t *topo);
HM_EXPORT int hm_topo_node_index(const hm_topo_t *topo);

/* Number of sockets of my node, and the index (0..nsockets-1) of mine
 * within the node. */
HM_EXPORT int hm_topo_nsockets(const hm_topo_t *topo);
HM_EXPORT int hm_topo_socket_index(const hm_topo_t *topo);

/* Non-zero when the level is virtual (ranks_per_node / ranks_per_socket). */
HM_EXPORT int hm_topo_node_is_virtual(const hm_topo_t *topo);
HM_EXPORT int hm_topo_socket_is_virtual(const hm_topo_t *topo);

/* For real sockets: what hwloc reported about my binding, and the logical
 * index of the package it lies within (-1 when it does not lie within one,
 * or when sockets are virtual). */
HM_EXPORT hm_topo_binding_t hm_topo_binding(const hm_topo_t *topo);
HM_EXPORT int hm_topo_package(const hm_topo_t *topo);

/* One line for result files, the same on every rank, e.g.
 * "2 nodes x 2 ranks (virtual: --ranks-per-node 2); 2 sockets, 1 per node
 *  x 2 ranks (real: hwloc, 1 package; 4 ranks within one package)".
 * Truncated to len, always terminated. Local. */
HM_EXPORT void hm_topo_describe(const hm_topo_t *topo, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
