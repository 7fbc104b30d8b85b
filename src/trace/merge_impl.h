/* src/trace/merge_impl.h — a trace merged as a stream: every rank's
 * events read in file order through a fixed buffer, the ranks merged by
 * global entry time, messages and collectives matched as they come, so
 * that memory grows with the ranks and what is in flight, not with the
 * events. */
#ifndef HM_TRACE_MERGE_IMPL_H
#define HM_TRACE_MERGE_IMPL_H

#include <stdio.h>

#include "trace/trace_impl.h"

typedef struct hm__trace_rank {
    hm__trace_model_file_t model;
    int has_model;   /* the rank reached MPI_Finalize's write of its model */
    char path[4200]; /* its events file ("": none) */
    size_t n;        /* events in its whole chunks */
    size_t chunks;   /* whole chunks in its events file: one a flush that reached the disk */
    int torn;        /* its events file ends in a torn chunk */
} hm__trace_rank_t;

/* Every rank of dir, rank r at index r (empty where a rank left nothing):
 * its model read, its events file's chunks checked (the events themselves
 * are read by streams, below). */
int hm__trace_load(const char *dir, hm__trace_rank_t **ranks, int *nranks);
void hm__trace_ranks_free(hm__trace_rank_t *ranks, int nranks);
/* The size of communicator key, from any rank that knew it (0: unknown). */
int hm__trace_comm_size(const hm__trace_rank_t *ranks, int nranks, uint64_t key);

/* ---- A rank's events as a stream (stream.c) ---- */

/* One event of a rank with its times: local (in e), through the start
 * model (ext, extrapolated) and interpolated between the start and end
 * models (glob; ext without an end; local without a model). i is its
 * index in the rank's file. */
typedef struct hm__trace_ev {
    hm_trace_event_t e;
    size_t i;
    double ext[2]; /* enter, exit */
    double glob[2];
} hm__trace_ev_t;

/* A rank's events in file order, its whole chunks only, through a buffer
 * of a fixed size. */
typedef struct hm__trace_stream {
    const hm__trace_rank_t *tr;
    FILE *f;
    hm_trace_event_t *buf; /* read ahead */
    size_t nbuf, at;       /* events in buf, the next one's place */
    uint64_t chunk_left;   /* events of the current chunk not yet read */
    size_t chunks_left;    /* whole chunks not yet started */
    size_t next;           /* index of the next event in the rank */
    hm__trace_ev_t held;   /* the second event of a folded record, */
    int holding;           /* to be given next */
} hm__trace_stream_t;

int hm__trace_stream_open(const hm__trace_rank_t *tr, hm__trace_stream_t *s);
/* The next event into *ev: 1, 0 at the end, or a negative HM_E* code. */
int hm__trace_stream_next(hm__trace_stream_t *s, hm__trace_ev_t *ev);
void hm__trace_stream_close(hm__trace_stream_t *s);

/* ---- The requests of a rank (requests.c) ---- */

/* Per request number: the first event that carried it (the call that made
 * the request, or the probe that numbered a message) and its index. */
typedef struct hm__trace_origin {
    uint32_t id; /* 0: an empty slot */
    size_t i;
    hm_trace_event_t e;
} hm__trace_origin_t;

/* The live requests of a rank: a completed nonblocking request is
 * forgotten (its number never comes back: the tracer counts them), a
 * persistent one kept, so that this holds the requests in flight. */
typedef struct hm__trace_requests {
    hm__trace_origin_t *v;
    size_t cap, n;
} hm__trace_requests_t;

/* Record e (index i) as its request number's origin if it is the first. */
int hm__trace_requests_see(hm__trace_requests_t *q, const hm_trace_event_t *e, size_t i);
/* The origin of request id, NULL when none. */
const hm__trace_origin_t *hm__trace_requests_find(const hm__trace_requests_t *q, uint32_t id);
/* After e: a completion record of a request that cannot come back (not
 * persistent) forgets it; so does a blocking receive of a probed message. */
void hm__trace_requests_done(hm__trace_requests_t *q, const hm_trace_event_t *e);
void hm__trace_requests_free(hm__trace_requests_t *q);

/* ---- Messages, matched in global order (messages.c) ---- */

/* A matched message for trace.json's flow arrows: the send's global entry
 * and the receive's global exit. */
typedef struct hm__trace_flow {
    int send_rank, recv_rank;
    double from_s, to_s;
} hm__trace_flow_t;

/* Counts and the clock condition: receives that completed before their
 * send started, on the interpolated global clock and on the local clocks,
 * with the largest amount (NaN: none). */
typedef struct hm__trace_messages {
    uint64_t n;
    uint64_t sends_unmatched, receives_unmatched;
    uint64_t violations, violations_local;
    double violation_max_s, violation_max_local_s;
} hm__trace_messages_t;

typedef struct hm__trace_matcher hm__trace_matcher_t;

/* flows: where each matched message is appended (NULL: nowhere). */
int hm__trace_matcher_open(int nranks, FILE *flows, hm__trace_matcher_t **out);
int hm__trace_matcher_event(hm__trace_matcher_t *m, int rank, const hm__trace_ev_t *ev);
/* What is left is unmatched; the counts into *out. */
int hm__trace_matcher_finish(hm__trace_matcher_t *m, hm__trace_messages_t *out);
void hm__trace_matcher_free(hm__trace_matcher_t *m);

/* ---- Collectives, matched as their members come (calls.c) ---- */

typedef struct hm__trace_calls hm__trace_calls_t;

/* Calls on every member are counted per function as their last member
 * comes and, with rows, kept for events.csv in a temporary file in dir. */
int hm__trace_calls_open(const hm__trace_rank_t *ranks, int nranks, const char *dir, int rows,
                         hm__trace_calls_t **out);
int hm__trace_calls_event(hm__trace_calls_t *c, int rank, const hm__trace_ev_t *ev);
/* Into s (slot: a function's place in s->funcs): the complete calls per
 * function, the events of calls found on only some members. */
void hm__trace_calls_finish(hm__trace_calls_t *c, hm_trace_summary_t *s, const int *slot);
/* Whether e (after finish) belongs to a call found on every member. */
int hm__trace_calls_complete(const hm__trace_calls_t *c, const hm_trace_event_t *e);
/* events.csv's rows of the complete calls, in (communicator, number)
 * order, numbered from *attempt on (hm_csv_t *). */
int hm__trace_calls_rows(hm__trace_calls_t *c, void *csv, long long *attempt);
void hm__trace_calls_free(hm__trace_calls_t *c);

/* A call of the program (not a request record of HM_TRACE_CLASS_REQUEST). */
int hm__trace_is_call(const hm_trace_event_t *e);

/* Numbers as text, NUL-terminated, their length returned (format.c): v
 * with decimals digits after the point (0 to 9; "" for NaN or an infinity:
 * no value), and integers. buf holds 48 bytes. */
size_t hm__trace_fixed(char *buf, double v, int decimals);
size_t hm__trace_int(char *buf, int64_t v);
size_t hm__trace_uint(char *buf, uint64_t v);

/* ---- Writers ---- */

/* trace.csv (writers.c): opened under a temporary name, a row per event
 * in the order given, then hm_csv_close or hm_csv_abort (hm_csv_t *). */
int hm__trace_csv_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, void **csv);
int hm__trace_csv_event(void *csv, int rank, const hm__trace_ev_t *ev);

/* trace.json (writers.c): the metadata, then every rank's calls, rank
 * after rank, each from its own stream (t0: the file's time 0); then the
 * message flows read back from flows and the end (hm_afile_t *). */
int hm__trace_chrome_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, void **af);
void hm__trace_chrome_event(void *af, int rank, const hm__trace_ev_t *ev, double t0);
int hm__trace_chrome_finish(void *af, FILE *flows, double t0);

/* events.csv (events.c): the complete collective calls, then every other
 * call, rank after rank. */
int hm__trace_write_events(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                           hm__trace_calls_t *calls);

/* One row of events.csv (hm_csv_t *csv): op, size_bytes, attempt, valid
 * 1, then v: global_s, local_s, start_spread_s, start_s. */
int hm__trace_events_row(void *csv, int func, uint64_t bytes, long long attempt, const double v[4]);

/* dir/otf2/traces.otf2, written beside the rank pass (a no-op in a build
 * without OTF2: open gives NULL, and the others take it): each rank's
 * events in the order of its stream, rank after rank, their ticks (ns)
 * counted from base_s (an earlier one is put at base_s); then close
 * writes the definitions, with first_s and last_s the first entry and the
 * last exit of all ranks, and publishes the archive whole. A failure is
 * returned by every later call; close and abort free. */
typedef struct hm__trace_otf2 hm__trace_otf2_t;
int hm__trace_otf2_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, double base_s,
                        hm__trace_otf2_t **out);
int hm__trace_otf2_event(hm__trace_otf2_t *o, int r, const hm__trace_ev_t *ev);
int hm__trace_otf2_close(hm__trace_otf2_t *o, double first_s, double last_s);
void hm__trace_otf2_abort(hm__trace_otf2_t *o);

/* A temporary file beside the trace (dir), unlinked at once: the
 * spools of a merge. HM_EIO when it cannot be made. */
int hm__trace_spool(const char *dir, FILE **out);

#endif
