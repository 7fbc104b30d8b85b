/* tools/harmonia-trace/requests.c — the requests a traced program has
 * pending, so that the wait or test that completes one is tied to the
 * call that made it (issue 30: "waits are not linked to their requests";
 * an MPI_Irecv from any source stayed "any source"). A request gets a
 * number when it is made; the completing call is recorded, then a record
 * of class HM_TRACE_CLASS_REQUEST per request it completed, carrying that
 * number and, for a receive, the source, tag and bytes its status gives.
 * MPI reuses handles once a request completes, so a handle names a pending
 * request only: it is forgotten at completion (a persistent request at
 * MPI_Request_free). And one handle may name several pending requests:
 * Open MPI gives every send it completed at once the same (static, empty)
 * request. The table keeps them all, the oldest found first: a wait on
 * several requests completes them in the program's order, which is
 * almost always the order it made them (records of such sends, complete
 * before the wait, could otherwise be tied to the wrong one of two
 * sends; the messages are matched on the sends themselves either way). */
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

typedef struct pending {
    uint64_t handle; /* the MPI_Request's (or MPI_Message's) bits */
    int used;
    int persistent;
    int receive; /* its completion's status says the source, tag and bytes */
    hm_tracer_call_t call;
    MPI_Comm parent, *idup; /* MPI_Comm_idup: the communicator it makes, */
    uint32_t idup_call;     /* and the idup's number on its parent */
} pending_t;

static struct {
    pending_t *slot;
    size_t cap, n; /* cap a power of two, n <= cap / 2 */
    uint32_t next_id;
} reqs;

uint32_t hm_tracer_next_id(void)
{
    if (++reqs.next_id == 0) ++reqs.next_id; /* 0 is none */
    return reqs.next_id;
}

static size_t home(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (reqs.cap - 1);
}

/* The oldest entry of handle. */
static pending_t *lookup(uint64_t handle)
{
    for (size_t i = reqs.cap ? home(handle) : 0; reqs.cap && reqs.slot[i].used;
         i = (i + 1) & (reqs.cap - 1))
        if (reqs.slot[i].handle == handle) return &reqs.slot[i];
    return NULL;
}

static int grow(void)
{
    size_t old = reqs.cap;
    pending_t *was = reqs.slot;
    size_t cap = old ? 2 * old : 256;
    pending_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    reqs.slot = slot, reqs.cap = cap, reqs.n = 0;
    for (size_t i = 0; i < old; i++) {
        if (!was[i].used) continue;
        size_t j = home(was[i].handle);
        while (slot[j].used) j = (j + 1) & (cap - 1);
        slot[j] = was[i];
        reqs.n++;
    }
    free(was);
    return 0;
}

/* A new entry, after any of the same handle (linear probing keeps their
 * order, and the backward shift of forget() too). */
static pending_t *insert(uint64_t handle)
{
    if (2 * (reqs.n + 1) > reqs.cap && grow() != 0) return NULL;
    size_t i = home(handle);
    while (reqs.slot[i].used) i = (i + 1) & (reqs.cap - 1);
    reqs.n++;
    reqs.slot[i] = (pending_t){.handle = handle, .used = 1};
    return &reqs.slot[i];
}

/* Removal by backward shift: the probe chains stay whole without tombstones. */
static void forget(pending_t *p)
{
    size_t i = (size_t)(p - reqs.slot), j = i;
    reqs.slot[i].used = 0;
    reqs.n--;
    for (;;) {
        j = (j + 1) & (reqs.cap - 1);
        if (!reqs.slot[j].used) return;
        size_t k = home(reqs.slot[j].handle);
        /* slot j may move to i when its home is not in (i, j] cyclically. */
        if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j)) continue;
        reqs.slot[i] = reqs.slot[j];
        reqs.slot[j].used = 0;
        i = j;
    }
}

static int is_receive(int func)
{
    return func == HM_TRACE_MPI_Irecv || func == HM_TRACE_MPI_Recv_init ||
           func == HM_TRACE_MPI_Imrecv;
}

static pending_t *remember(hm_tracer_call_t *c, MPI_Request req, int persistent)
{
    c->request = hm_tracer_next_id();
    pending_t *p = req == MPI_REQUEST_NULL ? NULL : insert(HM_TRACER_HANDLE(req));
    if (!p) return NULL;
    p->persistent = persistent;
    p->receive = is_receive(c->func);
    p->call = *c;
    p->idup = NULL;
    return p;
}

void hm_tracer_request_created(hm_tracer_call_t *c, double t0, double t1, MPI_Request req,
                               int persistent)
{
    hm_tracer_lock();
    remember(c, req, persistent);
    hm_tracer_record_locked(c, t0, t1, HM_TRACER_BY_CLASS);
    hm_tracer_unlock();
}

void hm_tracer_request_made(hm_tracer_call_t *c, double t0, double t1, int rc,
                            const MPI_Request *req, int persistent)
{
    if (rc == MPI_SUCCESS)
        hm_tracer_request_created(c, t0, t1, *req, persistent);
    else
        hm_tracer_record(c, t0, t1, HM_TRACER_BY_CLASS);
}

void hm_tracer_request_idup(hm_tracer_call_t *c, double t0, double t1, MPI_Request req,
                            MPI_Comm parent, MPI_Comm *out)
{
    hm_tracer_lock();
    pending_t *p = remember(c, req, 0);
    hm_tracer_record_locked(c, t0, t1, HM_TRACER_BY_CLASS);
    const hm_tracer_obj_t *o = hm_tracer_find(HM_TRACER_COMM, HM_TRACER_HANDLE(parent));
    if (p && o) p->parent = parent, p->idup = out, p->idup_call = o->seq;
    hm_tracer_unlock();
}

/* The record of a request p, started or completed within [t0, t1]. */
static void record_request(int func, const pending_t *p, double t0, double t1)
{
    hm_tracer_call_t c = p->call;
    c.func = func;
    hm_tracer_record_locked(&c, t0, t1, 0);
}

void hm_tracer_request_start(double t0, double t1, MPI_Request req)
{
    hm_tracer_lock();
    pending_t *p = lookup(HM_TRACER_HANDLE(req));
    if (p) {
        record_request(HM_TRACE_MPI_Start, p, t0, t1);
    } else {
        hm_tracer_call_t c = hm_tracer_call(HM_TRACE_MPI_Start, 0, 0, HM_TRACER_NO_PEER, 0);
        hm_tracer_record_locked(&c, t0, t1, 0);
    }
    hm_tracer_unlock();
}

void hm_tracer_request_startall(double t0, double t1, int n, const MPI_Request *r)
{
    hm_tracer_lock();
    hm_tracer_call_t c = hm_tracer_call(HM_TRACE_MPI_Startall, 0, 0, HM_TRACER_NO_PEER, 0);
    hm_tracer_record_locked(&c, t0, t1, 0);
    for (int i = 0; i < n; i++) {
        pending_t *p = lookup(HM_TRACER_HANDLE(r[i]));
        if (p) record_request(HM_TRACE_MPI_T_started, p, t0, t1);
    }
    hm_tracer_unlock();
}

/* A completed receive's source, tag and bytes, as its status says. */
static void resolve(hm_tracer_call_t *c, const MPI_Status *s)
{
    int cancelled = 0, bytes = 0;
    PMPI_Test_cancelled(s, &cancelled);
    if (cancelled) {
        c->peer = HM_TRACER_NO_PEER, c->bytes = 0;
        return;
    }
    c->peer = s->MPI_SOURCE;
    c->tag = s->MPI_TAG;
    if (PMPI_Get_count(s, MPI_BYTE, &bytes) == MPI_SUCCESS && bytes != MPI_UNDEFINED)
        c->bytes = (uint64_t)bytes;
}

/* The record of p's completion (its status s: NULL none). */
static hm_tracer_call_t completion(const pending_t *p, const MPI_Status *s)
{
    hm_tracer_call_t c = p->call;
    c.func = HM_TRACE_MPI_T_completed;
    if (p->receive && s) resolve(&c, s);
    return c;
}

/* p done: forgotten unless persistent, the communicator of an idup made. */
static void done_with(pending_t *p)
{
    MPI_Comm parent = p->parent, *out = p->idup;
    uint32_t call = p->idup_call;
    if (!p->persistent) forget(p);
    /* The communicator is named by the idup's number on its parent, not
     * by where the parent's numbering is now. */
    if (out) hm_tracer_comm_created_call(parent, call, *out);
}

/* The pending request of the k-th one completed (NULL: none known). */
static pending_t *completed_at(const MPI_Request *before, const int *done, int k)
{
    int i = done ? done[k] : k;
    return before[i] == MPI_REQUEST_NULL ? NULL : lookup(HM_TRACER_HANDLE(before[i]));
}

void hm_tracer_requests_completed(int func, double t0, double t1, const MPI_Request *before,
                                  const int *done, int ndone, const MPI_Status *statuses)
{
    hm_tracer_lock();
    hm_tracer_call_t c = hm_tracer_call(func, 0, 0, HM_TRACER_NO_PEER, 0);
    c.poll = ndone == 0 && hm_tracer_is_test(func);
    /* The call's record carries the first request it completed; the
     * call is recorded first, with it or alone. */
    int called = 0;
    for (int k = 0; k < ndone; k++) {
        pending_t *p = completed_at(before, done, k);
        if (!p) continue;
        hm_tracer_call_t r = completion(p, statuses ? &statuses[k] : NULL);
        if (called || !hm_tracer_record_folded(&c, &r, t0, t1)) {
            if (!called) hm_tracer_record_locked(&c, t0, t1, 0);
            hm_tracer_record_locked(&r, t0, t1, 0);
        }
        called = 1;
        done_with(p);
    }
    if (!called) hm_tracer_record_locked(&c, t0, t1, 0);
    hm_tracer_unlock();
}

void hm_tracer_request_freed(MPI_Request req)
{
    hm_tracer_lock();
    pending_t *p = lookup(HM_TRACER_HANDLE(req));
    /* An active request freed completes unseen: MPI may give its handle
     * again. */
    if (p) forget(p);
    hm_tracer_unlock();
}

/* Messages of MPI_Mprobe share the table, their keys made odd and with the
 * top bit set: a request's handle is an aligned pointer (Open MPI) or a
 * 32-bit integer (MPICH), never such a key. */
static uint64_t message_key(MPI_Message msg)
{
    return HM_TRACER_HANDLE(msg) ^ 0x8000000000000001ull;
}

uint32_t hm_tracer_message_probed(MPI_Comm comm, MPI_Message msg)
{
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return 0;
    hm_tracer_lock();
    pending_t *p = insert(message_key(msg));
    uint32_t id = hm_tracer_next_id();
    if (p) p->call = hm_tracer_call(0, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), 0, 0);
    if (p) p->call.request = id, p->parent = comm;
    hm_tracer_unlock();
    return id;
}

uint32_t hm_tracer_message_taken(MPI_Message msg, MPI_Comm *comm)
{
    *comm = MPI_COMM_NULL;
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return 0;
    hm_tracer_lock();
    pending_t *p = lookup(message_key(msg));
    uint32_t id = 0;
    if (p) *comm = p->parent, id = p->call.request, forget(p);
    hm_tracer_unlock();
    return id;
}

void hm_tracer_requests_free(void)
{
    free(reqs.slot);
    memset(&reqs, 0, sizeof reqs);
}
