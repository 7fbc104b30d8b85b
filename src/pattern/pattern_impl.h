/* src/pattern/pattern_impl.h — what the plan, the buffers and the backends
 * of the pattern layer share (private to src/pattern).
 *
 * The backend interface. A backend sees a committed plan's local message
 * lists (what this rank sends, what it receives, each naming a buffer, an
 * offset and the peer's offset) and keeps its own state in plan->state:
 *   commit   collective over plan->comm; set up once what every start
 *            needs (MPI: nothing; host: the peers' shared-window bases and
 *            the ready/done flags; cuda: a stream; ipc: one memory handle
 *            per (buffer, peer) exchanged with hm_plan_exchange, opened
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
};

/* One message as one rank sees it. */
typedef struct hm_message {
    int peer;              /* rank of the plan's comm at the other end (itself for a copy) */
    hm_buffer_t *buf;      /* this rank's: the send buffer (sends) or the receive buffer */
    hm_buffer_t *peer_buf; /* the other end's buffer, as the same collective allocation:
                            * a put backend finds the receiver's memory through it */
    size_t off;            /* in buf */
    size_t peer_off;       /* the other end's offset: the sender's (validation of a
                            * receive), the receiver's (a put into the peer's memory) */
    size_t bytes;
} hm_message_t;

typedef struct hm_message_list {
    hm_message_t *m;
    size_t n, cap;
} hm_message_list_t;

struct hm_plan {
    MPI_Comm comm; /* the caller's */
    MPI_Comm wire; /* a duplicate at commit: plans never match each other's messages */
    int rank, size;
    const hm_backend_t *backend;
    hm_message_list_t send, recv;
    int committed;
    uint64_t total_bytes; /* of every rank's messages */
    void *state;          /* the backend's */
};

struct hm_backend {
    const char *name;
    hm_memory_t memory; /* what a buffer between two processes must be */
    int (*commit)(hm_plan_t *plan);
    int (*start)(hm_plan_t *plan);
    int (*wait)(hm_plan_t *plan);
    void (*release)(hm_plan_t *plan);
};

/* The backends (one file each). */
extern const hm_backend_t hm_backend_mpi;
extern const hm_backend_t hm_backend_host;

/* Collective over plan->comm (alltoallv over the wire): send[p] (counts[p]
 * bytes) to every rank p, receive into recv (laid out by peer, rcounts[p]
 * bytes each, allocated by the callee, freed by the caller). For backends
 * that exchange per peer what they need once (addresses, handles). */
int hm_plan_exchange(hm_plan_t *plan, const void *send, const int *counts, void **recv,
                     int *rcounts);

/* Copy between a buffer and host memory (device memory through the GPU
 * runtime; host and shared memory with memcpy). */
int hm_buffer_copy_out(const hm_buffer_t *buf, size_t off, void *host, size_t bytes);

/* Local: where rank node_rank's slice of a shared buffer starts in this
 * process (its data, as that rank sees its own); HM_EINVAL when the window
 * does not give it. */
int hm_buffer_shared_at(const hm_buffer_t *buf, int node_rank, void **at);
int hm_buffer_copy_in(hm_buffer_t *buf, size_t off, const void *host, size_t bytes);

/* Largest chunk of one MPI message: below the int count limit. */
#define HM_PATTERN_CHUNK_BYTES ((size_t)1 << 30)
#endif
