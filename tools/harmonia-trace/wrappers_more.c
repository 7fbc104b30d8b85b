/* tools/harmonia-trace/wrappers_more.c — neighbourhood collectives,
 * one-sided communication and MPI-IO, timed as wrappers.c times the rest.
 * A window or a file numbers its own collective calls (fence, free, the
 * _all reads and writes), as a communicator does; a put, get or lock
 * names its target as a rank of MPI_COMM_WORLD. */
#include <mpi.h>

#include "tracer.h"
#include "wrappers.h"

/* ---- Neighbourhood collectives (bytes: a rank's block, as alltoall) ---- */

/* The total of a v-variant's counts over the communicator's out-neighbours. */
static uint64_t neighbours_bytes(MPI_Comm comm, const int *counts, MPI_Datatype type)
{
    int topo = MPI_UNDEFINED, in = 0, out = 0, weighted = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(comm, &out);
        out *= 2;
    } else if (topo == MPI_GRAPH) {
        int rank;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &out);
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    }
    return hm_tracer_bytes_v(counts, out, type);
}

HM_WRAP int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                   int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm),
          coll(HM_TRACE_MPI_Neighbor_allgather, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                                    MPI_Comm comm)
{
    TIMED(PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
          coll(HM_TRACE_MPI_Neighbor_allgatherv, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm),
          coll(HM_TRACE_MPI_Neighbor_alltoall, t0_, t1_, comm, NONE, B(scount, stype)));
}

HM_WRAP int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    TIMED(
        PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
        coll(HM_TRACE_MPI_Neighbor_alltoallv, t0_, t1_, comm, NONE,
             neighbours_bytes(comm, scounts, stype)));
}

HM_WRAP int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                                   MPI_Comm comm)
{
    TIMED(PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                  comm),
          coll(HM_TRACE_MPI_Neighbor_alltoallw, t0_, t1_, comm, NONE, 0));
}

HM_WRAP int MPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                    int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Ineighbor_allgather, t0_, t1_, rc_, comm, NONE,
                       B(scount, stype), req));
}

HM_WRAP int MPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                     const int rcounts[], const int displs[], MPI_Datatype rtype,
                                     MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ineighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Ineighbor_allgatherv, t0_, t1_, rc_, comm, NONE,
                       B(scount, stype), req));
}

HM_WRAP int MPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                   int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
          coll_request(HM_TRACE_MPI_Ineighbor_alltoall, t0_, t1_, rc_, comm, NONE, B(scount, stype),
                       req));
}

HM_WRAP int MPI_Ineighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                                    MPI_Datatype stype, void *rbuf, const int rcounts[],
                                    const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                                    MPI_Request *req)
{
    TIMED(PMPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                   comm, req),
          coll_request(HM_TRACE_MPI_Ineighbor_alltoallv, t0_, t1_, rc_, comm, NONE,
                       neighbours_bytes(comm, scounts, stype), req));
}

HM_WRAP int MPI_Ineighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                                    const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                                    const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                                    MPI_Comm comm, MPI_Request *req)
{
    TIMED(PMPI_Ineighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                   comm, req),
          coll_request(HM_TRACE_MPI_Ineighbor_alltoallw, t0_, t1_, rc_, comm, NONE, 0, req));
}

/* ---- One-sided: windows ---- */

static void win_made(int func, double t0, double t1, int rc, MPI_Comm comm, MPI_Win win)
{
    coll(func, t0, t1, comm, NONE, 0);
    if (rc == MPI_SUCCESS) hm_tracer_win_created(comm, win);
}

HM_WRAP int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                           MPI_Win *win)
{
    TIMED(PMPI_Win_create(base, size, disp_unit, info, comm, win),
          win_made(HM_TRACE_MPI_Win_create, t0_, t1_, rc_, comm, *win));
}

HM_WRAP int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    TIMED(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win),
          win_made(HM_TRACE_MPI_Win_allocate, t0_, t1_, rc_, comm, *win));
}

HM_WRAP int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                    void *baseptr, MPI_Win *win)
{
    TIMED(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win),
          win_made(HM_TRACE_MPI_Win_allocate_shared, t0_, t1_, rc_, comm, *win));
}

HM_WRAP int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    TIMED(PMPI_Win_create_dynamic(info, comm, win),
          win_made(HM_TRACE_MPI_Win_create_dynamic, t0_, t1_, rc_, comm, *win));
}

/* A call on a window: target a rank of its group (or NONE); numbered when
 * collective over the window's group. */
static void on_win(int func, double t0, double t1, MPI_Win win, int target, uint64_t bytes,
                   int collective)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_WIN, HM_TRACER_HANDLE(win), target, bytes);
    hm_tracer_record(&c, t0, t1, collective);
}

static void win_freed(double t0, double t1, MPI_Win win)
{
    on_win(HM_TRACE_MPI_Win_free, t0, t1, win, NONE, 0, 1);
    hm_tracer_freed(HM_TRACER_WIN, HM_TRACER_HANDLE(win));
}

HM_WRAP int MPI_Win_free(MPI_Win *win)
{
    MPI_Win w = *win;
    TIMED(PMPI_Win_free(win), win_freed(t0_, t1_, w));
}

/* ---- One-sided: communication (bytes: the origin buffer's) ---- */

HM_WRAP int MPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp,
                    int tcount, MPI_Datatype ttype, MPI_Win win)
{
    TIMED(PMPI_Put(obuf, ocount, otype, target, tdisp, tcount, ttype, win),
          on_win(HM_TRACE_MPI_Put, t0_, t1_, win, target, B(ocount, otype), 0));
}

HM_WRAP int MPI_Get(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp,
                    int tcount, MPI_Datatype ttype, MPI_Win win)
{
    TIMED(PMPI_Get(obuf, ocount, otype, target, tdisp, tcount, ttype, win),
          on_win(HM_TRACE_MPI_Get, t0_, t1_, win, target, B(ocount, otype), 0));
}

HM_WRAP int MPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype, int target,
                           MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
    TIMED(PMPI_Accumulate(obuf, ocount, otype, target, tdisp, tcount, ttype, op, win),
          on_win(HM_TRACE_MPI_Accumulate, t0_, t1_, win, target, B(ocount, otype), 0));
}

HM_WRAP int MPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf,
                               int rcount, MPI_Datatype rtype, int target, MPI_Aint tdisp,
                               int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
    TIMED(PMPI_Get_accumulate(obuf, ocount, otype, rbuf, rcount, rtype, target, tdisp, tcount,
                              ttype, op, win),
          on_win(HM_TRACE_MPI_Get_accumulate, t0_, t1_, win, target, B(ocount, otype), 0));
}

HM_WRAP int MPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype type, int target,
                             MPI_Aint tdisp, MPI_Op op, MPI_Win win)
{
    TIMED(PMPI_Fetch_and_op(obuf, rbuf, type, target, tdisp, op, win),
          on_win(HM_TRACE_MPI_Fetch_and_op, t0_, t1_, win, target, B(1, type), 0));
}

HM_WRAP int MPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type,
                                 int target, MPI_Aint tdisp, MPI_Win win)
{
    TIMED(PMPI_Compare_and_swap(obuf, cbuf, rbuf, type, target, tdisp, win),
          on_win(HM_TRACE_MPI_Compare_and_swap, t0_, t1_, win, target, B(1, type), 0));
}

/* A request-based put or get: its request tied to the wait that completes it. */
static void win_request(int func, double t0, double t1, int rc, MPI_Win win, int target,
                        uint64_t bytes, const MPI_Request *req)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_WIN, HM_TRACER_HANDLE(win), target, bytes);
    hm_tracer_request_made(&c, t0, t1, rc, req, 0);
}

HM_WRAP int MPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp,
                     int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
    TIMED(PMPI_Rput(obuf, ocount, otype, target, tdisp, tcount, ttype, win, req),
          win_request(HM_TRACE_MPI_Rput, t0_, t1_, rc_, win, target, B(ocount, otype), req));
}

HM_WRAP int MPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp,
                     int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
    TIMED(PMPI_Rget(obuf, ocount, otype, target, tdisp, tcount, ttype, win, req),
          win_request(HM_TRACE_MPI_Rget, t0_, t1_, rc_, win, target, B(ocount, otype), req));
}

/* ---- One-sided: synchronization ---- */

HM_WRAP int MPI_Win_fence(int assert_, MPI_Win win)
{
    TIMED(PMPI_Win_fence(assert_, win), on_win(HM_TRACE_MPI_Win_fence, t0_, t1_, win, NONE, 0, 1));
}

/* A lock's type in the tag column: 1 shared, 0 exclusive (OTF2's lock
 * records need it). */
static void win_locked(double t0, double t1, MPI_Win win, int rank, int type)
{
    hm_tracer_call_t c =
        hm_tracer_call(HM_TRACE_MPI_Win_lock, HM_TRACER_WIN, HM_TRACER_HANDLE(win), rank, 0);
    c.tag = type == MPI_LOCK_SHARED;
    hm_tracer_record(&c, t0, t1, 0);
}

HM_WRAP int MPI_Win_lock(int type, int rank, int assert_, MPI_Win win)
{
    TIMED(PMPI_Win_lock(type, rank, assert_, win), win_locked(t0_, t1_, win, rank, type));
}

HM_WRAP int MPI_Win_unlock(int rank, MPI_Win win)
{
    TIMED(PMPI_Win_unlock(rank, win), on_win(HM_TRACE_MPI_Win_unlock, t0_, t1_, win, rank, 0, 0));
}

HM_WRAP int MPI_Win_lock_all(int assert_, MPI_Win win)
{
    TIMED(PMPI_Win_lock_all(assert_, win),
          on_win(HM_TRACE_MPI_Win_lock_all, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_unlock_all(MPI_Win win)
{
    TIMED(PMPI_Win_unlock_all(win), on_win(HM_TRACE_MPI_Win_unlock_all, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_flush(int rank, MPI_Win win)
{
    TIMED(PMPI_Win_flush(rank, win), on_win(HM_TRACE_MPI_Win_flush, t0_, t1_, win, rank, 0, 0));
}

HM_WRAP int MPI_Win_flush_all(MPI_Win win)
{
    TIMED(PMPI_Win_flush_all(win), on_win(HM_TRACE_MPI_Win_flush_all, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_flush_local(int rank, MPI_Win win)
{
    TIMED(PMPI_Win_flush_local(rank, win),
          on_win(HM_TRACE_MPI_Win_flush_local, t0_, t1_, win, rank, 0, 0));
}

HM_WRAP int MPI_Win_post(MPI_Group group, int assert_, MPI_Win win)
{
    TIMED(PMPI_Win_post(group, assert_, win),
          on_win(HM_TRACE_MPI_Win_post, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_start(MPI_Group group, int assert_, MPI_Win win)
{
    TIMED(PMPI_Win_start(group, assert_, win),
          on_win(HM_TRACE_MPI_Win_start, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_complete(MPI_Win win)
{
    TIMED(PMPI_Win_complete(win), on_win(HM_TRACE_MPI_Win_complete, t0_, t1_, win, NONE, 0, 0));
}

HM_WRAP int MPI_Win_wait(MPI_Win win)
{
    TIMED(PMPI_Win_wait(win), on_win(HM_TRACE_MPI_Win_wait, t0_, t1_, win, NONE, 0, 0));
}

/* ---- MPI-IO (bytes: the buffer read or written) ---- */

static void on_file(int func, double t0, double t1, MPI_File fh, uint64_t bytes, int collective)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_FILE, HM_TRACER_HANDLE(fh), NONE, bytes);
    hm_tracer_record(&c, t0, t1, collective);
}

/* amode in the tag column, alike in every MPI (OTF2's handle records
 * need it): 1 read, 2 write, 4 create, 8 exclusive, 16 append, 32 delete
 * on close, 64 unique open. */
static int amode_bits(int amode)
{
    return ((amode & (MPI_MODE_RDONLY | MPI_MODE_RDWR)) ? 1 : 0) |
           ((amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)) ? 2 : 0) |
           ((amode & MPI_MODE_CREATE) ? 4 : 0) | ((amode & MPI_MODE_EXCL) ? 8 : 0) |
           ((amode & MPI_MODE_APPEND) ? 16 : 0) | ((amode & MPI_MODE_DELETE_ON_CLOSE) ? 32 : 0) |
           ((amode & MPI_MODE_UNIQUE_OPEN) ? 64 : 0);
}

static void file_opened(double t0, double t1, int rc, MPI_Comm comm, int amode, MPI_File fh)
{
    hm_tracer_call_t c =
        hm_tracer_call(HM_TRACE_MPI_File_open, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), NONE, 0);
    c.tag = amode_bits(amode);
    hm_tracer_record(&c, t0, t1, 1);
    if (rc == MPI_SUCCESS) hm_tracer_file_opened(comm, fh);
}

HM_WRAP int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh)
{
    TIMED(PMPI_File_open(comm, name, amode, info, fh),
          file_opened(t0_, t1_, rc_, comm, amode, *fh));
}

static void file_closed(double t0, double t1, MPI_File fh)
{
    on_file(HM_TRACE_MPI_File_close, t0, t1, fh, 0, 1);
    hm_tracer_freed(HM_TRACER_FILE, HM_TRACER_HANDLE(fh));
}

HM_WRAP int MPI_File_close(MPI_File *fh)
{
    MPI_File f = *fh;
    TIMED(PMPI_File_close(fh), file_closed(t0_, t1_, f));
}

#define FILE_RW(FUNC, BUF, COLLECTIVE)                                                             \
    HM_WRAP int MPI_File_##FUNC(MPI_File fh, BUF buf, int count, MPI_Datatype type,                \
                                MPI_Status *status)                                                \
    {                                                                                              \
        TIMED(PMPI_File_##FUNC(fh, buf, count, type, status),                                      \
              on_file(HM_TRACE_MPI_File_##FUNC, t0_, t1_, fh, B(count, type), COLLECTIVE));        \
    }
#define FILE_RW_AT(FUNC, BUF, COLLECTIVE)                                                          \
    HM_WRAP int MPI_File_##FUNC(MPI_File fh, MPI_Offset offset, BUF buf, int count,                \
                                MPI_Datatype type, MPI_Status *status)                             \
    {                                                                                              \
        TIMED(PMPI_File_##FUNC(fh, offset, buf, count, type, status),                              \
              on_file(HM_TRACE_MPI_File_##FUNC, t0_, t1_, fh, B(count, type), COLLECTIVE));        \
    }
FILE_RW(read, void *, 0)
FILE_RW(write, const void *, 0)
FILE_RW(read_all, void *, 1)
FILE_RW(write_all, const void *, 1)
FILE_RW_AT(read_at, void *, 0)
FILE_RW_AT(write_at, const void *, 0)
FILE_RW_AT(read_at_all, void *, 1)
FILE_RW_AT(write_at_all, const void *, 1)

static void file_request(int func, double t0, double t1, int rc, MPI_File fh, uint64_t bytes,
                         const MPI_Request *req)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_FILE, HM_TRACER_HANDLE(fh), NONE, bytes);
    hm_tracer_request_made(&c, t0, t1, rc, req, 0);
}

HM_WRAP int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype type, MPI_Request *req)
{
    TIMED(PMPI_File_iread(fh, buf, count, type, req),
          file_request(HM_TRACE_MPI_File_iread, t0_, t1_, rc_, fh, B(count, type), req));
}

HM_WRAP int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype type,
                            MPI_Request *req)
{
    TIMED(PMPI_File_iwrite(fh, buf, count, type, req),
          file_request(HM_TRACE_MPI_File_iwrite, t0_, t1_, rc_, fh, B(count, type), req));
}

HM_WRAP int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    TIMED(PMPI_File_seek(fh, offset, whence), on_file(HM_TRACE_MPI_File_seek, t0_, t1_, fh, 0, 0));
}

HM_WRAP int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                              MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
    TIMED(PMPI_File_set_view(fh, disp, etype, filetype, datarep, info),
          on_file(HM_TRACE_MPI_File_set_view, t0_, t1_, fh, 0, 1));
}

HM_WRAP int MPI_File_sync(MPI_File fh)
{
    TIMED(PMPI_File_sync(fh), on_file(HM_TRACE_MPI_File_sync, t0_, t1_, fh, 0, 1));
}
