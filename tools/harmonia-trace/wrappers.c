/* tools/harmonia-trace/wrappers.c — the MPI functions an application spends
 * time in, each timed around its PMPI_ twin: two reads of the tracer's
 * timer around the call, the bookkeeping after the second (so that it is
 * not inside the recorded interval). The first read comes before any
 * other work: after a long computation the tracer's data may be out of
 * the caches, and a miss before the read dates the entry late (the truth
 * test saw entries stamped up to 5 us after the call on a busy virtual
 * machine). Point to point, requests, collectives and communicators here;
 * neighbourhood collectives, one-sided calls and MPI-IO in
 * wrappers_more.c. MPI-3.1 C bindings; Fortran is not wrapped
 * (docs/trace.md). */
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "tracer.h"
#include "wrappers.h"

/* The source a receive or probe matched, and its tag: the status tells
 * where it asked for any. */
static int source_of(int source, const MPI_Status *status)
{
    return source == MPI_ANY_SOURCE && status != MPI_STATUS_IGNORE ? status->MPI_SOURCE : source;
}

static int tag_of(int tag, const MPI_Status *status)
{
    return tag == MPI_ANY_TAG && status != MPI_STATUS_IGNORE ? status->MPI_TAG : tag;
}

/* A call from MPI_ANY_SOURCE or with MPI_ANY_TAG whose program passes
 * MPI_STATUS_IGNORE gets the tracer's own status, so that the record names
 * the source and tag it matched (issue 30: such receives stayed "any
 * source", peer -2, and a ring could not be matched). Only that case pays
 * for it: MPI fills a status it would otherwise skip. */
#define OWN_STATUS(source, tag, status)                                                            \
    MPI_Status own_status_;                                                                        \
    if (((source) == MPI_ANY_SOURCE || (tag) == MPI_ANY_TAG) && (status) == MPI_STATUS_IGNORE)     \
    (status) = &own_status_

static void p2p(int func, double t0, double t1, MPI_Comm comm, int peer, int tag, uint64_t bytes)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), peer, bytes);
    c.tag = tag;
    hm_tracer_record(&c, t0, t1, 0);
}

/* A probe that found nothing: it may join the burst of the same probes
 * before it. */
static void poll(int func, double t0, double t1, MPI_Comm comm, int source, int tag)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), source, 0);
    c.tag = tag;
    c.poll = 1;
    hm_tracer_record(&c, t0, t1, 0);
}

/* A nonblocking point-to-point call that made *req (persistent: *_init). */
static void p2p_request(int func, double t0, double t1, int rc, MPI_Comm comm, int peer, int tag,
                        uint64_t bytes, const MPI_Request *req, int persistent)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), peer, bytes);
    c.tag = tag;
    hm_tracer_request_made(&c, t0, t1, rc, req, persistent);
}

/* What a receive got: its status's count, else what it asked for. */
static uint64_t received(int count, MPI_Datatype type, const MPI_Status *status)
{
    int n = 0;
    if (status != MPI_STATUS_IGNORE && PMPI_Get_count(status, MPI_BYTE, &n) == MPI_SUCCESS &&
        n != MPI_UNDEFINED)
        return (uint64_t)n;
    return B(count, type);
}

/* ---- MPI_Init, MPI_Finalize ---- */

HM_WRAP int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) hm_tracer_start();
    return rc;
}

HM_WRAP int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) hm_tracer_threads(*provided), hm_tracer_start();
    return rc;
}

HM_WRAP int MPI_Finalize(void)
{
    hm_tracer_stop();
    return PMPI_Finalize();
}

/* ---- Point to point ---- */

#define SEND(FUNC)                                                                                 \
    HM_WRAP int MPI_##FUNC(const void *buf, int count, MPI_Datatype type, int dest, int tag,       \
                           MPI_Comm comm)                                                          \
    {                                                                                              \
        TIMED(PMPI_##FUNC(buf, count, type, dest, tag, comm),                                      \
              p2p(HM_TRACE_MPI_##FUNC, t0_, t1_, comm, dest, tag, B(count, type)));                \
    }
SEND(Send)
SEND(Ssend)
SEND(Bsend)
SEND(Rsend)

HM_WRAP int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status)
{
    OWN_STATUS(source, tag, status);
    TIMED(PMPI_Recv(buf, count, type, source, tag, comm, status),
          p2p(HM_TRACE_MPI_Recv, t0_, t1_, comm, source_of(source, status), tag_of(tag, status),
              received(count, type, status)));
}

/* Both sides of a Sendrecv: the send in peer and tag, the receive (its
 * source and tag from the status) in recv_peer and recv_tag. */
static void sendrecv(int func, double t0, double t1, MPI_Comm comm, int dest, int stag,
                     uint64_t bytes, int source, int rtag, const MPI_Status *status)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), dest, bytes);
    c.tag = stag;
    c.recv_peer = source_of(source, status);
    c.recv_tag = tag_of(rtag, status);
    hm_tracer_record(&c, t0, t1, 0);
}

HM_WRAP int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                         void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                         MPI_Comm comm, MPI_Status *status)
{
    OWN_STATUS(source, rtag, status);
    TIMED(PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                        status),
          sendrecv(HM_TRACE_MPI_Sendrecv, t0_, t1_, comm, dest, stag, B(scount, stype), source,
                   rtag, status));
}

HM_WRAP int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                 int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    OWN_STATUS(source, rtag, status);
    TIMED(PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status),
          sendrecv(HM_TRACE_MPI_Sendrecv_replace, t0_, t1_, comm, dest, stag, B(count, type),
                   source, rtag, status));
}

#define ISEND(FUNC, PERSISTENT)                                                                    \
    HM_WRAP int MPI_##FUNC(const void *buf, int count, MPI_Datatype type, int dest, int tag,       \
                           MPI_Comm comm, MPI_Request *req)                                        \
    {                                                                                              \
        TIMED(PMPI_##FUNC(buf, count, type, dest, tag, comm, req),                                 \
              p2p_request(HM_TRACE_MPI_##FUNC, t0_, t1_, rc_, comm, dest, tag, B(count, type),     \
                          req, PERSISTENT));                                                       \
    }
ISEND(Isend, 0)
ISEND(Issend, 0)
ISEND(Ibsend, 0)
ISEND(Irsend, 0)
ISEND(Send_init, 1)
ISEND(Ssend_init, 1)
ISEND(Bsend_init, 1)
ISEND(Rsend_init, 1)

HM_WRAP int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request *req)
{
    TIMED(
        PMPI_Irecv(buf, count, type, source, tag, comm, req),
        p2p_request(HM_TRACE_MPI_Irecv, t0_, t1_, rc_, comm, source, tag, B(count, type), req, 0));
}

HM_WRAP int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                          MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Recv_init(buf, count, type, source, tag, comm, req),
          p2p_request(HM_TRACE_MPI_Recv_init, t0_, t1_, rc_, comm, source, tag, B(count, type), req,
                      1));
}

HM_WRAP int MPI_Start(MPI_Request *req)
{
    TIMED(PMPI_Start(req), hm_tracer_request_start(t0_, t1_, *req));
}

HM_WRAP int MPI_Startall(int n, MPI_Request reqs[])
{
    TIMED(PMPI_Startall(n, reqs), hm_tracer_request_startall(t0_, t1_, n, reqs));
}

HM_WRAP int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    OWN_STATUS(source, tag, status);
    TIMED(PMPI_Probe(source, tag, comm, status),
          p2p(HM_TRACE_MPI_Probe, t0_, t1_, comm, source_of(source, status), tag_of(tag, status),
              received(0, MPI_BYTE, status)));
}

HM_WRAP int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    /* Left out: no clock read at all (as MPI_Test's, above). */
    if (!hm_tracer_wants(HM_TRACE_MPI_Iprobe)) return PMPI_Iprobe(source, tag, comm, flag, status);
    OWN_STATUS(source, tag, status);
    POLLED(HM_TRACE_MPI_Iprobe, comm, source, tag, PMPI_Iprobe(source, tag, comm, flag, status),
           *flag,
           *flag ? p2p(HM_TRACE_MPI_Iprobe, t0_, t1_, comm, source_of(source, status),
                       tag_of(tag, status), received(0, MPI_BYTE, status))
                 : poll(HM_TRACE_MPI_Iprobe, t0_, t1_, comm, source, tag));
}

/* A matched probe: the message numbered, for the receive that takes it. */
static void mprobe(int func, double t0, double t1, MPI_Comm comm, int source, int tag,
                   const MPI_Status *status, MPI_Message msg)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm),
                                        source_of(source, status), received(0, MPI_BYTE, status));
    c.tag = tag_of(tag, status);
    c.request = hm_tracer_message_probed(comm, msg);
    hm_tracer_record(&c, t0, t1, 0);
}

HM_WRAP int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status)
{
    OWN_STATUS(source, tag, status);
    TIMED(PMPI_Mprobe(source, tag, comm, msg, status),
          mprobe(HM_TRACE_MPI_Mprobe, t0_, t1_, comm, source, tag, status, *msg));
}

HM_WRAP int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
                        MPI_Status *status)
{
    OWN_STATUS(source, tag, status);
    POLLED(HM_TRACE_MPI_Improbe, comm, source, tag,
           PMPI_Improbe(source, tag, comm, flag, msg, status), *flag,
           *flag ? mprobe(HM_TRACE_MPI_Improbe, t0_, t1_, comm, source, tag, status, *msg)
                 : poll(HM_TRACE_MPI_Improbe, t0_, t1_, comm, source, tag));
}

/* A receive of a probed message: its communicator and number from the
 * probe, its source and tag from the status. */
static void mrecv(double t0, double t1, MPI_Message msg, int count, MPI_Datatype type,
                  const MPI_Status *status)
{
    MPI_Comm comm;
    uint32_t id = hm_tracer_message_taken(msg, &comm);
    hm_tracer_call_t c =
        hm_tracer_call(HM_TRACE_MPI_Mrecv, HM_TRACER_COMM, HM_TRACER_HANDLE(comm),
                       source_of(MPI_ANY_SOURCE, status), received(count, type, status));
    c.tag = tag_of(MPI_ANY_TAG, status);
    c.request = id;
    hm_tracer_record(&c, t0, t1, 0);
}

HM_WRAP int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Status *status)
{
    MPI_Message m = *msg;
    OWN_STATUS(MPI_ANY_SOURCE, MPI_ANY_TAG, status);
    TIMED(PMPI_Mrecv(buf, count, type, msg, status), mrecv(t0_, t1_, m, count, type, status));
}

static void imrecv(double t0, double t1, int rc, MPI_Message msg, int count, MPI_Datatype type,
                   const MPI_Request *req)
{
    MPI_Comm comm;
    hm_tracer_message_taken(msg, &comm);
    p2p_request(HM_TRACE_MPI_Imrecv, t0, t1, rc, comm, MPI_ANY_SOURCE, MPI_ANY_TAG, B(count, type),
                req, 0);
}

HM_WRAP int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req)
{
    MPI_Message m = *msg;
    TIMED(PMPI_Imrecv(buf, count, type, msg, req), imrecv(t0_, t1_, rc_, m, count, type, req));
}

/* ---- Waits and tests: the call, then a record per request completed ---- */

enum { SMALL = 16 }; /* requests a wait takes without an allocation */

/* The scratch of a call on n requests: a copy of the handles before the
 * call (MPI sets a completed one to MPI_REQUEST_NULL), and statuses where
 * the program passes none (receives from any source read theirs). */
typedef struct scratch {
    MPI_Request small_req[SMALL], *before;
    MPI_Status small_st[SMALL], *st;
} scratch_t;

/* More than SMALL requests: the copy and the statuses allocated. */
static __attribute__((noinline)) void scratch_open_large(scratch_t *s, int n,
                                                         const MPI_Request *reqs, MPI_Status *given)
{
    s->before = malloc((size_t)n * sizeof *s->before);
    if (s->before) memcpy(s->before, reqs, (size_t)n * sizeof *s->before);
    s->st = given != MPI_STATUSES_IGNORE ? given : malloc((size_t)n * sizeof *s->st);
    if (!s->st) s->st = MPI_STATUSES_IGNORE;
}

/* Inline for SMALL requests or fewer: a traced MPI_Testany that joins a
 * burst costs this, the call and the checks (a Testany polling loop, as
 * hpcc's RandomAccess runs one). The handles are copied one by one: GCC
 * made a memcpy of their variable length, and the plain loop too, a rep
 * movsq, whose start took 30 % of such a loop's profile (perf); the empty
 * asm keeps the loop a loop. */
static inline void scratch_open(scratch_t *s, int n, const MPI_Request *reqs, MPI_Status *given)
{
    if (n > SMALL) {
        scratch_open_large(s, n, reqs, given);
        return;
    }
    s->before = s->small_req;
    for (int i = 0; i < n; i++) {
        s->before[i] = reqs[i];
        __asm__ volatile("" ::: "memory");
    }
    s->st = given != MPI_STATUSES_IGNORE ? given : s->small_st;
}

static inline void scratch_close(scratch_t *s, const MPI_Status *given)
{
    if (s->before != s->small_req) free(s->before);
    if (s->st != given && s->st != s->small_st && s->st != MPI_STATUSES_IGNORE) free(s->st);
}

/* done[0..ndone) of the copy completed (done NULL: the first ndone). */
static void finished(int func, double t0, double t1, const scratch_t *s, const int *done, int ndone)
{
    const MPI_Status *st = s->st == MPI_STATUSES_IGNORE ? NULL : s->st;
    hm_tracer_requests_completed(func, t0, t1, s->before, done, s->before ? ndone : 0, st);
}

HM_WRAP int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    double t0 = hm_tracer_now();
    if (!hm_tracer_on()) return PMPI_Wait(req, status);
    MPI_Request before = *req;
    MPI_Status own;
    if (status == MPI_STATUS_IGNORE) status = &own;
    int rc = PMPI_Wait(req, status);
    double t1 = hm_tracer_now();
    hm_tracer_requests_completed(HM_TRACE_MPI_Wait, t0, t1, &before, NULL, 1, status);
    return rc;
}

/* Whether a test of func that completes nothing joins the burst before it
 * untimed: a test's poll has no object, peer or tag (requests.c records it
 * as hm_tracer_call(func, 0, 0, NONE, 0)). */
static inline int test_joins(int func)
{
    return hm_tracer_poll_joins(func, 0, NONE, -1);
}

/* A test left out by --exclude or --include reads no clock unless it
 * completes a request, whose record needs a time (its exit: a record is
 * a mark, not an interval): a polling loop then runs at almost its own
 * speed (bench/trace_overhead.sh). The check precedes the first read,
 * for tests and probes only: a look at a 137-byte table. */
static __attribute__((noinline)) int test_timed(MPI_Request *req, int *flag, MPI_Status *status)
{
    int wanted = hm_tracer_wants(HM_TRACE_MPI_Test);
    double t0 = wanted ? hm_tracer_now() : 0;
    if (!hm_tracer_on()) return PMPI_Test(req, flag, status);
    MPI_Request before = *req;
    MPI_Status own;
    if (status == MPI_STATUS_IGNORE) status = &own;
    int rc = PMPI_Test(req, flag, status);
    if (!*flag && !wanted) return rc;
    double t1 = hm_tracer_now();
    hm_tracer_requests_completed(HM_TRACE_MPI_Test, wanted ? t0 : t1, t1, &before, NULL, *flag,
                                 status);
    return rc;
}

/* A test that joins a burst untimed (hm_tracer_poll_joins) reads no
 * timer, and if it completes a request its entry is its exit. That path
 * alone is inline, the rest (test_timed) a call: the registers the rest
 * needs were saved and restored on every poll, 7 % of a traced polling
 * loop's profile went to this wrapper (perf, bench/trace_call polling). */
HM_WRAP int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    if (!test_joins(HM_TRACE_MPI_Test)) return test_timed(req, flag, status);
    MPI_Request before = *req;
    MPI_Status own;
    if (status == MPI_STATUS_IGNORE) status = &own;
    int rc = PMPI_Test(req, flag, status);
    if (!*flag) {
        hm_tracer_poll_joined();
        return rc;
    }
    double t1 = hm_tracer_now();
    hm_tracer_requests_completed(HM_TRACE_MPI_Test, t1, t1, &before, NULL, 1, status);
    return rc;
}

/* The body of a wait or test on n requests: CALL uses s.st for the
 * statuses; DONE and NDONE say which completed (a test left out reads the
 * clock only then, as MPI_Test's). */
#define MANY(FUNC, N, REQS, STATUSES, CALL, DONE, NDONE)                                           \
    do {                                                                                           \
        int joins_ = test_joins(HM_TRACE_MPI_##FUNC); /* implies wanted_ and on */                 \
        int wanted_ = joins_ || hm_tracer_wants(HM_TRACE_MPI_##FUNC);                              \
        double t0_ = wanted_ && !joins_ ? hm_tracer_now() : 0;                                     \
        if (!joins_ && !hm_tracer_on()) return CALL(STATUSES);                                     \
        scratch_t s_;                                                                              \
        scratch_open(&s_, N, REQS, STATUSES);                                                      \
        int rc_ = CALL(s_.st);                                                                     \
        if (joins_ && !(NDONE)) {                                                                  \
            hm_tracer_poll_joined();                                                               \
        } else if (wanted_ || (NDONE)) {                                                           \
            double t1_ = hm_tracer_now();                                                          \
            finished(HM_TRACE_MPI_##FUNC, wanted_ && !joins_ ? t0_ : t1_, t1_, &s_, DONE, NDONE);  \
        }                                                                                          \
        scratch_close(&s_, STATUSES);                                                              \
        return rc_;                                                                                \
    } while (0)

HM_WRAP int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
#define CALL_(st) PMPI_Waitall(n, reqs, st)
    MANY(Waitall, n, reqs, statuses, CALL_, NULL, n);
#undef CALL_
}

HM_WRAP int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
#define CALL_(st) PMPI_Testall(n, reqs, flag, st)
    MANY(Testall, n, reqs, statuses, CALL_, NULL, *flag ? n : 0);
#undef CALL_
}

HM_WRAP int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
#define CALL_(st) PMPI_Waitany(n, reqs, index, st)
    MANY(Waitany, n, reqs, status, CALL_, index, *index != MPI_UNDEFINED);
#undef CALL_
}

HM_WRAP int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
#define CALL_(st) PMPI_Testany(n, reqs, index, flag, st)
    MANY(Testany, n, reqs, status, CALL_, index, *flag && *index != MPI_UNDEFINED);
#undef CALL_
}

HM_WRAP int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
#define CALL_(st) PMPI_Waitsome(n, reqs, outcount, indices, st)
    MANY(Waitsome, n, reqs, statuses, CALL_, indices, *outcount == MPI_UNDEFINED ? 0 : *outcount);
#undef CALL_
}

HM_WRAP int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
#define CALL_(st) PMPI_Testsome(n, reqs, outcount, indices, st)
    MANY(Testsome, n, reqs, statuses, CALL_, indices, *outcount == MPI_UNDEFINED ? 0 : *outcount);
#undef CALL_
}

HM_WRAP int MPI_Request_free(MPI_Request *req)
{
    MPI_Request before = *req;
    TIMED(PMPI_Request_free(req),
          (hm_tracer_request_freed(before),
           p2p(HM_TRACE_MPI_Request_free, t0_, t1_, MPI_COMM_NULL, HM_TRACER_NO_PEER, -1, 0)));
}

HM_WRAP int MPI_Cancel(MPI_Request *req)
{
    TIMED(PMPI_Cancel(req),
          p2p(HM_TRACE_MPI_Cancel, t0_, t1_, MPI_COMM_NULL, HM_TRACER_NO_PEER, -1, 0));
}

/* ---- Collectives (bytes: the message size as bench and OSU count it) ---- */

HM_WRAP int MPI_Barrier(MPI_Comm comm)
{
    TIMED(PMPI_Barrier(comm), coll(HM_TRACE_MPI_Barrier, t0_, t1_, comm, NONE, 0));
}

HM_WRAP int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    TIMED(PMPI_Bcast(buf, count, type, root, comm),
          coll(HM_TRACE_MPI_Bcast, t0_, t1_, comm, root, B(count, type)));
}

HM_WRAP int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       int root, MPI_Comm comm)
{
    TIMED(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm),
          coll(HM_TRACE_MPI_Reduce, t0_, t1_, comm, root, B(count, type)));
}

HM_WRAP int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    TIMED(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm),
          coll(HM_TRACE_MPI_Allreduce, t0_, t1_, comm, NONE, B(count, type)));
}

HM_WRAP int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm)
{
    TIMED(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
          coll(HM_TRACE_MPI_Gather, t0_, t1_, comm, root, B(scount, stype)));
}

HM_WRAP int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm)
{
    TIMED(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
          coll(HM_TRACE_MPI_Gatherv, t0_, t1_, comm, root, B(scount, stype)));
}

HM_WRAP int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm)
{
    TIMED(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
          coll(HM_TRACE_MPI_Scatter, t0_, t1_, comm, root, B(rcount, rtype)));
}

HM_WRAP int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm)
{
    TIMED(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
          coll(HM_TRACE_MPI_Scatterv, t0_, t1_, comm, root, B(rcount, rtype)));
}

HM_WRAP int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm),
          coll(HM_TRACE_MPI_Allgather, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           const int rcounts[], const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm)
{
    TIMED(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
          coll(HM_TRACE_MPI_Allgatherv, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm),
          coll(HM_TRACE_MPI_Alltoall, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                          MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
          coll(HM_TRACE_MPI_Alltoallv, t0_, t1_, comm, NONE,
               hm_tracer_bytes_v(scounts, hm_tracer_comm_size(comm), stype)));
}

HM_WRAP int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                          const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    TIMED(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
          coll(HM_TRACE_MPI_Alltoallw, t0_, t1_, comm, NONE, 0));
}

HM_WRAP int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm)
{
    TIMED(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm),
          coll(HM_TRACE_MPI_Reduce_scatter, t0_, t1_, comm, NONE,
               hm_tracer_bytes_v(rcounts, hm_tracer_comm_size(comm), type)));
}

HM_WRAP int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm)
{
    TIMED(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm),
          coll(HM_TRACE_MPI_Reduce_scatter_block, t0_, t1_, comm, NONE, B(rcount, type)));
}

HM_WRAP int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm)
{
    TIMED(PMPI_Scan(sbuf, rbuf, count, type, op, comm),
          coll(HM_TRACE_MPI_Scan, t0_, t1_, comm, NONE, B(count, type)));
}

HM_WRAP int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    TIMED(PMPI_Exscan(sbuf, rbuf, count, type, op, comm),
          coll(HM_TRACE_MPI_Exscan, t0_, t1_, comm, NONE, B(count, type)));
}

/* ---- Nonblocking collectives: the call, numbered; its wait completes the request ---- */

HM_WRAP int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ibarrier(comm, req),
          coll_request(HM_TRACE_MPI_Ibarrier, t0_, t1_, rc_, comm, NONE, 0, req));
}

HM_WRAP int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                       MPI_Request *req)
{
    TIMED(PMPI_Ibcast(buf, count, type, root, comm, req),
          coll_request(HM_TRACE_MPI_Ibcast, t0_, t1_, rc_, comm, root, B(count, type), req));
}

HM_WRAP int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req),
          coll_request(HM_TRACE_MPI_Ireduce, t0_, t1_, rc_, comm, root, B(count, type), req));
}

HM_WRAP int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                           MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req),
          coll_request(HM_TRACE_MPI_Iallreduce, t0_, t1_, rc_, comm, NONE, B(count, type), req));
}

HM_WRAP int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
          coll_request(HM_TRACE_MPI_Igather, t0_, t1_, rc_, comm, root, B(scount, stype), req));
}

HM_WRAP int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                         MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req),
          coll_request(HM_TRACE_MPI_Igatherv, t0_, t1_, rc_, comm, root, B(scount, stype), req));
}

HM_WRAP int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
          coll_request(HM_TRACE_MPI_Iscatter, t0_, t1_, rc_, comm, root, B(rcount, rtype), req));
}

HM_WRAP int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req),
          coll_request(HM_TRACE_MPI_Iscatterv, t0_, t1_, rc_, comm, root, B(rcount, rtype), req));
}

HM_WRAP int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Iallgather, t0_, t1_, rc_, comm, NONE, B(scount, stype), req));
}

HM_WRAP int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int rcounts[], const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Iallgatherv, t0_, t1_, rc_, comm, NONE, B(scount, stype), req));
}

HM_WRAP int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Ialltoall, t0_, t1_, rc_, comm, NONE, B(scount, stype), req));
}

HM_WRAP int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                           MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Ialltoallv, t0_, t1_, rc_, comm, NONE,
                       hm_tracer_bytes_v(scounts, hm_tracer_comm_size(comm), stype), req));
}

HM_WRAP int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                           const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                           const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                           MPI_Request *req)
{
    TIMED(
        PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req),
        coll_request(HM_TRACE_MPI_Ialltoallw, t0_, t1_, rc_, comm, NONE, 0, req));
}

HM_WRAP int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req),
          coll_request(HM_TRACE_MPI_Ireduce_scatter, t0_, t1_, rc_, comm, NONE,
                       hm_tracer_bytes_v(rcounts, hm_tracer_comm_size(comm), type), req));
}

HM_WRAP int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                      MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, req),
          coll_request(HM_TRACE_MPI_Ireduce_scatter_block, t0_, t1_, rc_, comm, NONE,
                       B(rcount, type), req));
}

HM_WRAP int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req),
          coll_request(HM_TRACE_MPI_Iscan, t0_, t1_, rc_, comm, NONE, B(count, type), req));
}

HM_WRAP int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req),
          coll_request(HM_TRACE_MPI_Iexscan, t0_, t1_, rc_, comm, NONE, B(count, type), req));
}

/* ---- Communicators: recorded as collectives of their parent, and named ---- */

#define CREATES(FUNC, PARENT, OUT, CALL)                                                           \
    TIMED(CALL, (coll(HM_TRACE_MPI_##FUNC, t0_, t1_, PARENT, NONE, 0),                             \
                 rc_ == MPI_SUCCESS ? hm_tracer_comm_created(PARENT, *(OUT)) : (void)0))

HM_WRAP int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    CREATES(Comm_split, comm, out, PMPI_Comm_split(comm, color, key, out));
}

HM_WRAP int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
    CREATES(Comm_split_type, comm, out, PMPI_Comm_split_type(comm, type, key, info, out));
}

HM_WRAP int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
    CREATES(Comm_dup, comm, out, PMPI_Comm_dup(comm, out));
}

HM_WRAP int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *out)
{
    CREATES(Comm_dup_with_info, comm, out, PMPI_Comm_dup_with_info(comm, info, out));
}

HM_WRAP int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *out)
{
    CREATES(Comm_create, comm, out, PMPI_Comm_create(comm, group, out));
}

HM_WRAP int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                            int reorder, MPI_Comm *out)
{
    CREATES(Cart_create, comm, out, PMPI_Cart_create(comm, ndims, dims, periods, reorder, out));
}

HM_WRAP int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *out)
{
    CREATES(Cart_sub, comm, out, PMPI_Cart_sub(comm, remain, out));
}

HM_WRAP int MPI_Graph_create(MPI_Comm comm, int n, const int index[], const int edges[],
                             int reorder, MPI_Comm *out)
{
    CREATES(Graph_create, comm, out, PMPI_Graph_create(comm, n, index, edges, reorder, out));
}

HM_WRAP int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                  const int dests[], const int weights[], MPI_Info info,
                                  int reorder, MPI_Comm *out)
{
    CREATES(Dist_graph_create, comm, out,
            PMPI_Dist_graph_create(comm, n, sources, degrees, dests, weights, info, reorder, out));
}

HM_WRAP int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                           const int sweights[], int outdegree, const int dests[],
                                           const int dweights[], MPI_Info info, int reorder,
                                           MPI_Comm *out)
{
    CREATES(Dist_graph_create_adjacent, comm, out,
            PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sweights, outdegree, dests,
                                            dweights, info, reorder, out));
}

HM_WRAP int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *out)
{
    CREATES(Intercomm_merge, inter, out, PMPI_Intercomm_merge(inter, high, out));
}

/* Collective over the group's members only: not numbered on the parent. */
static void create_group(double t0, double t1, int rc, MPI_Comm comm, int tag, MPI_Comm out)
{
    hm_tracer_call_t c = hm_tracer_call(HM_TRACE_MPI_Comm_create_group, HM_TRACER_COMM,
                                        HM_TRACER_HANDLE(comm), NONE, 0);
    c.tag = tag;
    hm_tracer_record(&c, t0, t1, 0);
    if (rc == MPI_SUCCESS) hm_tracer_comm_created_group(comm, tag, out);
}

HM_WRAP int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *out)
{
    TIMED(PMPI_Comm_create_group(comm, group, tag, out),
          create_group(t0_, t1_, rc_, comm, tag, *out));
}

static void intercomm(double t0, double t1, int rc, MPI_Comm local, int local_leader,
                      MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm out)
{
    coll(HM_TRACE_MPI_Intercomm_create, t0, t1, local, NONE, 0);
    if (rc == MPI_SUCCESS)
        hm_tracer_intercomm_created(local, local_leader, peer_comm, remote_leader, tag, out);
}

HM_WRAP int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer_comm,
                                 int remote_leader, int tag, MPI_Comm *out)
{
    TIMED(PMPI_Intercomm_create(local, local_leader, peer_comm, remote_leader, tag, out),
          intercomm(t0_, t1_, rc_, local, local_leader, peer_comm, remote_leader, tag, *out));
}

static void idup(double t0, double t1, int rc, MPI_Comm comm, MPI_Comm *out, const MPI_Request *req)
{
    hm_tracer_call_t c =
        hm_tracer_call(HM_TRACE_MPI_Comm_idup, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), NONE, 0);
    if (rc == MPI_SUCCESS)
        hm_tracer_request_idup(&c, t0, t1, *req, comm, out);
    else
        hm_tracer_record(&c, t0, t1, HM_TRACER_BY_CLASS);
}

HM_WRAP int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *out, MPI_Request *req)
{
    TIMED(PMPI_Comm_idup(comm, out, req), idup(t0_, t1_, rc_, comm, out, req));
}

static void comm_free(double t0, double t1, MPI_Comm c)
{
    coll(HM_TRACE_MPI_Comm_free, t0, t1, c, NONE, 0);
    hm_tracer_freed(HM_TRACER_COMM, HM_TRACER_HANDLE(c));
}

HM_WRAP int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm c = *comm;
    TIMED(PMPI_Comm_free(comm), comm_free(t0_, t1_, c));
}
