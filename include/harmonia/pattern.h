/* include/harmonia/pattern.h — point-to-point communication patterns on
 * hierarchical nodes [Hidayetoglu et al. 2024 (CommBench), §3-4].
 *
 * A plan is one step of a pattern: messages (src rank, dst rank, bytes,
 * where in which buffer) that a backend moves concurrently. Every rank may
 * add the whole pattern (each keeps the messages it sends or receives) or
 * only its own; commit checks, with one batched exchange of O(P) data per
 * rank, that senders and receivers agree, and lets the backend set up what
 * it needs (requests, shared memory, later streams, IPC handles, NCCL
 * communicators). start launches the rank's messages and returns; wait
 * completes them. A sequence of plans runs as dependent steps with no
 * barrier between them: each rank waits only for its own messages of step
 * i before it starts its part of step i + 1 (§4.2, Fig. 5a).
 *
 * Buffers are objects (hm_buffer_t) allocated collectively in the memory a
 * backend needs: plain host memory, a node's MPI-3 shared window (the host
 * backend writes into a peer's buffer), or device memory (the GPU
 * backends). Messages name a buffer and an offset, so that a backend can
 * exchange one handle per buffer, never one per message. Sizes and offsets
 * are size_t end to end; a message above MPI's int count is split.
 *
 * Backends (registry; names as on the command line):
 *   mpi      MPI_Isend / MPI_Irecv, any two ranks, host memory (device
 *            memory with a CUDA-aware MPI);
 *   host     memcpy: within a process, and into a peer's shared-window
 *            buffer between processes of one node (put, with ready/done
 *            flags);
 *   cuda     cudaMemcpyAsync device to device within a process (peer
 *            access between two devices where available);
 *   ipc      CUDA IPC between processes of a node, put: the sender copies
 *            into the receiver's device buffer (ready/done flags, as host);
 *   ipc-get  the same, get: the receiver copies from the sender's buffer;
 *   nccl     ncclSend / ncclRecv in a group, any two ranks, one rank per
 *            device.
 * The GPU backends run on a per-plan stream made at commit; wait returns
 * after the stream is synchronized, so a step's end is taken on the host,
 * on the global clock. Their buffers are device memory. */
#ifndef HARMONIA_PATTERN_H
#define HARMONIA_PATTERN_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include <harmonia/error.h>
#include <harmonia/measure.h>
#include <harmonia/procsync.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Buffers ---- */

typedef enum hm_memory {
    HM_MEMORY_HOST,   /* page-aligned host memory of this process */
    HM_MEMORY_SHARED, /* a slice of an MPI-3 shared window of the node */
    HM_MEMORY_DEVICE  /* GPU memory (cudaMalloc, never managed memory) */
} hm_memory_t;

typedef struct hm_buffer hm_buffer_t;

/* Collective over comm: bytes (may differ between ranks, 0 allowed) of
 * memory on every rank; the same call on every rank gives the buffer that
 * messages name on every rank. HM_ENOMEM naming the bytes and the rank,
 * HM_ENOTSUP for device memory in a build without CUDA; the same status on
 * every rank. The buffer is zeroed. */
HM_EXPORT int hm_buffer_alloc(MPI_Comm comm, hm_memory_t memory, size_t bytes, hm_buffer_t **out);
/* Collective over the comm of the allocation (a shared window is freed by
 * all of the node). NULL is ignored. */
HM_EXPORT void hm_buffer_free(hm_buffer_t *buf);
/* Local. This rank's memory (host address; a device address for device
 * memory), its size, its kind. */
HM_EXPORT void *hm_buffer_data(const hm_buffer_t *buf);
HM_EXPORT size_t hm_buffer_size(const hm_buffer_t *buf);
HM_EXPORT hm_memory_t hm_buffer_memory(const hm_buffer_t *buf);
/* Local: bytes of this rank's memory at off to or from host memory, in any
 * kind of memory (device memory through the CUDA runtime, synchronously:
 * for filling and checking outside a timed region). HM_EINVAL for a region
 * beyond the buffer or a failed device copy. */
HM_EXPORT int hm_buffer_read(const hm_buffer_t *buf, size_t off, void *host, size_t bytes);
HM_EXPORT int hm_buffer_write(hm_buffer_t *buf, size_t off, const void *host, size_t bytes);

/* ---- Backends ---- */

typedef struct hm_backend hm_backend_t; /* a registry entry */

/* Registry: count, i-th name, lookup (NULL when unknown), "mpi, host" for
 * help and errors. */
HM_EXPORT size_t hm_backend_count(void);
HM_EXPORT const char *hm_backend_name_at(size_t i);
HM_EXPORT const hm_backend_t *hm_backend_find(const char *name);
HM_EXPORT void hm_backend_names(char *buf, size_t len);
HM_EXPORT const char *hm_backend_name(const hm_backend_t *backend);

/* The memory a backend's buffers must be in for a message between two
 * processes (host: HM_MEMORY_SHARED; mpi: HM_MEMORY_HOST, shared memory is
 * host memory too). */
HM_EXPORT hm_memory_t hm_backend_memory(const hm_backend_t *backend);

/* Local: HM_OK when this process can use backend; HM_ENOTSUP with the
 * sentence that says why not (a GPU backend in a build without CUDA, or
 * without NCCL for nccl, or with no device: hm_gpu_count's sentence). */
HM_EXPORT int hm_backend_check(const hm_backend_t *backend);

/* ---- Plans ---- */

typedef struct hm_plan hm_plan_t;

/* Local: an empty plan over comm (kept, not duplicated: the caller keeps
 * comm alive until hm_plan_free) moving its messages with backend. */
HM_EXPORT int hm_plan_create(MPI_Comm comm, const hm_backend_t *backend, hm_plan_t **out);

/* Local: one message of bytes from rank src's sendbuf at sendoff to rank
 * dst's recvbuf at recvoff (ranks of the plan's comm; src == dst is a copy
 * within the process). A rank keeps the messages it sends or receives and
 * ignores the others, so every rank may add the whole pattern. HM_EINVAL
 * naming the parameter for a rank outside the comm, a region beyond this
 * rank's buffer (checked where the rank owns it), a NULL buffer on the
 * rank that owns it, or a plan already committed. Messages between the
 * same two ranks are matched in the order they are added. */
HM_EXPORT int hm_plan_add(hm_plan_t *plan, hm_buffer_t *sendbuf, size_t sendoff,
                          hm_buffer_t *recvbuf, size_t recvoff, size_t bytes, int src, int dst);

/* Collective over the plan's comm: one exchange of each rank's message
 * counts and bytes per peer (O(P) data per rank, however many messages),
 * which every receiver checks against what it added; then the backend's
 * set-up. HM_EINVAL when a pair disagrees (naming both ranks and both
 * counts) or the backend cannot reach a peer (host: another node) or a
 * buffer is in memory the backend cannot use, naming the rank and the
 * message; the same status on every rank. */
HM_EXPORT int hm_plan_commit(hm_plan_t *plan);

/* Local, after commit: launch this rank's messages of the plan and return
 * (the host backend may wait inside for a receiver to be ready), and
 * complete them: after wait, this rank's receive regions hold the data and
 * its send regions may be reused. Every rank of the plan calls both. */
HM_EXPORT int hm_plan_start(hm_plan_t *plan);
HM_EXPORT int hm_plan_wait(hm_plan_t *plan);

/* Local, after a wait: the device's own time of the last start's work on
 * the plan's stream (CUDA events recorded around it), in seconds; the GPU
 * backends keep it beside the host's time, which is what run-times use.
 * HM_ENOTSUP for a backend without a stream (mpi, host). */
HM_EXPORT int hm_plan_device_time(const hm_plan_t *plan, double *seconds);

/* Local, at any time between runs: on records two CUDA events around each
 * start's work, for hm_plan_device_time; off (the default) records none,
 * and hm_plan_device_time answers HM_ENOTSUP. The events are work of the
 * start and the wait: about 3 us a start on an H100 and an H200, 0.79 of
 * cudaMemcpy's bandwidth at 1 MiB against 1.00 without them
 * (bench/gpu_self measures both). No effect on host backends. */
HM_EXPORT int hm_plan_set_device_timing(hm_plan_t *plan, int on);

/* Collective over the plan's comm. NULL is ignored. */
HM_EXPORT void hm_plan_free(hm_plan_t *plan);

/* Local, after commit: the messages this rank sends and receives, and the
 * bytes of the whole pattern (the sum of every message's size over all
 * ranks: what bandwidth divides). */
HM_EXPORT void hm_plan_counts(const hm_plan_t *plan, size_t *nsend, size_t *nrecv);
HM_EXPORT uint64_t hm_plan_total_bytes(const hm_plan_t *plan);

/* Collective: the pattern's matrix of bytes, bytes[src * P + dst], on the
 * root (rank 0; NULL elsewhere allowed): O(P^2) data, for output only. */
HM_EXPORT int hm_plan_matrix(const hm_plan_t *plan, uint64_t *bytes);

/* ---- Validation ---- */

/* The byte that offset holds in rank's send data: a hash of both, so that a
 * message from the wrong rank or the wrong place is caught. */
HM_EXPORT uint8_t hm_pattern_byte(int rank, size_t offset);

/* Local, after commit: fill this rank's send regions with its bytes
 * (hm_pattern_byte(rank, offset in the send buffer)) and clear its receive
 * regions; after the plan ran, *wrong = the received bytes that differ from
 * what their sender's fill put there. Device buffers go through the host. */
HM_EXPORT int hm_plan_fill(hm_plan_t *plan);
HM_EXPORT int hm_plan_check(const hm_plan_t *plan, uint64_t *wrong);

/* ---- Measurement ---- */

typedef enum hm_sequence_mode {
    HM_SEQUENCE_STEPS,     /* step i + 1 after this rank's wait of step i (§4.2, Fig. 5a) */
    HM_SEQUENCE_CONCURRENT /* start every step, then wait for every step (Fig. 5c) */
} hm_sequence_mode_t;

/* How a measurement validates a repetition: fill before it (outside the
 * timed region), check after it (*wrong = the bytes that differ). Each
 * rank calls its own; the engine agrees on the result. */
typedef struct hm_plan_validation {
    int (*fill)(void *ctx);
    int (*check)(void *ctx, uint64_t *wrong);
    void *ctx;
} hm_plan_validation_t;

/* Collective over the plans' comm (that of ps): params->nrep valid
 * repetitions of the nsteps plans run in mode (one plan: start, wait),
 * each repetition started by ps, its run-time max end - min start on the
 * global clock over the ranks with a message in some step (the others
 * take no part: neither their times nor their starts are judged),
 * through the measurement engine (warm-up, validity). With
 * params->validate each repetition is validated by validation, or when
 * it is NULL by hm_plan_fill and hm_plan_check of every step, which holds
 * only for independent steps: dependent steps (HM_SEQUENCE_STEPS, more
 * than one) forward what they received, and need a validation of the
 * whole sequence (HM_EINVAL without one). *wrong (NULL allowed) = the bytes
 * that differed over every check, on every rank. The caller frees the
 * result with hm_measure_result_free. */
HM_EXPORT int hm_plan_measure(hm_plan_t *const *steps, int nsteps, hm_sequence_mode_t mode,
                              hm_procsync_t *ps, const hm_measure_params_t *params,
                              const hm_plan_validation_t *validation, hm_measure_result_t *result,
                              uint64_t *wrong);

/* ---- Edge lists: generated patterns (§4.3) and files (§4.4) ---- */

/* One message of a pattern: bytes from src's buffer sendbuf (an index into
 * the caller's buffers of src) at sendoff to dst's buffer recvbuf at
 * recvoff. Group patterns use buffer 0 to send and 1 to receive; striping
 * adds 2, the staging buffer. */
typedef struct hm_edge {
    int src, dst;
    int sendbuf, recvbuf;
    size_t sendoff, recvoff, bytes;
} hm_edge_t;

typedef struct hm_edges {
    hm_edge_t *edge; /* owned; hm_edges_free */
    size_t n;
    int nranks; /* ranks the pattern needs: 0 .. nranks - 1 */
    int nbufs;  /* buffers per rank the edges name */
} hm_edges_t;

HM_EXPORT void hm_edges_free(hm_edges_t *edges);

/* Local: the bytes rank needs in each of its edges->nbufs buffers
 * (extent[b] = the end of the last region of buffer b that rank sends from
 * or receives into; 0 for a buffer it does not use). */
HM_EXPORT void hm_edges_extent(const hm_edges_t *edges, int rank, size_t *extent);

/* Local: hm_plan_add of every edge, with bufs[b] the caller's buffer b
 * (nbufs >= edges->nbufs, else HM_EINVAL). Stops at the first
 * hm_plan_add that fails and returns its status. */
HM_EXPORT int hm_edges_add(const hm_edges_t *edges, hm_plan_t *plan, hm_buffer_t *const *bufs,
                           int nbufs);

/* Local: the bytes through the busiest group of g ranks (rank r in group
 * r / g): over the edges between two groups, those it sends plus those it
 * receives (a node's NIC does both at once). What a bandwidth per node
 * divides (CommBench's Fig. 12): for omni over n groups, 2 / n of every
 * message's bytes; for uni and bi over 2 groups, all of them. 0 when no
 * edge crosses groups, and with the sentence set for g < 1, NULL edges or
 * no memory. */
HM_EXPORT uint64_t hm_edges_node_bytes(const hm_edges_t *edges, int g);

/* Group-to-group patterns (§4.3.1-4.3.2) over n groups of g ranks (rank r
 * in group r / g at position r % g, as the paper places ranks on nodes),
 * k <= g the ranks of a subgroup, each message of bytes:
 *   rail        position i of one group to position i of another, i < k;
 *   asymmetric  positions i < k of one group to every position of another;
 *   symmetric   positions i < k of one group to positions j < k of another;
 *   self        every rank i < k of every group to itself (n, g as above);
 * and a direction across the groups: uni (group 0 to every other group),
 * bi (also every other group to group 0), omni (every group to every other
 * group; for asymmetric, harmonia's definition, docs/pattern.md: each group
 * in turn is the first group of the pair, so its first k ranks send to all
 * g ranks of every other group). A sender sends each destination its own
 * region of buffer 0 (as MPI_Scatter and MPI_Alltoall do), in the order of
 * the destinations' ranks; a receiver receives each message in its own
 * region of buffer 1, in the order of the senders' ranks. */
/* uni: group 0 to every other group; bi: uni and every message of it
 * reversed (CommBench: "communications are in both directions", its
 * messages (count, recver, sender)); omni: every group to every other;
 * bi-mirror: uni, and every other group sending to group 0 with the
 * family's pattern, that group now the sending one (harmonia's bi before
 * issue 32; for rail and symmetric it is bi, for asymmetric with k < g it
 * differs: the first k ranks of each group send, not all g); uni-in:
 * every message of uni reversed, every other group to group 0
 * (CommBench's inbound; bi is uni and uni-in). */
typedef enum hm_direction {
    HM_DIRECTION_UNI,
    HM_DIRECTION_BI,
    HM_DIRECTION_OMNI,
    HM_DIRECTION_BI_MIRROR,
    HM_DIRECTION_UNI_IN
} hm_direction_t;

typedef struct hm_group_params {
    int n, g, k;
    hm_direction_t direction;
    size_t bytes;
} hm_group_params_t;

typedef struct hm_generator hm_generator_t; /* a registry entry */

HM_EXPORT size_t hm_generator_count(void);
HM_EXPORT const char *hm_generator_name_at(size_t i);
HM_EXPORT const hm_generator_t *hm_generator_find(const char *name);
HM_EXPORT void hm_generator_names(char *buf, size_t len);
HM_EXPORT const char *hm_generator_name(const hm_generator_t *gen);
/* "uni", "bi", "omni", "bi-mirror", "uni-in"; NULL outside the enum. */
HM_EXPORT const char *hm_direction_name(hm_direction_t direction);
/* HM_ENOENT naming the known directions; out may be NULL (a check of name). */
HM_EXPORT int hm_direction_find(const char *name, hm_direction_t *out);

/* Local: the edges of gen for params into *out (overwritten; empty on
 * failure; free with hm_edges_free), ordered by (src, dst), nranks = n g,
 * nbufs = 2; self ignores the direction. HM_EINVAL naming the parameter,
 * its value and its limit: n < 1 (2 for every family but self), g < 1, k
 * outside 1..g, bytes 0, a direction outside the enum, n g above INT_MAX,
 * a buffer whose last region would end beyond SIZE_MAX. */
HM_EXPORT int hm_generator_edges(const hm_generator_t *gen, const hm_group_params_t *params,
                                 hm_edges_t *out);

/* Striping (§4.2, Fig. 4) of bytes from rank 0 (group 0, position 0) to
 * rank g (group 1, position 0) over the g ranks of each group: step 0
 * splits rank 0's buffer 0 into g stripes (stripe i, i >= 1, to rank i's
 * buffer 2), step 1 translates stripe i from rank i to rank g + i (stripe 0
 * from rank 0's buffer 0 straight into rank g's buffer 1; the others into
 * buffer 2), step 2 assembles stripe i from rank g + i into rank g's buffer
 * 1 at its place. Stripes are bytes / g, the first bytes % g of them one
 * byte longer. Stripe i, i >= 1, sits at offset 0 of buffer 2 on both
 * rank i and rank g + i. steps[] is overwritten (each: nranks 2 g, nbufs
 * 3; g = 1 leaves split and assemble empty). HM_EINVAL for g < 1, 2 g
 * above INT_MAX, or bytes < g. */
HM_EXPORT int hm_striping_edges(int g, size_t bytes, hm_edges_t steps[3]);

/* Local: an application pattern from a file (§4.4): a Matrix Market
 * coordinate file ("%%MatrixMarket matrix coordinate integer general",
 * "real" too when every value is whole; 1-based sender row, receiver
 * column, bytes; a square matrix of at most nranks rows) or a CSV with the
 * header "src,dst,bytes" (0-based ranks; blanks around fields ignored;
 * '#' comments), told apart by the first line that is neither blank nor a
 * '#' comment (docs/pattern.md). Self-messages are copies; ranks the file
 * does not name take no part. Edges use buffers 0 and 1 as group patterns
 * do, ordered by (src, dst); *out (overwritten; empty on failure; free with
 * hm_edges_free) has nranks = nranks, nbufs = 2. HM_EINVAL with the last
 * error "FILE:LINE: reason": a rank outside 0..nranks-1, bytes that are
 * not an integer in 1..2^63-1, a wrong header, a field too many or too
 * few, an entry count unlike the size line, no message at all, a buffer
 * whose end overflows size_t, a duplicate (src, dst) pair (refused, naming
 * both lines: whether duplicates add up is the file's intent, not ours to
 * guess); HM_ENOENT when the file does not exist, HM_EIO when it cannot be
 * read (both "FILE: strerror"). */
HM_EXPORT int hm_edges_read(const char *path, int nranks, hm_edges_t *out);

/* hm_edges_read, every value counting elements of element_bytes bytes
 * (1: the values are bytes; HM_EINVAL below 1 or when a message's bytes
 * would pass 2^63 - 1). A third format is read as well: a dense matrix of
 * P rows of P whole numbers between blanks, row i sending column j
 * (0-based), 0 for no message, P at most nranks: CommBench's application
 * files, whose values count its elements (4 bytes for its examples'
 * int). */
HM_EXPORT int hm_edges_read_elements(const char *path, int nranks, size_t element_bytes,
                                     hm_edges_t *out);

/* ---- MPI collective baselines (§5.2.5; docs/pattern.md) ---- */

/* The collective that moves a pattern's data over all the ranks. */
typedef enum hm_baseline_kind {
    HM_BASELINE_NONE,
    HM_BASELINE_SCATTER,  /* MPI_Scatter from rank 0, a block of bytes per rank */
    HM_BASELINE_ALLTOALL, /* MPI_Alltoall, a block of bytes per pair */
    HM_BASELINE_ALLTOALLV /* MPI_Alltoallv with the counts of an edge list (a file) */
} hm_baseline_kind_t;

/* "MPI_Scatter", "MPI_Alltoall", "MPI_Alltoallv"; "" for none. */
HM_EXPORT const char *hm_baseline_name(hm_baseline_kind_t kind);

/* Local: the baseline of a group pattern. MPI_Scatter for one sender,
 * rank 0, to the ranks of other groups (uni, k = 1: asymmetric, or any
 * family at g = 1); MPI_Alltoall for every rank to every rank of every
 * other group (symmetric or asymmetric at k = g, or any family at g = 1;
 * omni, or bi with 2 groups); HM_BASELINE_NONE otherwise (self, rail at
 * g > 1, k < g, bi beyond 2 groups): no collective moves that data. */
HM_EXPORT hm_baseline_kind_t hm_baseline_for_group(const hm_generator_t *gen,
                                                   const hm_group_params_t *params);

typedef struct hm_baseline hm_baseline_t;

/* Collective over comm (kept, not duplicated: alive until
 * hm_baseline_free): the collective of kind over every rank of comm, set
 * up from edges, which every rank passes whole (a generator's or
 * hm_edges_read's): scatter and alltoall take the block size from the
 * edges' bytes, alltoallv each pair's bytes as its counts (packed in rank
 * order; self-messages included, as the pattern copies them). Buffers are
 * allocated here, after every rank found its counts in range. The same
 * status and sentence on every rank: HM_EINVAL for an edge naming a rank
 * outside comm, a pair whose bytes exceed MPI's int count (naming the
 * pair, its bytes and INT_MAX: Open MPI 4.1 and MPICH 4.0 have no
 * MPI_Alltoallv_c), a displacement beyond it (naming both ranks and the
 * byte), a block outside 1..INT_MAX; HM_ENOMEM naming the bytes. *out is
 * the caller's (hm_baseline_free). */
HM_EXPORT int hm_baseline_create(MPI_Comm comm, hm_baseline_kind_t kind, const hm_edges_t *edges,
                                 hm_baseline_t **out);

/* Collective over the baseline's comm (that of ps): as hm_plan_measure,
 * params->nrep valid repetitions of the collective started by ps, timed
 * max end - min start on the global clock; with params->validate every
 * received byte checked against hm_pattern_byte(sender, offset in the
 * sender's buffer) after each repetition. *wrong (NULL allowed) = the bytes
 * that differed, summed over ranks. Free the result with
 * hm_measure_result_free. */
HM_EXPORT int hm_baseline_measure(hm_baseline_t *b, hm_procsync_t *ps,
                                  const hm_measure_params_t *params, hm_measure_result_t *result,
                                  uint64_t *wrong);

/* The bytes the collective moves between distinct ranks, over all ranks
 * (MPI_Scatter's root keeps its own block, MPI_Alltoall's ranks theirs;
 * MPI_Alltoallv: every edge's bytes, as the pattern counts them): what its
 * bandwidth divides. Local. */
HM_EXPORT uint64_t hm_baseline_bytes(const hm_baseline_t *b);

/* One run, for tests and callers with their own timing: hm_baseline_fill
 * (local: this rank's send data, receive buffer cleared),
 * hm_baseline_run (collective), hm_baseline_check (local: received bytes
 * that differ), and this rank's receive buffer (tests corrupt it). */
HM_EXPORT void hm_baseline_fill(hm_baseline_t *b);
HM_EXPORT int hm_baseline_run(hm_baseline_t *b);
HM_EXPORT uint64_t hm_baseline_check(const hm_baseline_t *b);
HM_EXPORT void *hm_baseline_recv_buffer(hm_baseline_t *b, size_t *len_bytes);

/* Local; NULL is ignored. */
HM_EXPORT void hm_baseline_free(hm_baseline_t *b);

/* ---- Models of the bandwidth across nodes (§5.2.1) ---- */

/* Eq. 1: k active senders of a node (GPUs, or ranks) packed p to a NIC of
 * nic_bw: nic_bw (1 + max(0, k - p) / p). Eq. 2: round-robin over r NICs:
 * nic_bw k / ceil(k / r). In the unit of nic_bw; NAN for k < 1, p < 1, r
 * < 1 or nic_bw not above 0. Static GPU-to-NIC associations only (a
 * dynamic one, NCCL's SHARP plugin, breaks them, §5.2.1). */
HM_EXPORT double hm_pattern_model_packed(double nic_bw, int k, int p);
HM_EXPORT double hm_pattern_model_round_robin(double nic_bw, int k, int r);

/* How many times a node's bandwidth (eqs. 1-2) the pattern's algbw (the
 * bytes of every message over the time) can reach between n groups, each
 * NIC sending and receiving at once: uni, group 0's NICs send (uni-in:
 * receive): 1; bi,
 * group 0's NICs send and receive: 2; omni, every group's NICs send: n.
 * NAN for n < 2 or an unknown direction. */
HM_EXPORT double hm_pattern_model_directions(hm_direction_t direction, int n);

/* ---- A pattern benchmark: from a shape to measured rows ---- */

/* What a library user's pattern benchmark needs, as `harmonia pattern`
 * does it (docs/pattern.md): the groups from the topology, the memory the
 * backends share, every size's edges, buffers and committed plans, each
 * row measured and validated, and the MPI collective that moves the same
 * data beside it. hm_pattern_run_create checks and decides (collective,
 * before any measurement); hm_pattern_run_measure measures every size and
 * hands each row to the caller. */

enum { HM_PATTERN_MAX_STEPS = 3 };

typedef enum hm_pattern_kind {
    HM_PATTERN_GROUPS,   /* a generator over groups, at every size */
    HM_PATTERN_STRIPING, /* striping's three steps (§4.2) over 2 groups, at every size */
    HM_PATTERN_FILE      /* an application pattern from a file (§4.4), measured once */
} hm_pattern_kind_t;

typedef struct hm_pattern_run_params {
    hm_pattern_kind_t kind;
    const hm_generator_t *generator; /* HM_PATTERN_GROUPS: the family */
    hm_direction_t direction;        /* HM_PATTERN_GROUPS (self ignores it) */
    const char *file;                /* HM_PATTERN_FILE: the path (hm_edges_read) */
    size_t file_element_bytes;       /* HM_PATTERN_FILE: bytes a value counts; 0: 1 */
    int ranks_per_group;             /* g; 0: the ranks of a node */
    int subgroup;                    /* k, 1..g; 0: g */
    const hm_backend_t *backend[HM_PATTERN_MAX_STEPS]; /* backend[0] for every step, */
    int nbackends;                                     /* 1; or 3, striping: one per step */
    int device_memory;   /* the buffers in device memory whatever the backends */
    const size_t *sizes; /* bytes per message (striping: the buffer); not a file's */
    size_t nsizes;
    uint64_t seed; /* the order the sizes run in (hm_measure_shuffle) */
    /* The device's own time of every repetition beside the host's (the
     * raw rows' device_s; hm_plan_set_device_timing): GPU backends only,
     * and its events are in the host's times too. */
    int device_time;
    /* Messages in flight (osu_bw's window, -W): every message of the
     * pattern posted window times in each repetition, into the same
     * regions, before any wait, and counted window times in messages and
     * bytes; 0 or 1: once. Not for striping (its steps forward what they
     * received). */
    int window;
} hm_pattern_run_params_t;

/* Defaults: rail, uni, the nodes as groups, k = g, mpi, host memory, no
 * size, seed 1, no device time, a window of 1. */
HM_EXPORT void hm_pattern_run_params_default(hm_pattern_run_params_t *params);

/* Which parameter a failure concerns, for a caller that names its own
 * option: the sentence (hm_last_error) says what is wrong with it. */
typedef enum hm_pattern_failed {
    HM_PATTERN_FAILED_NONE = 0,
    HM_PATTERN_FAILED_NODES,          /* ranks_per_group 0: the nodes not found */
    HM_PATTERN_FAILED_NODE_SIZES,     /* ranks_per_group 0: nodes of unlike sizes */
    HM_PATTERN_FAILED_NODE_ORDER,     /* ranks_per_group 0: a node's ranks not consecutive */
    HM_PATTERN_FAILED_GROUPS,         /* ranks_per_group: the ranks not whole groups */
    HM_PATTERN_FAILED_SUBGROUP,       /* subgroup: above the group */
    HM_PATTERN_FAILED_STEPS,          /* nbackends: one per step beyond striping */
    HM_PATTERN_FAILED_BACKEND_MEMORY, /* backends of shared host and device memory */
    HM_PATTERN_FAILED_DEVICE_MEMORY,  /* device_memory beside backend[step], of host memory */
    HM_PATTERN_FAILED_BACKEND,        /* backend[step]: this process cannot use it */
    HM_PATTERN_FAILED_DEVICE,         /* device memory (device_memory, mpi): no device */
    HM_PATTERN_FAILED_MPI_DEVICE,     /* mpi on device memory: the MPI is not CUDA-aware */
    HM_PATTERN_FAILED_SHAPE,          /* generator: refuses n, g, k or the direction */
    HM_PATTERN_FAILED_STRIPING,       /* striping over n != 2 groups */
    HM_PATTERN_FAILED_EDGES,          /* the edges at a size, or the file */
    HM_PATTERN_FAILED_RANKS,          /* the file names more ranks than the comm has */
    HM_PATTERN_FAILED_RUN,            /* buffers, plans, baseline or a measurement */
    HM_PATTERN_FAILED_WRONG,          /* validation: received bytes differ */
    HM_PATTERN_FAILED_ROW,            /* the row callback stopped the run */
    HM_PATTERN_FAILED_DEVICE_TIME,    /* device_time: backend[step] has no device stream */
    HM_PATTERN_FAILED_WINDOW          /* window: below 0, or above 1 for striping */
} hm_pattern_failed_t;

typedef struct hm_pattern_failure {
    hm_pattern_failed_t what;
    int step; /* _BACKEND, _DEVICE_MEMORY, _DEVICE_TIME: the index into backend[] */
    int n, g; /* the groups, once known (_STRIPING) */
} hm_pattern_failure_t;

typedef struct hm_pattern_run hm_pattern_run_t;

/* Collective over comm (kept, not duplicated: alive until
 * hm_pattern_run_free): the groups (ranks_per_group, or the nodes of
 * hm_topo_create when every node holds as many ranks, consecutive in comm),
 * the memory of the buffers (one kind for every step: they share them;
 * device memory when a backend or device_memory asks for it, each device
 * backend checked, mpi on device memory only with a CUDA-aware MPI), the
 * generator's shape at 1 byte, striping's 2 groups, the size order, and
 * the baseline (hm_baseline_for_group; MPI_Alltoallv for a file; none on
 * device memory: a collective on host memory beside a pattern on device
 * memory compares unlike things). The same status, sentence and *failed
 * (NULL allowed) on every rank; *out is the caller's
 * (hm_pattern_run_free). params need live only during the call. */
HM_EXPORT int hm_pattern_run_create(MPI_Comm comm, const hm_pattern_run_params_t *params,
                                    hm_pattern_run_t **out, hm_pattern_failure_t *failed);

/* Local: the groups (n of g ranks, subgroups of k), the memory of the
 * buffers, and the rows hm_pattern_run_measure may hand over (sizes x what
 * each size times: the pattern, or striping's split, translate, assemble,
 * sequence and concurrent runs; and the baseline). */
HM_EXPORT void hm_pattern_run_groups(const hm_pattern_run_t *run, int *n, int *g, int *k);
HM_EXPORT hm_memory_t hm_pattern_run_memory(const hm_pattern_run_t *run);
HM_EXPORT size_t hm_pattern_run_rows(const hm_pattern_run_t *run);

/* One measured row. measured: "pattern", "split", "translate", "assemble",
 * "sequence", "concurrent", or the baseline's hm_baseline_name. index: its
 * place in size order (0 .. rows - 1); order: when it ran. status: HM_OK,
 * or HM_EAGAIN when fewer than nrep repetitions were valid (result says
 * what was measured). wrong: bytes that differed, -1 when not validated
 * (the concurrent run forwards what it is still receiving, Fig. 5c).
 * plan: at the first size run, the plan that shows the pattern (striping:
 * its translation) for a collective hm_plan_matrix; NULL otherwise. */
typedef struct hm_pattern_row {
    const char *measured;
    int baseline;      /* 1: the MPI collective, not the pattern */
    size_t size_bytes; /* bytes per message (striping: the buffer; a file: 0) */
    size_t index, order;
    long long messages;       /* over all ranks */
    unsigned long long bytes; /* what bandwidth divides */
    /* What a bandwidth per node divides: hm_edges_node_bytes of the row's
     * messages over the run's groups (a sequence of striping's steps: its
     * translation's); 0 for a collective baseline and for rows whose
     * messages stay within groups. */
    unsigned long long node_bytes;
    long long wrong;
    int status;
    const hm_measure_result_t *result;
    const hm_plan_t *plan;
} hm_pattern_row_t;

/* Collective: called on every rank for each row; returns HM_OK to go on,
 * anything else (the same on every rank) to stop the run. */
typedef int (*hm_pattern_row_fn)(void *ctx, const hm_pattern_row_t *row);

/* Local: the row as a sentence names it, into buf (len bytes): "8 B",
 * "8 B (MPI_Scatter)"; a file's row (size_bytes 0) has no one size: "the
 * file", "the file (MPI_Alltoallv)". NULL row or buf: nothing written. */
HM_EXPORT void hm_pattern_row_words(const hm_pattern_row_t *row, char *buf, size_t len);

/* Collective over the run's comm (that of ps): every size in the run's
 * order, each with its edges, buffers and committed plans, each row
 * measured with params (hm_plan_measure, hm_baseline_measure; striping's
 * sequence validated end to end, rank g's buffer against rank 0's) and
 * handed to row. A step that moves nothing (striping's split and assemble
 * at g = 1) gives no row. Returns HM_OK, the callback's status
 * (HM_PATTERN_FAILED_ROW), or a failure with its sentence naming the size
 * and the row ("8 B (sequence): ..."); a validated row whose bytes differ
 * fails after its callback (HM_EIO, HM_PATTERN_FAILED_WRONG). The same
 * status, sentence and *failed (NULL allowed) on every rank. */
HM_EXPORT int hm_pattern_run_measure(hm_pattern_run_t *run, hm_procsync_t *ps,
                                     const hm_measure_params_t *params, hm_pattern_row_fn row,
                                     void *ctx, hm_pattern_failure_t *failed);

/* Local; NULL is ignored. */
HM_EXPORT void hm_pattern_run_free(hm_pattern_run_t *run);

#ifdef __cplusplus
}
#endif
#endif
