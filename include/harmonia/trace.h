/* include/harmonia/trace.h — tracing MPI programs on the global clock.
 *
 * A tracer (libharmonia-trace.so, preloaded into an unchanged MPI program)
 * synchronizes the clocks at MPI_Init (the start model), records every MPI
 * call it wraps into a per-rank buffer of events stamped with the local
 * clock, flushes the buffer to a per-rank file when it fills (without any
 * communication), and at MPI_Finalize synchronizes again (the end model).
 * The merge then puts each local time on the global clock twice: through
 * the start model alone (extrapolated, as a running program must) and
 * between both models (interpolated: the drift taken as constant over the
 * run, [Denis et al. 2022, §4.2]), and writes the trace files.
 *
 * Files of a trace directory, each written atomically:
 *   rank-NNNNN.events   the events of one rank, binary, appended flush by
 *                       flush (a rank that dies leaves those already flushed)
 *   rank-NNNNN.model    one rank's clock models and communicators, text,
 *                       written at MPI_Finalize (missing: the rank did not
 *                       finish; its events are extrapolated, and said so)
 *   trace.csv           every event, local, extrapolated and interpolated
 *   trace.json          Chrome trace-event format (Perfetto, chrome://tracing)
 *   events.csv          the calls as repetitions, in the schema of bench --raw
 *                       (harmonia stats, plot and compare read it): a row per
 *                       collective call found on every member (last exit -
 *                       first entry), per other call of a rank
 *   otf2/traces.otf2    OTF2 (Vampir and other OTF2 readers), in a build with
 *                       OTF2 (hm_trace_otf2_built)
 */
#ifndef HARMONIA_TRACE_H
#define HARMONIA_TRACE_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The functions a tracer records (a registry, in MPI's names) ---- */

typedef enum hm_trace_class {
    HM_TRACE_CLASS_P2P = 0,        /* point to point, blocking or nonblocking, probes */
    HM_TRACE_CLASS_COLLECTIVE = 1, /* collectives, their nonblocking forms, communicators */
    HM_TRACE_CLASS_COMPLETION = 2, /* waits and tests */
    HM_TRACE_CLASS_TRACER = 3,     /* the tracer's own work (a flush of its buffer) */
    /* Not a call: a request that the call before it (a wait, a test, a
     * start) completed or started, with what the request carries (its
     * peer, tag and bytes; a receive's resolved from its status). Its
     * times are those of that call. */
    HM_TRACE_CLASS_REQUEST = 4,
    HM_TRACE_CLASS_ONESIDED = 5, /* windows, RMA communication and synchronization */
    HM_TRACE_CLASS_IO = 6        /* MPI-IO */
} hm_trace_class_t;

/* X(name without "MPI_", class): the order is the ids' in .events files,
 * so a new function goes at the end. One function a line, by hand:
 * clang-format's layout of this macro is neither readable nor stable from
 * one run to the next. */
/* clang-format off */
#define HM_TRACE_FUNCS(X) \
    X(T_flush, TRACER) \
    X(Send, P2P) \
    X(Ssend, P2P) \
    X(Bsend, P2P) \
    X(Rsend, P2P) \
    X(Recv, P2P) \
    X(Sendrecv, P2P) \
    X(Sendrecv_replace, P2P) \
    X(Isend, P2P) \
    X(Issend, P2P) \
    X(Ibsend, P2P) \
    X(Irsend, P2P) \
    X(Irecv, P2P) \
    X(Probe, P2P) \
    X(Iprobe, P2P) \
    X(Mprobe, P2P) \
    X(Improbe, P2P) \
    X(Mrecv, P2P) \
    X(Imrecv, P2P) \
    X(Wait, COMPLETION) \
    X(Waitall, COMPLETION) \
    X(Waitany, COMPLETION) \
    X(Waitsome, COMPLETION) \
    X(Test, COMPLETION) \
    X(Testall, COMPLETION) \
    X(Testany, COMPLETION) \
    X(Testsome, COMPLETION) \
    X(Barrier, COLLECTIVE) \
    X(Bcast, COLLECTIVE) \
    X(Reduce, COLLECTIVE) \
    X(Allreduce, COLLECTIVE) \
    X(Gather, COLLECTIVE) \
    X(Gatherv, COLLECTIVE) \
    X(Scatter, COLLECTIVE) \
    X(Scatterv, COLLECTIVE) \
    X(Allgather, COLLECTIVE) \
    X(Allgatherv, COLLECTIVE) \
    X(Alltoall, COLLECTIVE) \
    X(Alltoallv, COLLECTIVE) \
    X(Alltoallw, COLLECTIVE) \
    X(Reduce_scatter, COLLECTIVE) \
    X(Reduce_scatter_block, COLLECTIVE) \
    X(Scan, COLLECTIVE) \
    X(Exscan, COLLECTIVE) \
    X(Ibarrier, COLLECTIVE) \
    X(Ibcast, COLLECTIVE) \
    X(Ireduce, COLLECTIVE) \
    X(Iallreduce, COLLECTIVE) \
    X(Igather, COLLECTIVE) \
    X(Igatherv, COLLECTIVE) \
    X(Iscatter, COLLECTIVE) \
    X(Iscatterv, COLLECTIVE) \
    X(Iallgather, COLLECTIVE) \
    X(Iallgatherv, COLLECTIVE) \
    X(Ialltoall, COLLECTIVE) \
    X(Ialltoallv, COLLECTIVE) \
    X(Ialltoallw, COLLECTIVE) \
    X(Ireduce_scatter, COLLECTIVE) \
    X(Ireduce_scatter_block, COLLECTIVE) \
    X(Iscan, COLLECTIVE) \
    X(Iexscan, COLLECTIVE) \
    X(Comm_split, COLLECTIVE) \
    X(Comm_split_type, COLLECTIVE) \
    X(Comm_dup, COLLECTIVE) \
    X(Comm_create, COLLECTIVE) \
    X(Comm_free, COLLECTIVE) \
    X(T_completed, REQUEST) \
    X(T_started, REQUEST) \
    X(Send_init, P2P) \
    X(Ssend_init, P2P) \
    X(Bsend_init, P2P) \
    X(Rsend_init, P2P) \
    X(Recv_init, P2P) \
    X(Start, P2P) \
    X(Startall, P2P) \
    X(Request_free, COMPLETION) \
    X(Cancel, COMPLETION) \
    X(Comm_dup_with_info, COLLECTIVE) \
    X(Comm_idup, COLLECTIVE) \
    X(Comm_create_group, COLLECTIVE) \
    X(Cart_create, COLLECTIVE) \
    X(Cart_sub, COLLECTIVE) \
    X(Graph_create, COLLECTIVE) \
    X(Dist_graph_create, COLLECTIVE) \
    X(Dist_graph_create_adjacent, COLLECTIVE) \
    X(Intercomm_create, COLLECTIVE) \
    X(Intercomm_merge, COLLECTIVE) \
    X(Neighbor_allgather, COLLECTIVE) \
    X(Neighbor_allgatherv, COLLECTIVE) \
    X(Neighbor_alltoall, COLLECTIVE) \
    X(Neighbor_alltoallv, COLLECTIVE) \
    X(Neighbor_alltoallw, COLLECTIVE) \
    X(Ineighbor_allgather, COLLECTIVE) \
    X(Ineighbor_allgatherv, COLLECTIVE) \
    X(Ineighbor_alltoall, COLLECTIVE) \
    X(Ineighbor_alltoallv, COLLECTIVE) \
    X(Ineighbor_alltoallw, COLLECTIVE) \
    X(Win_create, ONESIDED) \
    X(Win_allocate, ONESIDED) \
    X(Win_allocate_shared, ONESIDED) \
    X(Win_create_dynamic, ONESIDED) \
    X(Win_free, ONESIDED) \
    X(Put, ONESIDED) \
    X(Get, ONESIDED) \
    X(Accumulate, ONESIDED) \
    X(Get_accumulate, ONESIDED) \
    X(Fetch_and_op, ONESIDED) \
    X(Compare_and_swap, ONESIDED) \
    X(Rput, ONESIDED) \
    X(Rget, ONESIDED) \
    X(Win_fence, ONESIDED) \
    X(Win_lock, ONESIDED) \
    X(Win_unlock, ONESIDED) \
    X(Win_lock_all, ONESIDED) \
    X(Win_unlock_all, ONESIDED) \
    X(Win_flush, ONESIDED) \
    X(Win_flush_all, ONESIDED) \
    X(Win_flush_local, ONESIDED) \
    X(Win_post, ONESIDED) \
    X(Win_start, ONESIDED) \
    X(Win_complete, ONESIDED) \
    X(Win_wait, ONESIDED) \
    X(File_open, IO) \
    X(File_close, IO) \
    X(File_read, IO) \
    X(File_write, IO) \
    X(File_read_at, IO) \
    X(File_write_at, IO) \
    X(File_read_all, IO) \
    X(File_write_all, IO) \
    X(File_read_at_all, IO) \
    X(File_write_at_all, IO) \
    X(File_iread, IO) \
    X(File_iwrite, IO) \
    X(File_seek, IO) \
    X(File_set_view, IO) \
    X(File_sync, IO)
/* clang-format on */

#define HM_TRACE_ENUM_(name, class) HM_TRACE_MPI_##name,
typedef enum hm_trace_func { HM_TRACE_FUNCS(HM_TRACE_ENUM_) HM_TRACE_NFUNCS } hm_trace_func_t;
#undef HM_TRACE_ENUM_

/* Number of functions, the name of id i ("MPI_Allreduce"; NULL out of
 * range), its class, and the id of a name (HM_ENOENT, last error naming
 * it). */
HM_EXPORT int hm_trace_func_count(void);
HM_EXPORT const char *hm_trace_func_name(int func);
HM_EXPORT hm_trace_class_t hm_trace_func_class(int func);
HM_EXPORT int hm_trace_func_find(const char *name, int *func);

/* Which functions a tracer records: selected[f] (hm_trace_func_count()
 * entries) is 1 for the functions whose names match a pattern of include
 * (NULL or "": all of them) and none of exclude (NULL or "": none).
 * Patterns are shell globs (fnmatch), comma-separated, e.g.
 * "MPI_Test*,MPI_Iprobe". HM_EINVAL naming a pattern that matches no
 * traced function (a typo would otherwise filter nothing, or everything). */
HM_EXPORT int hm_trace_func_select(const char *include, const char *exclude,
                                   unsigned char *selected);

/* ---- Keys: communicators, windows and files named alike on every member ---- */

/* The key of an object made by the call-th collective call of the
 * communicator keyed parent_key, from what every member knows without a
 * message (first: the world rank of the new communicator's first member,
 * where one call makes several, as MPI_Comm_split does; else 0). A window
 * or file made by a call (MPI_Win_create, ..., MPI_File_open) has the key
 * hm_trace_object_key(comm_key, seq, 0) of that call's event: one call
 * makes one kind of object, so keys of different kinds never meet. Never
 * 0 or 1 (MPI_COMM_WORLD's key and "none"). */
HM_EXPORT uint64_t hm_trace_object_key(uint64_t parent_key, uint64_t call, int first);

/* One call, as a rank saw it (64 bytes). comm_key names the communicator
 * alike on every member (0: MPI_COMM_WORLD; 1: none, e.g. a wait); a
 * window's or a file's calls carry its own key (hm_trace_object_key); the
 * calls that make one, the key of the communicator it was made on. seq numbers a collective among
 * those of that communicator, so that the N-th collective of a communicator is found on every rank.
 * peer is the peer, root or target as a rank of MPI_COMM_WORLD (-1 none,
 * -2 any source): the destination of a send, the source of a receive
 * (the one it matched, read from its status), both sides of a Sendrecv
 * (peer and tag its send, recv_peer and recv_tag its receive; -1 in other
 * calls). bytes: the message size as bench and OSU count it: what a
 * point-to-point call sends or receives, the buffer of a reduction or
 * broadcast, a rank's block of a gather, scatter, allgather or alltoall,
 * the total a v-variant sends (0: waits, tests, barriers, alltoallw).
 * request: a tracer's number of the request a nonblocking call created, a
 * start started or a request record completed (0: none), so that each
 * request is tied to the wait or test that completed it: the records of
 * class HM_TRACE_CLASS_REQUEST right after that call (a rank's numbers
 * start again after 2^32 requests). In a rank's .events file a wait or
 * test (MPI_Wait ... MPI_Testsome) with a request carries the first
 * request it completed in its own record: that request's comm_key, peer,
 * tag, recv_peer, recv_tag, bytes and number under the call's func (the
 * call's own are those of none: 1, -1, -1, -1, -1, 0, 0), one record of
 * 64 bytes for the two events most waits and tests make. The merge parts
 * it into the call and its MPI_T_completed record again. calls: how many calls the event
 * stands for: 1, or the length of a burst of unsuccessful polls (an
 * MPI_Test* that completed nothing, an MPI_Iprobe or MPI_Improbe that
 * found nothing) of one function recorded as one event, from the first
 * one's entry to the last one's exit. */
typedef struct hm_trace_event {
    double enter_s; /* local clock */
    double exit_s;
    uint64_t comm_key;
    uint64_t bytes;
    uint32_t request;
    uint32_t calls;
    uint32_t seq;
    int32_t peer;
    int32_t tag; /* point to point, MPI_Comm_create_group: the tag (the one
                  * matched, for a receive);
                  * MPI_Win_lock: 1 shared, 0 exclusive; MPI_File_open: its amode
                  * (1 read, 2 write, 4 create, 8 exclusive, 16 append, 32 delete
                  * on close, 64 unique open); else -1 */
    int32_t recv_peer;
    int32_t recv_tag;
    int16_t func;
    int16_t thread; /* 0: the thread that initialized MPI */
} hm_trace_event_t;

/* ---- Recording (the tracer's side; local, no MPI) ---- */

typedef struct hm_trace_recorder hm_trace_recorder_t;

/* A recorder of rank's events into dir/rank-NNNNN.events, with a buffer
 * of capacity events allocated now (at least 2). The timer stamps the
 * flush events. HM_EINVAL, HM_ENOMEM, HM_EIO (the file, named). */
HM_EXPORT int hm_trace_recorder_open(const char *dir, int rank, size_t capacity, hm_timer_t *timer,
                                     hm_trace_recorder_t **out);

/* A slot for the next event, to be filled by the caller. A full buffer is
 * written out first and its writing recorded as an event of its own
 * (MPI_T_flush, class HM_TRACE_CLASS_TRACER); NULL only when that write failed
 * (the recorder then stops recording, see hm_trace_recorder_error). */
HM_EXPORT hm_trace_event_t *hm_trace_recorder_next(hm_trace_recorder_t *recorder);

/* The event the last hm_trace_recorder_next gave, while it is still in
 * the buffer (NULL once written out, or before any): a caller may extend
 * it (a burst of polls). */
HM_EXPORT hm_trace_event_t *hm_trace_recorder_last(hm_trace_recorder_t *recorder);

/* Events recorded so far, and flushes done. */
HM_EXPORT uint64_t hm_trace_recorder_events(const hm_trace_recorder_t *recorder);
HM_EXPORT uint64_t hm_trace_recorder_flushes(const hm_trace_recorder_t *recorder);

/* The sentence of a failed write ("" when none). */
HM_EXPORT const char *hm_trace_recorder_error(const hm_trace_recorder_t *recorder);

/* Write what the buffer holds and close the file; the recorder is freed.
 * HM_EIO when any write failed. NULL is ignored. */
HM_EXPORT int hm_trace_recorder_close(hm_trace_recorder_t *recorder);

/* ---- Clock models of a rank ---- */

/* A clock taken as an affine map around a local time: global(t) =
 * global_at_anchor_s + rate * (t - anchor_s). Every clock of harmonia (a
 * chain of offset and linear models over a timer) is affine. */
typedef struct hm_trace_model {
    double anchor_s; /* local time the synchronization ended (start) or began (end) */
    double global_at_anchor_s;
    double rate;
} hm_trace_model_t;

/* The affine map of clock around anchor_s (exact for harmonia's clocks;
 * NaN in every field for a NULL clock). */
HM_EXPORT hm_trace_model_t hm_trace_model_of(const hm_clock_t *clock, double anchor_s);

/* global(t) through one model (extrapolation). */
HM_EXPORT double hm_trace_model_apply(hm_trace_model_t model, double local_s);

/* global(t) between two models: (1 - w) start(t) + w end(t), w = (t -
 * start.anchor) / (end.anchor - start.anchor) clamped to [0, 1]: each
 * model where it was measured, the drift taken as constant in between. */
HM_EXPORT double hm_trace_interpolate(hm_trace_model_t start, hm_trace_model_t end, double local_s);

/* What a rank's .model file holds. */
typedef struct hm_trace_rank_info {
    int rank, size;
    hm_trace_model_t start, end;
    int has_end;          /* the end synchronization ran (MPI_Finalize was reached) */
    double check_start_s; /* the clock checker at the end: max |offset| of the start model */
    double check_end_s;   /* ... of the end model */
    /* Rank 0 (NaN elsewhere, and in files of older versions): the checker
     * at MPI_Init right after the start model was made, max |offset| */
    double check_init_s;
    /* ... the largest clock error between two ranks that the interpolated
     * times can have: at each model's own check (start model at MPI_Init,
     * end model at MPI_Finalize) the sum of the two largest |offsets| to
     * rank 0 (rank 0's own is 0), the larger of the two */
    double pair_error_s;
    double latency_min_s; /* ... the shortest one-way message latency measured
                           * between rank 0 and any rank (half the least
                           * round trip of ping-pongs at MPI_Init and at
                           * MPI_Finalize) */
    char clock_sync[64];  /* the specification used */
    char timer[64];       /* the time source */
    /* Wall time this rank spent on the clock at MPI_Init and MPI_Finalize:
     * the synchronizations, their checks, the latency measurement (NaN:
     * files of older versions). What the global clock costs a traced run. */
    double clock_cost_s;
    /* Under refine: the offsets per rank the synchronization took at
     * MPI_Init and at MPI_Finalize, and how many were asked for at each
     * (fewer taken: HM_TRACE_REFINE_BUDGET_S stopped them on a busy
     * machine). 0: not refine, or files of older versions. */
    int offsets_init, offsets_end, offsets_asked;
    uint64_t events, flushes;
    /* The date: CLOCK_REALTIME (s since the epoch) read right after the
     * local time realtime_local_s, at MPI_Init (NaN: not known, files of
     * older versions); the host the rank ran on ("" not known). The OTF2
     * archive's clock properties and machine name come from rank 0's. */
    double realtime_local_s, realtime_s;
    char host[64];
} hm_trace_rank_info_t;

/* Under refine the tracer takes up to 16 offsets per rank at each end,
 * unless the user set their number, and stops an end's refinements once
 * they took this long: on a machine so busy that one takes a second, more
 * would cost the run seconds for little (docs/trace.md). */
#define HM_TRACE_REFINE_BUDGET_S 0.25

/* Write a rank's model file, dir/rank-NNNNN.model, atomically, with the
 * communicators it knew: keys[i] of size sizes[i], its ranks of
 * MPI_COMM_WORLD in world_ranks (concatenated, sizes[i] each). */
HM_EXPORT int hm_trace_model_write(const char *dir, const hm_trace_rank_info_t *info, size_t ncomms,
                                   const uint64_t *keys, const int *sizes, const int *world_ranks);

/* ---- Merging a trace directory (offline, no MPI) ---- */

/* Per traced function, over all ranks, on the interpolated global clock. */
typedef struct hm_trace_func_summary {
    int func;
    uint64_t calls;  /* a burst of polls counts its calls */
    uint64_t events; /* records written (a burst is one; a wait or test
                      * with its first request too) */
    double total_s;  /* sum of exit - enter */
    /* median of exit - enter, over events (a burst's is its whole span):
     * exact up to 32768 events of the function, beyond that within 4.9e-4
     * of it, relative (a histogram of 1024 bins per power of two, so that
     * a merge's memory does not grow with the events) */
    double median_s;
    uint64_t matched;   /* collectives: calls found on every member of their communicator */
    double max_skew_s;  /* collectives: largest (last entry - first entry) of one call */
    double late_wait_s; /* collectives: sum over calls and ranks of last entry - entry */
} hm_trace_func_summary_t;

typedef struct hm_trace_summary {
    int nranks;      /* ranks that left events */
    int nfinished;   /* of them, ranks with an end model */
    uint64_t events; /* all ranks */
    uint64_t flushes;
    double span_s;                 /* first entry to last exit, global (NaN: no event) */
    double check_start_max_s;      /* max over ranks of the checker's figures at */
    double check_end_max_s;        /* MPI_Finalize (NaN: no rank reached it) */
    double drift_correction_max_s; /* max |interpolated - extrapolated| over all events */
    double check_init_max_s;       /* the checker at MPI_Init (NaN: not measured) */
    double clock_cost_max_s;       /* the largest clock_cost_s of a rank (NaN: not known) */
    /* refine's offsets per rank at MPI_Init and MPI_Finalize, the fewest
     * of any rank (they are the same on every rank), and those asked for
     * (0: not refine or not known) */
    int offsets_init, offsets_end, offsets_asked;
    double pair_error_s;  /* largest clock error between two ranks (NaN: not measured) */
    double latency_min_s; /* shortest one-way message latency (NaN: not measured) */
    /* 1 when pair_error_s >= latency_min_s: a message between two ranks can
     * arrive sooner than their clocks can be told apart, so a receive may
     * appear before its send and the order of events on different ranks
     * that close cannot be trusted (Lamport's clock condition). The checks
     * are made at MPI_Init and MPI_Finalize only: between them a poor
     * drift estimate can be off by more, which violations (below) show */
    int order_doubtful;
    size_t nfuncs; /* functions seen, in registry order */
    hm_trace_func_summary_t *funcs;
    /* To size a trace: the bytes on disk of the ranks' files (what the
     * run wrote) and of each file the merge wrote (0: not written), and
     * how fast a rank recorded, events / nranks / span_s (NaN for an
     * empty span). */
    uint64_t rank_files_bytes, trace_csv_bytes, trace_json_bytes, events_csv_bytes, otf2_bytes;
    double events_per_rank_s;
    /* Point-to-point messages matched on the records alone: on each
     * channel (communicator, source, destination, tag; a receive's as its
     * status said) the k-th send posted with the k-th receive posted, as
     * MPI matches them; and what was left on either side. */
    uint64_t messages, sends_unmatched, receives_unmatched;
    /* The clock condition: matched receives that completed before their
     * send started, on the interpolated global clock and, for contrast,
     * on the ranks' local clocks; the largest amount of each (NaN: none). */
    uint64_t violations, violations_local;
    double violation_max_s, violation_max_local_s;
    /* Collective calls (and the other calls numbered on a communicator,
     * window or file) found on every member, and the events of such calls
     * found on only some of the members (a rank that did not finish, or
     * --exclude/--during-s cut them). */
    uint64_t collectives, collective_events_partial;
    /* Ranks whose event file ends in a chunk cut short or failing its
     * checksum (a rank killed in a flush): that chunk was dropped. */
    int torn_ranks;
} hm_trace_summary_t;

/* The files a merge writes, as bits: a trace of millions of events is
 * gigabytes in each (per event about 130 B of trace.csv, 210 B of
 * trace.json, 45 B of events.csv, 25 B of OTF2), and writing them is most
 * of the merge's time. */
typedef enum hm_trace_file {
    HM_TRACE_FILE_CSV = 1u << 0,    /* trace.csv */
    HM_TRACE_FILE_JSON = 1u << 1,   /* trace.json */
    HM_TRACE_FILE_EVENTS = 1u << 2, /* events.csv */
    HM_TRACE_FILE_OTF2 = 1u << 3,   /* otf2/ (none in a build without OTF2) */
    HM_TRACE_FILE_ALL = 0xfu
} hm_trace_file_t;

/* Local: the bits of a comma-separated list of csv, json, events, otf2,
 * all (every file) or none (the summary alone), e.g. "csv,otf2". HM_EINVAL
 * naming the word, e.g.
 *   unknown trace file "xml" (known: csv, json, events, otf2, all, none)
 * or an empty list or word. */
HM_EXPORT int hm_trace_files_parse(const char *list, unsigned *files);

/* Read dir's rank files, put every event on the global clock, write the
 * files of files (hm_trace_file_t bits; the others are left as they are),
 * in memory that grows with the ranks and what is in flight (messages,
 * requests, collectives), not with the events: the rank files are read as
 * streams, twice or three times, and temporary files beside them (removed
 * as they are made) keep what trace.json and events.csv write last;
 * refusing to overwrite anything that is not a trace file this function
 * wrote, and fill *summary (release with hm_trace_summary_free; the bytes
 * of a file not written are 0). HM_ENOENT (no rank file), HM_EINVAL (a
 * file that does not parse, named with its line or offset; files beyond
 * HM_TRACE_FILE_ALL), HM_EIO, HM_ENOMEM. */
HM_EXPORT int hm_trace_merge(const char *dir, unsigned files, hm_trace_summary_t *summary);

/* 1 when this build writes OTF2 archives (Debian's libopen-trace-format2
 * was found at configure time), else 0. */
HM_EXPORT int hm_trace_otf2_built(void);
HM_EXPORT void hm_trace_summary_free(hm_trace_summary_t *summary);

#ifdef __cplusplus
}
#endif
#endif
