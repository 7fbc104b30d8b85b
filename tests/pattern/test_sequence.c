/* tests/pattern/test_sequence.c — plans through the measurement engine
 * (hm_plan_measure), at 2, 3 and 4 ranks, both backends:
 *   - one plan (a ring: rank r to r + 1), validated every repetition: no
 *     wrong byte, nrep valid repetitions, run-times positive;
 *   - a sequence of P - 1 dependent steps forwarding one buffer around the
 *     ring (step i: rank i to rank i + 1, from the buffer it received in
 *     step i - 1), with no barrier between steps: after each repetition
 *     the last rank holds rank 0's original bytes. Step i + 1 on rank i
 *     starts only after its own wait of step i, so a forwarded buffer that
 *     arrived late or partly would differ (the oracle is rank 0's fill);
 *   - concurrent mode on two independent plans (the ring both ways),
 *     validated by default;
 *   - dependent steps without a validation of the sequence are refused. */
#include <string.h>

#include <harmonia/experiment.h>
#include <harmonia/pattern.h>

#include "testutil.h"

enum { NREP = 20, BYTES = 4096 };

static hm_experiment_t *open_experiment(void)
{
    hm_experiment_params_t p;
    hm_experiment_t *e = NULL;
    hm_test_functional_experiment(&p); /* bytes and counts, not start times */
    p.sync.fitpoints = 200;
    int rc = hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL);
    HM_CHECK(rc == HM_OK, "experiment open: %s", hm_last_error());
    return e;
}

static hm_measure_params_t params(int validate)
{
    hm_measure_params_t mp;
    hm_measure_params_default(&mp);
    mp.nrep = NREP;
    mp.warmup = 2;
    mp.validate = validate;
    return mp;
}

/* The ring: each rank sends buffer 0 to the next and receives into 1. */
static void single_plan(hm_experiment_t *e, const char *backend, hm_memory_t memory)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_buffer_t *out = NULL, *in = NULL;
    hm_plan_t *plan = NULL;
    hm_buffer_alloc(MPI_COMM_WORLD, memory, BYTES, &out);
    hm_buffer_alloc(MPI_COMM_WORLD, memory, BYTES, &in);
    hm_plan_create(MPI_COMM_WORLD, hm_backend_find(backend), &plan);
    for (int r = 0; r < size; r++) hm_plan_add(plan, out, 0, in, 0, BYTES, r, (r + 1) % size);
    int rc = hm_plan_commit(plan);
    hm_measure_params_t mp = params(1);
    hm_measure_result_t res;
    uint64_t wrong = 1;
    if (rc == HM_OK)
        rc = hm_plan_measure(&plan, 1, HM_SEQUENCE_STEPS, hm_experiment_procsync(e), &mp, NULL,
                             &res, &wrong);
    HM_CHECK(rc == HM_OK && res.nvalid == NREP && wrong == 0 && res.wrong_results == 0,
             "%s ring: %ld valid of %d, %llu wrong bytes (%s)", backend,
             rc == HM_OK ? res.nvalid : 0, NREP, (unsigned long long)wrong,
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK && rank == 0) {
        long positive = 0;
        for (long i = 0; i < res.n; i++) positive += res.global_s[i] > 0;
        HM_CHECK(positive == res.n, "%s ring: every run-time positive (%ld of %ld)", backend,
                 positive, res.n);
    }
    if (rc == HM_OK) hm_measure_result_free(&res);
    hm_plan_free(plan);
    hm_buffer_free(in);
    hm_buffer_free(out);
}

typedef struct forward {
    hm_buffer_t *buf; /* each rank: what it receives, then forwards */
    int rank, last;
} forward_t;

static int forward_fill(void *ctx)
{
    forward_t *f = ctx;
    unsigned char *b = hm_buffer_data(f->buf);
    for (size_t i = 0; i < BYTES; i++) b[i] = f->rank == 0 ? hm_pattern_byte(0, i) : 0;
    return HM_OK;
}

static int forward_check(void *ctx, uint64_t *wrong)
{
    forward_t *f = ctx;
    const unsigned char *b = hm_buffer_data(f->buf);
    *wrong = 0;
    for (size_t i = 0; f->rank == f->last && i < BYTES; i++)
        *wrong += b[i] != hm_pattern_byte(0, i);
    return HM_OK;
}

static void forwarding(hm_experiment_t *e, const char *backend, hm_memory_t memory)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nsteps = size - 1;
    hm_plan_t *steps[8] = {0};
    forward_t f = {NULL, rank, size - 1};
    hm_buffer_alloc(MPI_COMM_WORLD, memory, BYTES, &f.buf);
    int rc = HM_OK;
    for (int i = 0; i < nsteps && rc == HM_OK; i++) {
        rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find(backend), &steps[i]);
        if (rc == HM_OK) rc = hm_plan_add(steps[i], f.buf, 0, f.buf, 0, BYTES, i, i + 1);
        if (rc == HM_OK) rc = hm_plan_commit(steps[i]);
    }
    hm_measure_params_t mp = params(1);
    hm_measure_result_t res;
    uint64_t wrong = 1;
    rc = nsteps > 1 ? hm_plan_measure(steps, nsteps, HM_SEQUENCE_STEPS, hm_experiment_procsync(e),
                                      &mp, NULL, &res, &wrong)
                    : HM_EINVAL; /* one step is not a sequence: nothing to refuse */
    HM_CHECK(rc == HM_EINVAL && (nsteps == 1 || strstr(hm_last_error(), "dependent steps")),
             "%s: dependent steps without a sequence validation refused: %s", backend,
             hm_last_error());
    hm_plan_validation_t v = {forward_fill, forward_check, &f};
    rc = hm_plan_measure(steps, nsteps, HM_SEQUENCE_STEPS, hm_experiment_procsync(e), &mp, &v, &res,
                         &wrong);
    HM_CHECK(rc == HM_OK && res.nvalid == NREP && wrong == 0,
             "%s: %d forwarding steps deliver rank 0's bytes to rank %d in %ld of %d runs (%llu "
             "wrong bytes; %s)",
             backend, nsteps, size - 1, rc == HM_OK ? res.nvalid : 0, NREP,
             (unsigned long long)wrong, rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK) hm_measure_result_free(&res);
    for (int i = 0; i < nsteps; i++) hm_plan_free(steps[i]);
    hm_buffer_free(f.buf);
}

/* Two independent plans, the ring both ways, each its own buffers: run
 * concurrently (all started, then all waited for), validated by default. */
static void concurrent(hm_experiment_t *e, const char *backend, hm_memory_t memory)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_buffer_t *buf[4] = {0};
    hm_plan_t *steps[2] = {0};
    int rc = HM_OK;
    for (int b = 0; b < 4 && rc == HM_OK; b++)
        rc = hm_buffer_alloc(MPI_COMM_WORLD, memory, BYTES, &buf[b]);
    for (int k = 0; k < 2 && rc == HM_OK; k++) {
        rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find(backend), &steps[k]);
        for (int r = 0; r < size && rc == HM_OK; r++)
            rc = hm_plan_add(steps[k], buf[2 * k], 0, buf[2 * k + 1], 0, BYTES, r,
                             (r + (k ? size - 1 : 1)) % size);
        if (rc == HM_OK) rc = hm_plan_commit(steps[k]);
    }
    hm_measure_params_t mp = params(1);
    hm_measure_result_t res;
    uint64_t wrong = 1;
    if (rc == HM_OK)
        rc = hm_plan_measure(steps, 2, HM_SEQUENCE_CONCURRENT, hm_experiment_procsync(e), &mp, NULL,
                             &res, &wrong);
    HM_CHECK(rc == HM_OK && res.nvalid == NREP && wrong == 0,
             "%s: 2 concurrent plans, %ld valid, %llu wrong bytes (%s)", backend,
             rc == HM_OK ? res.nvalid : 0, (unsigned long long)wrong,
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK) hm_measure_result_free(&res);
    for (int k = 0; k < 2; k++) hm_plan_free(steps[k]);
    for (int b = 0; b < 4; b++) hm_buffer_free(buf[b]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hm_experiment_t *e = open_experiment();
    if (e) {
        single_plan(e, "mpi", HM_MEMORY_HOST);
        single_plan(e, "host", HM_MEMORY_SHARED);
        forwarding(e, "mpi", HM_MEMORY_HOST);
        forwarding(e, "host", HM_MEMORY_SHARED);
        concurrent(e, "mpi", HM_MEMORY_HOST);
        concurrent(e, "host", HM_MEMORY_SHARED);
        hm_experiment_close(e);
    }
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
