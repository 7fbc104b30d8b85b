/* tests/measure/test_corrupt.c — --validate catches a corrupted result.
 *
 * MPI_Allreduce of 64 bytes under barrier synchronization, validated every
 * repetition. After the run of attempt 7, rank 1 flips one byte of its
 * result buffer: the engine must count exactly one wrong result (the
 * validation also restores the buffers, so the later runs are right again),
 * and none without the corruption. The same corruption on every rank of
 * another run must count once per rank. */
#include <harmonia/measure.h>

#include "testutil.h"
#include "truth.h"

enum { NREP = 30, CORRUPT_ATTEMPT = 7 };

typedef struct corrupting_op {
    hm_op_instance_t *inst;
    int rank, all_ranks, enabled;
    long runs, target_run;
} corrupting_op_t;

static int run_corrupting(void *ctx)
{
    corrupting_op_t *c = ctx;
    int rc = hm_op_run(c->inst);
    size_t len = 0;
    unsigned char *buf = hm_op_result_buffer(c->inst, &len);
    if (c->enabled && c->runs == c->target_run && (c->all_ranks || c->rank == 1) && buf && len)
        buf[len / 2] ^= 0x5a;
    c->runs++;
    return rc;
}

static int validate(void *ctx, int *ok)
{
    corrupting_op_t *c = ctx;
    return hm_op_validate(c->inst, ok);
}

static long wrong_results(hm_procsync_t *ps, int enabled, int all_ranks)
{
    hm_op_params_t p = {.root = 0, .peer = 1};
    hm_op_instance_t *inst = NULL;
    hm_measure_params_t mp;
    hm_measure_result_t r;
    hm_measure_params_default(&mp);
    mp.nrep = NREP, mp.validate = 1;
    if (hm_op_prepare(hm_op_find("allreduce"), MPI_COMM_WORLD, 64, &p, &inst)) return -1;
    corrupting_op_t c = {inst, 0, all_ranks, enabled, 0, mp.warmup + CORRUPT_ATTEMPT};
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    hm_measure_target_t t = {
        .run = run_corrupting, .validate = validate, .ctx = &c, .participates = 1};
    int rc = hm_measure_run(MPI_COMM_WORLD, ps, &t, &mp, &r);
    long wrong = rc == HM_OK ? r.wrong_results : -1;
    hm_measure_result_free(&r);
    hm_op_free(inst);
    return wrong;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    hm_timer_t *timer = NULL;
    hm_clock_t *global = NULL;
    hm_procsync_t *ps = NULL;
    hm_procsync_params_t pp;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_procsync_params_default(&pp);
    int rc = hm_truth_shared_clock(MPI_COMM_WORLD, &timer, &global);
    if (rc == HM_OK) rc = hm_procsync_create("barrier", MPI_COMM_WORLD, global, &pp, &ps);
    HM_CHECK(rc == HM_OK, "set up");
    if (rc == HM_OK) {
        long clean = wrong_results(ps, 0, 0), one = wrong_results(ps, 1, 0);
        long every = wrong_results(ps, 1, 1);
        HM_CHECK(clean == 0, "no corruption: %ld wrong results", clean);
        HM_CHECK(one == 1, "one corrupted byte on rank 1: %ld wrong result (1 expected)", one);
        HM_CHECK(every == size, "corrupted on every rank: %ld wrong results (%d expected)", every,
                 size);
    }
    hm_procsync_free(ps);
    hm_clock_free(global);
    hm_timer_free(timer);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
