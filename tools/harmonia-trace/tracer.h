/* tools/harmonia-trace/tracer.h — the tracer's state and the calls the
 * wrappers make. One tracer per process: MPI itself is a process-wide
 * singleton, and PMPI interposition has no handle to carry state, so this
 * is the library's one piece of global mutable state outside a registry
 * (tracer.c: the recorder and clocks, and hm__tracer_hot, the part every
 * wrapper reads first; objects.c: communicators, windows and files;
 * requests.c: pending requests). */
#ifndef HM_TRACER_H
#define HM_TRACER_H

#include <stdatomic.h>
#include <stdint.h>

#include <mpi.h>

#include <harmonia/timer.h>
#include <harmonia/trace.h>

/* What every wrapped call reads before its first timer read, apart from
 * the rest of the tracer's state so that the checks below inline: a poll
 * that joins a burst costs them alone (bench/trace_overhead.sh). */
typedef struct hm_tracer_hot {
    atomic_int on;                           /* events are recorded */
    unsigned char selected[HM_TRACE_NFUNCS]; /* functions recorded */
    /* The burst of polls that is the last event, while later polls may
     * join it untimed (NULL: none; single-threaded MPI, bursts asked
     * for), the raw object, peer and tag of its calls, and the polls that
     * joined it since its exit was last read. */
    hm_trace_event_t *burst;
    int burst_func, burst_thread; /* burst's, here so that a poll's check
                                   * reads no event (-1: no burst) */
    uint64_t burst_handle;
    int burst_peer, burst_tag;
    unsigned burst_untimed;
    /* The timer as a POSIX clock read in place (hm_timer_posix_clock;
     * -1: through hm_timer_now, or no timer). */
    int clock_id;
    int64_t clock_origin_s;
} hm_tracer_hot_t;

extern hm_tracer_hot_t hm__tracer_hot;

/* The library is preloaded (harmonia trace sets LD_PRELOAD), so its
 * thread-locals can live in the static TLS block: initial-exec reads one
 * with an instruction, where the default model of a shared library calls
 * __tls_get_addr, on every wrapped call. */
#define HM_TRACER_TLS __attribute__((tls_model("initial-exec")))

/* The tracer's own MPI calls pass through untraced (1 inside them); a
 * thread's number (0: the one that initialized MPI, 1 others, -1 not
 * known yet). */
extern _Thread_local int hm__tracer_inside HM_TRACER_TLS;
extern _Thread_local int hm__tracer_thread HM_TRACER_TLS;

/* Non-zero while events are recorded: after the start synchronization of
 * MPI_Init, before the end one of MPI_Finalize, and not inside the
 * tracer's own MPI calls (the synchronizations use MPI through the same
 * symbols). */
static inline int hm_tracer_on(void)
{
    return !hm__tracer_inside && atomic_load_explicit(&hm__tracer_hot.on, memory_order_relaxed);
}

/* Whether calls of func are recorded (--include, --exclude): 1 as well
 * before MPI_Init and after MPI_Finalize. */
static inline int hm_tracer_wants(int func)
{
    return !atomic_load_explicit(&hm__tracer_hot.on, memory_order_relaxed) ||
           hm__tracer_hot.selected[func];
}

/* Local time now, on the tracer's timer (0 before MPI_Init and after
 * MPI_Finalize, when there is none): a clock_gettime source read here,
 * inline, the rest through hm_timer_now (tracer.c). A traced call reads
 * it twice; the calls down to clock_gettime were a third of a read's
 * cost (perf, bench/trace_call polling: 2.8 % of the loop against 7.1 %
 * in the vDSO's clock_gettime). */
double hm__tracer_now_timer(void);

static inline double hm_tracer_now(void)
{
    if (hm__tracer_hot.clock_id < 0) return hm__tracer_now_timer();
    struct timespec ts;
    clock_gettime((clockid_t)hm__tracer_hot.clock_id, &ts);
    return hm_timer_posix_reading(&ts, hm__tracer_hot.clock_origin_s);
}

/* One thread in the tracer's state at a time, for a program that asked
 * for MPI_THREAD_MULTIPLE (free otherwise). */
void hm_tracer_lock(void);
void hm_tracer_unlock(void);

/* peer of a call that has none (MPI_ANY_SOURCE and MPI_PROC_NULL are
 * negative ranks of their own). */
#define HM_TRACER_NO_PEER (-2147483647 - 1)

/* ---- Communicators, windows, files (objects.c) ---- */

typedef enum { HM_TRACER_COMM = 0, HM_TRACER_WIN = 1, HM_TRACER_FILE = 2 } hm_tracer_kind_t;

/* What the tracer knows of a communicator, or of a window or file (which
 * number their collectives on their own): its key, alike on every member,
 * its members as ranks of MPI_COMM_WORLD (local group, then for an
 * intercommunicator the remote one; NULL: MPI_COMM_WORLD itself). */
typedef struct hm_tracer_obj {
    int kind;
    uint64_t handle; /* the MPI handle's bits (0 once freed) */
    uint64_t key;
    uint32_t seq;  /* collectives numbered so far */
    uint32_t made; /* Comm_create_group calls on it, which only members make */
    int size;      /* all members */
    int local_size;
    int *world_ranks;
} hm_tracer_obj_t;

uint64_t hm_tracer_handle(const void *handle, size_t bytes);
#define HM_TRACER_HANDLE(h) hm_tracer_handle(&(__typeof__(h)){h}, sizeof(h))

/* The object of a live handle (NULL: not known, e.g. MPI_COMM_NULL). The
 * pointer holds until the next object is added: use it under the lock. */
hm_tracer_obj_t *hm_tracer_find(int kind, uint64_t handle);

/* A peer's rank of MPI_COMM_WORLD: for an intercommunicator a rank of the
 * remote group; -2 any source, -1 none (MPI_PROC_NULL, out of range, no
 * object). */
int hm_tracer_world_rank(const hm_tracer_obj_t *o, int peer);

/* A communicator comm created from parent by a collective call over parent
 * (split, dup, create, cart, graph, ...): its key from the parent's key and
 * the call's number there, and the first member. MPI_COMM_NULL ignored. */
void hm_tracer_comm_created(MPI_Comm parent, MPI_Comm comm);

/* The same, the lock held, named by the creating call's number call on
 * parent (MPI_Comm_idup, complete later). */
void hm_tracer_comm_created_call(MPI_Comm parent, uint32_t call, MPI_Comm comm);

/* A communicator made by MPI_Comm_create_group over group members only:
 * numbered by the parent's count of such calls and the tag. */
void hm_tracer_comm_created_group(MPI_Comm parent, int tag, MPI_Comm comm);

/* An intercommunicator from MPI_Intercomm_create: named from peer_comm's
 * key, the tag and the two leaders (the same pair on both sides). */
void hm_tracer_intercomm_created(MPI_Comm local, int local_leader, MPI_Comm peer_comm,
                                 int remote_leader, int tag, MPI_Comm comm);

/* A window or file opened collectively over comm: numbered like a
 * communicator made from it. */
void hm_tracer_win_created(MPI_Comm comm, MPI_Win win);
void hm_tracer_file_opened(MPI_Comm comm, MPI_File file);

/* An object about to be freed (kept for the model file, unbound). */
void hm_tracer_freed(int kind, uint64_t handle);

/* MPI_COMM_WORLD, the first object: key 0, its members the identity. */
void hm_tracer_objects_world(int size);

/* Every object ever known, for the model file (under no lock: at
 * MPI_Finalize only), and their release. */
hm_tracer_obj_t *hm_tracer_objects(size_t *n);
void hm_tracer_objects_free(void);

/* ---- Recording (tracer.c) ---- */

/* A call as the wrappers see it: its object (kind and handle; handle 0:
 * none, e.g. a wait), a peer as a rank of it (or HM_TRACER_NO_PEER), tag,
 * bytes; a Sendrecv's receive side in recv_peer/recv_tag (HM_TRACER_NO_PEER
 * otherwise); request, the tracer's number of a request (0: none). */
typedef struct hm_tracer_call {
    int func;
    int kind;
    uint64_t handle;
    int peer, tag;
    int recv_peer, recv_tag;
    uint64_t bytes;
    uint32_t request;
    int poll; /* an unsuccessful poll: may join the burst before it */
} hm_tracer_call_t;

/* A call with only an object, peer and bytes (the rest none). */
hm_tracer_call_t hm_tracer_call(int func, int kind, uint64_t handle, int peer, uint64_t bytes);

/* Polls that join a burst untimed read the timer at every
 * HM_TRACER_UNTIMED_MAX-th: the burst's exit is then at most that many
 * polls less one before its last one's (docs/trace.md). */
#define HM_TRACER_UNTIMED_MAX 16

/* An unsuccessful poll of func on this raw object, peer and tag (as the
 * wrapper has them: hm_tracer_call's) that would join the burst that is
 * the last event: 1 when it may do so untimed, reading no timer before the
 * call; the wrapper then calls hm_tracer_poll_joined if the poll found
 * nothing, and records a poll that did with its exit as its entry (its
 * entry was not read). 0 under MPI_THREAD_MULTIPLE, --polls each, and
 * when the last event is anything else. 1 implies that events are
 * recorded (hm_tracer_on) and func is (hm_tracer_wants): a burst is
 * opened only then and closed when recording stops. */
static inline int hm_tracer_poll_joins(int func, uint64_t handle, int peer, int tag)
{
    const hm_tracer_hot_t *h = &hm__tracer_hot;
    return h->burst_func == func && h->burst_thread == hm__tracer_thread && !hm__tracer_inside &&
           h->burst_handle == handle && h->burst_peer == peer && h->burst_tag == tag;
}

/* The burst's exit read now (tracer.c). */
void hm__tracer_poll_timed(void);

/* A burst full (UINT32_MAX calls): no poll joins it (tracer.c). */
void hm__tracer_burst_full(void);

static inline void hm_tracer_poll_joined(void)
{
    hm_tracer_hot_t *h = &hm__tracer_hot;
    if (++h->burst->calls == UINT32_MAX)
        hm__tracer_burst_full();
    else if (++h->burst_untimed >= HM_TRACER_UNTIMED_MAX)
        hm__tracer_poll_timed();
}

/* Record c, which ran from t0 to t1 (local). numbered: 1 when the call is
 * collective over its object (it takes the object's next number), 0 when
 * not, HM_TRACER_BY_CLASS: as its class says (HM_TRACE_CLASS_COLLECTIVE).
 * Takes the lock. */
#define HM_TRACER_BY_CLASS (-1)
void hm_tracer_record(const hm_tracer_call_t *c, double t0, double t1, int numbered);

/* The same, the lock already held. */
void hm_tracer_record_locked(const hm_tracer_call_t *c, double t0, double t1, int numbered);

/* A wait or test call that ran from t0 to t1 and the first request it
 * completed (completed: the request's call as made, func aside, a
 * receive's source, tag and bytes from its status) in one record: the
 * request's fields under the call's function (include/harmonia/trace.h,
 * hm_trace_event_t; the merge parts them again). A completing call
 * wrote two records of 64 bytes where most complete one request; one
 * saves the second's work and its bytes (bench/trace_overhead.sh). 0
 * when the call or the request record is left out (--include,
 * --exclude, --during-s): then the caller records them apart. The lock
 * held. */
int hm_tracer_record_folded(const hm_tracer_call_t *call, const hm_tracer_call_t *completed,
                            double t0, double t1);

/* count elements of type, in bytes (0 for MPI_DATATYPE_NULL). */
uint64_t hm_tracer_bytes(int count, MPI_Datatype type);

/* The sum of counts[0..n) elements of type, in bytes. */
uint64_t hm_tracer_bytes_v(const int *counts, int n, MPI_Datatype type);

/* The size of comm (0 when it cannot be told). */
int hm_tracer_comm_size(MPI_Comm comm);

/* ---- Requests (requests.c) ---- */

/* A new request number (never 0), and one for an MPI_Message. */
uint32_t hm_tracer_next_id(void);

/* A nonblocking call created *req: recorded as c with c->request a new
 * number, and remembered with what it carries (persistent: *_init, kept
 * across completions). */
void hm_tracer_request_created(hm_tracer_call_t *c, double t0, double t1, MPI_Request req,
                               int persistent);

/* The same when the call succeeded (rc MPI_SUCCESS), else c recorded as
 * a call that made nothing. */
void hm_tracer_request_made(hm_tracer_call_t *c, double t0, double t1, int rc,
                            const MPI_Request *req, int persistent);

/* MPI_Comm_idup: *out becomes a communicator when req completes. */
void hm_tracer_request_idup(hm_tracer_call_t *c, double t0, double t1, MPI_Request req,
                            MPI_Comm parent, MPI_Comm *out);

/* MPI_Start of req: recorded with the request's peer, tag and bytes. */
void hm_tracer_request_start(double t0, double t1, MPI_Request req);

/* MPI_Startall: one call, a started record a request. */
void hm_tracer_request_startall(double t0, double t1, int n, const MPI_Request *reqs);

/* The requests before[i], i in done[0..ndone) (done NULL: 0..ndone), completed by the call func
 * that ran from t0 to t1 (statuses[k] the status of done[k]'s request;
 * NULL: none, MPI_STATUSES_IGNORE with no receive to resolve): the call, then a completed record
 * each (a receive's peer, tag and bytes read from its status). */
void hm_tracer_requests_completed(int func, double t0, double t1, const MPI_Request *before,
                                  const int *done, int ndone, const MPI_Status *statuses);

/* MPI_Test, _Testall, _Testany, _Testsome. */
int hm_tracer_is_test(int func);

/* MPI_Request_free: forget the request. */
void hm_tracer_request_freed(MPI_Request req);

/* An MPI_Message from a probe of comm, numbered, for the receive that
 * takes it (0: none); and the receive taking it (the message's comm). */
uint32_t hm_tracer_message_probed(MPI_Comm comm, MPI_Message msg);
uint32_t hm_tracer_message_taken(MPI_Message msg, MPI_Comm *comm);

void hm_tracer_requests_free(void);

/* ---- Lifetime ---- */

/* The thread level MPI_Init_thread was asked for (before hm_tracer_start). */
void hm_tracer_threads(int required);

/* MPI_Init's and MPI_Finalize's own work, around PMPI's. */
void hm_tracer_start(void);
void hm_tracer_stop(void);

#endif
