/* tests/pattern/test_commit_traffic.c — commit exchanges O(P) data per
 * rank, not one control message per added message (CommBench's set-up
 * sends O(P^2) control messages). The test interposes the MPI calls that
 * move data (PMPI) and counts, during hm_plan_commit of the mpi backend,
 * the calls and the bytes this rank hands to MPI, for a plan of P messages
 * and for one of 64 P messages between the same ranks: they must be equal
 * (a per-message exchange would grow 64 times), and the bytes must be the
 * 3 integers per peer of the check. Run at 2 and 4 ranks. */
#include <stdint.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "testutil.h"

static int counting;
static long calls;
static uint64_t bytes;

static void count(int n, MPI_Datatype type)
{
    int size = 0;
    if (!counting) return;
    PMPI_Type_size(type, &size);
    calls++;
    bytes += (uint64_t)n * (uint64_t)size;
}

int MPI_Send(const void *buf, int n, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    count(n, type);
    return PMPI_Send(buf, n, type, dst, tag, comm);
}

int MPI_Isend(const void *buf, int n, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    count(n, type);
    return PMPI_Isend(buf, n, type, dst, tag, comm, req);
}

int MPI_Alltoall(const void *sbuf, int n, MPI_Datatype type, void *rbuf, int rn, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    count(n * size, type);
    return PMPI_Alltoall(sbuf, n, type, rbuf, rn, rtype, comm);
}

int MPI_Alltoallv(const void *sbuf, const int *n, const int *sd, MPI_Datatype type, void *rbuf,
                  const int *rn, const int *rd, MPI_Datatype rtype, MPI_Comm comm)
{
    int size, total = 0;
    PMPI_Comm_size(comm, &size);
    for (int i = 0; i < size; i++) total += n[i];
    count(total, type);
    return PMPI_Alltoallv(sbuf, n, sd, type, rbuf, rn, rd, rtype, comm);
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    count(n, type);
    return PMPI_Allreduce(s, r, n, type, op, comm);
}

int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    count(n, type);
    return PMPI_Iallreduce(s, r, n, type, op, comm, req);
}

int MPI_Bcast(void *buf, int n, MPI_Datatype type, int root, MPI_Comm comm)
{
    count(n, type);
    return PMPI_Bcast(buf, n, type, root, comm);
}

int MPI_Gather(const void *s, int n, MPI_Datatype type, void *r, int rn, MPI_Datatype rtype,
               int root, MPI_Comm comm)
{
    count(n, type);
    return PMPI_Gather(s, n, type, r, rn, rtype, root, comm);
}

/* Commit a plan where every rank sends per_pair messages of 8 bytes to
 * every rank; *c and *b are this rank's calls and bytes during commit. */
static int commit_counted(MPI_Comm comm, int per_pair, long *c, uint64_t *b)
{
    int size;
    MPI_Comm_size(comm, &size);
    size_t need = (size_t)size * (size_t)per_pair * 8;
    hm_buffer_t *out = NULL, *in = NULL;
    hm_plan_t *plan = NULL;
    int rc = hm_buffer_alloc(comm, HM_MEMORY_HOST, need, &out);
    if (rc == HM_OK) rc = hm_buffer_alloc(comm, HM_MEMORY_HOST, need, &in);
    if (rc == HM_OK) rc = hm_plan_create(comm, hm_backend_find("mpi"), &plan);
    for (int r = 0; rc == HM_OK && r < size; r++)
        for (int d = 0; rc == HM_OK && d < size; d++)
            for (int k = 0; rc == HM_OK && k < per_pair; k++) {
                size_t slot = (size_t)d * (size_t)per_pair + (size_t)k;
                size_t rslot = (size_t)r * (size_t)per_pair + (size_t)k;
                rc = hm_plan_add(plan, out, slot * 8, in, rslot * 8, 8, r, d);
            }
    calls = 0;
    bytes = 0;
    counting = 1;
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    counting = 0;
    *c = calls;
    *b = bytes;
    hm_plan_free(plan);
    hm_buffer_free(in);
    hm_buffer_free(out);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long c1, c64;
    uint64_t b1, b64;
    int rc1 = commit_counted(MPI_COMM_WORLD, 1, &c1, &b1);
    int rc64 = commit_counted(MPI_COMM_WORLD, 64, &c64, &b64);
    HM_CHECK(rc1 == HM_OK && rc64 == HM_OK, "both plans commit (%s)", hm_last_error());
    hm_test_note("commit at %d ranks: %d messages: %ld calls, %llu bytes; %d messages: %ld "
                 "calls, %llu bytes",
                 size, size * size, c1, (unsigned long long)b1, 64 * size * size, c64,
                 (unsigned long long)b64);
    HM_CHECK(c1 == c64 && b1 == b64,
             "commit traffic does not grow with the messages (%ld and %ld calls, %llu and %llu "
             "bytes)",
             c1, c64, (unsigned long long)b1, (unsigned long long)b64);
    /* The pair check: 3 x 8 bytes per peer; the agreements and the total
     * a few integers more. A per-peer exchange bigger than that, or one
     * per message, exceeds the bound. */
    uint64_t bound = 24 * (uint64_t)size + 64;
    HM_CHECK(b64 <= bound, "commit hands MPI %llu bytes, O(P): at most %llu at %d ranks",
             (unsigned long long)b64, (unsigned long long)bound, size);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
