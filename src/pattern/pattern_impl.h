/* src/pattern/pattern_impl.h — what the plan, the buffers and the backends
 * of the pattern layer share (private to src/pattern).
 *
 * The backend interface. A backend sees a committed plan's local message
 * lists (what this rank sends, what it receives, each naming a buffer, an
 * offset and the peer's offset) and keeps its own state in plan->state:
 *   commit   collective over plan->comm; set up once what every start
 *            needs (MPI: nothing; host: the peers' shared-window bases and
 *            the ready/done flags; cuda: a stream; ipc: one memory handle
 *            per (buffer, peer) exchanged with hm__plan_exchange, opened
 *            here and closed in release; nccl: ncclCommInitRank with the
 *            unique id broadcast over plan->comm, a stream);
 *   start    launch this rank's messages (MPI_Isend/Irecv; memcpy; later
 *            cudaMemcpyAsync, ncclGroupStart/ncclSend/ncclRecv/ncclGroupEnd);
 *   wait     complete them (MPI_Waitall; done flags; cudaStreamSynchronize);
 *   release  collective; undo commit.
 * Buffers carry their memory kind, so that a backend refuses at commit a
 * buffer it cannot use (ipc and nccl: device memory only), and device
 * memory reaches the host for validation through copy_in / copy_out. */
#ifndef HM_PATTERN_IMPL_H
#define HM_PATTERN_IMPL_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include <harmonia/pattern.h>

struct hm_buffer {
    MPI_Comm comm; /* of the allocation (duplicated) */
    hm_memory_t memory;
    void *data; /* this rank's bytes */
    size_t bytes;
    MPI_Win win;   /* HM_MEMORY_SHARED: the node's window */
    MPI_Comm node; /* HM_MEMORY_SHARED: ranks of the node (MPI_COMM_TYPE_SHARED) */
    int device;    /* HM_MEMORY_DEVICE: the CUDA device current at allocation */
};

/* One message as one rank sees it. */
typedef struct hm__message {
    int peer;              /* rank of the plan's comm at the other end (itself for a copy) */
    hm_buffer_t *buf;      /* this rank's: the send buffer (sends) or the receive buffer */
    hm_buffer_t *peer_buf; /* the other end's buffer, as the same collective allocation:
                            * a put backend finds the receiver's memory through it */
    size_t off;            /* in buf */
    size_t peer_off;       /* the other end's offset: the sender's (validation of a
                            * receive), the receiver's (a put into the peer's memory) */
    size_t bytes;
} hm__message_t;

typedef struct hm__message_list {
    hm__message_t *m;
    size_t n, cap;
} hm__message_list_t;

typedef struct hm__gpu_stream hm__gpu_stream_t;

struct hm_plan {
    MPI_Comm comm; /* the caller's */
    MPI_Comm wire; /* a duplicate at commit: plans never match each other's messages */
    int rank, size;
    const hm_backend_t *backend;
    hm__message_list_t send, recv;
    int committed;
    int device_timing;        /* record CUDA events around each start (default 0) */
    uint64_t total_bytes;     /* of every rank's messages */
    void *state;              /* the backend's */
    hm__gpu_stream_t *stream; /* an on_stream backend's, made by its commit */
};

struct hm_backend {
    const char *name;
    hm_memory_t memory; /* what a buffer between two processes must be */
    int needs_nccl;     /* usable only in a build with NCCL */
    int (*commit)(hm_plan_t *plan);
    int (*start)(hm_plan_t *plan);
    /* Optional where on_stream: what the backend does at a wait after the
     * plan synchronized its stream (the ipc backends' done flags), called
     * whatever the synchronization returned. */
    int (*wait)(hm_plan_t *plan);
    void (*release)(hm_plan_t *plan);
    /* A GPU backend: its commit creates the plan's stream
     * (hm__plan_stream_create) and its start works on it between
     * hm__plan_stream_begin and _end; the plan synchronizes the stream at
     * every wait, gives the device's own time from its events and frees it
     * at release. */
    int on_stream;
};

/* The backends (one file each; the GPU ones refuse at commit in a build
 * without CUDA or NCCL, and hm_backend_check says so before). */
extern const hm_backend_t hm__backend_mpi;
extern const hm_backend_t hm__backend_host;
extern const hm_backend_t hm__backend_cuda;
extern const hm_backend_t hm__backend_ipc;
extern const hm_backend_t hm__backend_ipc_get;
extern const hm_backend_t hm__backend_nccl;

/* Local: HM_EINVAL naming the rank, the list and the message when a buffer
 * of this rank's messages is not in memory (what: "send" or "receive"). */
int hm__plan_check_memory(const hm_plan_t *plan, hm_memory_t memory, const char *backend);

/* Collective over plan->comm (alltoallv over the wire): send[p] (counts[p]
 * bytes) to every rank p, receive into recv (laid out by peer, rcounts[p]
 * bytes each, allocated by the callee, freed by the caller). For backends
 * that exchange per peer what they need once (addresses, handles). */
int hm__plan_exchange(hm_plan_t *plan, const void *send, const int *counts, void **recv,
                      int *rcounts);

/* Copy between a buffer and host memory (device memory through the GPU
 * runtime; host and shared memory with memcpy). */
int hm__buffer_copy_out(const hm_buffer_t *buf, size_t off, void *host, size_t bytes);

/* Local: where rank node_rank's slice of a shared buffer starts in this
 * process (its data, as that rank sees its own); HM_EINVAL when the window
 * does not give it. */
int hm__buffer_shared_at(const hm_buffer_t *buf, int node_rank, void **at);
int hm__buffer_copy_in(hm_buffer_t *buf, size_t off, const void *host, size_t bytes);

/* ---- Ready/done flags between the processes of a node (node_flags.c):
 * the host and ipc backends order their copies with them, no MPI call at
 * run time. */
typedef struct hm__node_flags {
    MPI_Comm node;              /* the plan's ranks on this node */
    MPI_Win win;                /* per rank: ready[node size], done[node size] */
    _Atomic uint64_t **of_peer; /* by node rank: that rank's flags */
    int node_size, node_rank;
    int *node_of; /* plan rank -> node rank (-1: another node) */
} hm__node_flags_t;

typedef enum hm__node_flag { HM_FLAG_READY, HM_FLAG_DONE } hm__node_flag_t;

/* Collective over plan->wire: the node, the rank translation, the flags
 * (zero on every rank before it returns). Free with hm__node_flags_free
 * whatever it returned. */
int hm__node_flags_create(const hm_plan_t *plan, hm__node_flags_t *flags);
void hm__node_flags_free(hm__node_flags_t *flags);
/* Local: HM_EINVAL naming both ranks when a message crosses nodes. */
int hm__node_flags_reach(const hm_plan_t *plan, const hm__node_flags_t *flags, const char *backend);
/* Local: the distinct node ranks of the peers in l other than this rank
 * (*out allocated, the caller frees it). */
int hm__node_flags_peers(const hm_plan_t *plan, const hm__node_flags_t *flags,
                         const hm__message_list_t *l, int **out, int *n);
/* owner's flag which about peer (node ranks). */
_Atomic uint64_t *hm__node_flag(const hm__node_flags_t *flags, hm__node_flag_t which, int owner,
                                int peer);
/* Release store / acquire test / spin (yielding now and then) until the
 * flag reaches value. */
void hm__node_flag_publish(const hm__node_flags_t *flags, hm__node_flag_t which, int owner,
                           int peer, uint64_t value);
int hm__node_flag_reached(const hm__node_flags_t *flags, hm__node_flag_t which, int owner, int peer,
                          uint64_t value);
void hm__node_flag_await(const hm__node_flags_t *flags, hm__node_flag_t which, int owner, int peer,
                         uint64_t value);

/* ---- The plan's stream (gpu_stream.c), an on_stream backend's: created
 * at its commit on the current device (plan->stream), freed with the plan;
 * events around each start's work (recorded where device timing is on).
 * In a build without CUDA every call refuses with HM_ENOTSUP. Sentences
 * name the plan's backend. */
int hm__plan_stream_create(hm_plan_t *plan);
void hm__plan_stream_free(hm_plan_t *plan);
void *hm__plan_stream_handle(const hm_plan_t *plan); /* the cudaStream_t */
int hm__plan_stream_begin(hm_plan_t *plan);
int hm__plan_stream_end(hm_plan_t *plan);
int hm__plan_stream_sync(hm_plan_t *plan);
int hm__plan_stream_elapsed(const hm_plan_t *plan, double *seconds);
/* Asynchronous, on the stream, any two device addresses (cudaMemcpyDefault). */
int hm__plan_stream_copy(hm_plan_t *plan, void *to, const void *from, size_t bytes);

/* A rank's messages to itself, matched in the order added, with their
 * addresses resolved (host: memcpy; cuda, ipc, nccl: on the stream).
 * *out allocated (the caller frees it). */
typedef struct hm__self_copy {
    char *to;
    const char *from;
    size_t bytes;
    int overlap; /* the regions overlap: memmove (a forwarding step in place) */
} hm__self_copy_t;
int hm__plan_self_copies(const hm_plan_t *plan, hm__self_copy_t **out, size_t *n);

/* Largest chunk of one MPI message: below the int count limit. */
#define HM_PATTERN_CHUNK_BYTES ((size_t)1 << 30)
#endif
