/* include/harmonia/overlap.h — computation/communication overlap of MPI
 * nonblocking collectives [Denis et al. 2022].
 *
 * The methodology compares three measurements on times chosen in advance
 * (§4.3): the communication alone (t_comm_ref), the computation alone
 * (t_comp_ref), and both overlapped (Alg. 1), then derives the overhead
 * ratio (eq. 1), the MPI impact ratio (eq. 2) and the concurrency ratios
 * (eq. 3-4).
 *
 * This header holds the computation so far: hm_compute_*, the compute
 * kernel of §5.1, one thread per core, each running a sequential dgemm
 * (CBLAS, OpenBLAS single-threaded inside), with each thread's time measured
 * inside the thread. The calibrations, the overlap runs and the ratios will
 * be further sections of this header.
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
 * matrices yet: hm_compute_set_size. Local. */
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
 * single-threaded, 2 threads on cores 0,1 of 2, n=700". Local. */
HM_EXPORT void hm_compute_describe(const hm_compute_t *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
