/* src/trace/otf2_events.c — the events of one rank in the OTF2 archive
 * (otf2.c writes the rest): an Enter and a Leave per call, and between
 * them the MPI records of what the call did: a message sent or received,
 * a request started or completed, a collective operation. */
#include <stdlib.h>
#include <string.h>

#if HM_HAVE_OTF2
#include "common/error_set.h"
#include "trace/otf2_rank.h"

/* ---- Events of one rank ---- */

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
        hm__otf2_count(rw, OTF2_EvtWriter_MpiIsend(rw->w, NULL, t, to, comm, (uint32_t)o->tag,
                                                   o->bytes, request));
    else if ((k == P2P_IRECV || k == P2P_RECV_INIT) && posted(rw, o))
        hm__otf2_count(rw, OTF2_EvtWriter_MpiIrecvRequest(rw->w, NULL, t, request));
}

/* The request of record rec completed at t: what its start wrote, closed;
 * a receive with the source, tag and bytes of its status. */

static void request_completed(rank_writer_t *rw, const hm_trace_event_t *rec, uint64_t t)
{
    const hm_trace_event_t *o = origin_of(rw, rec->request);
    p2p_kind_t k = o ? p2p_kind(o->func) : P2P_NONE;
    if (o && (o->func == HM_TRACE_MPI_Rput || o->func == HM_TRACE_MPI_Rget))
        hm__otf2_rma_request_completed(rw, rec->request, t);
    if (o && (o->func == HM_TRACE_MPI_File_iread || o->func == HM_TRACE_MPI_File_iwrite))
        hm__otf2_io_request_completed(rw, rec->request, t);
    OTF2_CommRef comm;
    uint32_t from;
    if ((k == P2P_ISEND || k == P2P_SEND_INIT) && address(rw, o, o->peer, &comm, &from))
        hm__otf2_count(rw, OTF2_EvtWriter_MpiIsendComplete(rw->w, NULL, t, rec->request));
    else if ((k == P2P_IRECV || k == P2P_RECV_INIT) && posted(rw, o)) {
        if (address(rw, o, rec->peer, &comm, &from))
            hm__otf2_count(rw,
                           OTF2_EvtWriter_MpiIrecv(rw->w, NULL, t, from, comm, (uint32_t)rec->tag,
                                                   rec->bytes, rec->request));
        else
            hm__otf2_count(rw, OTF2_EvtWriter_MpiRequestCancelled(rw->w, NULL, t, rec->request));
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
        hm__otf2_count(
            rw, OTF2_EvtWriter_MpiSend(rw->w, NULL, t, to, comm, (uint32_t)e->tag, e->bytes));
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
        hm__otf2_count(rw, OTF2_EvtWriter_MpiRecv(rw->w, NULL, t, from, comm,
                                                  (uint32_t)(sendrecv ? e->recv_tag : e->tag),
                                                  e->bytes));
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
    hm__otf2_count(
        rw, OTF2_EvtWriter_MpiCollectiveEnd(rw->w, NULL, t, c->op, comm,
                                            root < 0 ? OTF2_COLLECTIVE_ROOT_NONE : (uint32_t)root,
                                            e->bytes, e->bytes));
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
    hm__otf2_count(rw, OTF2_EvtWriter_Enter(rw->w, NULL, in, region));
    if (coll) hm__otf2_count(rw, OTF2_EvtWriter_MpiCollectiveBegin(rw->w, NULL, in));
    call_started(rw, e, in);
    request_records(rw, HM_TRACE_MPI_T_started, in);
    hm__otf2_write_rma(rw, e, in, 0);
    hm__otf2_write_io(rw, e, in, out);
    call_finished(rw, e, out);
    request_records(rw, HM_TRACE_MPI_T_completed, out);
    hm__otf2_write_rma(rw, e, out, 1);
    if (coll) collective_end(rw, e, coll, comm, out);
    hm__otf2_count(rw, OTF2_EvtWriter_Leave(rw->w, NULL, out, region));
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
