/* src/overlap/compute_kernel.c — one OpenMP thread per core, each running a
 * sequential dgemm [Denis et al. 2022, §5.1]. No MPI here (see
 * compute_kernel.h): this file is also compiled into harmonia-compute. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>
#include <hwloc.h>
#include <omp.h>

#include "overlap/compute_kernel.h"

enum { WHY_MAX = 320 };

struct hm__compute_kernel {
    hwloc_topology_t topo;
    int threads;
    int cores;            /* cores the creating thread could run on */
    hwloc_cpuset_t *pin;  /* per thread: one processor of its core */
    int *core;            /* per thread: hwloc logical index of that core */
    int n;                /* current matrix order; 0 = no matrices */
    int capacity;         /* the order the storage was allocated for */
    int max_n;            /* memory limit of the order */
    double **a, **b, **c; /* per thread: capacity^2 doubles each */
    char why[WHY_MAX];
};

/* The sentence of the calling thread's last failed hm__compute_kernel_create
 * or hm__compute_kernel_cores, which have no kernel to keep it on. */
static _Thread_local char create_why[WHY_MAX];

/* Keep the sentence on k (NULL: the thread's failed create) and return
 * status. */
static int fail(hm__compute_kernel_t *k, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(hm__compute_kernel_t *k, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k ? k->why : create_why, WHY_MAX, fmt, ap);
    va_end(ap);
    return status;
}

/* ---- Where the threads run ---- */

/* The processors the calling thread may run on: its binding, within what
 * the topology allows (everything allowed when the binding is unknown). The
 * thread's binding, not the process's: under mpirun both are the rank's,
 * and a caller that bound its own thread means that set. */
static hwloc_cpuset_t usable_set(hwloc_topology_t topo)
{
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    if (!set) return NULL;
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) hwloc_bitmap_copy(set, allowed);
    hwloc_bitmap_and(set, set, allowed);
    return set;
}

/* The i-th core holding a processor of set (i < 0: none), in hwloc's
 * logical order; processing units where the topology reports no cores. */
static hwloc_obj_t usable_core(hwloc_topology_t topo, hwloc_const_cpuset_t set, int i)
{
    hwloc_obj_type_t type =
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, type, obj)))
        if (obj->cpuset && hwloc_bitmap_intersects(obj->cpuset, set) && i-- == 0) return obj;
    return NULL;
}

static int count_cores(hwloc_topology_t topo, hwloc_const_cpuset_t set)
{
    int n = 0;
    while (usable_core(topo, set, n)) n++;
    return n;
}

/* The sentence of a failure: the thread's (hm__compute_kernel_why(NULL)). */
static int load_topology(hwloc_topology_t *topo)
{
    if (hwloc_topology_init(topo) != 0)
        return fail(NULL, HM_ENOTSUP, "hwloc cannot read the topology of this machine");
    if (hwloc_topology_load(*topo) != 0) {
        hwloc_topology_destroy(*topo);
        return fail(NULL, HM_ENOTSUP, "hwloc cannot read the topology of this machine");
    }
    return HM_OK;
}

int hm__compute_kernel_cores(int *cores)
{
    hwloc_topology_t topo;
    *cores = 0;
    int rc = load_topology(&topo);
    if (rc != HM_OK) return rc;
    hwloc_cpuset_t set = usable_set(topo);
    if (set) *cores = count_cores(topo, set);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    if (!set) return fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
    if (*cores < 1) return fail(NULL, HM_ENOTSUP, "hwloc finds no core this thread may run on");
    return HM_OK;
}

/* Thread t runs on one processor of the t-th usable core: one thread per
 * physical core and none on a hyperthread sibling, as the paper's runs
 * [Denis et al. 2022, §5.1]; the last cores stay free for a progress thread
 * when threads < cores. The kernel pins through hwloc rather than OpenMP's
 * proc_bind: the runtime reads OMP_PLACES and OMP_PROC_BIND once, from the
 * environment of the program, which a library cannot set, and without a
 * place list libgomp ignores proc_bind(spread) altogether (measured with GCC
 * 12: both threads kept both CPUs); its default places are hardware threads,
 * not cores. */
static int place_threads(hm__compute_kernel_t *k, int threads)
{
    hwloc_cpuset_t set = usable_set(k->topo);
    if (!set) return fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
    k->cores = count_cores(k->topo, set);
    int rc = threads >= 1 && threads <= k->cores
                 ? HM_OK
                 : fail(NULL, HM_EINVAL,
                        "threads %d must be 1 to %d (the cores the calling thread may run on)",
                        threads, k->cores);
    if (rc == HM_OK) {
        k->threads = threads;
        k->pin = calloc((size_t)threads, sizeof *k->pin);
        k->core = calloc((size_t)threads, sizeof *k->core);
        if (!k->pin || !k->core) rc = fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
    }
    for (int t = 0; rc == HM_OK && t < threads; t++) {
        hwloc_obj_t core = usable_core(k->topo, set, t);
        k->pin[t] = hwloc_bitmap_alloc();
        if (!k->pin[t]) {
            rc = fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
            break;
        }
        /* One processor, not the core's siblings: the thread never migrates
         * between hyperthreads of its core during a measurement. */
        hwloc_bitmap_and(k->pin[t], core->cpuset, set);
        hwloc_bitmap_singlify(k->pin[t]);
        k->core[t] = (int)core->logical_index;
    }
    hwloc_bitmap_free(set);
    return rc;
}

/* The largest order whose three matrices per thread fit in half of the
 * physical memory: the other half for the MPI library, the communication
 * buffers of the overlap runs and the system. Capped where n * n would
 * overflow a 32-bit int, which some CBLAS implementations compute. */
static int max_order(int threads)
{
    enum { INT_SQRT = 46340 };
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 4096; /* unknown memory: 400 MiB per thread */
    double per_thread = (double)pages * (double)page / 2 / threads;
    double matrices = 3 * sizeof(double);
    int n = (int)sqrt(per_thread / matrices);
    if (n > INT_SQRT) return INT_SQRT;
    while (n > 1 && (double)n * n * matrices > per_thread) n--;
    return n < 1 ? 1 : n;
}

/* ---- One BLAS thread per call ---- */

/* OpenBLAS splits each call over its own pool of threads, one per processor
 * by default. Called from T compute threads at once, that is T x cores BLAS
 * threads on cores processors: each thread's time would measure the pools'
 * contention, not one core's dgemm, and the paper's kernel is a sequential
 * GEMM per core [Denis et al. 2022, §5.1]. openblas_set_num_threads(1)
 * makes each call run in its caller's thread; with the OpenMP build of
 * OpenBLAS it also sets the caller's omp_set_num_threads(1), which is why
 * the kernel's parallel regions name their team size with num_threads. */
static void single_threaded_blas(void)
{
#ifdef HM_HAVE_OPENBLAS_SET_NUM_THREADS
    openblas_set_num_threads(1);
#endif
}

/* The file of the shared object that defines the function at fn, as this
 * file's calls are bound ("" when the dynamic linker cannot tell). */
static const char *defining_object(void *fn)
{
    Dl_info info;
    return dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "";
}

/* GSL brings its own reference CBLAS (libgslcblas), about 30 times slower on
 * one core (measured: n = 219 at 1.0 against OpenBLAS's 33 GFLOP/s), and the
 * dynamic linker binds cblas_dgemm to the first library that defines it on
 * the link line: a program that names GSL before OpenBLAS would measure the
 * wrong dgemm without a word. The kernel computes only with the library it
 * made single-threaded above. */
static int check_blas(void)
{
#ifdef HM_HAVE_OPENBLAS_SET_NUM_THREADS
    const char *dgemm = defining_object((void *)cblas_dgemm);
    const char *openblas = defining_object((void *)openblas_set_num_threads);
    if (strcmp(dgemm, openblas) != 0)
        return fail(NULL, HM_ENOTSUP,
                    "cblas_dgemm is bound to %s, not to OpenBLAS (%s): link OpenBLAS before "
                    "other CBLAS libraries such as GSL's",
                    dgemm, openblas);
#endif
    return HM_OK;
}

const char *hm__compute_kernel_dgemm_object(void)
{
    return defining_object((void *)cblas_dgemm);
}

const char *hm__compute_kernel_blas(void)
{
#ifdef HM_HAVE_OPENBLAS_GET_CONFIG
    return openblas_get_config();
#else
    return "CBLAS";
#endif
}

/* ---- The kernel ---- */

int hm__compute_kernel_create(int threads, hm__compute_kernel_t **out)
{
    *out = NULL;
    int rc = check_blas();
    if (rc != HM_OK) return rc;
    hm__compute_kernel_t *k = calloc(1, sizeof *k);
    if (!k) return fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
    rc = load_topology(&k->topo);
    if (rc != HM_OK) {
        free(k);
        return rc;
    }
    rc = place_threads(k, threads);
    if (rc == HM_OK) {
        k->a = calloc((size_t)threads, sizeof *k->a);
        k->b = calloc((size_t)threads, sizeof *k->b);
        k->c = calloc((size_t)threads, sizeof *k->c);
        if (!k->a || !k->b || !k->c) rc = fail(NULL, HM_ENOMEM, "%s: out of memory", __func__);
    }
    if (rc != HM_OK) {
        hm__compute_kernel_free(k);
        return rc;
    }
    k->max_n = max_order(threads);
    single_threaded_blas();
    *out = k;
    return HM_OK;
}

static void release(hm__compute_kernel_t *k)
{
    for (int t = 0; k->a && t < k->threads; t++) {
        free(k->a[t]);
        free(k->b[t]);
        free(k->c[t]);
        k->a[t] = k->b[t] = k->c[t] = NULL;
    }
    k->n = k->capacity = 0;
}

void hm__compute_kernel_free(hm__compute_kernel_t *k)
{
    if (!k) return;
    release(k);
    for (int t = 0; k->pin && t < k->threads; t++) hwloc_bitmap_free(k->pin[t]);
    free(k->pin);
    free(k->core);
    free(k->a);
    free(k->b);
    free(k->c);
    hwloc_topology_destroy(k->topo);
    free(k);
}

int hm__compute_kernel_threads(const hm__compute_kernel_t *k)
{
    return k->threads;
}

int hm__compute_kernel_cores_of(const hm__compute_kernel_t *k)
{
    return k->cores;
}

int hm__compute_kernel_core(const hm__compute_kernel_t *k, int t)
{
    return t >= 0 && t < k->threads ? k->core[t] : -1;
}

int hm__compute_kernel_size(const hm__compute_kernel_t *k)
{
    return k->n;
}

int hm__compute_kernel_max_size(const hm__compute_kernel_t *k)
{
    return k->max_n;
}

const char *hm__compute_kernel_why(const hm__compute_kernel_t *k)
{
    return k ? k->why : create_why;
}

/* ---- The team ---- */

typedef int (*work_fn)(hm__compute_kernel_t *k, int t, void *arg);

/* Run work(k, t, arg) on each thread t of a team of k->threads, each pinned
 * to its core first, all released together by a barrier. The calling thread
 * is thread 0: its binding is put back afterwards, so that the caller's
 * other work (MPI's, between two runs) runs where it ran before. */
static int team(hm__compute_kernel_t *k, work_fn work, void *arg)
{
    hwloc_cpuset_t saved = hwloc_bitmap_alloc();
    if (!saved) return fail(k, HM_ENOMEM, "%s: out of memory", __func__);
    int restore = hwloc_get_cpubind(k->topo, saved, HWLOC_CPUBIND_THREAD) == 0;
    int got = 0, unpinned = -1, pin_errno = 0, failed = HM_OK;
#pragma omp parallel num_threads(k->threads)
    {
        int t = omp_get_thread_num();
        if (t == 0) got = omp_get_num_threads();
        /* Atomic writes, not a named critical section: that would be a
         * global symbol of libharmonia (.gomp_critical_user_NAME). Which
         * failing thread's values win does not matter. */
        if (hwloc_set_cpubind(k->topo, k->pin[t], HWLOC_CPUBIND_THREAD) != 0) {
#pragma omp atomic write
            pin_errno = errno;
#pragma omp atomic write
            unpinned = t;
        }
#pragma omp barrier
        if (got == k->threads && unpinned < 0) {
            int rc = work(k, t, arg);
            if (rc != HM_OK) {
#pragma omp atomic write
                failed = rc;
            }
        }
    }
    if (restore) hwloc_set_cpubind(k->topo, saved, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(saved);
    if (got != k->threads)
        return fail(k, HM_ENOTSUP,
                    "OpenMP gave a team of %d thread(s) where %d were asked (OMP_THREAD_LIMIT, "
                    "OMP_DYNAMIC, or a call from inside a parallel region?)",
                    got, k->threads);
    if (unpinned >= 0)
        return fail(k, HM_ENOTSUP, "compute thread %d could not be pinned to core %d: %s", unpinned,
                    k->core[unpinned], strerror(pin_errno));
    return failed;
}

/* Deterministic values in [0.5, 1.5): no zeros, denormals or NaNs that a
 * BLAS could take a shortcut on, and sums that stay far from overflow. */
static void fill(double *x, size_t count, uint32_t seed)
{
    for (size_t i = 0; i < count; i++)
        x[i] = 0.5 + (double)(((uint32_t)i * 2654435761u + seed) >> 22) / 1024.0;
}

static double *matrix(size_t count)
{
    size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
    return aligned_alloc(64, bytes);
}

static void dgemm(const hm__compute_kernel_t *k, int t, int n)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, k->a[t], n, k->b[t], n,
                0.0, k->c[t], n);
}

/* Thread t allocates and first writes its own matrices: the pages land on
 * the memory of the core it is pinned to. Then one untimed dgemm: the first
 * call of a thread at a new size ran 2 to 10 times slower than the next
 * ones (measured: n = 200, 4 against 40 GFLOP/s; OpenBLAS sets up its
 * per-thread buffers on the first large call), and a run after set_size
 * must be like every other. */
static int allocate(hm__compute_kernel_t *k, int t, void *arg)
{
    int n = *(const int *)arg;
    size_t count = (size_t)n * (size_t)n;
    k->a[t] = matrix(count);
    k->b[t] = matrix(count);
    k->c[t] = matrix(count);
    if (!k->a[t] || !k->b[t] || !k->c[t])
        return HM_ENOMEM; /* sentence: by hm__compute_kernel_set_size, after the team */
    fill(k->a[t], count, 2 * (uint32_t)t + 1);
    fill(k->b[t], count, 2 * (uint32_t)t + 2);
    memset(k->c[t], 0, count * sizeof(double));
    dgemm(k, t, n);
    return HM_OK;
}

int hm__compute_kernel_set_size(hm__compute_kernel_t *k, int n)
{
    k->why[0] = '\0';
    if (n < 1 || n > k->max_n)
        return fail(k, HM_EINVAL, "matrix order %d must be 1 to %d", n, k->max_n);
    if (n <= k->capacity) {
        k->n = n;
        return HM_OK;
    }
    release(k);
    int rc = team(k, allocate, &n);
    if (rc == HM_ENOMEM && !k->why[0]) /* allocate's: its threads leave no sentence */
        fail(k, rc, "cannot allocate 3 matrices of order %d (%.0f MiB) for each of %d threads", n,
             3.0 * n * n * sizeof(double) / (1 << 20), k->threads);
    if (rc != HM_OK) {
        release(k);
        return rc;
    }
    k->n = k->capacity = n;
    return HM_OK;
}

static double elapsed_s(const struct timespec *t0, const struct timespec *t1)
{
    return (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The timed region: timestamp, dgemm, timestamp — C = A B, row-major, each
 * thread on its own matrices. */
static int multiply(hm__compute_kernel_t *k, int t, void *arg)
{
    double *per_thread_s = arg;
    const int n = k->n;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dgemm(k, t, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    per_thread_s[t] = elapsed_s(&t0, &t1);
    return HM_OK;
}

int hm__compute_kernel_run(hm__compute_kernel_t *k, double *per_thread_s)
{
    k->why[0] = '\0';
    if (k->n < 1) return fail(k, HM_EINVAL, "no matrix order set before the run");
    return team(k, multiply, per_thread_s);
}
