/* include/harmonia/overlap.h — computation/communication overlap of MPI
 * nonblocking collectives [Denis et al. 2022].
 *
 * The methodology compares three measurements on times chosen in advance
 * (§4.3): the communication alone (t_comm_ref), the computation alone
 * (t_comp_ref), and both overlapped (Alg. 1), then derives the overhead
 * ratio (eq. 1), the MPI impact ratio (eq. 2) and the concurrency ratios
 * (eq. 3-4).
 *
 * Sections:
 *   - hm_compute_*: the compute kernel of §5.1, one thread per core, each
 *     running a sequential dgemm (CBLAS, OpenBLAS single-threaded inside),
 *     with each thread's time measured inside the thread, and the matrix
 *     order whose slowest thread takes a target time (§4.3, §5.1). Local:
 *     no MPI call; any thread may use its own handle (one thread at a time
 *     per handle);
 *   - hm_overlap_calibrate_comm: the message size at which a nonblocking
 *     collective takes a target time (§4.3, §5.1). Collective;
 *   - hm_overlap_run: the overlap run (Alg. 1) through the measurement
 *     engine, and hm_overlap_comp_ref, the reference computation timed the
 *     same way. Collective;
 *   - hm_overlap_ratios, hm_overlap_summarize: eq. 1, 3 and 4 per
 *     repetition and their medians. Local.
 *
 * The grid of targets and its references, a whole study in one call, its
 * result rows and the MPI impact ratio are in <harmonia/overlap_grid.h>,
 * which this header includes at its end.
 *
 * The same kernel, compiled without MPI, is the program harmonia-compute: run
 * beside a program that initialized MPI it gives the MPI impact ratio (eq. 2). */
#ifndef HARMONIA_OVERLAP_H
#define HARMONIA_OVERLAP_H
#include <harmonia/export.h>
#include <stddef.h>

#include <mpi.h>

#include <harmonia/error.h>
#include <harmonia/measure.h>
#include <harmonia/ops.h>
#include <harmonia/output.h>
#include <harmonia/procsync.h>

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

/* How a calibration ended, of the computation or of the communication
 * (where "order" reads "message size"). */
typedef enum hm_overlap_outcome {
    HM_OVERLAP_CONVERGED = 0, /* a probe within tolerance of the target */
    HM_OVERLAP_BELOW_MIN,     /* n = 1 is already slower than target (1 + tolerance) */
    HM_OVERLAP_ABOVE_MAX,     /* the largest order memory allows is faster than the target */
    HM_OVERLAP_GAP,           /* orders n and n + 1 fall on either side of the tolerance band
                               * (possible only where they differ by more than the band: small
                               * n; elsewhere it is noise, and both are probed again) */
    HM_OVERLAP_OUT_OF_PROBES, /* max_probes probes, none within tolerance */
    HM_OVERLAP_FIXED          /* not calibrated: the size was given (as OSU's and IMB's are) */
} hm_overlap_outcome_t;

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
    hm_overlap_outcome_t outcome;
    int converged;     /* 1 when outcome is HM_OVERLAP_CONVERGED */
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

/* Collective over comm: hm_compute_calibrate on every rank, then one order
 * for all, the largest any rank found (the slowest rank's kernel is what
 * every rank must cover), set on every handle. *agreed is this rank's
 * result with n, time_s (the largest), probes (the most) and outcome (the
 * largest enum value, converged only where every rank converged) agreed.
 * Returns the same status on every rank: HM_OK when every rank converged,
 * else HM_ERANGE or HM_EAGAIN as in hm_compute_calibrate, that of the
 * lowest rank which did not converge, with its last error; or the first
 * other failure (HM_EINVAL, HM_ENOMEM, HM_ENOTSUP, HM_EMPI). */
HM_EXPORT int hm_compute_calibrate_agreed(MPI_Comm comm, hm_compute_t *c,
                                          const hm_compute_calib_params_t *params,
                                          hm_compute_calibration_t *agreed);

/* The name of an outcome: "converged", "below-min", "above-max", "gap",
 * "out-of-probes"; NULL for other values. */
HM_EXPORT const char *hm_overlap_outcome_name(hm_overlap_outcome_t outcome);

/* ---- Calibration of the communication (t_comm_ref) [Denis et al. 2022, §4.3, §5.1] ---- */

enum { HM_OVERLAP_PROBES_MAX = 24 }; /* most probes one calibration may use */

typedef struct hm_overlap_comm_params {
    double target_s;             /* the global run-time the collective should take */
    double tolerance;            /* accepted |time - target| / target, in (0, 1) */
    long runs;                   /* valid repetitions per probe; its time is their median */
    int max_probes;              /* 1 to HM_OVERLAP_PROBES_MAX */
    size_t min_bytes, max_bytes; /* the sizes searched */
} hm_overlap_comm_params_t;

/* Defaults: target 1 ms, tolerance 0.1 (§5.1), runs 21, max_probes 12,
 * sizes 1 B to 256 MiB. */
HM_EXPORT void hm_overlap_comm_params_default(hm_overlap_comm_params_t *params);

typedef struct hm_overlap_comm_probe {
    size_t size_bytes;
    double time_s;  /* median global run-time (max end - min start) of the valid runs */
    double local_s; /* median of the slowest rank's own time (end - its start): what a
                     * benchmark timing locally sees, OSU's pure communication time */
} hm_overlap_comm_probe_t;

typedef struct hm_overlap_comm_calibration {
    hm_overlap_outcome_t outcome;
    int converged;     /* outcome == HM_OVERLAP_CONVERGED */
    size_t size_bytes; /* the probe nearest the target: its size ... */
    double time_s;     /* ... and time, t_comm_ref of the metrics (not the target) */
    double local_s;    /* ... and its local time (hm_overlap_comm_probe_t) */
    double error;      /* (time_s - target_s) / target_s */
    double duration_s; /* wall time of the whole calibration */
    int probes;
    hm_overlap_comm_probe_t probe[HM_OVERLAP_PROBES_MAX];
} hm_overlap_comm_calibration_t;

/* Collective over comm (that of ps): the message size at which the
 * nonblocking operation op (hm_op_is_nonblocking) takes params->target_s
 * (params NULL: defaults). A probe measures params->runs valid repetitions
 * of the call and its MPI_Wait through the measurement engine (every
 * repetition started by ps; the run-time is max end - min start on the
 * global clock) and takes their median; the next size comes from the
 * parabola through the three probes nearest the target, kept inside the
 * sizes that bracket it (or scaling the nearest probe by the ratio of times
 * before it is bracketed). start_bytes is the first size tried (0: 4 KiB; a
 * grid starts each target from the last). Every rank returns the same
 * status and result: HM_OK when converged; otherwise the result is still
 * filled (converged 0, the nearest probe kept) and the status says why:
 * HM_ERANGE when no size can hit the target, HM_EAGAIN when the probes ran
 * out, the last error naming the target and the nearest time. HM_EINVAL
 * for bad params or a blocking op; failures of hm_op_prepare or
 * hm_measure_run. */
HM_EXPORT int hm_overlap_calibrate_comm(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op,
                                        const hm_op_params_t *op_params,
                                        const hm_overlap_comm_params_t *params, size_t start_bytes,
                                        hm_overlap_comm_calibration_t *result);

/* Collective over comm: the time of op's call and its MPI_Wait at a size
 * given, not searched (OSU's and IMB's way), measured as a calibration
 * probe is: runs valid repetitions (0: the default 21), after warm-up runs
 * that fill 20 ms of the operation (5 to 100, from a first estimate of 5
 * runs: MPICH's first small iallreduces took 2-3 times the later ones).
 * out->time_s and out->local_s are the same on every rank. Failures of
 * hm_op_prepare and hm_measure_run. */
HM_EXPORT int hm_overlap_measure_comm(MPI_Comm comm, hm_procsync_t *ps, const hm_op_t *op,
                                      const hm_op_params_t *op_params, size_t size_bytes, long runs,
                                      hm_overlap_comm_probe_t *out);

/* ---- Placement ---- */

/* Collective over comm: ranks of one node that may all run on the same
 * processors (an unbound launch, e.g. MPICH's Hydra) bind their calling
 * thread to disjoint, equal slices of them, in node-local rank order, so
 * that the compute threads of one rank never share a core with another's
 * (§5.1 runs one rank per node, a thread per core). Ranks already bound
 * apart, or more ranks than processors, are left as they are. Call before
 * hm_compute_create, which uses the cores of the calling thread. *cpus (may
 * be NULL) = the processors this rank may use afterwards. HM_ENOTSUP when
 * the binding cannot be read or set, HM_EMPI. */
HM_EXPORT int hm_overlap_share_node(MPI_Comm comm, int *cpus);

/* ---- The progress configuration [Denis et al. 2022, §5.1] ---- */

typedef enum hm_overlap_progress_kind {
    HM_OVERLAP_PROGRESS_BASIC,    /* progress only inside MPI calls */
    HM_OVERLAP_PROGRESS_ASYNC,    /* the MPI library's asynchronous progress thread is on */
    HM_OVERLAP_PROGRESS_DEDICATED /* a core left free of computation, for progress */
} hm_overlap_progress_kind_t;

/* Local, after MPI_Init: which progress configuration an overlap run has,
 * a factor of its results, and in text what decided it (the control
 * variable read through MPI_T and its value, or the cores left free; a
 * variable asked for in the environment that this library lacks is named
 * too). The library's own control variable is read, never the environment
 * alone: MPICH's MPIR_CVAR_ASYNC_PROGRESS; Open MPI's opal_async_progress
 * (or its synonym mpi_async_progress, Open MPI 6) and btl_tcp_progress_thread
 * (TCP only). free_cores: cores of the rank left free of computation on
 * purpose (--threads). HM_EMPI when MPI_T fails. */
HM_EXPORT int hm_overlap_progress(int free_cores, hm_overlap_progress_kind_t *kind, char *text,
                                  size_t len);

/* ---- The overlap run [Denis et al. 2022, Alg. 1] ---- */

/* Collective: the median over runs of this rank's wall time around
 * hm_compute_run (as the overlap run times it, fork and join included),
 * the slowest rank's; every rank computes at once. *comp_ref_s is the same
 * on every rank. */
HM_EXPORT int hm_overlap_comp_ref(MPI_Comm comm, hm_compute_t *compute, int runs,
                                  double *comp_ref_s);

typedef struct hm_overlap_result {
    long n, nvalid;       /* attempts recorded, valid among them (every rank) */
    double *measured_s;   /* root: t_measured = max t4 - min t1, global clock */
    unsigned char *valid; /* root: agreed validity of each attempt */
    double *max_comp_s;   /* root: max over ranks of t_comp = t3 - t2 */
    double *max_mpi_s;    /* root: max over ranks of t_call + t_wait */
    double *rank_call_s;  /* every rank, its own: t_call = t2 - t1 */
    double *rank_comp_s;  /* t_comp = t3 - t2 */
    double *rank_wait_s;  /* t_wait = t4 - t3 */
    /* Root, over the valid repetitions, for the legacy overlap % (OSU's,
     * IMB's): the mean over ranks of each rank's mean t4 - t1 and mean
     * t_comp, and the largest rank's mean t4 - t1. */
    double mean_overall_s, mean_comp_s, max_overall_s;
    char procsync[160]; /* what the process synchronization did */
} hm_overlap_result_t;

HM_EXPORT void hm_overlap_result_free(hm_overlap_result_t *result);

/* The nonblocking operation of an overlap run, in two halves: start (the
 * call), wait (its completion), validate (optional: the result of the last
 * run, *ok = 1 when right). hm_overlap_comm_op makes one of an instance of
 * ops.h (hm_op_start, hm_op_wait, hm_op_validate); a test makes its own
 * from MPI generalized requests, whose progress it controls. before
 * (optional, NULL for an operation of ops.h) runs on each rank before t1,
 * outside every time the ratios use: a test delays a rank there to give
 * the repetition a known start skew. */
typedef struct hm_overlap_comm {
    int (*start)(void *ctx);
    int (*wait)(void *ctx);
    int (*validate)(void *ctx, int *ok);
    void *ctx;
    void (*before)(void *ctx);
} hm_overlap_comm_t;

HM_EXPORT void hm_overlap_comm_op(hm_overlap_comm_t *comm, hm_op_instance_t *inst);

/* Collective over comm (that of ps and nbc): params->nrep valid
 * repetitions of t1, nbc->start, t2, hm_compute_run(compute), t3,
 * nbc->wait, t4 (compute NULL: nothing between, the reference
 * communication), through the measurement engine: warm-up, validity,
 * max_attempts, validation of the result when params->validate. HM_OK, or
 * HM_EAGAIN when too few repetitions were valid (the result holds what was
 * measured), or the engine's failures. The caller frees the result. */
HM_EXPORT int hm_overlap_run(MPI_Comm comm, hm_procsync_t *ps, const hm_overlap_comm_t *nbc,
                             hm_compute_t *compute, const hm_measure_params_t *params,
                             hm_overlap_result_t *result);

/* ---- The ratios [Denis et al. 2022, §3] ---- */

typedef struct hm_overlap_ratios {
    double overhead;      /* eq. 1: (t_measured - max(refs)) / min(refs); 0 perfect, 1 none */
    double comp_slowdown; /* eq. 3: t_comp / t_comp_ref */
    double comm;          /* eq. 4: (t_call + t_wait) / t_comm_ref */
} hm_overlap_ratios_t;

/* The ratios of one repetition (NAN where a reference is not above 0).
 * Each ratio divides times of one basis [Denis et al. 2022, §3]: eq. 1
 * the global t_measured (max t4 - min t1) by the global t_comm_ref
 * (comm_ref_s, max end - min start) and t_comp_ref; eq. 3 the slowest
 * rank's t_comp by t_comp_ref, timed the same way; eq. 4 the slowest
 * rank's own t_call + t_wait (mpi_s) by comm_local_ref_s, the slowest
 * rank's own time of the call and its wait with nothing between: a
 * global span would add the ranks' start skew to the denominator only
 * (docs/overlap.md, "One time basis in eq. 4"). */
HM_EXPORT void hm_overlap_ratios(double measured_s, double comp_s, double mpi_s, double comp_ref_s,
                                 double comm_ref_s, double comm_local_ref_s,
                                 hm_overlap_ratios_t *out);

typedef struct hm_overlap_estimate {
    double median, ci_lo, ci_hi; /* 95 % interval of the median (order statistics) */
} hm_overlap_estimate_t;

typedef struct hm_overlap_summary {
    long nvalid;
    hm_overlap_estimate_t measured_s, overhead, comp_slowdown, comm;
    double osu_pct, imb_pct; /* hm_overlap_osu_pct and hm_overlap_imb_pct of the cell */
} hm_overlap_summary_t;

/* OSU's overlap % (OSU Micro-Benchmarks 7.4, c/util/osu_util_mpi.c,
 * print_stats_nbc): max(0, 100 - 100 (overall_s - comp_s) / comm_s), where
 * OSU takes means over ranks of local times after an MPI_Barrier (its
 * MPI_Test time, which harmonia does not spend, subtracted from comp_s),
 * comm_s included: a global time there reads the start skew as overlap.
 * NAN when comm_s is not above 0. */
HM_EXPORT double hm_overlap_osu_pct(double overall_s, double comp_s, double comm_s);

/* IMB-NBC's overlap % (Intel MPI Benchmarks, src_c/IMB_output.c, NBC
 * branch): 100 max(0, min(1, (pure_s + comp_s - ovrl_s) / max(pure_s,
 * comp_s))), IMB's times those of the rank with the largest t_ovrl. NAN
 * when neither time is above 0. */
HM_EXPORT double hm_overlap_imb_pct(double ovrl_s, double pure_s, double comp_s);

/* Root: the ratios of every valid repetition of r (t_comp and t_call +
 * t_wait the max over ranks) against the references, summarized, and the
 * legacy overlap % from r's means. comm_local_s is the local time of the
 * communication alone (hm_overlap_comm_probe_t's local_s, or
 * hm_overlap_comm_refs' local_s): the denominator of eq. 4 (NAN: r_comm is
 * NAN, never divided by the global time) and OSU's pure communication
 * time; IMB's takes the two references for its t_pure and t_CPU (each
 * rank's own separate runs there). HM_EAGAIN when no repetition is valid,
 * HM_EINVAL without the root's arrays. */
HM_EXPORT int hm_overlap_summarize(const hm_overlap_result_t *r, double comp_ref_s,
                                   double comm_ref_s, double comm_local_s,
                                   hm_overlap_summary_t *out);

/* Root: the two references of a reference run (hm_overlap_run with compute
 * NULL): *global_s the median over its valid repetitions of t_measured (max
 * t4 - min t1, eq. 1's t_comm_ref) and *local_s that of the slowest rank's
 * own t_call + t_wait (eq. 4's). HM_EAGAIN when no repetition is valid,
 * HM_EINVAL without the root's arrays. */
HM_EXPORT int hm_overlap_comm_refs(const hm_overlap_result_t *ref, double *global_s,
                                   double *local_s);

#ifdef __cplusplus
}
#endif

#include <harmonia/overlap_grid.h>
#endif
