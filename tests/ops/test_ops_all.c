/* tests/ops/test_ops_all.c — every registered operation completes and
 * produces the right result at several sizes (0, a byte, a non-multiple of
 * 4, 64 KiB) and, for rooted ops, at roots 0 and p - 1; pingpong with peers
 * 1 and p - 1. Then a corrupted result is caught on the rank that holds it,
 * and the next clean run validates again. Nonblocking operations also run
 * as start + wait. Run at 2, 3 and 4 ranks. */
#include <stdio.h>
#include <string.h>

#include <harmonia/ops.h>

#include "testutil.h"

static int rank, nprocs;
static const size_t sizes[] = {0, 1, 8, 1000, 65536};
enum { NSIZES = sizeof sizes / sizeof sizes[0], NRUNS = 3 };

/* Prepare op, run it NRUNS times and validate after each run. */
static void runs(const hm_op_t *op, size_t size, const hm_op_params_t *par)
{
    hm_op_instance_t *inst = NULL;
    int rc = hm_op_prepare(op, MPI_COMM_WORLD, size, par, &inst);
    HM_CHECK(rc == HM_OK && inst, "%s size %zu root %d peer %d: prepare status %d (%s)",
             hm_op_name(op), size, par->root, par->peer, rc, hm_last_error());
    if (rc != HM_OK) return;
    int bad_runs = 0, bad_checks = 0;
    for (int r = 0; r < NRUNS; r++) {
        int ok = 0;
        /* Odd runs of a nonblocking operation in two halves (start, then
         * wait: an overlap run); a second start before the wait is refused. */
        if (hm_op_is_nonblocking(op) && r % 2 == 1) {
            bad_runs += hm_op_start(inst) != HM_OK;
            bad_runs += hm_op_start(inst) != HM_EINVAL;
            bad_runs += hm_op_wait(inst) != HM_OK;
        } else
            bad_runs += hm_op_run(inst) != HM_OK;
        bad_checks += hm_op_validate(inst, &ok) != HM_OK || !ok;
    }
    HM_CHECK(bad_runs == 0 && bad_checks == 0,
             "%s size %zu root %d peer %d: %d of %d runs failed, %d validations not ok",
             hm_op_name(op), size, par->root, par->peer, bad_runs, NRUNS, bad_checks);
    if (!hm_op_is_nonblocking(op))
        HM_CHECK(hm_op_start(inst) == HM_EINVAL && hm_op_wait(inst) == HM_EINVAL,
                 "%s: start and wait of a blocking operation refused", hm_op_name(op));
    hm_op_free(inst);
}

static void every_size(const hm_op_t *op, const hm_op_params_t *par)
{
    for (int s = 0; s < NSIZES; s++) runs(op, sizes[s], par);
}

static void every_op(void)
{
    for (size_t i = 0; i < hm_op_count(); i++) {
        const hm_op_t *op = hm_op_find(hm_op_name_at(i));
        hm_op_params_t par = {.root = 0, .peer = 1};
        every_size(op, &par);
        if (hm_op_is_rooted(op) && nprocs > 1) {
            par.root = nprocs - 1;
            every_size(op, &par);
        }
        if (hm_op_is_pingpong(op) && nprocs > 2) {
            par.peer = nprocs - 1;
            every_size(op, &par);
        }
    }
}

/* One run per victim rank: the victim flips a byte of its result (if it has
 * one); validation must say 0 exactly there, and 1 after the clean run that
 * follows. */
static int corrupt_turns(const hm_op_t *op, hm_op_instance_t *inst)
{
    int holders = 0;
    for (int victim = 0; victim < nprocs; victim++) {
        size_t len = 0;
        int ok = -1, clean = -1;
        hm_op_run(inst);
        unsigned char *buf = hm_op_result_buffer(inst, &len);
        int flipped = rank == victim && buf && len;
        if (flipped) buf[(len / 2 + (size_t)victim) % len] ^= 0x10;
        hm_op_validate(inst, &ok);
        hm_op_run(inst);
        hm_op_validate(inst, &clean);
        HM_CHECK(ok == !flipped && clean == 1,
                 "%s: victim rank %d%s: validate says %d, after the clean run %d", hm_op_name(op),
                 victim, flipped ? " (flipped a byte)" : "", ok, clean);
        holders += flipped;
    }
    return holders;
}

static void corruption(void)
{
    hm_op_params_t par = {.root = nprocs - 1, .peer = nprocs - 1};
    if (nprocs < 2) return;
    for (size_t i = 0; i < hm_op_count(); i++) {
        const hm_op_t *op = hm_op_find(hm_op_name_at(i));
        hm_op_instance_t *inst = NULL;
        int holders = 0, all = 0;
        if (hm_op_prepare(op, MPI_COMM_WORLD, 1000, &par, &inst) != HM_OK) {
            HM_CHECK(0, "%s: prepare for the corruption test failed: %s", hm_op_name(op),
                     hm_last_error());
            continue;
        }
        holders = corrupt_turns(op, inst);
        MPI_Allreduce(&holders, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int barrier = strstr(hm_op_name(op), "barrier") != NULL;
        HM_CHECK(barrier ? all == 0 : all >= 1,
                 "%s: %d ranks have a result buffer that was corrupted once", hm_op_name(op), all);
        hm_op_free(inst);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    every_op();
    corruption();
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
