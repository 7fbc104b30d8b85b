/* src/trace/otf2_objects.c — the one-sided and MPI-IO records of a
 * rank's calls in the OTF2 archive (otf2_events.c writes the calls and
 * their messages, requests and collectives): windows, puts, gets,
 * atomics, their completions and locks; file handles and their
 * operations. */
#include <stdlib.h>
#include <string.h>

#if HM_HAVE_OTF2
#include "common/error_set.h"
#include "trace/otf2_rank.h"

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
    hm__otf2_count(rw, r);
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
            hm__otf2_count(rw, OTF2_EvtWriter_RmaOpCompleteNonBlocking(rw->w, NULL, t, win, o->id));
        else
            rw->ops[kept++] = *o;
    }
    rw->nops = kept;
}

void hm__otf2_rma_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t)
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
            hm__otf2_count(rw, OTF2_EvtWriter_RmaRequestLock(rw->w, NULL, t, win, to, id, type));
            if (room(rw, (void **)&rw->locks, rw->nlocks, &rw->caplocks, sizeof *rw->locks))
                rw->locks[rw->nlocks++] = (rma_lock_t){win, to, id, 0};
            continue;
        }
        for (size_t i = 0; i < rw->nlocks; i++) /* the one requested at entry */
            if (rw->locks[i].win == win && rw->locks[i].remote == to && !rw->locks[i].held) {
                rw->locks[i].held = 1;
                hm__otf2_count(rw, OTF2_EvtWriter_RmaAcquireLock(rw->w, NULL, t, win, to,
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
            hm__otf2_count(rw,
                           OTF2_EvtWriter_RmaReleaseLock(rw->w, NULL, t, win, l->remote, l->id));
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
void hm__otf2_write_rma(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t t, int at_exit)
{
    uint32_t c, win;
    if (at_exit && makes_window(e->func) && made(rw, e, &rw->comms->windows, &win))
        hm__otf2_count(rw, OTF2_EvtWriter_RmaWinCreate(rw->w, NULL, t, win));
    if (!rma_written(e->func) || !window(rw, e, &c, &win)) return;
    int64_t remote = hm__otf2_rank_in(&rw->comms->v[c], e->peer);
    switch (e->func) {
    case HM_TRACE_MPI_Win_fence:
        if (!at_exit) {
            hm__otf2_count(rw, OTF2_EvtWriter_RmaCollectiveBegin(rw->w, NULL, t));
            break;
        }
        rma_complete(rw, win, -1, 0, t);
        hm__otf2_count(rw, OTF2_EvtWriter_RmaCollectiveEnd(
                               rw->w, NULL, t, OTF2_COLLECTIVE_OP_BARRIER,
                               OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, win,
                               OTF2_UNDEFINED_UINT32, 0, 0));
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
            hm__otf2_count(rw, OTF2_EvtWriter_RmaWinDestroy(rw->w, NULL, t, win));
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
void hm__otf2_write_io(rank_writer_t *rw, const hm_trace_event_t *e, uint64_t in, uint64_t out)
{
    uint32_t c, h;
    OTF2_IoOperationMode mode;
    OTF2_IoOperationFlag flags;
    if (e->func == HM_TRACE_MPI_File_open && made(rw, e, &rw->comms->files, &h)) {
        OTF2_IoAccessMode access;
        OTF2_IoCreationFlag creation;
        OTF2_IoStatusFlag status;
        io_modes(e->tag, &access, &creation, &status);
        hm__otf2_count(
            rw, OTF2_EvtWriter_IoCreateHandle(rw->w, NULL, out, h, access, creation, status));
        return;
    }
    if (hm_trace_func_class(e->func) != HM_TRACE_CLASS_IO ||
        !object(rw, &rw->comms->files, e->comm_key, &c, &h))
        return;
    if (e->func == HM_TRACE_MPI_File_close && rw->comms->files.made[c]) {
        hm__otf2_count(rw, OTF2_EvtWriter_IoDestroyHandle(rw->w, NULL, out, h));
        return;
    }
    if (!io_operation(e->func, &mode, &flags)) return;
    uint64_t id = ++rw->ids;
    hm__otf2_count(rw,
                   OTF2_EvtWriter_IoOperationBegin(rw->w, NULL, in, h, mode, flags, e->bytes, id));
    if (!(flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING)) {
        hm__otf2_count(rw, OTF2_EvtWriter_IoOperationComplete(rw->w, NULL, out, h, e->bytes, id));
        return;
    }
    hm__otf2_count(rw, OTF2_EvtWriter_IoOperationIssued(rw->w, NULL, out, h, id));
    if (room(rw, (void **)&rw->io, rw->nio, &rw->capio, sizeof *rw->io))
        rw->io[rw->nio++] = (pending_op_t){h, -1, id, e->request, e->bytes};
}

void hm__otf2_io_request_completed(rank_writer_t *rw, uint64_t request, uint64_t t)
{
    for (size_t i = 0; i < rw->nio; i++) {
        if (rw->io[i].request != request) continue;
        const pending_op_t *o = &rw->io[i];
        hm__otf2_count(rw,
                       OTF2_EvtWriter_IoOperationComplete(rw->w, NULL, t, o->obj, o->bytes, o->id));
        rw->io[i] = rw->io[--rw->nio];
        return;
    }
}
#endif
