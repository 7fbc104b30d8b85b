/* tools/harmonia-trace/wrappers.c — the MPI functions an application spends
 * time in, each timed around its PMPI_ twin: two reads of the tracer's
 * timer around the call, the bookkeeping after the second (so that it is
 * not inside the recorded interval). The first read comes before any
 * other work: after a long computation the tracer's data may be out of
 * the caches, and a miss before the read dates the entry late (the truth
 * test saw entries stamped up to 5 us after the call on a busy virtual
 * machine). MPI-3.1 C bindings; Fortran is not
 * wrapped (docs/trace.md). */
#include <mpi.h>

#include "tracer.h"

#define TRACED(FUNC, COMM, PEER, BYTES, CALL)                                                      \
    do {                                                                                           \
        double t0_ = hm_tracer_now();                                                              \
        if (!hm_tracer_on()) return CALL;                                                          \
        int rc_ = CALL;                                                                            \
        double t1_ = hm_tracer_now();                                                              \
        hm_tracer_record(HM_TRACE_MPI_##FUNC, t0_, t1_, COMM, PEER, BYTES);                        \
        return rc_;                                                                                \
    } while (0)

/* The wrappers are all libharmonia-trace.so exports (C_VISIBILITY_PRESET
 * hidden for the rest). */
#define HM_WRAP __attribute__((visibility("default")))

#define NONE           HM_TRACER_NO_PEER
#define B(count, type) hm_tracer_bytes(count, type)

/* The source a receive or probe matched: the status tells where it asked
 * for any. */
static int source_of(int source, const MPI_Status *status)
{
    return source == MPI_ANY_SOURCE && status != MPI_STATUS_IGNORE ? status->MPI_SOURCE : source;
}

/* A call from MPI_ANY_SOURCE whose program passes MPI_STATUS_IGNORE gets
 * the tracer's own status, so that the record names the source it matched
 * (issue 30: such receives stayed "any source", peer -2, and a ring could
 * not be matched). Only that case pays for it: MPI fills a status it would
 * otherwise skip. */
#define OWN_STATUS(source, status)                                                                 \
    MPI_Status own_status_;                                                                        \
    if ((source) == MPI_ANY_SOURCE && (status) == MPI_STATUS_IGNORE) (status) = &own_status_

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

HM_WRAP int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm)
{
    TRACED(Send, comm, dest, B(count, type), PMPI_Send(buf, count, type, dest, tag, comm));
}

HM_WRAP int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    TRACED(Ssend, comm, dest, B(count, type), PMPI_Ssend(buf, count, type, dest, tag, comm));
}

HM_WRAP int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    TRACED(Bsend, comm, dest, B(count, type), PMPI_Bsend(buf, count, type, dest, tag, comm));
}

HM_WRAP int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    TRACED(Rsend, comm, dest, B(count, type), PMPI_Rsend(buf, count, type, dest, tag, comm));
}

HM_WRAP int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status)
{
    OWN_STATUS(source, status);
    TRACED(Recv, comm, source_of(source, status), B(count, type),
           PMPI_Recv(buf, count, type, source, tag, comm, status));
}

HM_WRAP int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                         void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                         MPI_Comm comm, MPI_Status *status)
{
    TRACED(Sendrecv, comm, dest, B(scount, stype),
           PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                         status));
}

HM_WRAP int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                                 int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    TRACED(Sendrecv_replace, comm, dest, B(count, type),
           PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status));
}

HM_WRAP int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, MPI_Request *req)
{
    TRACED(Isend, comm, dest, B(count, type), PMPI_Isend(buf, count, type, dest, tag, comm, req));
}

HM_WRAP int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                       MPI_Comm comm, MPI_Request *req)
{
    TRACED(Issend, comm, dest, B(count, type), PMPI_Issend(buf, count, type, dest, tag, comm, req));
}

HM_WRAP int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                       MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ibsend, comm, dest, B(count, type), PMPI_Ibsend(buf, count, type, dest, tag, comm, req));
}

HM_WRAP int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                       MPI_Comm comm, MPI_Request *req)
{
    TRACED(Irsend, comm, dest, B(count, type), PMPI_Irsend(buf, count, type, dest, tag, comm, req));
}

HM_WRAP int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request *req)
{
    TRACED(Irecv, comm, source, B(count, type),
           PMPI_Irecv(buf, count, type, source, tag, comm, req));
}

HM_WRAP int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    OWN_STATUS(source, status);
    TRACED(Probe, comm, source_of(source, status), 0, PMPI_Probe(source, tag, comm, status));
}

HM_WRAP int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    OWN_STATUS(source, status);
    TRACED(Iprobe, comm, *flag ? source_of(source, status) : source, 0,
           PMPI_Iprobe(source, tag, comm, flag, status));
}

HM_WRAP int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status)
{
    OWN_STATUS(source, status);
    TRACED(Mprobe, comm, source_of(source, status), 0, PMPI_Mprobe(source, tag, comm, msg, status));
}

HM_WRAP int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
                        MPI_Status *status)
{
    OWN_STATUS(source, status);
    TRACED(Improbe, comm, *flag ? source_of(source, status) : source, 0,
           PMPI_Improbe(source, tag, comm, flag, msg, status));
}

HM_WRAP int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Status *status)
{
    TRACED(Mrecv, MPI_COMM_NULL, NONE, B(count, type), PMPI_Mrecv(buf, count, type, msg, status));
}

HM_WRAP int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req)
{
    TRACED(Imrecv, MPI_COMM_NULL, NONE, B(count, type), PMPI_Imrecv(buf, count, type, msg, req));
}

/* ---- Waits and tests ---- */

HM_WRAP int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    TRACED(Wait, MPI_COMM_NULL, NONE, 0, PMPI_Wait(req, status));
}

HM_WRAP int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    TRACED(Waitall, MPI_COMM_NULL, NONE, 0, PMPI_Waitall(n, reqs, statuses));
}

HM_WRAP int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    TRACED(Waitany, MPI_COMM_NULL, NONE, 0, PMPI_Waitany(n, reqs, index, status));
}

HM_WRAP int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    TRACED(Waitsome, MPI_COMM_NULL, NONE, 0, PMPI_Waitsome(n, reqs, outcount, indices, statuses));
}

HM_WRAP int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    TRACED(Test, MPI_COMM_NULL, NONE, 0, PMPI_Test(req, flag, status));
}

HM_WRAP int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    TRACED(Testall, MPI_COMM_NULL, NONE, 0, PMPI_Testall(n, reqs, flag, statuses));
}

HM_WRAP int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    TRACED(Testany, MPI_COMM_NULL, NONE, 0, PMPI_Testany(n, reqs, index, flag, status));
}

HM_WRAP int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    TRACED(Testsome, MPI_COMM_NULL, NONE, 0, PMPI_Testsome(n, reqs, outcount, indices, statuses));
}

/* ---- Collectives (bytes: the message size as bench and OSU count it) ---- */

HM_WRAP int MPI_Barrier(MPI_Comm comm)
{
    TRACED(Barrier, comm, NONE, 0, PMPI_Barrier(comm));
}

HM_WRAP int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    TRACED(Bcast, comm, root, B(count, type), PMPI_Bcast(buf, count, type, root, comm));
}

HM_WRAP int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       int root, MPI_Comm comm)
{
    TRACED(Reduce, comm, root, B(count, type),
           PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

HM_WRAP int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    TRACED(Allreduce, comm, NONE, B(count, type),
           PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

HM_WRAP int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm)
{
    TRACED(Gather, comm, root, B(scount, stype),
           PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

HM_WRAP int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm)
{
    TRACED(Gatherv, comm, root, B(scount, stype),
           PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
}

HM_WRAP int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm)
{
    TRACED(Scatter, comm, root, B(rcount, rtype),
           PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

HM_WRAP int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                         MPI_Comm comm)
{
    TRACED(Scatterv, comm, root, B(rcount, rtype),
           PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
}

HM_WRAP int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm)
{
    TRACED(Allgather, comm, NONE, B(scount, stype),
           PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

HM_WRAP int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           const int rcounts[], const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm)
{
    TRACED(Allgatherv, comm, NONE, B(scount, stype),
           PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
}

HM_WRAP int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm)
{
    TRACED(Alltoall, comm, NONE, B(scount, stype),
           PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

HM_WRAP int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                          MPI_Datatype rtype, MPI_Comm comm)
{
    TRACED(Alltoallv, comm, NONE, hm_tracer_bytes_v(scounts, hm_tracer_comm_size(comm), stype),
           PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm));
}

HM_WRAP int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                          const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    TRACED(Alltoallw, comm, NONE, 0,
           PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm));
}

HM_WRAP int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm)
{
    TRACED(Reduce_scatter, comm, NONE, hm_tracer_bytes_v(rcounts, hm_tracer_comm_size(comm), type),
           PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
}

HM_WRAP int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm)
{
    TRACED(Reduce_scatter_block, comm, NONE, B(rcount, type),
           PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
}

HM_WRAP int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm)
{
    TRACED(Scan, comm, NONE, B(count, type), PMPI_Scan(sbuf, rbuf, count, type, op, comm));
}

HM_WRAP int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    TRACED(Exscan, comm, NONE, B(count, type), PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
}

/* ---- Nonblocking collectives: the call alone (its wait is a wait) ---- */

HM_WRAP int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ibarrier, comm, NONE, 0, PMPI_Ibarrier(comm, req));
}

HM_WRAP int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                       MPI_Request *req)
{
    TRACED(Ibcast, comm, root, B(count, type), PMPI_Ibcast(buf, count, type, root, comm, req));
}

HM_WRAP int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ireduce, comm, root, B(count, type),
           PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req));
}

HM_WRAP int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                           MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iallreduce, comm, NONE, B(count, type),
           PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req));
}

HM_WRAP int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Igather, comm, root, B(scount, stype),
           PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

HM_WRAP int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                         MPI_Comm comm, MPI_Request *req)
{
    TRACED(Igatherv, comm, root, B(scount, stype),
           PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req));
}

HM_WRAP int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iscatter, comm, root, B(rcount, rtype),
           PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

HM_WRAP int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                          MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iscatterv, comm, root, B(rcount, rtype),
           PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req));
}

HM_WRAP int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iallgather, comm, NONE, B(scount, stype),
           PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

HM_WRAP int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int rcounts[], const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iallgatherv, comm, NONE, B(scount, stype),
           PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req));
}

HM_WRAP int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ialltoall, comm, NONE, B(scount, stype),
           PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

HM_WRAP int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                           MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    TRACED(
        Ialltoallv, comm, NONE, hm_tracer_bytes_v(scounts, hm_tracer_comm_size(comm), stype),
        PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req));
}

HM_WRAP int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                           const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                           const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                           MPI_Request *req)
{
    TRACED(
        Ialltoallw, comm, NONE, 0,
        PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req));
}

HM_WRAP int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ireduce_scatter, comm, NONE, hm_tracer_bytes_v(rcounts, hm_tracer_comm_size(comm), type),
           PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req));
}

HM_WRAP int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                      MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    TRACED(Ireduce_scatter_block, comm, NONE, B(rcount, type),
           PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, req));
}

HM_WRAP int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iscan, comm, NONE, B(count, type), PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req));
}

HM_WRAP int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, MPI_Request *req)
{
    TRACED(Iexscan, comm, NONE, B(count, type),
           PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req));
}

/* ---- Communicators: recorded as collectives, and named for matching ---- */

#define CREATES(FUNC, PARENT, OUT, CALL)                                                           \
    do {                                                                                           \
        double t0_ = hm_tracer_now();                                                              \
        if (!hm_tracer_on()) return CALL;                                                          \
        int rc_ = CALL;                                                                            \
        double t1_ = hm_tracer_now();                                                              \
        hm_tracer_record(HM_TRACE_MPI_##FUNC, t0_, t1_, PARENT, NONE, 0);                          \
        if (rc_ == MPI_SUCCESS) hm_tracer_comm_created(PARENT, *(OUT));                            \
        return rc_;                                                                                \
    } while (0)

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

HM_WRAP int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *out)
{
    CREATES(Comm_create, comm, out, PMPI_Comm_create(comm, group, out));
}

HM_WRAP int MPI_Comm_free(MPI_Comm *comm)
{
    if (!hm_tracer_on()) return PMPI_Comm_free(comm);
    MPI_Comm c = *comm;
    double t0 = hm_tracer_now();
    int rc = PMPI_Comm_free(comm);
    double t1 = hm_tracer_now();
    hm_tracer_record(HM_TRACE_MPI_Comm_free, t0, t1, c, NONE, 0);
    hm_tracer_comm_freed(c);
    return rc;
}
