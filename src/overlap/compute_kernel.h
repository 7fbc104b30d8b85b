/* src/overlap/compute_kernel.h — the compute kernel of the overlap layer:
 * one OpenMP thread per core, each running a sequential dgemm through CBLAS
 * [Denis et al. 2022, §5.1, "Estimation of Reference Times"].
 *
 * This header and compute_kernel.c see neither MPI nor the rest of the
 * library: they are compiled into libharmonia (behind hm_compute_*,
 * <harmonia/overlap.h>) and, unchanged, into the harmonia-compute program,
 * which never loads MPI, so that the MPI impact ratio [Denis et al. 2022,
 * §3.2.1, eq. 2] compares the same code with and without the MPI runtime.
 * Failures return an HM_E* code (<harmonia/error.h>, a header without
 * dependencies) and keep their sentence on the kernel, where there is one:
 * the caller turns it into its own error report. */
#ifndef HM_OVERLAP_COMPUTE_KERNEL_H
#define HM_OVERLAP_COMPUTE_KERNEL_H
#include <stddef.h>

#include <harmonia/error.h>

typedef struct hm__compute_kernel hm__compute_kernel_t;

/* The number of cores the calling thread may run on (hwloc: the cores that
 * hold at least one processor of its binding). HM_ENOTSUP when hwloc cannot
 * tell, HM_ENOMEM; the sentence: hm__compute_kernel_why(NULL). */
int hm__compute_kernel_cores(int *cores);

/* A kernel of threads compute threads, 1 <= threads <= the cores the calling
 * thread may run on (HM_EINVAL otherwise: callers check first and word the
 * refusal in their own terms). Thread t is pinned to the t-th of those
 * cores; the last cores - threads stay free (for a progress thread). No
 * matrices yet: hm__compute_kernel_set_size. HM_ENOMEM; HM_ENOTSUP when hwloc
 * cannot read the topology or when cblas_dgemm is bound to another library
 * than the OpenBLAS made single-threaded (GSL's CBLAS, named first on a link
 * line). The sentence: hm__compute_kernel_why(NULL). */
int hm__compute_kernel_create(int threads, hm__compute_kernel_t **out);
void hm__compute_kernel_free(hm__compute_kernel_t *k);

int hm__compute_kernel_threads(const hm__compute_kernel_t *k);
/* The cores the creating thread could run on (the limit of threads). */
int hm__compute_kernel_cores_of(const hm__compute_kernel_t *k);
/* hwloc's logical index of the core thread t is pinned to. */
int hm__compute_kernel_core(const hm__compute_kernel_t *k, int t);

/* The current matrix order (0 before the first hm__compute_kernel_set_size)
 * and the largest one allowed: three n x n matrices of doubles per thread
 * within half of the machine's physical memory. */
int hm__compute_kernel_size(const hm__compute_kernel_t *k);
int hm__compute_kernel_max_size(const hm__compute_kernel_t *k);

/* Make every thread's matrices n x n, 1 <= n <= the maximum (HM_EINVAL
 * otherwise). Storage grows only: a smaller n reuses the matrices in place.
 * New storage is allocated and first written by the thread that will use it,
 * pinned to its core, so that its pages are local to that core's memory.
 * HM_ENOMEM (the kernel keeps no matrices then), HM_ENOTSUP (the team or the
 * pinning failed: hm__compute_kernel_why). */
int hm__compute_kernel_set_size(hm__compute_kernel_t *k, int n);

/* One dgemm per thread, all threads started together after a barrier:
 * per_thread_s[t] (threads entries) is thread t's time around its dgemm call
 * alone, CLOCK_MONOTONIC. HM_EINVAL before set_size; HM_ENOTSUP when OpenMP
 * gave a smaller team than asked or a thread could not be pinned (the
 * sentence: hm__compute_kernel_why). The calling thread's own binding is the
 * same afterwards as before. */
int hm__compute_kernel_run(hm__compute_kernel_t *k, double *per_thread_s);

/* The sentence of the kernel's last failure ("" when none); k NULL: of the
 * calling thread's last failed hm__compute_kernel_create or
 * hm__compute_kernel_cores. */
const char *hm__compute_kernel_why(const hm__compute_kernel_t *k);

/* The BLAS, for reports: OpenBLAS's build ("OpenBLAS 0.3.21 NO_LAPACKE
 * DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64"), or "CBLAS" when it cannot
 * tell; and the file of the shared object cblas_dgemm is bound to. */
const char *hm__compute_kernel_blas(void);
const char *hm__compute_kernel_dgemm_object(void);

#endif
