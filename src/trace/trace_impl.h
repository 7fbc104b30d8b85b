/* src/trace/trace_impl.h — the trace layer's own: the chunk format of
 * .events files and their reader. */
#ifndef HM_TRACE_IMPL_H
#define HM_TRACE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <harmonia/trace.h>

/* comm_key of MPI_COMM_WORLD, and of an event without a communicator. */
#define HM_TRACE_WORLD   ((uint64_t)0)
#define HM_TRACE_NO_COMM ((uint64_t)1)

/* A chunk of a .events file: this header, then count events (the host's
 * byte order: a trace is merged where it was written, or on a machine of
 * the same order). */
typedef struct hm__trace_chunk {
    char magic[8];        /* "HMTRACE4": a wait or test may carry the first request it
                           * completed (hm__trace_folded); "HMTRACE3": they never
                           * do; both checksums in four lanes; "HMTRACE2": in one */
    uint32_t event_bytes; /* sizeof(hm_trace_event_t) of the writer */
    uint32_t reserved;
    uint64_t count;
    uint64_t checksum; /* FNV-1a's step over the events' 8-byte words (chunks.c) */
} hm__trace_chunk_t;

void hm__trace_chunk_header(hm__trace_chunk_t *head, const hm_trace_event_t *events, size_t n);

/* A record of a .events file that stands for two events: a wait or test
 * (MPI_Wait ... MPI_Testsome, consecutive ids) with the first request it
 * completed folded in, the request's fields under the call's function
 * (include/harmonia/trace.h, hm_trace_event_t; tools/harmonia-trace). A
 * call of its own never carries a request (request 0). The reader parts
 * it (hm__trace_part). */
static inline int hm__trace_folded(const hm_trace_event_t *e)
{
    return e->request != 0 && e->func >= HM_TRACE_MPI_Wait && e->func <= HM_TRACE_MPI_Testsome;
}

/* A folded record e parted: e becomes the call as a call of its own is
 * recorded (no object, peer, tag, bytes or request), *completed the
 * MPI_T_completed record that follows it. */
static inline void hm__trace_part(hm_trace_event_t *e, hm_trace_event_t *completed)
{
    *completed = *e;
    completed->func = HM_TRACE_MPI_T_completed;
    e->comm_key = HM_TRACE_NO_COMM;
    e->peer = e->tag = e->recv_peer = e->recv_tag = -1;
    e->bytes = 0;
    e->request = 0;
}

/* The whole chunks of path checked (their checksums): the events they
 * hold (a folded record two) and how many chunks there were (one a flush); *torn is set when
 * the file ends in a chunk that is cut short or fails its checksum (a rank
 * that died in a flush). HM_EIO (unreadable), HM_EINVAL (not a trace
 * file, named), HM_ENOMEM. */
int hm__trace_scan_events(const char *path, size_t *n, size_t *chunks, int *torn);

/* A communicator a rank knew: its key and its members as ranks of
 * MPI_COMM_WORLD, in the communicator's rank order. */
typedef struct hm__trace_comm {
    uint64_t key;
    int size;
    int *world_ranks;
} hm__trace_comm_t;

/* A .model file read back. */
typedef struct hm__trace_model_file {
    hm_trace_rank_info_t info;
    hm__trace_comm_t *comms;
    size_t ncomms;
} hm__trace_model_file_t;

/* HM_EIO, HM_EINVAL (path:line), HM_ENOMEM; free with the next. */
int hm__trace_model_read(const char *path, hm__trace_model_file_t *mf);
void hm__trace_model_file_free(hm__trace_model_file_t *mf);

/* hm_trace_model_apply and hm_trace_interpolate inline, as the merge's
 * passes place each event with them (through the exported calls, 20 % of
 * a merge that writes OTF2). at_start_s: local_s on start's model, which
 * the interpolation weighs. */
static inline double hm__trace_model_at(hm_trace_model_t m, double local_s)
{
    return m.global_at_anchor_s + m.rate * (local_s - m.anchor_s);
}

static inline double hm__trace_between(hm_trace_model_t start, hm_trace_model_t end, double local_s,
                                       double at_start_s)
{
    double span = end.anchor_s - start.anchor_s;
    double w = span > 0 ? (local_s - start.anchor_s) / span : 0;
    w = w < 0 ? 0 : w > 1 ? 1 : w;
    return (1 - w) * at_start_s + w * hm__trace_model_at(end, local_s);
}

#endif
