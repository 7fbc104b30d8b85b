/* include/harmonia/measure.h — the measurement engine.
 *
 * One experiment (an operation at one size) is measured as in Hunold & Carpen-Amarie 2016
 * Alg. 1 with the validity protocol of Schuchart et al. 2023, Listing 1:
 *   warm-up runs (synchronized, not recorded);
 *   repetitions: process synchronization (procsync.h, which returns a local
 *   validity flag and the agreed start), local start timestamp, the
 *   operation, local end timestamp; the timestamps are converted to the
 *   global clock right after the end timestamp, outside the timed region;
 *   every chunk of repetitions (--check-every, 1 for roundtime) the flags are
 *   agreed with one MPI_Allreduce and the chunk's start/end/duration reduced
 *   to the root (min start, max end, max local duration);
 *   repeated until nrep valid repetitions exist, the attempts run out
 *   (HM_EAGAIN) or roundtime's time slice ends.
 * Nothing is allocated, printed or communicated between the start and end
 * timestamps. Root memory is O(attempts); other ranks O(chunk). With more
 * ranks than processors, fit the procsync parameters to the machine first
 * (hm_procsync_fit, what bench and skew do): at the 1 us default late-start
 * tolerance nearly every repetition with a deadline is invalid there.
 *
 * Run-time definitions (design: "Run-time definitions"), per repetition:
 *   global  max over ranks of the global end - min over ranks of the global
 *           start (the makespan on the global clock);
 *   local   max over ranks of (local end - local start).
 * For pingpong both are halved (half round trip) and only rank 0 and the
 * peer contribute. */
#ifndef HARMONIA_MEASURE_H
#define HARMONIA_MEASURE_H
#include <harmonia/export.h>
#include <harmonia/progress.h>
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/ops.h>
#include <harmonia/procsync.h>
#include <harmonia/results.h>
#include <harmonia/stats.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What is measured: run (the timed region) and an optional validate (ok = 1
 * when the last run's result is right; restores inputs). participates = 0
 * on ranks whose timestamps do not count (pingpong's bystanders, a
 * pattern's ranks without a message), nor whether they started late:
 * their start delays nothing that is timed; halve = 1
 * to report half the time (pingpong's round trip). device_time (optional)
 * gives, after each run and outside the timed region, the device's own
 * time of that run (a GPU's events around its stream's work), kept beside
 * the host's times, never in their place. */
typedef struct hm_measure_target {
    int (*run)(void *ctx);
    int (*validate)(void *ctx, int *ok);
    void *ctx;
    int participates;
    int halve;
    int (*device_time)(void *ctx, double *seconds);
    /* The seconds the last run spent in its launch calls (a pattern's
     * hm_plan_start: CommBench's start time), taken inside the timed
     * region; NULL: none. */
    int (*call_time)(void *ctx, double *seconds);
} hm_measure_target_t;

/* A target over an operation instance of ops.h, every field set (no device
 * time; rank is this rank in the instance's communicator, peer the
 * pingpong partner). */
HM_EXPORT void hm_measure_target_op(hm_measure_target_t *target, const hm_op_t *op,
                                    hm_op_instance_t *inst, int rank, int peer);

/* How the repetitions of an experiment are going, for a caller that shows it
 * (the root, after every chunk). */
typedef struct hm_measure_status {
    long nrep;          /* valid repetitions wanted */
    long valid;         /* agreed valid so far */
    long attempts;      /* tried so far (valid and discarded) */
    long most_attempts; /* the attempts allowed (max_attempts or the budget) */
    double elapsed_s;   /* since the first measured attempt */
} hm_measure_status_t;

typedef void (*hm_measure_status_fn)(void *arg, const hm_measure_status_t *status);

/* An injected late start (the test bed's arrival delays, docs/testbed.md):
 * rank sleeps delay_s between the end of its process synchronization and the
 * start timestamp of attempt (counted from 0 after the warm-up), as a
 * preemption would, so that the validity checks can be seen to catch it
 * (bench --inject-delay). delay_s 0: none, which a zeroed struct gives. */
typedef struct hm_measure_injection {
    int rank;
    long attempt;
    double delay_s;
} hm_measure_injection_t;

typedef struct hm_measure_params {
    long nrep;                   /* valid repetitions wanted (>= 1) */
    long warmup;                 /* synchronized runs before, not recorded (>= 0) */
    long max_attempts;           /* repetitions tried at most; 0 = 10 x nrep + 100 */
    double budget_factor;        /* > 0: at most budget_factor x nrep + HM_MEASURE_BUDGET_EXTRA
                                  * attempts, when fewer than max_attempts allows (a busy
                                  * machine: hm_experiment_measure_params); 0: none */
    int validate;                /* check every repetition's result */
    size_t cold_cache_bytes;     /* > 0: overwrite a buffer this big before every
                                  * repetition (Hunold & Carpen-Amarie 2016, §5.8) */
    hm_progress_t progress;      /* root, after every chunk: valid repetitions of nrep */
    hm_measure_status_fn status; /* root, after every chunk (NULL: none) */
    void *status_arg;
    hm_measure_injection_t inject; /* one rank's late start (delay_s >= 0; 0: none) */
} hm_measure_params_t;

/* The attempts budget on a busy machine (hm_experiment_measure_params):
 * twice nrep, plus a few chunks for a small nrep. Under other processes'
 * load each attempt costs about twice its quiet time (the ranks get half a
 * core), so the budget keeps an experiment within about four times its
 * quiet wall time even when half its attempts are discarded, where ten
 * times nrep took 25 times as long; with fewer than half discarded it still
 * reaches nrep. */
#define HM_MEASURE_BUDGET_FACTOR 2.0
#define HM_MEASURE_BUDGET_EXTRA  32

/* nrep 1000, warmup 10, max_attempts 0, budget_factor 0, no validation, no
 * cold cache, no injected delay. */
HM_EXPORT void hm_measure_params_default(hm_measure_params_t *params);

/* Why the repetitions of an experiment stopped. */
typedef enum hm_measure_end {
    HM_MEASURE_END_NREP = 0, /* nrep valid repetitions */
    HM_MEASURE_END_SLICE,    /* roundtime's time slice ended */
    HM_MEASURE_END_ATTEMPTS, /* max_attempts were tried */
    HM_MEASURE_END_BUDGET    /* the attempts budget (budget_factor) was spent */
} hm_measure_end_t;

/* "nrep", "slice", "attempts", "budget". */
HM_EXPORT const char *hm_measure_end_name(hm_measure_end_t end);

/* One experiment's outcome. Counts are the same on every rank; the arrays
 * are filled on the root (rank 0) only, one entry per attempt (n of them,
 * valid and invalid alike), NULL elsewhere. */
typedef struct hm_measure_result {
    long attempts;         /* repetitions run (== n) */
    long nvalid, ninvalid; /* attempts agreed valid / invalid */
    long wrong_results;    /* runs whose result failed validation, all ranks */
    long n;
    double *global_s;         /* root: makespan on the global clock */
    double *local_s;          /* root: max local duration */
    double *start_spread_s;   /* root: max - min global start (arrival skew) */
    double *start_s;          /* root: min global start */
    double *late_tolerance_s; /* root: the largest late-start tolerance a taking-part
                               * rank's start was held to (hm_procsync_stop_tolerance);
                               * NaN for a method without a deadline */
    double *device_s;         /* root: max over ranks of the target's device time; NULL
                               * for a target without one (NaN where no rank had it) */
    double *call_s;           /* root: max over ranks of the target's call time; NULL for a
                               * target without one */
    unsigned char *valid;     /* root: agreed validity */
    char procsync[160];       /* hm_procsync_describe at the end, root's */
    hm_measure_end_t end;     /* why the repetitions stopped */
    long most_attempts;       /* the attempts that were allowed */
    double elapsed_s;         /* wall time of the attempts (warm-up excluded) */
    long late_capped;         /* starts that only the cap on the late-start tolerance
                               * made late, all ranks (hm_procsync_late_capped) */
    double window_s;          /* hm_procsync_window at the end, root's (NaN: none) */
} hm_measure_result_t;

HM_EXPORT void hm_measure_result_free(hm_measure_result_t *result);

/* Collective over comm (the communicator of target's operation; ps was
 * created over it). Measures one experiment into *result (free with
 * hm_measure_result_free). Returns HM_OK (nrep valid, or the slice ended);
 * HM_EAGAIN when the attempts or their budget ran out before nrep valid
 * repetitions (result holds what was measured, result->end says which);
 * HM_EINVAL for bad params; HM_ENOMEM; HM_EMPI. The same status on every
 * rank: the decision to stop is agreed with the flags of a chunk. */
HM_EXPORT int hm_measure_run(MPI_Comm comm, hm_procsync_t *ps, const hm_measure_target_t *target,
                             const hm_measure_params_t *params, hm_measure_result_t *result);

/* What a result says, on the root: the global run-time of the valid
 * repetitions, and beside it what was discarded, so that the bias of
 * keeping only the undisturbed starts can be seen. */
typedef struct hm_measure_summary {
    hm_stats_summary_t global;    /* global run-time of the valid repetitions (NaN: none) */
    double local_median_s;        /* median local run-time of the valid ones */
    double start_spread_median_s; /* median start spread of the valid ones */
    long valid, discarded;        /* attempts agreed valid / discarded */
    double discarded_median_s;    /* median global run-time of the discarded (NaN: none) */
    int conditional;              /* more than HM_MEASURE_CONDITIONAL_SHARE of the attempts
                                   * were discarded: the figure holds for undisturbed
                                   * starts only */
} hm_measure_summary_t;

/* A row whose valid repetitions are a minority of its attempts rests on the
 * undisturbed starts a busy machine happened to give: it says so. */
#define HM_MEASURE_CONDITIONAL_SHARE 0.5

/* Root: summarize result. HM_EINVAL without the root's arrays, HM_ENOMEM. */
HM_EXPORT int hm_measure_summarize(const hm_measure_result_t *result, hm_measure_summary_t *out);

/* Root: the per-repetition rows of result into raw, a file of kind
 * HM_RESULTS_BENCH_RAW or HM_RESULTS_PATTERN_RAW (opened with
 * hm_results_csv_open): one row per attempt with op, size_bytes, the
 * attempt, its validity, the global and local run-times, the start spread
 * and start, and for pattern the device time (NaN without one). Rows are
 * ended, not checkpointed. HM_EINVAL for another kind (or without the
 * root's arrays); otherwise as hm_results_row_put. */
HM_EXPORT int hm_measure_write_raw(hm_csv_t *raw, hm_results_kind_t kind, const char *op,
                                   size_t size_bytes, const hm_measure_result_t *result);

/* Bytes of the last-level cache of this machine (sysconf, else hwloc-free
 * fallback of 32 MiB): the default cold-cache buffer. */
HM_EXPORT size_t hm_measure_llc_bytes(void);

/* A permutation of 0..n-1 from seed (Fisher-Yates over harmonia's RNG), the
 * same on every rank for the same seed: the experiment order. */
HM_EXPORT void hm_measure_shuffle(size_t *order, size_t n, uint64_t seed);

/* ---- Exit skew of a synchronization method (Hunold & Carpen-Amarie 2016, Fig. 10) ---- */

/* Per repetition, every rank waits for a common start on the global clock
 * (Round-Time: the root broadcasts now + 3 x MPI_Bcast latency), calls the
 * method (hm_procsync_start of ps) and records its exit time on the global
 * clock of the method (hm_procsync_clock: harmonize re-synchronizes its own)
 * and, where the truth is known (one real clock shared by all ranks, or
 * synthetic clocks), on the true clock. The exit then passes the late-start
 * check of hm_procsync_stop, as a benchmark's start timestamp would. */
typedef struct hm_skew_result {
    long n;           /* repetitions kept: all but those with a late common start */
    long late_starts; /* repetitions where a rank reached the common start late */
    long missed;      /* kept repetitions some rank's method declared invalid: its flag
                       * was 0 (a missed deadline, a late exit), or its exit failed
                       * the late-start check of bench (hm_procsync_stop) */
    int truth_known;
    double *skew_s;             /* root: per kept repetition, max - min exit (global clock) */
    double *true_skew_s;        /* root: the same in true time (NULL when unknown) */
    double *mean_offset_s;      /* root: per rank, mean of exit - first exit (global) */
    double *true_mean_offset_s; /* root: the same in true time (NULL when unknown) */
    unsigned char *valid;       /* root: per kept repetition, 1 unless missed (the
                                 * repetitions a benchmark keeps) */
    double cost_s;              /* per call: mean exit - common start (max over ranks), or
                                 * wall time per call when back to back */
} hm_skew_result_t;

HM_EXPORT void hm_skew_result_free(hm_skew_result_t *result);

/* Collective over comm (ps created over comm with global). back_to_back = 1
 * skips the common start: the method is called again as soon as the previous
 * call's exit was recorded, as a benchmark loop calls it (cost_s is then the
 * wall time per call). */
HM_EXPORT int hm_measure_skew(MPI_Comm comm, hm_procsync_t *ps, hm_clock_t *global, long nrep,
                              int back_to_back, hm_skew_result_t *result);

#ifdef __cplusplus
}
#endif
#endif
