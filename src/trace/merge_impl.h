/* src/trace/merge_impl.h — a loaded trace: every rank's events with their
 * global times, for the writers and the summary. */
#ifndef HM_TRACE_MERGE_IMPL_H
#define HM_TRACE_MERGE_IMPL_H

#include "trace/trace_impl.h"

typedef struct hm__trace_rank {
    hm__trace_model_file_t model;
    int has_model; /* the rank reached MPI_Finalize's write of its model */
    hm_trace_event_t *events;
    size_t n;
    size_t chunks; /* whole chunks in its events file: one a flush that reached the disk */
    int torn;      /* its events file ends in a torn chunk */
    double *ext;   /* 2 n: enter, exit of each event through the start model */
    double *glob;  /* 2 n: ... interpolated between start and end (ext without an end) */
    /* Per request number 0..max_request: the first event carrying it (the
     * call that made the request, or the probe that numbered a message),
     * SIZE_MAX for none. */
    size_t *origin;
    uint32_t max_request;
} hm__trace_rank_t;

/* The event that made request number id of tr, NULL when none did. */
const hm_trace_event_t *hm__trace_origin(const hm__trace_rank_t *tr, uint32_t id);

/* Every rank of dir, rank r at index r (empty where a rank left nothing). */
int hm__trace_load(const char *dir, hm__trace_rank_t **ranks, int *nranks);
void hm__trace_ranks_free(hm__trace_rank_t *ranks, int nranks);
/* The size of communicator key, from any rank that knew it (0: unknown). */
int hm__trace_comm_size(const hm__trace_rank_t *ranks, int nranks, uint64_t key);

/* One rank's event i of a collective call, at its global entry time. */
typedef struct hm__trace_member {
    uint64_t key; /* communicator */
    uint32_t seq; /* the call's number on it */
    int rank;
    size_t i;
    double enter_s;
} hm__trace_member_t;

/* Every rank's collective calls, sorted by (key, seq, enter_s): a run of
 * equal (key, seq) is one call, complete when its length is the
 * communicator's size. */
typedef struct hm__trace_calls {
    hm__trace_member_t *m;
    size_t n;
} hm__trace_calls_t;

int hm__trace_calls_collect(const hm__trace_rank_t *ranks, int nranks, hm__trace_calls_t *calls);
/* The end (one past) of the run that starts at i. */
size_t hm__trace_calls_run_end(const hm__trace_calls_t *calls, size_t i);
void hm__trace_calls_free(hm__trace_calls_t *calls);

/* A message: the event that started it on its sender (a send call, a
 * Sendrecv, a start) and the one that completed it on its receiver (a
 * receive call, a Sendrecv, a request record). */
typedef struct hm__trace_match {
    int send_rank;
    size_t send_at;
    int recv_rank;
    size_t recv_at;
} hm__trace_match_t;

/* Every message matched on the records (messages.c), what was left
 * unmatched, and the clock condition: receives that completed before
 * their send started, on the interpolated global clock and on the local
 * clocks, with the largest amount (NaN: none). */
typedef struct hm__trace_messages {
    hm__trace_match_t *m;
    size_t n;
    uint64_t sends_unmatched, receives_unmatched;
    uint64_t violations, violations_local;
    double violation_max_s, violation_max_local_s;
} hm__trace_messages_t;

int hm__trace_messages_match(const hm__trace_rank_t *ranks, int nranks, hm__trace_messages_t *out);
void hm__trace_messages_free(hm__trace_messages_t *msgs);

int hm__trace_summarize(const hm__trace_rank_t *ranks, int nranks, const hm__trace_calls_t *calls,
                        const hm__trace_messages_t *msgs, hm_trace_summary_t *summary);

/* A call of the program (not a request record of HM_TRACE_CLASS_REQUEST). */
int hm__trace_is_call(const hm_trace_event_t *e);

/* Numbers as text, NUL-terminated, their length returned (format.c): v
 * with decimals digits after the point (0 to 9; "" for NaN or an infinity:
 * no value), and integers. buf holds 48 bytes. */
size_t hm__trace_fixed(char *buf, double v, int decimals);
size_t hm__trace_int(char *buf, int64_t v);
size_t hm__trace_uint(char *buf, uint64_t v);

/* dir/trace.csv and dir/trace.json, each atomically. */
int hm__trace_write_csv(const char *dir, const hm__trace_rank_t *ranks, int nranks);
int hm__trace_write_chrome(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                           const hm__trace_messages_t *msgs);

/* dir/events.csv: the calls as bench repetitions (bench --raw's schema). */
int hm__trace_write_events(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                           const hm__trace_calls_t *calls);

/* dir/otf2/traces.otf2 (a no-op in a build without OTF2). */
int hm__trace_write_otf2(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                         const hm__trace_messages_t *msgs);

#endif
