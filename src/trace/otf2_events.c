/* src/trace/otf2_events.c — the events of one rank in the OTF2 archive
 * (otf2.c writes the rest): an Enter and a Leave per call, and between
 * them the MPI records of what the call did: a message sent or received,
 * a request started or completed, a collective operation. */
#include <stdlib.h>
#include <string.h>

#if HM_HAVE_OTF2
#include "common/error_set.h"
#include "trace/otf2_impl.h"

/* ---- Events of one rank ---- */

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
static void count_record(rank_writer_t *rw, OTF2_ErrorCode e)
{
    if (rw->e == OTF2_SUCCESS) rw->e = e;
    rw->count += e == OTF2_SUCCESS;
}

static const hm_trace_event_t *origin_of(const rank_writer_t *rw, uint32_t request)
{
    const hm__trace_origin_t *o = hm__trace_requests_find(&rw->req, request);
    return o ? &o->e : NULL;
}

typedef enum p2p_kind {
    P2P_NONE,
    P2P_SEND,     /* blocking sends */
    P2P_RECV,     /* blocking receives */
    P2P_SENDRECV, /* both, the send first */
    P2P_ISEND,
    P2P_IRECV,
    P2P_SEND_INIT,
    P2P_RECV_INIT,
    P2P_START
} p2p_kind_t;

static p2p_kind_t p2p_kind(int func)
{
    switch (func) {
    case HM_TRACE_MPI_Send:
    case HM_TRACE_MPI_Ssend:
    case HM_TRACE_MPI_Bsend:
    case HM_TRACE_MPI_Rsend:
        return P2P_SEND;
    case HM_TRACE_MPI_Recv:
    case HM_TRACE_MPI_Mrecv:
        return P2P_RECV;
    case HM_TRACE_MPI_Sendrecv:
    case HM_TRACE_MPI_Sendrecv_replace:
        return P2P_SENDRECV;
    case HM_TRACE_MPI_Isend:
    case HM_TRACE_MPI_Issend:
    case HM_TRACE_MPI_Ibsend:
    case HM_TRACE_MPI_Irsend:
        return P2P_ISEND;
    case HM_TRACE_MPI_Irecv:
    case HM_TRACE_MPI_Imrecv:
        return P2P_IRECV;
    case HM_TRACE_MPI_Send_init:
    case HM_TRACE_MPI_Ssend_init:
    case HM_TRACE_MPI_Bsend_init:
    case HM_TRACE_MPI_Rsend_init:
        return P2P_SEND_INIT;
    case HM_TRACE_MPI_Recv_init:
        return P2P_RECV_INIT;
    case HM_TRACE_MPI_Start:
        return P2P_START;
    default:
        return P2P_NONE;
    }
}

/* The communicator of e in the archive (NULL: no rank described it). */
static const comm_def_t *comm_of(const rank_writer_t *rw, const hm_trace_event_t *e)
{
    return bsearch(&e->comm_key, rw->comms->v, rw->comms->n, sizeof *rw->comms->v, hm__otf2_key_is);
}

/* e's communicator and world rank peer as a rank of it, as OTF2 wants a
 * message's other side; 0 when there is none to write (MPI_PROC_NULL, a
 * source never resolved, a communicator no rank described). */
static int address(const rank_writer_t *rw, const hm_trace_event_t *e, int peer, OTF2_CommRef *comm,
                   uint32_t *rank)
{
    const comm_def_t *c = comm_of(rw, e);
    int64_t k = c ? hm__otf2_rank_in(c, peer) : -1;
    if (k < 0) return 0;
    *comm = (OTF2_CommRef)(c - rw->comms->v), *rank = (uint32_t)k;
    return 1;
}

/* A receive request o made is written (MpiIrecvRequest, then MpiIrecv or
 * MpiRequestCancelled) unless it could never match: MPI_PROC_NULL. */
static int posted(const rank_writer_t *rw, const hm_trace_event_t *o)
{
    return o->peer != -1 && comm_of(rw, o);
}

/* request, made by o (a nonblocking call or a persistent request's
 * init), started at t. */
static void request_started(rank_writer_t *rw, const hm_trace_event_t *o, uint64_t request,
                            uint64_t t)
{
    p2p_kind_t k = p2p_kind(o->func);
    OTF2_CommRef comm;
    uint32_t to;
    if ((k == P2P_ISEND || k == P2P_SEND_INIT) && address(rw, o, o->peer, &comm, &to))
        count_record(rw, OTF2_EvtWriter_MpiIsend(rw->w, NULL, t, to, comm, (uint32_t)o->tag,
                                                 o->bytes, request));
    else if ((k == P2P_IRECV || k == P2P_RECV_INIT) && posted(rw, o))
        count_record(rw, OTF2_EvtWriter_MpiIrecvRequest(rw->w, NULL, t, request));
}

/* The request of record rec completed at t: what its start wrote, closed;
 * a receive with the source, tag and bytes of its status. */
static void rma_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t);
static void io_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t);

static void request_completed(rank_writer_t *rw, const hm_trace_event_t *rec, uint64_t t)
{
    const hm_trace_event_t *o = origin_of(rw, rec->request);
    p2p_kind_t k = o ? p2p_kind(o->func) : P2P_NONE;
    if (o && (o->func == HM_TRACE_MPI_Rput || o->func == HM_TRACE_MPI_Rget))
        rma_request_completed(rw, rec->request, t);
    if (o && (o->func == HM_TRACE_MPI_File_iread || o->func == HM_TRACE_MPI_File_iwrite))
        io_request_completed(rw, rec->request, t);
    OTF2_CommRef comm;
    uint32_t from;
    if ((k == P2P_ISEND || k == P2P_SEND_INIT) && address(rw, o, o->peer, &comm, &from))
        count_record(rw, OTF2_EvtWriter_MpiIsendComplete(rw->w, NULL, t, rec->request));
    else if ((k == P2P_IRECV || k == P2P_RECV_INIT) && posted(rw, o)) {
        if (address(rw, o, rec->peer, &comm, &from))
            count_record(rw, OTF2_EvtWriter_MpiIrecv(rw->w, NULL, t, from, comm, (uint32_t)rec->tag,
                                                     rec->bytes, rec->request));
        else
            count_record(rw, OTF2_EvtWriter_MpiRequestCancelled(rw->w, NULL, t, rec->request));
    }
}

/* What call e begins at t (its entry): a blocking send, a nonblocking
 * send or receive posted, a persistent request started. */
static void call_started(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t t)
{
    p2p_kind_t k = p2p_kind(e->func);
    OTF2_CommRef comm;
    uint32_t to;
    const hm_trace_event_t *o;
    if ((k == P2P_SEND || k == P2P_SENDRECV) && address(rw, e, e->peer, &comm, &to))
        count_record(rw,
                     OTF2_EvtWriter_MpiSend(rw->w, NULL, t, to, comm, (uint32_t)e->tag, e->bytes));
    else if ((k == P2P_ISEND || k == P2P_IRECV) && e->request)
        request_started(rw, e, e->request, t);
    else if (k == P2P_START && (o = origin_of(rw, e->request)))
        request_started(rw, o, e->request, t);
}

/* What call e ends with at t (its exit): a blocking receive, from the
 * source its status named (a Sendrecv's in recv_peer, recv_tag). */
static void call_finished(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t t)
{
    p2p_kind_t k = p2p_kind(e->func);
    int sendrecv = k == P2P_SENDRECV;
    OTF2_CommRef comm;
    uint32_t from;
    if ((k == P2P_RECV || sendrecv) &&
        address(rw, e, sendrecv ? e->recv_peer : e->peer, &comm, &from))
        count_record(rw,
                     OTF2_EvtWriter_MpiRecv(rw->w, NULL, t, from, comm,
                                            (uint32_t)(sendrecv ? e->recv_tag : e->tag), e->bytes));
}

/* The request records of kind func (T_started, T_completed) that follow
 * the group's call: the requests it started or completed, at t. */
static void request_records(rank_writer_t *rw, int func, uint64_t t)
{
    for (size_t j = 1; j < rw->g.n; j++) {
        const hm_trace_event_t *rec = &rw->g.v[j].e, *o;
        if (rec->func != func) continue;
        if (func == HM_TRACE_MPI_T_completed)
            request_completed(rw, rec, t);
        else if ((o = origin_of(rw, rec->request)))
            request_started(rw, o, rec->request, t);
    }
}

/* ---- Collectives ---- */

/* The collectives OTF2 names, and the role of their regions. A
 * nonblocking collective's start is none: its region alone is written. */
typedef struct coll {
    int func;
    OTF2_CollectiveOp op;
    OTF2_RegionRole role;
} coll_t;

/* clang-format off */
#define COLL(f, o, r) {HM_TRACE_MPI_##f, OTF2_COLLECTIVE_OP_##o, OTF2_REGION_ROLE_##r}
/* clang-format on */
static const coll_t collectives[] = {
    COLL(Barrier, BARRIER, BARRIER),
    COLL(Bcast, BCAST, COLL_ONE2ALL),
    COLL(Reduce, REDUCE, COLL_ALL2ONE),
    COLL(Allreduce, ALLREDUCE, COLL_ALL2ALL),
    COLL(Gather, GATHER, COLL_ALL2ONE),
    COLL(Gatherv, GATHERV, COLL_ALL2ONE),
    COLL(Scatter, SCATTER, COLL_ONE2ALL),
    COLL(Scatterv, SCATTERV, COLL_ONE2ALL),
    COLL(Allgather, ALLGATHER, COLL_ALL2ALL),
    COLL(Allgatherv, ALLGATHERV, COLL_ALL2ALL),
    COLL(Alltoall, ALLTOALL, COLL_ALL2ALL),
    COLL(Alltoallv, ALLTOALLV, COLL_ALL2ALL),
    COLL(Alltoallw, ALLTOALLW, COLL_ALL2ALL),
    COLL(Reduce_scatter, REDUCE_SCATTER, COLL_ALL2ALL),
    COLL(Reduce_scatter_block, REDUCE_SCATTER_BLOCK, COLL_ALL2ALL),
    COLL(Scan, SCAN, COLL_OTHER),
    COLL(Exscan, EXSCAN, COLL_OTHER),
    /* Communicators made or freed by every member of the one they carry
     * (not Comm_create_group, Intercomm_create: some members only). */
    COLL(Comm_split, CREATE_HANDLE, COLL_OTHER),
    COLL(Comm_split_type, CREATE_HANDLE, COLL_OTHER),
    COLL(Comm_dup, CREATE_HANDLE, COLL_OTHER),
    COLL(Comm_dup_with_info, CREATE_HANDLE, COLL_OTHER),
    COLL(Comm_create, CREATE_HANDLE, COLL_OTHER),
    COLL(Cart_create, CREATE_HANDLE, COLL_OTHER),
    COLL(Cart_sub, CREATE_HANDLE, COLL_OTHER),
    COLL(Graph_create, CREATE_HANDLE, COLL_OTHER),
    COLL(Dist_graph_create, CREATE_HANDLE, COLL_OTHER),
    COLL(Dist_graph_create_adjacent, CREATE_HANDLE, COLL_OTHER),
    COLL(Intercomm_merge, CREATE_HANDLE, COLL_OTHER),
    COLL(Comm_free, DESTROY_HANDLE, COLL_OTHER),
};
#undef COLL

static const coll_t *coll_of(int func)
{
    for (size_t i = 0; i < sizeof collectives / sizeof *collectives; i++)
        if (collectives[i].func == func) return &collectives[i];
    return NULL;
}

/* Call e as a collective operation of the archive: one OTF2 names, numbered
 * on a communicator some rank described. */
static const coll_t *collective(const rank_writer_t *rw, const hm_trace_event_t *e,
                                OTF2_CommRef *comm)
{
    const coll_t *c = e->seq > 0 && e->comm_key != HM_TRACE_NO_COMM ? coll_of(e->func) : NULL;
    const comm_def_t *d = c ? comm_of(rw, e) : NULL;
    if (d) *comm = (OTF2_CommRef)(d - rw->comms->v);
    return d ? c : NULL;
}

static void collective_end(rank_writer_t *rw, const hm_trace_event_t *e, const coll_t *c,
                           OTF2_CommRef comm, uint64_t t)
{
    int64_t root = hm__otf2_rank_in(&rw->comms->v[comm], e->peer);
    count_record(
        rw, OTF2_EvtWriter_MpiCollectiveEnd(rw->w, NULL, t, c->op, comm,
                                            root < 0 ? OTF2_COLLECTIVE_ROOT_NONE : (uint32_t)root,
                                            e->bytes, e->bytes));
}

/* ---- One-sided ---- */

/* The window or file (objects o) keyed key: its communicator ref *c and
 * its ref among o (0: no rank described it). */
static int object(rank_writer_t *rw, object_refs_t *o, uint64_t key, uint32_t *c, uint32_t *ref)
{
    const comm_def_t *d =
        bsearch(&key, rw->comms->v, rw->comms->n, sizeof *rw->comms->v, hm__otf2_key_is);
    if (!d) return 0;
    *c = (uint32_t)(d - rw->comms->v);
    *ref = hm__otf2_object_ref(o, *c);
    return 1;
}

/* e's window: its communicator ref *c and its RmaWin ref *win. */
static int window(rank_writer_t *rw, const hm_trace_event_t *e, uint32_t *c, uint32_t *win)
{
    return object(rw, &rw->comms->windows, e->comm_key, c, win);
}

/* The window or file (among o) call e made (0: none, or no rank
 * described it), its creation's record now written: e's communicator and
 * number there name it (hm_trace_object_key). */
static int made(rank_writer_t *rw, const hm_trace_event_t *e, object_refs_t *o, uint32_t *ref)
{
    uint32_t c;
    if (!e->seq || !object(rw, o, hm_trace_object_key(e->comm_key, e->seq, 0), &c, ref)) return 0;
    o->made[c] = 1;
    return 1;
}

/* Room for one more of n items of size in *v (capacity *cap); 0 and
 * rw->st HM_ENOMEM when there is none. */
static int room(rank_writer_t *rw, void **v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap) return 1;
    size_t more = *cap ? 2 * *cap : 16;
    void *p = realloc(*v, more * size);
    if (!p) return rw->st = hm__error_nomem("hm_trace_merge"), 0;
    *v = p, *cap = more;
    return 1;
}

/* Operation e issued at t on window win to remote (a rank of it): its
 * record, and the operation kept until a synchronization or its request
 * completes it. */
static void rma_issue(rank_writer_t *rw, const hm_trace_event_t *e, uint32_t win, uint32_t remote,
                      uint64_t t)
{
    uint64_t id = ++rw->ids, b = e->bytes;
    OTF2_ErrorCode r;
    switch (e->func) {
    case HM_TRACE_MPI_Put:
    case HM_TRACE_MPI_Rput:
        r = OTF2_EvtWriter_RmaPut(rw->w, NULL, t, win, remote, b, id);
        break;
    case HM_TRACE_MPI_Get:
    case HM_TRACE_MPI_Rget:
        r = OTF2_EvtWriter_RmaGet(rw->w, NULL, t, win, remote, b, id);
        break;
    case HM_TRACE_MPI_Accumulate:
        r = OTF2_EvtWriter_RmaAtomic(rw->w, NULL, t, win, remote, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE,
                                     b, 0, id);
        break;
    case HM_TRACE_MPI_Compare_and_swap: /* the value and the one compared go, the old comes */
        r = OTF2_EvtWriter_RmaAtomic(rw->w, NULL, t, win, remote,
                                     OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, 2 * b, b, id);
        break;
    default: /* MPI_Get_accumulate, MPI_Fetch_and_op */
        r = OTF2_EvtWriter_RmaAtomic(rw->w, NULL, t, win, remote,
                                     OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, b, b, id);
    }
    count_record(rw, r);
    int by_request = e->func == HM_TRACE_MPI_Rput || e->func == HM_TRACE_MPI_Rget;
    if (room(rw, (void **)&rw->ops, rw->nops, &rw->capops, sizeof *rw->ops))
        rw->ops[rw->nops++] = (pending_op_t){win, e->peer, id, by_request ? e->request : 0, b};
}

/* The operations in flight on win to target (-1: all; request: only its
 * own) complete at t, in the order they were issued. */
static void rma_complete(rank_writer_t *rw, uint32_t win, int target, uint64_t request, uint64_t t)
{
    size_t kept = 0;
    for (size_t i = 0; i < rw->nops; i++) {
        const pending_op_t *o = &rw->ops[i];
        int done = o->obj == win && (target < 0 || o->target == target) &&
                   (!request || o->request == request);
        if (done)
            count_record(rw, OTF2_EvtWriter_RmaOpCompleteNonBlocking(rw->w, NULL, t, win, o->id));
        else
            rw->ops[kept++] = *o;
    }
    rw->nops = kept;
}

static void rma_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t)
{
    for (size_t i = 0; i < rw->nops; i++)
        if (rw->ops[i].request == request) return rma_complete(rw, rw->ops[i].obj, -1, request, t);
}

/* The locks call e asks for, on remote (a rank of win) or on every rank
 * of it (MPI_Win_lock_all, shared): requested at entry in (acquired is
 * 0), acquired at exit (acquired 1). */
static void rma_lock(rank_writer_t *rw, const hm_trace_event_t *e, uint32_t c, uint32_t win,
                     uint64_t t, int acquired)
{
    int64_t remote = hm__otf2_rank_in(&rw->comms->v[c], e->peer);
    int all = e->func == HM_TRACE_MPI_Win_lock_all, n = all ? rw->comms->v[c].size : 1;
    OTF2_LockType type = all || e->tag == 1 ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
    if (!all && remote < 0) return;
    for (int k = 0; k < n; k++) {
        uint32_t to = all ? (uint32_t)k : (uint32_t)remote;
        if (!acquired) {
            uint64_t id = ++rw->ids;
            count_record(rw, OTF2_EvtWriter_RmaRequestLock(rw->w, NULL, t, win, to, id, type));
            if (room(rw, (void **)&rw->locks, rw->nlocks, &rw->caplocks, sizeof *rw->locks))
                rw->locks[rw->nlocks++] = (rma_lock_t){win, to, id, 0};
            continue;
        }
        for (size_t i = 0; i < rw->nlocks; i++) /* the one requested at entry */
            if (rw->locks[i].win == win && rw->locks[i].remote == to && !rw->locks[i].held) {
                rw->locks[i].held = 1;
                count_record(rw, OTF2_EvtWriter_RmaAcquireLock(rw->w, NULL, t, win, to,
                                                               rw->locks[i].id, type));
                break;
            }
    }
}

/* The locks of win on remote (UINT32_MAX: all) released at t. */
static void rma_unlock(rank_writer_t *rw, uint32_t win, uint32_t remote, uint64_t t)
{
    size_t kept = 0;
    for (size_t i = 0; i < rw->nlocks; i++) {
        const rma_lock_t *l = &rw->locks[i];
        if (l->win == win && (remote == UINT32_MAX || l->remote == remote))
            count_record(rw, OTF2_EvtWriter_RmaReleaseLock(rw->w, NULL, t, win, l->remote, l->id));
        else
            rw->locks[kept++] = *l;
    }
    rw->nlocks = kept;
}

static int makes_window(int func)
{
    return func == HM_TRACE_MPI_Win_create || func == HM_TRACE_MPI_Win_allocate ||
           func == HM_TRACE_MPI_Win_allocate_shared || func == HM_TRACE_MPI_Win_create_dynamic;
}

/* Whether func has RMA records: every one-sided call but those that make
 * a window (their events carry the communicator it was made from; the
 * window's creation is written from them apart) and the exposure epochs
 * (OTF2 would need the group they name). */
static int rma_written(int func)
{
    return hm_trace_func_class(func) == HM_TRACE_CLASS_ONESIDED && !makes_window(func) &&
           func != HM_TRACE_MPI_Win_post && func != HM_TRACE_MPI_Win_start &&
           func != HM_TRACE_MPI_Win_wait;
}

/* The RMA records of one-sided call e at t, its entry (at_exit 0) or its
 * exit (1): at entry an operation issued, a fence (an RMA collective)
 * begun, a lock requested; at exit a window made, the operations a
 * synchronization completes (a fence, an epoch's end, a flush: all of
 * them, or those to its target), a fence ended, locks acquired or
 * released, a window freed. */
static void write_rma(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t t, int at_exit)
{
    uint32_t c, win;
    if (at_exit && makes_window(e->func) && made(rw, e, &rw->comms->windows, &win))
        count_record(rw, OTF2_EvtWriter_RmaWinCreate(rw->w, NULL, t, win));
    if (!rma_written(e->func) || !window(rw, e, &c, &win)) return;
    int64_t remote = hm__otf2_rank_in(&rw->comms->v[c], e->peer);
    switch (e->func) {
    case HM_TRACE_MPI_Win_fence:
        if (!at_exit) {
            count_record(rw, OTF2_EvtWriter_RmaCollectiveBegin(rw->w, NULL, t));
            break;
        }
        rma_complete(rw, win, -1, 0, t);
        count_record(rw, OTF2_EvtWriter_RmaCollectiveEnd(rw->w, NULL, t, OTF2_COLLECTIVE_OP_BARRIER,
                                                         OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                             OTF2_RMA_SYNC_LEVEL_MEMORY,
                                                         win, OTF2_UNDEFINED_UINT32, 0, 0));
        break;
    case HM_TRACE_MPI_Win_lock:
    case HM_TRACE_MPI_Win_lock_all:
        rma_lock(rw, e, c, win, t, at_exit);
        break;
    case HM_TRACE_MPI_Win_unlock:
    case HM_TRACE_MPI_Win_unlock_all:
    case HM_TRACE_MPI_Win_flush:
    case HM_TRACE_MPI_Win_flush_local:
    case HM_TRACE_MPI_Win_flush_all:
    case HM_TRACE_MPI_Win_complete:
    case HM_TRACE_MPI_Win_free:
        if (!at_exit) break;
        rma_complete(rw, win, e->peer, 0, t); /* peer -1: no target, all */
        if (e->func == HM_TRACE_MPI_Win_unlock && remote >= 0)
            rma_unlock(rw, win, (uint32_t)remote, t);
        else if (e->func == HM_TRACE_MPI_Win_unlock_all || e->func == HM_TRACE_MPI_Win_free)
            rma_unlock(rw, win, UINT32_MAX, t);
        if (e->func == HM_TRACE_MPI_Win_free && rw->comms->windows.made[c])
            count_record(rw, OTF2_EvtWriter_RmaWinDestroy(rw->w, NULL, t, win));
        break;
    default: /* an operation: put, get, an atomic, Rput, Rget */
        if (!at_exit && remote >= 0) rma_issue(rw, e, win, (uint32_t)remote, t);
    }
}

/* ---- MPI-IO ---- */

/* MPI_File_open's amode as the tracer keeps it in the tag column
 * (tools/harmonia-trace: 1 read, 2 write, 4 create, 8 exclusive, 16
 * append, 32 delete on close, 64 unique open), as OTF2's. */
static void io_modes(int tag, OTF2_IoAccessMode *access, OTF2_IoCreationFlag *creation,
                     OTF2_IoStatusFlag *status)
{
    int bits = tag < 0 ? 0 : tag;
    *access = (bits & 3) == 3   ? OTF2_IO_ACCESS_MODE_READ_WRITE
              : (bits & 2) == 2 ? OTF2_IO_ACCESS_MODE_WRITE_ONLY
                                : OTF2_IO_ACCESS_MODE_READ_ONLY;
    *creation = (bits & 4 ? OTF2_IO_CREATION_FLAG_CREATE : 0) |
                (bits & 8 ? OTF2_IO_CREATION_FLAG_EXCLUSIVE : 0) |
                (bits & 64 ? OTF2_IO_CREATION_FLAG_UNIQUE : 0);
    *status = (bits & 16 ? OTF2_IO_STATUS_FLAG_APPEND : 0) |
              (bits & 32 ? OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE : 0);
}

/* The I/O operation of func: its mode and flags; 0 for a call that is
 * none (open, close, seek, set_view). */
static int io_operation(int func, OTF2_IoOperationMode *mode, OTF2_IoOperationFlag *flags)
{
    switch (func) {
    case HM_TRACE_MPI_File_read:
    case HM_TRACE_MPI_File_read_at:
        return *mode = OTF2_IO_OPERATION_MODE_READ, *flags = OTF2_IO_OPERATION_FLAG_NONE, 1;
    case HM_TRACE_MPI_File_read_all:
    case HM_TRACE_MPI_File_read_at_all:
        return *mode = OTF2_IO_OPERATION_MODE_READ, *flags = OTF2_IO_OPERATION_FLAG_COLLECTIVE, 1;
    case HM_TRACE_MPI_File_write:
    case HM_TRACE_MPI_File_write_at:
        return *mode = OTF2_IO_OPERATION_MODE_WRITE, *flags = OTF2_IO_OPERATION_FLAG_NONE, 1;
    case HM_TRACE_MPI_File_write_all:
    case HM_TRACE_MPI_File_write_at_all:
        return *mode = OTF2_IO_OPERATION_MODE_WRITE, *flags = OTF2_IO_OPERATION_FLAG_COLLECTIVE, 1;
    case HM_TRACE_MPI_File_iread:
        return *mode = OTF2_IO_OPERATION_MODE_READ, *flags = OTF2_IO_OPERATION_FLAG_NON_BLOCKING, 1;
    case HM_TRACE_MPI_File_iwrite:
        return *mode = OTF2_IO_OPERATION_MODE_WRITE, *flags = OTF2_IO_OPERATION_FLAG_NON_BLOCKING,
               1;
    case HM_TRACE_MPI_File_sync:
        return *mode = OTF2_IO_OPERATION_MODE_FLUSH, *flags = OTF2_IO_OPERATION_FLAG_COLLECTIVE, 1;
    default:
        return 0;
    }
}

/* What MPI-IO call e from in to out did: a handle created (MPI_File_open)
 * or destroyed (MPI_File_close); an operation begun at entry and, at exit,
 * completed or (nonblocking) issued, its completion then written by the
 * wait or test that completes its request (its bytes those it asked for:
 * the trace does not keep what the status says it moved). */
static void write_io(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t in, uint64_t out)
{
    uint32_t c, h;
    OTF2_IoOperationMode mode;
    OTF2_IoOperationFlag flags;
    if (e->func == HM_TRACE_MPI_File_open && made(rw, e, &rw->comms->files, &h)) {
        OTF2_IoAccessMode access;
        OTF2_IoCreationFlag creation;
        OTF2_IoStatusFlag status;
        io_modes(e->tag, &access, &creation, &status);
        count_record(rw,
                     OTF2_EvtWriter_IoCreateHandle(rw->w, NULL, out, h, access, creation, status));
        return;
    }
    if (hm_trace_func_class(e->func) != HM_TRACE_CLASS_IO ||
        !object(rw, &rw->comms->files, e->comm_key, &c, &h))
        return;
    if (e->func == HM_TRACE_MPI_File_close && rw->comms->files.made[c]) {
        count_record(rw, OTF2_EvtWriter_IoDestroyHandle(rw->w, NULL, out, h));
        return;
    }
    if (!io_operation(e->func, &mode, &flags)) return;
    uint64_t id = ++rw->ids;
    count_record(rw,
                 OTF2_EvtWriter_IoOperationBegin(rw->w, NULL, in, h, mode, flags, e->bytes, id));
    if (!(flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING)) {
        count_record(rw, OTF2_EvtWriter_IoOperationComplete(rw->w, NULL, out, h, e->bytes, id));
        return;
    }
    count_record(rw, OTF2_EvtWriter_IoOperationIssued(rw->w, NULL, out, h, id));
    if (room(rw, (void **)&rw->io, rw->nio, &rw->capio, sizeof *rw->io))
        rw->io[rw->nio++] = (pending_op_t){h, -1, id, e->request, e->bytes};
}

static void io_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t)
{
    for (size_t i = 0; i < rw->nio; i++) {
        if (rw->io[i].request != request) continue;
        const pending_op_t *o = &rw->io[i];
        count_record(rw,
                     OTF2_EvtWriter_IoOperationComplete(rw->w, NULL, t, o->obj, o->bytes, o->id));
        rw->io[i] = rw->io[--rw->nio];
        return;
    }
}

/* ---- A call ---- */

/* The group's call from in to out, with what it did between its Enter
 * and Leave: at entry what it started, at exit what it completed. */
static void write_call(rank_writer_t *rw, uint64_t in, uint64_t out)
{
    const hm_trace_event_t *e = &rw->g.v[0].e;
    OTF2_RegionRef region = (OTF2_RegionRef)e->func;
    OTF2_CommRef comm = 0;
    const coll_t *coll = collective(rw, e, &comm);
    count_record(rw, OTF2_EvtWriter_Enter(rw->w, NULL, in, region));
    if (coll) count_record(rw, OTF2_EvtWriter_MpiCollectiveBegin(rw->w, NULL, in));
    call_started(rw, e, in);
    request_records(rw, HM_TRACE_MPI_T_started, in);
    write_rma(rw, e, in, 0);
    write_io(rw, e, in, out);
    call_finished(rw, e, out);
    request_records(rw, HM_TRACE_MPI_T_completed, out);
    write_rma(rw, e, out, 1);
    if (coll) collective_end(rw, e, coll, comm, out);
    count_record(rw, OTF2_EvtWriter_Leave(rw->w, NULL, out, region));
}

/* The group's call written, never going back in time (an affine map per
 * rank keeps the order; the rounding of two calls a nanosecond apart
 * could not), its requests known first and forgotten after. */
static int flush_group(rank_writer_t *rw)
{
    int st = HM_OK;
    for (size_t k = 0; st == HM_OK && k < rw->g.n; k++)
        st = hm__trace_requests_see(&rw->req, &rw->g.v[k].e, rw->g.v[k].i);
    if (st != HM_OK || !rw->g.n) return st;
    uint64_t in = hm__otf2_ticks(rw->g.v[0].glob[0], rw->base_s),
             out = hm__otf2_ticks(rw->g.v[0].glob[1], rw->base_s);
    in = in < rw->last ? rw->last : in;
    out = out < in ? in : out;
    rw->last = out;
    write_call(rw, in, out);
    for (size_t k = 0; k < rw->g.n; k++) hm__trace_requests_done(&rw->req, &rw->g.v[k].e);
    rw->g.n = 0;
    return HM_OK;
}

/* The writer's first failure: memory, else OTF2's. */
static int rank_status(const rank_writer_t *rw)
{
    if (rw->st != HM_OK) return rw->st;
    return rw->e == OTF2_SUCCESS ? HM_OK : hm__otf2_failed("writing the events of a rank", rw->e);
}

/* ev into the group: a call starts the next one (after the group before
 * it is written); records before a rank's first call belong to none. */
static int add(rank_writer_t *rw, const hm__trace_ev_t *ev)
{
    int call = hm__trace_is_call(&ev->e), st = HM_OK;
    if (call) st = flush_group(rw);
    if (st != HM_OK || (!call && !rw->g.n)) return st;
    if (rw->g.n == rw->g.cap) {
        size_t cap = rw->g.cap ? 2 * rw->g.cap : 16;
        hm__trace_ev_t *v = realloc(rw->g.v, cap * sizeof *v);
        if (!v) return hm__error_nomem("hm_trace_merge");
        rw->g.v = v, rw->g.cap = cap;
    }
    rw->g.v[rw->g.n++] = *ev;
    return HM_OK;
}

int hm__otf2_rank_open(OTF2_Archive *a, int r, comm_defs_t *comms, double base_s,
                       rank_writer_t **out)
{
    rank_writer_t *rw = calloc(1, sizeof *rw);
    *out = NULL;
    if (!rw) return hm__error_nomem("hm_trace_merge");
    *rw = (rank_writer_t){.comms = comms, .base_s = base_s, .e = OTF2_SUCCESS, .st = HM_OK};
    if (!(rw->w = OTF2_Archive_GetEvtWriter(a, (OTF2_LocationRef)r)))
        return free(rw), hm__otf2_none("OTF2_Archive_GetEvtWriter", r);
    *out = rw;
    return HM_OK;
}

/* The first failure stays: later events are not written. */
int hm__otf2_rank_event(rank_writer_t *rw, const hm__trace_ev_t *ev)
{
    if (rw->st != HM_OK || rw->e != OTF2_SUCCESS) return rank_status(rw);
    int st = add(rw, ev);
    return st != HM_OK ? st : rank_status(rw);
}

int hm__otf2_rank_close(OTF2_Archive *a, rank_writer_t *rw, uint64_t *count)
{
    int st = rank_status(rw);
    if (st == HM_OK) st = flush_group(rw);
    if (st == HM_OK) st = rank_status(rw);
    *count = rw->count;
    hm__trace_requests_free(&rw->req);
    free(rw->g.v);
    free(rw->ops);
    free(rw->io);
    free(rw->locks);
    OTF2_ErrorCode e = OTF2_Archive_CloseEvtWriter(a, rw->w);
    if (e != OTF2_SUCCESS && st == HM_OK) st = hm__otf2_failed("OTF2_Archive_CloseEvtWriter", e);
    free(rw);
    return st;
}

/* A region's role: a collective's from its table, else its class's. */
OTF2_RegionRole hm__otf2_region_role(int func)
{
    const coll_t *c = coll_of(func);
    if (c) return c->role;
    switch (hm_trace_func_class(func)) {
    case HM_TRACE_CLASS_P2P:
        return OTF2_REGION_ROLE_POINT2POINT;
    case HM_TRACE_CLASS_COLLECTIVE:
        return OTF2_REGION_ROLE_COLL_OTHER;
    case HM_TRACE_CLASS_ONESIDED:
        return OTF2_REGION_ROLE_RMA;
    case HM_TRACE_CLASS_IO:
        return OTF2_REGION_ROLE_FILE_IO;
    default:
        return OTF2_REGION_ROLE_FUNCTION;
    }
}
#endif
