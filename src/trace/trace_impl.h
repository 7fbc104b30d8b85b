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
    char magic[8];        /* "HMTRACE3" (3: its checksum in four lanes; 2: in one) */
    uint32_t event_bytes; /* sizeof(hm_trace_event_t) of the writer */
    uint32_t reserved;
    uint64_t count;
    uint64_t checksum; /* FNV-1a's step over the events' 8-byte words (chunks.c) */
} hm__trace_chunk_t;

void hm__trace_chunk_header(hm__trace_chunk_t *head, const hm_trace_event_t *events, size_t n);

/* The whole chunks of path checked (their checksums): the events they
 * hold and how many chunks there were (one a flush); *torn is set when
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

#endif
