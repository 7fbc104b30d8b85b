/* tests/pattern/test_gpu.c — the GPU backends (cuda, ipc, ipc-get, nccl).
 *
 * `test_pattern_gpu refusals` (2, 3 and 4 ranks, any machine): the
 * registry lists them; hm_backend_check answers what hm_gpu_count answers
 * (without a device: HM_ENOTSUP, the same sentence); a plan of host
 * buffers is refused at commit by every GPU backend, naming the rank, the
 * buffer and the memory, before any CUDA call (so also without a device);
 * the host backends have no device time.
 *
 * `test_pattern_gpu device` (2 ranks, one GPU or more; skipped, with the
 * reason, without one): the oracle is the data, as in test_plan.c: every
 * received byte must be its sender's hm_pattern_byte at the place it came
 * from, over three rounds (the flags must carry over iterations), and a
 * byte corrupted in device memory after a run is counted once:
 *   - cuda: each rank's messages to itself (3 of them, one of 1 MiB);
 *   - ipc and ipc-get: every rank to every rank, itself included;
 *   - nccl: the same where the ranks have distinct devices; on one GPU
 *     NCCL refuses a second rank, and the refusal must say so, agreed;
 *   - each GPU plan has a device time, positive and below the host's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/pattern.h>

#include "pattern/pattern_impl.h"
#include "testutil.h"

static const char *const gpu_backends[] = {"cuda", "ipc", "ipc-get", "nccl"};
enum { NGPU = sizeof gpu_backends / sizeof gpu_backends[0] };

static void check_registry(void)
{
    char names[128];
    hm_backend_names(names, sizeof names);
    HM_CHECK(!strcmp(names, "mpi, host, cuda, ipc, ipc-get, nccl"), "backends: \"%s\"", names);
    for (int i = 0; i < NGPU; i++)
        HM_CHECK(hm_backend_memory(hm_backend_find(gpu_backends[i])) == HM_MEMORY_DEVICE,
                 "%s: device memory", gpu_backends[i]);
}

/* hm_backend_check says what hm_gpu_count says. */
static void check_usable(void)
{
    int count;
    int have = hm_gpu_count(&count) == HM_OK;
    char why[512];
    snprintf(why, sizeof why, "%s", have ? "" : hm_last_error());
    for (int i = 0; i < NGPU; i++) {
        const hm_backend_t *b = hm_backend_find(gpu_backends[i]);
        int rc = hm_backend_check(b);
        int want = have && (strcmp(gpu_backends[i], "nccl") != 0 || hm_gpu_nccl_built());
        HM_CHECK(want ? rc == HM_OK
                      : rc == HM_ENOTSUP &&
                            (!strcmp(hm_last_error(), why) || strstr(hm_last_error(), "NCCL")),
                 "%s usable: %d (want %s), \"%s\"", gpu_backends[i], rc, want ? "yes" : "no",
                 rc == HM_OK ? "" : hm_last_error());
    }
    HM_CHECK(hm_backend_check(hm_backend_find("mpi")) == HM_OK &&
                 hm_backend_check(hm_backend_find("host")) == HM_OK,
             "mpi and host are always usable");
}

/* Host buffers handed to a GPU backend: refused at commit, agreed. */
static void check_memory_refusals(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hm_buffer_t *b = NULL;
    hm_buffer_alloc(comm, HM_MEMORY_SHARED, 64, &b);
    for (int i = 0; i < NGPU; i++) {
        hm_plan_t *plan = NULL;
        hm_plan_create(comm, hm_backend_find(gpu_backends[i]), &plan);
        /* cuda copies within a process: a message to itself; the others a ring. */
        int to = strcmp(gpu_backends[i], "cuda") ? (rank + 1) % size : rank;
        int from = strcmp(gpu_backends[i], "cuda") ? (rank + size - 1) % size : rank;
        hm_plan_add(plan, b, 0, b, 8, 8, rank, to);
        if (from != rank) hm_plan_add(plan, b, 0, b, 8, 8, from, rank);
        int rc = hm_plan_commit(plan);
        char want[256];
        snprintf(want, sizeof want,
                 "%s backend: rank 0's send buffer of its message to rank %d is shared memory "
                 "(allocate it as device memory)",
                 gpu_backends[i], strcmp(gpu_backends[i], "cuda") ? 1 % size : 0);
        HM_CHECK(rc == HM_EINVAL && !strcmp(hm_last_error(), want),
                 "%s, shared buffers: refused, \"%s\" (want \"%s\")", gpu_backends[i],
                 hm_last_error(), want);
        hm_plan_free(plan);
    }
    hm_plan_t *plan = NULL;
    double t = -1;
    hm_plan_create(comm, hm_backend_find("mpi"), &plan);
    hm_plan_add(plan, b, 0, b, 8, 8, rank, rank);
    hm_plan_commit(plan);
    int rc = hm_plan_device_time(plan, &t);
    HM_CHECK(rc == HM_ENOTSUP && t == -1, "mpi: no device time (%d, \"%s\")", rc, hm_last_error());
    hm_plan_free(plan);
    hm_buffer_free(b);
}

/* ---- With a device ---- */

static size_t msg_bytes(int r, int d, int big)
{
    return (big && r == d ? (size_t)1 << 20 : 0) + 100 + 37 * (size_t)r + 11 * (size_t)d;
}

/* Every rank to every rank (self_only: each to itself), each sender from
 * its own region of buffer 0 into the receiver's region of buffer 1. */
static int add_pattern(hm_plan_t *plan, hm_buffer_t *out, hm_buffer_t *in, int size, int self_only)
{
    int rc = HM_OK;
    for (int r = 0; r < size && rc == HM_OK; r++) {
        size_t sendoff = 0;
        for (int d = 0; d < size && rc == HM_OK; d++) {
            if (self_only && r != d) continue;
            size_t recvoff = 0;
            for (int q = 0; q < r; q++)
                if (!self_only) recvoff += msg_bytes(q, d, 1);
            rc = hm_plan_add(plan, out, sendoff, in, recvoff, msg_bytes(r, d, 1), r, d);
            sendoff += msg_bytes(r, d, 1);
        }
    }
    return rc;
}

static void pattern_bytes(int rank, int size, int self_only, size_t *send, size_t *recv)
{
    *send = *recv = 0;
    for (int q = 0; q < size; q++)
        if (!self_only || q == rank) *send += msg_bytes(rank, q, 1), *recv += msg_bytes(q, rank, 1);
}

/* Three validated rounds, the device time of each, a fourth with device
 * timing off (no device time), then a byte flipped in the last received
 * place of the last rank, through the host. */
static void run_rounds(MPI_Comm comm, hm_plan_t *plan, hm_buffer_t *in, size_t recv_bytes,
                       const char *backend)
{
    int rc = HM_OK, rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int round = 0; rc == HM_OK && round < 4; round++) {
        uint64_t wrong = 1;
        double device_s = 0;
        int timed = round < 3; /* the last round without events */
        rc = hm_plan_set_device_timing(plan, timed);
        if (rc == HM_OK) rc = hm_plan_fill(plan);
        double t0 = MPI_Wtime();
        if (rc == HM_OK) rc = hm_plan_start(plan);
        if (rc == HM_OK) rc = hm_plan_wait(plan);
        double host_s = MPI_Wtime() - t0;
        int rc_t = rc == HM_OK ? hm_plan_device_time(plan, &device_s) : rc;
        if (rc == HM_OK) rc = hm_plan_check(plan, &wrong);
        HM_CHECK(rc == HM_OK && wrong == 0,
                 "%s: round %d, every received byte right (%llu wrong) %s", backend, round,
                 (unsigned long long)wrong, rc == HM_OK ? "" : hm_last_error());
        /* The events bracket the stream's work, which the host's time of
         * start + wait contains. */
        if (timed)
            HM_CHECK(rc_t == HM_OK && device_s > 0 && device_s <= host_s,
                     "%s: device time %.3g s within the host's %.3g s", backend, device_s, host_s);
        else
            HM_CHECK(rc_t == HM_ENOTSUP, "%s: device timing off: no device time (%d, \"%s\")",
                     backend, rc_t, hm_last_error());
        MPI_Barrier(comm);
    }
    if (rc != HM_OK) return;
    unsigned char byte = 0;
    if (rank == size - 1) {
        hm__buffer_copy_out(in, recv_bytes - 1, &byte, 1);
        byte ^= 0x5a;
        hm__buffer_copy_in(in, recv_bytes - 1, &byte, 1);
    }
    uint64_t wrong = 0, all = 0;
    hm_plan_check(plan, &wrong);
    MPI_Allreduce(&wrong, &all, 1, MPI_UINT64_T, MPI_SUM, comm);
    HM_CHECK(all == 1, "%s: a byte corrupted in device memory is caught (%llu wrong)", backend,
             (unsigned long long)all);
}

/* One backend end to end, or its refusal where NCCL cannot have two ranks
 * on one device. */
static void run_backend(MPI_Comm comm, const char *backend, int shared_device)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int self_only = !strcmp(backend, "cuda");
    size_t send_bytes = 0, recv_bytes = 0;
    hm_plan_t *plan = NULL;
    hm_buffer_t *out = NULL, *in = NULL;
    pattern_bytes(rank, size, self_only, &send_bytes, &recv_bytes);
    int rc = hm_buffer_alloc(comm, HM_MEMORY_DEVICE, send_bytes, &out);
    if (rc == HM_OK) rc = hm_buffer_alloc(comm, HM_MEMORY_DEVICE, recv_bytes, &in);
    if (rc == HM_OK) rc = hm_plan_create(comm, hm_backend_find(backend), &plan);
    if (rc == HM_OK) rc = add_pattern(plan, out, in, size, self_only);
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    if (!strcmp(backend, "nccl") && shared_device && size > 1) {
        HM_CHECK(rc != HM_OK && strstr(hm_last_error(), "ncclCommInitRank"),
                 "nccl, %d ranks on one GPU: refused by NCCL, agreed: \"%s\"", size,
                 hm_last_error());
    } else {
        HM_CHECK(rc == HM_OK, "%s: %zu + %zu bytes of device memory, committed (%s)", backend,
                 send_bytes, recv_bytes, rc == HM_OK ? "" : hm_last_error());
        if (rc == HM_OK) run_rounds(comm, plan, in, recv_bytes, backend);
    }
    hm_plan_free(plan);
    hm_buffer_free(in);
    hm_buffer_free(out);
}

static int run_device(MPI_Comm comm)
{
    int count = 0, device = -1;
    int have = hm_gpu_count(&count) == HM_OK;
    if (hm_test_skip_if(comm, !have, hm_last_error())) return 1;
    int rc = hm_gpu_select(comm, 0, &device);
    HM_CHECK(rc == HM_OK, "a GPU for every rank (%s)", rc == HM_OK ? "" : hm_last_error());
    if (rc != HM_OK) return 0;
    char *map = NULL;
    hm_gpu_mapping(comm, device, &map);
    if (map) hm_test_note("%s\n", map);
    free(map);
    int lo = device, hi = device;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, comm);
    for (int i = 0; i < NGPU; i++) {
        if (!strcmp(gpu_backends[i], "nccl") && !hm_gpu_nccl_built()) continue;
        run_backend(comm, gpu_backends[i], lo == hi);
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int skipped = 0;
    if (argc > 1 && !strcmp(argv[1], "device")) {
        skipped = run_device(comm);
    } else {
        check_registry();
        check_usable();
        check_memory_refusals(comm);
    }
    MPI_Comm_free(&comm);
    if (skipped) {
        MPI_Finalize();
        return HM_TEST_SKIPPED;
    }
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
