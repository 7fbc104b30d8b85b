/* tests/sync/hier/pmpi_count.c — see pmpi_count.h. */
#include <mpi.h>

#include "pmpi_count.h"

enum { MAX_PEERS = 64, MAX_COMMS = 32 };

/* Groups are looked up once per communicator while counting: the
 * communicators of one synchronization live until its end, and the cache
 * is dropped at start and stop, before a freed handle could be reused. */
static struct {
    int on;
    long sent[MAX_PEERS], received[MAX_PEERS], any_source;
    int ncomms;
    MPI_Comm comm[MAX_COMMS];
    MPI_Group group[MAX_COMMS];
    int have_world;
    MPI_Group world;
} c;

static void drop_cache(void)
{
    for (int i = 0; i < c.ncomms; i++) PMPI_Group_free(&c.group[i]);
    if (c.have_world) PMPI_Group_free(&c.world);
    c.ncomms = 0;
    c.have_world = 0;
}

void count_start(void)
{
    drop_cache();
    for (int i = 0; i < MAX_PEERS; i++) c.sent[i] = c.received[i] = 0;
    c.any_source = 0;
    PMPI_Comm_group(MPI_COMM_WORLD, &c.world);
    c.have_world = 1;
    c.on = 1;
}

void count_stop(void)
{
    c.on = 0;
    drop_cache();
}

long count_sent(int peer)
{
    return peer >= 0 && peer < MAX_PEERS ? c.sent[peer] : 0;
}

long count_received(int peer)
{
    return peer >= 0 && peer < MAX_PEERS ? c.received[peer] : 0;
}

long count_any_source(void)
{
    return c.any_source;
}

static MPI_Group group_of(MPI_Comm comm)
{
    for (int i = 0; i < c.ncomms; i++)
        if (c.comm[i] == comm) return c.group[i];
    MPI_Group g;
    PMPI_Comm_group(comm, &g);
    if (c.ncomms < MAX_COMMS) {
        c.comm[c.ncomms] = comm;
        c.group[c.ncomms++] = g;
    }
    return g; /* (leaked when the cache is full: a test never gets there) */
}

/* peer: a rank of comm; which counter: sent or received. */
static void note(MPI_Comm comm, int peer, long *counter)
{
    int world = MPI_UNDEFINED;
    if (!c.on || peer == MPI_PROC_NULL) return;
    if (peer == MPI_ANY_SOURCE) {
        c.any_source++;
        return;
    }
    PMPI_Group_translate_ranks(group_of(comm), 1, &peer, c.world, &world);
    if (world >= 0 && world < MAX_PEERS) counter[world]++;
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    note(comm, dest, c.sent);
    return PMPI_Send(b, n, t, dest, tag, comm);
}

int MPI_Ssend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    note(comm, dest, c.sent);
    return PMPI_Ssend(b, n, t, dest, tag, comm);
}

int MPI_Bsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    note(comm, dest, c.sent);
    return PMPI_Bsend(b, n, t, dest, tag, comm);
}

int MPI_Rsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    note(comm, dest, c.sent);
    return PMPI_Rsend(b, n, t, dest, tag, comm);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    note(comm, dest, c.sent);
    return PMPI_Isend(b, n, t, dest, tag, comm, req);
}

int MPI_Issend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    note(comm, dest, c.sent);
    return PMPI_Issend(b, n, t, dest, tag, comm, req);
}

int MPI_Irsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    note(comm, dest, c.sent);
    return PMPI_Irsend(b, n, t, dest, tag, comm, req);
}

int MPI_Ibsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    note(comm, dest, c.sent);
    return PMPI_Ibsend(b, n, t, dest, tag, comm, req);
}

int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    note(comm, src, c.received);
    return PMPI_Recv(b, n, t, src, tag, comm, st);
}

int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    note(comm, src, c.received);
    return PMPI_Irecv(b, n, t, src, tag, comm, req);
}

int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dest, int stag, void *rb, int rn,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    note(comm, dest, c.sent);
    note(comm, src, c.received);
    return PMPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, status);
}

int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int dest, int stag, int src, int rtag,
                         MPI_Comm comm, MPI_Status *status)
{
    note(comm, dest, c.sent);
    note(comm, src, c.received);
    return PMPI_Sendrecv_replace(b, n, t, dest, stag, src, rtag, comm, status);
}
