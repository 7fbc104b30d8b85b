/* tests/ops/test_nccl.c — NCCL operations (bench --backend nccl).
 *
 * `test_ops_nccl figures` (2 ranks, any machine): the registry, and
 * nccl-tests' columns against cases worked by hand from nccl-tests'
 * doc/PERFORMANCE.md (busbw = algbw x 2(n-1)/n for allreduce, (n-1)/n for
 * allgather, reduce_scatter and alltoall, 1 for bcast, reduce, sendrecv)
 * and its size convention (the whole buffer, whole elements per rank);
 * a device run refused alike on every rank without a GPU.
 *
 * `test_ops_nccl device` (2 ranks; skipped, with the reason, without a
 * GPU or NCCL): each operation prepared on an NCCL communicator, run and
 * validated by the MPI operations' oracle; where the two ranks share one
 * GPU NCCL refuses the communicator and the refusal must say so. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/ops.h>

#include "testutil.h"

static void check_registry(void)
{
    char names[256];
    hm_op_nccl_names(names, sizeof names);
    HM_CHECK(
        !strcmp(names, "allreduce, allgather, reduce_scatter, alltoall, bcast, reduce, sendrecv"),
        "NCCL operations: \"%s\"", names);
    HM_CHECK(hm_op_nccl_find("barrier") == NULL && hm_op_find("sendrecv") == NULL,
             "no NCCL barrier, no MPI sendrecv");
}

static void check_figures(void)
{
    static const struct {
        const char *op;
        size_t size;
        int n, root;
        size_t want_size, want_count;
        const char *type, *redop;
        int want_root;
        double factor;
    } cases[] = {
        {"allreduce", 1024, 8, 0, 1024, 256, "int32", "sum", -1, 1.75},
        {"allreduce", 1024, 1, 0, 1024, 256, "int32", "sum", -1, 0.0},
        {"allreduce", 6, 2, 0, 4, 1, "int32", "sum", -1, 1.0},
        {"allgather", 1001, 4, 0, 1000, 1000, "int8", "none", -1, 0.75},
        {"reduce_scatter", 100, 3, 0, 96, 24, "int32", "sum", -1, 2.0 / 3},
        {"alltoall", 7, 2, 0, 6, 6, "int8", "none", -1, 0.5},
        {"alltoall", 1, 4, 0, 4, 4, "int8", "none", -1, 0.75},
        {"bcast", 4096, 4, 2, 4096, 4096, "int8", "none", 2, 1.0},
        {"reduce", 4096, 4, 3, 4096, 1024, "int32", "sum", 3, 1.0},
        {"sendrecv", 8, 2, 0, 8, 8, "int8", "none", -1, 1.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hm_op_figures_t f;
        int rc = hm_op_nccl_figures(hm_op_nccl_find(cases[i].op), cases[i].size, cases[i].n,
                                    cases[i].root, &f);
        HM_CHECK(rc == HM_OK && f.size_bytes == cases[i].want_size &&
                     f.count == cases[i].want_count && !strcmp(f.type, cases[i].type) &&
                     !strcmp(f.redop, cases[i].redop) && f.root == cases[i].want_root &&
                     fabs(f.bus_factor - cases[i].factor) < 1e-12,
                 "%s %zu B on %d: size %zu count %zu %s %s root %d bus factor %.4f", cases[i].op,
                 cases[i].size, cases[i].n, f.size_bytes, f.count, f.type, f.redop, f.root,
                 f.bus_factor);
    }
    hm_op_figures_t f;
    HM_CHECK(hm_op_nccl_figures(hm_op_find("allreduce"), 8, 2, 0, &f) == HM_EINVAL,
             "an MPI operation has no nccl-tests figures");
}

/* Without a device: refused on every rank with the same status. */
static void check_refusal(void)
{
    int count;
    if (hm_gpu_count(&count) == HM_OK && hm_gpu_nccl_built()) return;
    hm_gpu_nccl_t *nccl = (hm_gpu_nccl_t *)&count;
    int rc = hm_gpu_nccl_create(MPI_COMM_WORLD, &nccl);
    int lo = rc, hi = rc;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    HM_CHECK(rc == HM_ENOTSUP && lo == hi && nccl == NULL,
             "NCCL communicator without a GPU: refused alike (%d, \"%s\")", rc, hm_last_error());
    hm_op_instance_t *inst = NULL;
    rc = hm_op_prepare_device(hm_op_find("allreduce"), MPI_COMM_WORLD, 64, NULL, &inst);
    HM_CHECK(rc == HM_ENOTSUP && inst == NULL, "device buffers without a GPU: refused (%d)", rc);
}

static int run_device(void)
{
    int count, device, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int have = hm_gpu_count(&count) == HM_OK;
    const char *why = have ? "this harmonia was built without NCCL" : hm_last_error();
    if (hm_test_skip_if(MPI_COMM_WORLD, !have || !hm_gpu_nccl_built(), why)) return 1;
    int rc = hm_gpu_select(MPI_COMM_WORLD, 0, &device);
    int lo = device, hi = device;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    hm_gpu_nccl_t *nccl = NULL;
    if (rc == HM_OK) rc = hm_gpu_nccl_create(MPI_COMM_WORLD, &nccl);
    if (lo == hi && size > 1) {
        HM_CHECK(rc != HM_OK, "%d ranks on GPU %d: NCCL refuses (\"%s\")", size, lo,
                 rc == HM_OK ? "" : hm_last_error());
        hm_gpu_nccl_free(nccl);
        return 0;
    }
    HM_CHECK(rc == HM_OK, "NCCL communicator (%s)", rc == HM_OK ? "" : hm_last_error());
    /* Once a run, and 4 launches a run (bench --batch): the same result. */
    for (size_t i = 0; rc == HM_OK && i < 2 * hm_op_nccl_count(); i++) {
        const hm_op_t *op = hm_op_nccl_find(hm_op_nccl_name_at(i / 2));
        hm_op_params_t p = {.root = size - 1, .peer = 1, .batch = i % 2 ? 4 : 1};
        hm_op_instance_t *inst = NULL;
        int ok = 0, r = hm_op_prepare_nccl(op, MPI_COMM_WORLD, nccl, 1 << 20, &p, &inst);
        for (int round = 0; r == HM_OK && round < 2; round++) {
            r = hm_op_run(inst);
            if (r == HM_OK) r = hm_op_validate(inst, &ok);
            HM_CHECK(r == HM_OK && ok, "%s 1 MiB, batch %d, round %d: right", hm_op_name(op),
                     p.batch, round);
        }
        hm_op_free(inst);
    }
    /* Launches rotate through copies of the buffers (256 MiB of them,
     * ops/device.c): at 1 MiB above a run ends on copy 3 or 7, never on
     * copy 0; at 128 MiB there are 2 copies, and 3 launches a run wrap
     * around. Each run's result is read from the copy it ended on. */
    for (size_t i = 0; rc == HM_OK && i < hm_op_nccl_count(); i++) {
        const hm_op_t *op = hm_op_nccl_find(hm_op_nccl_name_at(i));
        hm_op_params_t p = {.root = size - 1, .peer = 1, .batch = 3};
        hm_op_instance_t *inst = NULL;
        int ok = 0, r = hm_op_prepare_nccl(op, MPI_COMM_WORLD, nccl, (size_t)128 << 20, &p, &inst);
        for (int round = 0; r == HM_OK && round < 3; round++) {
            r = hm_op_run(inst);
            if (r == HM_OK) r = hm_op_validate(inst, &ok);
            HM_CHECK(r == HM_OK && ok, "%s 128 MiB, batch 3, round %d (2 copies): right",
                     hm_op_name(op), round);
        }
        hm_op_free(inst);
    }
    hm_gpu_nccl_free(nccl);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int skipped = 0;
    if (argc > 1 && !strcmp(argv[1], "device")) {
        skipped = run_device();
    } else {
        check_registry();
        check_figures();
        check_refusal();
    }
    if (skipped) {
        MPI_Finalize();
        return HM_TEST_SKIPPED;
    }
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
