/* include/harmonia/bench.h — the latency benchmark of `harmonia bench` as
 * one run: operations by name, each at every size (barrier and ibarrier
 * once), in an order shuffled with a seed, each prepared in host or device
 * memory or on NCCL, measured from a common start (hm_measure_run) and
 * handed to the caller as a row:
 *
 *     hm_bench_run_params_t p = {.ops = "allreduce,bcast", .sizes = sizes, .nsizes = 2};
 *     hm_bench_run_t *run;
 *     if (hm_bench_run_create(comm, &p, &run, NULL) != HM_OK) ... hm_last_error()
 *     ... hm_experiment_open ...
 *     hm_bench_run_measure(run, hm_experiment_procsync(e), &mp, on_row, ctx, NULL);
 *     hm_bench_run_free(run);
 *
 * Part of the measure layer (docs/architecture.md). Every function but
 * hm_bench_run_rows and hm_bench_run_free is collective over the
 * communicator given to hm_bench_run_create and returns the same status on
 * every rank with the same last error (error.h). */
#ifndef HARMONIA_BENCH_H
#define HARMONIA_BENCH_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include <harmonia/error.h>
#include <harmonia/measure.h>
#include <harmonia/ops.h>
#include <harmonia/procsync.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_bench_run_params {
    const char *ops;     /* comma-separated names: hm_op_find's, or hm_op_nccl_find's */
    const size_t *sizes; /* bytes, as given (each operation runs at each) */
    int nsizes;          /* at least 1 */
    hm_op_params_t op;   /* root and peer, checked against the communicator; batch
                          * (NCCL only): the rows' times are a run's / batch */
    int nccl;            /* 1: the operations are NCCL's, on device memory */
    int device_memory;   /* 1: MPI on device memory (the caller checked it is usable) */
    uint64_t seed;       /* the order the experiments run in (hm_measure_shuffle) */
} hm_bench_run_params_t;

/* What failed, for a caller that names the option it came from. */
typedef enum hm_bench_failed {
    HM_BENCH_FAILED_NONE = 0,
    HM_BENCH_FAILED_OPS,  /* an unknown name, no name, or an operation needing more ranks */
    HM_BENCH_FAILED_ROOT, /* op.root outside the communicator */
    HM_BENCH_FAILED_PEER, /* op.peer: outside, or the caller itself */
    HM_BENCH_FAILED_SIZE, /* a size the operation refuses */
    HM_BENCH_FAILED_NCCL, /* the NCCL communicator could not be made */
    HM_BENCH_FAILED_RUN,  /* preparing an experiment, or measuring it */
    HM_BENCH_FAILED_ROW,  /* the row callback stopped the run */
    HM_BENCH_FAILED_BATCH /* op.batch above 1 for MPI operations */
} hm_bench_failed_t;

typedef struct hm_bench_run hm_bench_run_t;

/* Collective over comm (kept, not duplicated: alive until
 * hm_bench_run_free): the operations found by name, every (operation,
 * size) checked against comm (hm_op_check_which), the experiments listed
 * op-major with sizes ascending as given (the rows' index), and their run
 * order shuffled with the seed. Nothing is allocated for the operations
 * yet, and nothing waits on a clock: a bad parameter costs nothing. HM_ENOENT
 * (an unknown name: 'unknown operation "x" (known: ...)'), HM_EINVAL (the
 * operation's own sentence and "(operation NAME)"), HM_ENOMEM; *failed
 * (NULL allowed) says which parameter. params need live only during the
 * call. */
HM_EXPORT int hm_bench_run_create(MPI_Comm comm, const hm_bench_run_params_t *params,
                                  hm_bench_run_t **out, hm_bench_failed_t *failed);

/* Local: the number of experiments (rows) of the run. */
HM_EXPORT size_t hm_bench_run_rows(const hm_bench_run_t *run);

/* One measured experiment. index: its place in the listing; order: when it
 * ran. status: HM_OK, or HM_EAGAIN when fewer than params->nrep repetitions
 * were valid (result says what was measured, and why it ended). wall_s:
 * the wall-clock time of its hm_measure_run on this rank. */
typedef struct hm_bench_row {
    const hm_op_t *op;
    size_t size_bytes;
    size_t index, order;
    int status;
    const hm_measure_result_t *result;
    double wall_s;
} hm_bench_row_t;

/* Collective: called on every rank for each row; returns HM_OK to go on,
 * anything else (the same on every rank) to stop the run. */
typedef int (*hm_bench_row_fn)(void *ctx, const hm_bench_row_t *row);

/* Collective over the run's comm (that of ps): the NCCL communicator at the
 * first call of an NCCL run, then each experiment in the run's order
 * prepared (hm_op_prepare, _device or _nccl), measured with params and
 * handed to row (with ctx, which may be NULL), its buffers freed after the
 * callback. Returns HM_OK, the callback's status (HM_BENCH_FAILED_ROW), or a
 * failure whose sentence names the experiment ("allreduce 8 B: ..."). The
 * same status, sentence and *failed (NULL allowed) on every rank. */
HM_EXPORT int hm_bench_run_measure(hm_bench_run_t *run, hm_procsync_t *ps,
                                   const hm_measure_params_t *params, hm_bench_row_fn row,
                                   void *ctx, hm_bench_failed_t *failed);

/* Collective when the run made an NCCL communicator (it frees it); else
 * local. NULL is ignored. */
HM_EXPORT void hm_bench_run_free(hm_bench_run_t *run);

#ifdef __cplusplus
}
#endif
#endif
