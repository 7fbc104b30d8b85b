/* src/trace/otf2_rank.h — the writer of one rank's events, shared by
 * otf2_events.c (calls, messages, requests, collectives) and
 * otf2_objects.c (one-sided and MPI-IO records). Internal; in a build
 * with OTF2 only. */
#ifndef HM_TRACE_OTF2_RANK_H
#define HM_TRACE_OTF2_RANK_H
#include "trace/otf2_impl.h"

/* A call and the request records after it (what it started or
 * completed), read ahead from the rank's stream. */
typedef struct group {
    hm__trace_ev_t *v;
    size_t n, cap;
} group_t;

/* An RMA or I/O operation issued and not yet written complete: its
 * window or I/O handle, its target (world rank; -1 for I/O), its matching
 * id, the request of an MPI_Rput, MPI_Rget, MPI_File_iread or
 * MPI_File_iwrite (0: none) and its bytes. */
typedef struct pending_op {
    uint32_t obj;
    int target;
    uint64_t id, request, bytes;
} pending_op_t;

/* A lock this rank asked for: window, remote (a rank of the window), id,
 * and whether it was acquired (the call that asked returned). */
typedef struct rma_lock {
    uint32_t win, remote;
    uint64_t id;
    int held;
} rma_lock_t;

typedef struct hm__otf2_rank {
    OTF2_EvtWriter *w;
    double base_s;            /* ticks count from it (hm__otf2_ticks) */
    uint64_t last;            /* the last tick written */
    hm__trace_requests_t req; /* the requests of the rank in flight */
    group_t g;
    comm_defs_t *comms;
    pending_op_t *ops; /* RMA operations in flight */
    size_t nops, capops;
    pending_op_t *io; /* nonblocking I/O operations in flight */
    size_t nio, capio;
    rma_lock_t *locks; /* RMA locks held */
    size_t nlocks, caplocks;
    uint64_t ids;   /* the last matching or lock id given */
    uint64_t count; /* records written: the location's number of events */
    OTF2_ErrorCode e;
    int st; /* HM_ENOMEM once memory ran out (the loop stops on it) */
} rank_writer_t;

/* Every record goes through here: the first failure is kept (the loop over
 * the calls stops on it). */
static inline void hm__otf2_count(rank_writer_t *rw, OTF2_ErrorCode e)
{
    if (rw->e == OTF2_SUCCESS) rw->e = e;
    rw->count += e == OTF2_SUCCESS;
}

/* The one-sided records of call e at t, at its entry or (at_exit) its
 * exit; its MPI-IO records between in and out; the completion of the RMA
 * or I/O operation of a request a wait or test completed at t. */
void hm__otf2_write_rma(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t t, int at_exit);
void hm__otf2_write_io(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t in, uint64_t out);
void hm__otf2_rma_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t);
void hm__otf2_io_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t);
#endif
