/* tests/pattern/test_plan.c — plans with the mpi and host backends at 2, 3
 * and 4 ranks. The oracle is the data: every received byte must be the
 * byte its sender's fill put at the place it came from (hm_pattern_byte of
 * the sender's rank and offset), so a message delivered to the wrong rank,
 * from the wrong place, or cut short fails, and a byte corrupted after the
 * run is counted exactly once. Commit's refusals name both ranks. */
#include <stdio.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/pattern.h>

#include "testutil.h"

/* Every rank adds the whole pattern: from each rank r to each rank d
 * (itself included), 100 + 37 r + 11 d bytes, so that sizes differ per
 * pair; r sends d's message from its own region of buffer 0 and d receives
 * it in its own region of buffer 1 (offsets in rank order). */
static size_t msg_bytes(int r, int d)
{
    return 100 + 37 * (size_t)r + 11 * (size_t)d;
}

static void extents(int rank, int size, size_t *send, size_t *recv)
{
    *send = *recv = 0;
    for (int q = 0; q < size; q++) *send += msg_bytes(rank, q), *recv += msg_bytes(q, rank);
}

static int add_all(hm_plan_t *plan, hm_buffer_t *out, hm_buffer_t *in, int size)
{
    int rc = HM_OK;
    for (int r = 0; r < size && rc == HM_OK; r++) {
        size_t sendoff = 0;
        for (int d = 0; d < size && rc == HM_OK; d++) {
            size_t recvoff = 0;
            for (int q = 0; q < r; q++) recvoff += msg_bytes(q, d);
            rc = hm_plan_add(plan, out, sendoff, in, recvoff, msg_bytes(r, d), r, d);
            sendoff += msg_bytes(r, d);
        }
    }
    return rc;
}

static void run_all_to_all(MPI_Comm comm, const char *backend, hm_memory_t memory)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t send_bytes, recv_bytes;
    extents(rank, size, &send_bytes, &recv_bytes);
    hm_buffer_t *out = NULL, *in = NULL;
    hm_plan_t *plan = NULL;
    int rc = hm_buffer_alloc(comm, memory, send_bytes, &out);
    if (rc == HM_OK) rc = hm_buffer_alloc(comm, memory, recv_bytes, &in);
    HM_CHECK(rc == HM_OK, "%s: buffers of %zu and %zu bytes (%s)", backend, send_bytes, recv_bytes,
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK) rc = hm_plan_create(comm, hm_backend_find(backend), &plan);
    if (rc == HM_OK) rc = add_all(plan, out, in, size);
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    HM_CHECK(rc == HM_OK, "%s: commit of %d x %d messages (%s)", backend, size, size,
             rc == HM_OK ? "" : hm_last_error());
    size_t nsend = 0, nrecv = 0;
    hm_plan_counts(plan, &nsend, &nrecv);
    uint64_t total = 0;
    for (int r = 0; r < size; r++)
        for (int d = 0; d < size; d++) total += msg_bytes(r, d);
    HM_CHECK(nsend == (size_t)size && nrecv == (size_t)size && hm_plan_total_bytes(plan) == total,
             "%s: %zu sends, %zu receives, %llu bytes in the pattern (want %d, %d, %llu)", backend,
             nsend, nrecv, (unsigned long long)hm_plan_total_bytes(plan), size, size,
             (unsigned long long)total);
    /* Three rounds: the host backend's flags must carry over iterations. */
    for (int round = 0; rc == HM_OK && round < 3; round++) {
        uint64_t wrong = 1;
        rc = hm_plan_fill(plan);
        if (rc == HM_OK) rc = hm_plan_start(plan);
        if (rc == HM_OK) rc = hm_plan_wait(plan);
        if (rc == HM_OK) rc = hm_plan_check(plan, &wrong);
        HM_CHECK(rc == HM_OK && wrong == 0, "%s: round %d, every received byte right (%llu wrong)",
                 backend, round, (unsigned long long)wrong);
        MPI_Barrier(comm);
    }
    if (rc == HM_OK) {
        /* One byte flipped in the message from the last rank: counted. */
        ((unsigned char *)hm_buffer_data(in))[recv_bytes - 1] ^= 0x5a;
        uint64_t wrong = 0;
        hm_plan_check(plan, &wrong);
        HM_CHECK(wrong == 1, "%s: a corrupted byte is caught (%llu wrong)", backend,
                 (unsigned long long)wrong);
    }
    hm_plan_free(plan);
    hm_buffer_free(in);
    hm_buffer_free(out);
}

/* Rank 0 says it sends 10 bytes to rank 1; rank 1 expects 12. */
static void mismatch(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    hm_buffer_t *b = NULL;
    hm_plan_t *plan = NULL;
    hm_buffer_alloc(comm, HM_MEMORY_HOST, 64, &b);
    hm_plan_create(comm, hm_backend_find("mpi"), &plan);
    hm_plan_add(plan, b, 0, b, 0, rank == 0 ? 10 : 12, 0, 1);
    int rc = hm_plan_commit(plan);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "rank 1 expects 1 messages (12 bytes) "
                                                        "from rank 0, which sends it 1 (10 bytes)"),
             "disagreeing sizes refused on every rank: %s", hm_last_error());
    hm_plan_free(plan);
    /* Same count and total, another order: 10 then 20 against 20 then 10. */
    hm_plan_create(comm, hm_backend_find("mpi"), &plan);
    hm_plan_add(plan, b, 0, b, 0, rank == 0 ? 10 : 20, 0, 1);
    hm_plan_add(plan, b, 32, b, 32, rank == 0 ? 20 : 10, 0, 1);
    rc = hm_plan_commit(plan);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "not on their sizes in the order added"),
             "same totals in another order refused: %s", hm_last_error());
    hm_plan_free(plan);
    hm_buffer_free(b);
}

static void refusals(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hm_buffer_t *host = NULL, *dev = NULL;
    hm_plan_t *plan = NULL;
    hm_buffer_alloc(comm, HM_MEMORY_HOST, 64, &host);
    int count, have = hm_gpu_count(&count) == HM_OK;
    int rc = hm_buffer_alloc(comm, HM_MEMORY_DEVICE, 64, &dev);
    if (have)
        HM_CHECK(rc == HM_OK && dev, "device memory with a GPU: allocated (%d)", rc);
    else
        HM_CHECK(rc == HM_ENOTSUP && !dev, "device memory without a GPU: refused (%s)",
                 hm_last_error());
    hm_buffer_free(dev);
    hm_plan_create(comm, hm_backend_find("mpi"), &plan);
    rc = hm_plan_add(plan, host, 0, host, 0, 8, 0, size);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "dst"), "dst outside: %s", hm_last_error());
    rc = hm_plan_add(plan, host, 60, host, 0, 8, rank, rank);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "beyond the buffer's 64 bytes"),
             "a region past the buffer: %s", hm_last_error());
    hm_plan_free(plan);
    /* The host backend puts into the receiver's memory: it must be shared. */
    hm_plan_create(comm, hm_backend_find("host"), &plan);
    hm_plan_add(plan, host, 0, host, 0, 8, 0, 1);
    rc = hm_plan_commit(plan);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "not shared memory"),
             "host backend, private receive buffer: %s", hm_last_error());
    hm_plan_free(plan);
    hm_buffer_free(host);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    run_all_to_all(comm, "mpi", HM_MEMORY_HOST);
    run_all_to_all(comm, "mpi", HM_MEMORY_SHARED);
    run_all_to_all(comm, "host", HM_MEMORY_SHARED);
    mismatch(comm);
    refusals(comm);
    MPI_Comm_free(&comm);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
