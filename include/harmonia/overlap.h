/* include/harmonia/overlap.h — computation/communication overlap of MPI
 * nonblocking collectives [Denis et al. 2022].
 *
 * The methodology compares three measurements on times chosen in advance
 * (§4.3): the communication alone (t_comm_ref), the computation alone
 * (t_comp_ref), and both overlapped (Alg. 1), then derives the overhead
 * ratio (eq. 1), the MPI impact ratio (eq. 2) and the concurrency ratios
 * (eq. 3-4).
 *
 * This header holds the computation so far:
 *   - hm_compute_*: the compute kernel of §5.1, one thread per core, each
 *     running a sequential dgemm (CBLAS, OpenBLAS single-threaded inside),
 *     with each thread's time measured inside the thread;
 *   - hm_compute_calibrate: the matrix order whose slowest thread takes a
 *     target time (§4.3, §5.1).
 * The calibration of the communication, the overlap runs and the ratios
 * will be further sections of this header.
 *
 * The same kernel, compiled without MPI, is the program harmonia-compute: run
 * beside a program that initialized MPI it gives the MPI impact ratio (eq. 2).
 * Everything declared so far is local: no MPI call; any thread may use its
 * own handle (one thread at a time per handle). */
#ifndef HARMONIA_OVERLAP_H
#define HARMONIA_OVERLAP_H
#include <harmonia/export.h>
#include <stddef.h>
#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The compute kernel (t_comp_ref) ---- */

typedef struct hm_compute hm_compute_t;

typedef struct hm_compute_params {
    int threads; /* compute threads, one per core; 0 = one per core the calling thread may
                  * run on (hm_compute_cores). Fewer leave the last cores free, e.g. cores - 1
                  * for a dedicated progress core [Denis et al. 2022, §5.1] */
} hm_compute_params_t;

/* Defaults: threads 0 (every core). */
HM_EXPORT void hm_compute_params_default(hm_compute_params_t *params);

/* *cores = the cores the calling thread may run on: the cores (hwloc) that
 * hold a processor of its binding, so under an mpirun that binds each rank
 * to one core it is 1 (--bind-to none, or --map-by ppr:1:node:pe=N, gives a
 * rank the node's cores). One thread per physical core: hyperthreads are
 * not counted. HM_ENOTSUP when hwloc cannot read the topology. Local. */
HM_EXPORT int hm_compute_cores(int *cores);

/* A compute kernel of params->threads threads (params NULL: defaults),
 * thread t pinned to one processor of the t-th usable core. Sets OpenBLAS
 * to one thread per call for the whole process: each compute thread runs a
 * sequential dgemm (docs/overlap.md). HM_EINVAL for threads < 0 or more
 * than hm_compute_cores, with the last error naming the value and the limit
 * ("threads 3 is more than the 2 cores the calling thread may run on");
 * HM_ENOTSUP when hwloc cannot read the topology, or when cblas_dgemm is
 * bound to another library than OpenBLAS (a program that links GSL's
 * reference CBLAS first: the kernel would time the wrong, 30 times slower,
 * dgemm); HM_ENOMEM. *out is owned by the caller (hm_compute_free). No
 * matrices yet: hm_compute_set_size or hm_compute_calibrate. Local. */
HM_EXPORT int hm_compute_create(const hm_compute_params_t *params, hm_compute_t **out);
HM_EXPORT void hm_compute_free(hm_compute_t *c);

/* The number of compute threads (what 0 resolved to), the cores the calling
 * thread could run on at creation, and hwloc's logical index of the core
 * thread t is pinned to (-1 outside 0..threads-1). */
HM_EXPORT int hm_compute_threads(const hm_compute_t *c);
HM_EXPORT int hm_compute_cores_of(const hm_compute_t *c);
HM_EXPORT int hm_compute_core(const hm_compute_t *c, int thread);

/* The current matrix order n (0 before any), and the largest allowed: three
 * n x n matrices of doubles per thread within half of the physical memory. */
HM_EXPORT int hm_compute_size(const hm_compute_t *c);
HM_EXPORT int hm_compute_max_size(const hm_compute_t *c);

/* Floating-point operations of one thread's dgemm of order n: 2 n^3. */
HM_EXPORT double hm_compute_flop(int n);

/* Give every thread its matrices of order n (1 <= n <= hm_compute_max_size,
 * HM_EINVAL otherwise with the limit in the last error). Each thread
 * allocates and first writes its own, pinned, so that their pages are local
 * to its core; storage only grows, a smaller n reuses it. HM_ENOMEM,
 * HM_ENOTSUP (the OpenMP team or the pinning failed; the last error says
 * which). Local. */
HM_EXPORT int hm_compute_set_size(hm_compute_t *c, int n);

/* Run the kernel once: every thread computes C = A B on its own matrices of
 * the current order with one sequential cblas_dgemm, all threads started
 * together. per_thread_s (hm_compute_threads entries, caller's) receives
 * each thread's time in seconds, measured inside the thread around the
 * dgemm call alone (CLOCK_MONOTONIC): the slowest is the kernel's time, as
 * in the paper ("the time on the slowest core"), the others show imbalance
 * between cores. The caller's own thread computes as thread 0 and gets its
 * binding back afterwards. HM_EINVAL before any size is set; HM_ENOTSUP
 * when OpenMP gives a smaller team than asked (OMP_THREAD_LIMIT, a call
 * from a parallel region) or a thread cannot be pinned. Local. */
HM_EXPORT int hm_compute_run(hm_compute_t *c, double *per_thread_s);

/* What computes, for reports and result files, e.g. "dgemm of
 * /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0 (OpenBLAS
 * 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64),
 * single-threaded, 2 threads on cores 0,1 of 2, n=700" (no order before
 * the first). Local. */
HM_EXPORT void hm_compute_describe(const hm_compute_t *c, char *buf, size_t len);

/* ---- Calibration of the computation [Denis et al. 2022, §4.3, §5.1] ---- */

enum { HM_COMPUTE_PROBES_MAX = 16 }; /* most probes one calibration may use */

typedef struct hm_compute_calib_params {
    double target_s;  /* the time the slowest thread should take */
    double tolerance; /* accepted relative error |time - target| / target, in (0, 1) */
    int runs;         /* kernel runs per probe; the probe's time is the slowest thread's
                       * median over them */
    int max_probes;   /* probes before giving up, 1 to HM_COMPUTE_PROBES_MAX */
} hm_compute_calib_params_t;

/* Defaults: target_s 0.01, tolerance 0.1 (the paper's 10 %, "a compromise
 * between precision and estimation time", §5.1), runs 5, max_probes 12. */
HM_EXPORT void hm_compute_calib_params_default(hm_compute_calib_params_t *params);

/* How a calibration ended. */
typedef enum hm_compute_outcome {
    HM_COMPUTE_CONVERGED = 0, /* a probe within tolerance of the target */
    HM_COMPUTE_BELOW_MIN,     /* n = 1 is already slower than target (1 + tolerance) */
    HM_COMPUTE_ABOVE_MAX,     /* the largest order memory allows is faster than the target */
    HM_COMPUTE_GAP,           /* orders n and n + 1 fall on either side of the tolerance band
                               * (possible only where they differ by more than the band: small
                               * n; elsewhere it is noise, and both are probed again) */
    HM_COMPUTE_OUT_OF_PROBES  /* max_probes probes, none within tolerance */
} hm_compute_outcome_t;

/* One probe: the order tried, its time (the slowest thread's median over
 * its runs) and how many runs it took: params->runs, but 1 when the first
 * run was far below the target and 3 when far above (see
 * hm_compute_calibrate). */
typedef struct hm_compute_probe {
    int n;
    double time_s;
    int runs;
} hm_compute_probe_t;

typedef struct hm_compute_calibration {
    hm_compute_outcome_t outcome;
    int converged;     /* 1 when outcome is HM_COMPUTE_CONVERGED */
    int n;             /* the order kept: the probe closest to the target */
    double time_s;     /* its time in seconds: the slowest thread's median */
    double error;      /* (time_s - target_s) / target_s */
    double duration_s; /* wall time the calibration took, all probes together */
    int probes;        /* probes used, the entries of probe[] */
    hm_compute_probe_t probe[HM_COMPUTE_PROBES_MAX];
} hm_compute_calibration_t;

/* Find the matrix order whose slowest thread takes params->target_s (params
 * NULL: defaults), by probes over n. A probe runs the kernel params->runs
 * times and takes each thread's median, then the slowest thread's; a first
 * run more than 50 % (3 tolerances) below the target decides alone, one as
 * far above takes 3 runs (a neighbour's process can slow one run, none can
 * speed it up). The next n comes from time = a n^b fitted in log space:
 * through the two probes that bracket the target once it is bracketed,
 * before that through the latest probe and the other one nearest the
 * target (b = 3, dgemm's flop count, from a single probe or a slope no
 * dgemm has), so that a few probes suffice; a bracket that contradicts
 * dgemm is probed again. The first probe is the handle's current order (a
 * grid of targets starts each from the last), or 64 before any.
 * On return the handle's size is result->n, result describes every probe,
 * and per_thread_s (hm_compute_threads entries, caller's; NULL: not
 * wanted) holds each thread's median at result->n. Returns HM_OK when
 * converged. Otherwise the result is still filled, with converged = 0, and
 * the status says why: HM_ERANGE when no order can hit the target
 * (BELOW_MIN, ABOVE_MAX, GAP), HM_EAGAIN when the probes ran out (what a
 * machine too noisy for the tolerance ends with); the last error gives the
 * target and the closest time. HM_EINVAL for bad params (the last error
 * names the field and value); HM_ENOMEM, HM_ENOTSUP as hm_compute_set_size
 * and hm_compute_run. Local. */
HM_EXPORT int hm_compute_calibrate(hm_compute_t *c, const hm_compute_calib_params_t *params,
                                   hm_compute_calibration_t *result, double *per_thread_s);

/* The name of an outcome: "converged", "below-min", "above-max", "gap",
 * "out-of-probes"; NULL for other values. */
HM_EXPORT const char *hm_compute_outcome_name(hm_compute_outcome_t outcome);

#ifdef __cplusplus
}
#endif
#endif
