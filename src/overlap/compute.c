/* src/overlap/compute.c — the compute handle of <harmonia/overlap.h>: the
 * kernel (compute_kernel.c) with the library's parameters and errors. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <harmonia/overlap.h>

#include "common/error_set.h"
#include "overlap/compute_kernel.h"
#include "overlap/overlap_testing.h"

struct hm_compute {
    hm__compute_kernel_t *kernel;
    double inject_s;            /* testing: time added to every run (hm__compute_inject_slowdown) */
    hm__compute_model_fn model; /* testing: times instead of dgemm (hm__compute_inject_model) */
    void *model_arg;
};

int hm__compute_inject_model(hm_compute_t *c, hm__compute_model_fn model, void *arg)
{
    if (!c) return hm__error_null(__func__, "c");
    c->model = model, c->model_arg = arg;
    return HM_OK;
}

int hm__compute_inject_slowdown(hm_compute_t *c, double extra_s)
{
    if (!c || !(extra_s >= 0))
        return hm__error_set(HM_EINVAL, "extra time %g s: 0 or more", extra_s);
    c->inject_s = extra_s;
    return HM_OK;
}

/* What a neighbour's process that takes the cores for extra_s does to a
 * run: the calling thread spins that long, and every thread's time grows
 * by it. */
static void injected(const hm_compute_t *c, double *per_thread_s)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double end = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + c->inject_s, now;
    do {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    } while (now < end);
    for (int t = 0; per_thread_s && t < hm_compute_threads(c); t++) per_thread_s[t] += c->inject_s;
}

void hm_compute_params_default(hm_compute_params_t *params)
{
    if (!params) {
        hm__error_null(__func__, "params");
        return;
    }
    params->threads = 0;
}

int hm_compute_cores(int *cores)
{
    if (!cores) return hm__error_null(__func__, "cores");
    int rc = hm__compute_kernel_cores(cores);
    if (rc == HM_ENOTSUP) return hm__error_set(rc, "hwloc cannot tell the cores of this thread");
    if (rc == HM_ENOMEM) return hm__error_set(rc, "out of memory");
    return rc;
}

/* threads 0 resolves to cores; anything else must be one of them. */
static int check_threads(int threads, int cores)
{
    if (threads < 0)
        return hm__error_set(
            HM_EINVAL,
            "threads %d must be 0 (one per core) or 1 to %d (the cores the calling "
            "thread may run on)",
            threads, cores);
    if (threads > cores)
        return hm__error_set(HM_EINVAL,
                             "threads %d is more than the %d core%s the calling thread may run on",
                             threads, cores, cores == 1 ? "" : "s");
    return HM_OK;
}

int hm_compute_create(const hm_compute_params_t *params, hm_compute_t **out)
{
    hm_compute_params_t p;
    int cores;
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (params)
        p = *params;
    else
        hm_compute_params_default(&p);
    int rc = hm_compute_cores(&cores);
    if (rc == HM_OK) rc = check_threads(p.threads, cores);
    if (rc != HM_OK) return rc;
    hm_compute_t *c = calloc(1, sizeof *c);
    if (!c) return hm__error_set(HM_ENOMEM, "out of memory");
    rc = hm__compute_kernel_create(p.threads ? p.threads : cores, &c->kernel);
    if (rc != HM_OK) {
        free(c);
        return hm__error_set(rc, "%s", hm__compute_kernel_why(NULL));
    }
    *out = c;
    return HM_OK;
}

void hm_compute_free(hm_compute_t *c)
{
    if (!c) return;
    hm__compute_kernel_free(c->kernel);
    free(c);
}

int hm_compute_threads(const hm_compute_t *c)
{
    if (!c) return hm__error_null(__func__, "c"), 0;
    return hm__compute_kernel_threads(c->kernel);
}

int hm_compute_cores_of(const hm_compute_t *c)
{
    if (!c) return hm__error_null(__func__, "c"), 0;
    return hm__compute_kernel_cores_of(c->kernel);
}

int hm_compute_core(const hm_compute_t *c, int thread)
{
    if (!c) return hm__error_null(__func__, "c"), -1;
    return hm__compute_kernel_core(c->kernel, thread);
}

int hm_compute_size(const hm_compute_t *c)
{
    if (!c) return hm__error_null(__func__, "c"), 0;
    return hm__compute_kernel_size(c->kernel);
}

int hm_compute_max_size(const hm_compute_t *c)
{
    if (!c) return hm__error_null(__func__, "c"), 0;
    return hm__compute_kernel_max_size(c->kernel);
}

double hm_compute_flop(int n)
{
    return 2.0 * n * n * n;
}

int hm_compute_set_size(hm_compute_t *c, int n)
{
    if (!c) return hm__error_null(__func__, "c");
    int rc = hm__compute_kernel_set_size(c->kernel, n);
    if (rc == HM_EINVAL)
        return hm__error_set(rc,
                             "matrix order %d must be 1 to %d (three matrices per thread for %d "
                             "threads within half of the memory)",
                             n, hm_compute_max_size(c), hm_compute_threads(c));
    if (rc != HM_OK) return hm__error_set(rc, "%s", hm__compute_kernel_why(c->kernel));
    return HM_OK;
}

int hm_compute_run(hm_compute_t *c, double *per_thread_s)
{
    if (!c) return hm__error_null(__func__, "c");
    if (!per_thread_s) return hm__error_null(__func__, "per_thread_s");
    int n = hm_compute_size(c);
    if (c->model && n > 0) {
        for (int t = 0; t < hm_compute_threads(c); t++)
            per_thread_s[t] = c->model(c->model_arg, n, t);
        return HM_OK;
    }
    int rc = hm__compute_kernel_run(c->kernel, per_thread_s);
    if (rc != HM_OK) return hm__error_set(rc, "%s", hm__compute_kernel_why(c->kernel));
    if (c->inject_s > 0) injected(c, per_thread_s);
    return HM_OK;
}

/* "0,1" or "0-3": the cores of the threads, consecutive ones as a range. */
static void core_list(const hm_compute_t *c, char *buf, size_t len)
{
    int threads = hm_compute_threads(c);
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < threads; t++) {
        int first = hm_compute_core(c, t), last = first, w;
        while (t + 1 < threads && hm_compute_core(c, t + 1) == last + 1) last++, t++;
        const char *sep = used ? "," : "";
        if (last == first)
            w = snprintf(buf + used, len - used, "%s%d", sep, first);
        else
            w = snprintf(buf + used, len - used, "%s%d%c%d", sep, first,
                         last > first + 1 ? '-' : ',', last);
        if (w < 0 || (size_t)w >= len - used) break; /* truncated: what fits */
        used += (size_t)w;
    }
}

void hm_compute_describe(const hm_compute_t *c, char *buf, size_t len)
{
    if (!c || !buf) {
        hm__error_null(__func__, !c ? "c" : "buf");
        return;
    }
    char cores[256], order[32] = "";
    int threads = hm_compute_threads(c);
    core_list(c, cores, sizeof cores);
    if (hm_compute_size(c) > 0) snprintf(order, sizeof order, ", n=%d", hm_compute_size(c));
    snprintf(buf, len, "dgemm of %s (%s), single-threaded, %d thread%s on core%s %s of %d%s",
             hm__compute_kernel_dgemm_object(), hm__compute_kernel_blas(), threads,
             threads == 1 ? "" : "s", threads == 1 ? "" : "s", cores, hm_compute_cores_of(c),
             order);
}
