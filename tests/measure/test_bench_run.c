/* tests/measure/test_bench_run.c — hm_bench_run (bench.h) against what it
 * must do, known in advance: the listing (op-major, sizes as given, barrier
 * once at 0 bytes), the run order (hm_measure_shuffle of the seed, the
 * oracle), every row at its valid count, the callback's stop, and each
 * refusal with its parameter and sentence, the same on every rank.
 *
 * Functional: --sync barrier has no deadline, so every repetition is valid
 * whatever the machine does (hm_test_functional_experiment); the clocks
 * are skampi's, as the rows do not depend on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/bench.h>
#include <harmonia/experiment.h>

#include "testutil.h"

enum { NREP = 20, NROWS = 5 };

static const size_t sizes[] = {8, 1024};

/* The rows hm_bench_run_create lists for "allreduce,barrier,bcast". */
static const struct {
    const char *op;
    size_t size_bytes;
} listing[NROWS] = {
    {"allreduce", 8}, {"allreduce", 1024}, {"barrier", 0}, {"bcast", 8}, {"bcast", 1024}};

typedef struct seen {
    int calls, stop_at, bad_rows;
    size_t index[NROWS];
} seen_t;

static int on_row(void *ctx, const hm_bench_row_t *row)
{
    seen_t *s = ctx;
    int k = s->calls++;
    if (k < NROWS) s->index[k] = row->index;
    int good = row->order == (size_t)k && row->index < NROWS && row->status == HM_OK &&
               !strcmp(hm_op_name(row->op), listing[row->index].op) &&
               row->size_bytes == listing[row->index].size_bytes && row->result->nvalid == NREP &&
               row->wall_s > 0;
    s->bad_rows += !good;
    return s->calls == s->stop_at ? 7 : HM_OK;
}

static hm_bench_run_params_t params(const char *ops, int root)
{
    hm_bench_run_params_t p = {.ops = ops, .sizes = sizes, .nsizes = 2, .seed = 11};
    p.op.root = root;
    p.op.peer = 1;
    return p;
}

static void check_rows(MPI_Comm comm, hm_experiment_t *e)
{
    hm_bench_run_params_t p = params("allreduce,barrier,bcast", 0);
    hm_bench_run_t *run = NULL;
    int rc = hm_bench_run_create(comm, &p, &run, NULL);
    HM_CHECK(rc == HM_OK, "create: %s", hm_last_error());
    if (rc != HM_OK) return;
    HM_CHECK(hm_bench_run_rows(run) == NROWS, "%d rows: %zu", NROWS, hm_bench_run_rows(run));
    hm_measure_params_t mp;
    hm_measure_params_default(&mp);
    mp.nrep = NREP;
    seen_t s = {0};
    hm_bench_failed_t failed = HM_BENCH_FAILED_ROW;
    rc = hm_bench_run_measure(run, hm_experiment_procsync(e), &mp, on_row, &s, &failed);
    HM_CHECK(rc == HM_OK && failed == HM_BENCH_FAILED_NONE, "measure: %s", hm_last_error());
    HM_CHECK(s.calls == NROWS && s.bad_rows == 0,
             "%d rows handed over, each its listing's op and size, %d valid: %d calls, %d bad",
             NROWS, NREP, s.calls, s.bad_rows);
    size_t order[NROWS];
    hm_measure_shuffle(order, NROWS, p.seed);
    HM_CHECK(!memcmp(order, s.index, sizeof order), "run order = hm_measure_shuffle(seed 11)");
    /* The callback's status stops the run after that row. */
    seen_t stop = {.stop_at = 2};
    rc = hm_bench_run_measure(run, hm_experiment_procsync(e), &mp, on_row, &stop, &failed);
    HM_CHECK(rc == 7 && failed == HM_BENCH_FAILED_ROW && stop.calls == 2,
             "a callback's 7 stops the run: status %d, failed %d, %d calls", rc, (int)failed,
             stop.calls);
    hm_bench_run_free(run);
}

/* A refusal: status, parameter and a sentence containing want. */
static void check_refusal(MPI_Comm comm, const char *ops, int root, int status,
                          hm_bench_failed_t what, const char *want)
{
    hm_bench_run_params_t p = params(ops, root);
    hm_bench_run_t *run = (hm_bench_run_t *)&p; /* must come back NULL */
    hm_bench_failed_t failed = HM_BENCH_FAILED_NONE;
    int rc = hm_bench_run_create(comm, &p, &run, &failed);
    HM_CHECK(rc == status && failed == what && !run && strstr(hm_last_error(), want),
             "ops \"%s\" root %d: status %d, failed %d, sentence \"%s\" (want %d, %d, \"%s\")", ops,
             root, rc, (int)failed, hm_last_error(), status, (int)what, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_experiment_params_t p;
    hm_test_functional_experiment(&p);
    p.clock_sync = "skampi";
    p.procsync = "barrier";
    hm_experiment_t *e = NULL;
    int rc = hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL);
    HM_CHECK(rc == HM_OK, "experiment: %s", hm_last_error());
    if (rc == HM_OK) check_rows(MPI_COMM_WORLD, e);
    hm_experiment_close(e);
    check_refusal(MPI_COMM_WORLD, "allreduce,nosuch", 0, HM_ENOENT, HM_BENCH_FAILED_OPS,
                  "unknown operation \"nosuch\" (known: ");
    /* The operation's own sentence comes first, whole: it was once formatted
     * into the buffer it was read from, and came out empty. */
    char root_said[96];
    snprintf(root_said, sizeof root_said,
             "root %d is outside the communicator (%d ranks) "
             "(operation bcast)",
             size + 3, size);
    check_refusal(MPI_COMM_WORLD, "bcast", size + 3, HM_EINVAL, HM_BENCH_FAILED_ROOT, root_said);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
