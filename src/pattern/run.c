/* src/pattern/run.c — a pattern benchmark's set-up (hm_pattern_run_create):
 * the groups, the memory the steps share, the shape checked at 1 byte
 * before any measurement, the order of the sizes, what each size times.
 * Everything is decided here, so that the measurement cannot fail on a
 * parameter after a clock synchronization and half the sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>
#include <harmonia/gpu.h>
#include <harmonia/measure.h>
#include <harmonia/pattern.h>
#include <harmonia/topo.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "pattern/pattern_impl.h"
#include "pattern/run_impl.h"

void hm_pattern_run_params_default(hm_pattern_run_params_t *params)
{
    if (!params) {
        hm__error_null(__func__, "params");
        return;
    }
    memset(params, 0, sizeof *params);
    params->kind = HM_PATTERN_GROUPS;
    params->generator = hm_generator_find("rail");
    params->direction = HM_DIRECTION_UNI;
    params->backend[0] = hm_backend_find("mpi");
    params->nbackends = 1;
    params->seed = 1;
    params->window = 1;
}

/* What failed; its status and sentence come beside it. */
static void fail(hm_pattern_failure_t *f, hm_pattern_failed_t what, int step)
{
    f->what = what;
    f->step = step;
}

int hm__pattern_run_agree(MPI_Comm comm, int rc, hm_pattern_failure_t *f)
{
    if (rc != HM_OK && f->what == HM_PATTERN_FAILED_NONE) f->what = HM_PATTERN_FAILED_RUN;
    /* The failure and the step travel as one positive int, so that the
     * lowest failing rank's sentence comes with them. */
    int code = rc == HM_OK ? 0 : 1 + (int)f->what + 64 * f->step;
    code = hm_agree(comm, code);
    if (code < 0) return code;
    if (code == 0) return HM_OK;
    f->what = (hm_pattern_failed_t)((code - 1) % 64);
    f->step = (code - 1) / 64;
    /* The same lowest failing rank again: every rank takes its status
     * (a rank that had not failed used to contribute a placeholder
     * HM_EINTERNAL and, as rank 0, won with it) and its sentence. */
    return hm_agree(comm, rc); /* sentence: set by hm_agree */
}

/* Collective: the real nodes as groups: g = the ranks of a node, the same
 * on every node, and each node's ranks consecutive in comm (the generators
 * put rank r in group r / g). */
static int node_groups(MPI_Comm comm, int *g, hm_pattern_failure_t *f)
{
    hm_topo_t *topo = NULL;
    int rank, node_rank, lo, hi, consecutive, all = 0;
    int rc = hm_topo_create(comm, NULL, &topo);
    if (rc != HM_OK) {
        char cause[1024];
        snprintf(cause, sizeof cause, "%s", hm_last_error());
        f->what = HM_PATTERN_FAILED_NODES;
        return hm__error_set(rc, "the nodes of the run: %s", cause);
    }
    MPI_Comm node = hm_topo_node_comm(topo);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(node, g);
    MPI_Comm_rank(node, &node_rank);
    MPI_Allreduce(g, &lo, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(g, &hi, 1, MPI_INT, MPI_MAX, comm);
    consecutive = rank == hm_topo_node_index(topo) * *g + node_rank;
    MPI_Allreduce(&consecutive, &all, 1, MPI_INT, MPI_LAND, comm);
    hm_topo_free(topo);
    if (lo != hi)
        return fail(f, HM_PATTERN_FAILED_NODE_SIZES, 0),
               hm__error_set(HM_EINVAL, "the nodes hold %d to %d ranks", lo, hi);
    if (!all)
        return fail(f, HM_PATTERN_FAILED_NODE_ORDER, 0),
               hm__error_set(HM_EINVAL,
                             "the ranks of a node are not consecutive (mpirun --map-by node?)");
    return HM_OK;
}

/* Collective: n groups of g ranks, subgroups of k. */
static int groups(hm_pattern_run_t *r, hm_pattern_failure_t *f)
{
    int size, g = r->p.ranks_per_group, rc;
    MPI_Comm_size(r->comm, &size);
    if (g <= 0 && (rc = node_groups(r->comm, &g, f)) != HM_OK) return rc;
    if (size % g != 0)
        return fail(f, HM_PATTERN_FAILED_GROUPS, 0),
               hm__error_set(HM_EINVAL,
                             "the %d ranks are not whole groups of %d (the pattern's groups must "
                             "be full)",
                             size, g);
    r->g = f->g = g;
    r->n = f->n = size / g;
    r->k = r->p.subgroup ? r->p.subgroup : g;
    if (r->k > g)
        return fail(f, HM_PATTERN_FAILED_SUBGROUP, 0),
               hm__error_set(HM_EINVAL, "more than the %d ranks of a group", g);
    return HM_OK;
}

/* Local: the device backends usable here, and mpi on device memory only
 * with a device and a CUDA-aware MPI. */
static int device_checks(const hm_pattern_run_t *r, int mpi, hm_pattern_failure_t *f)
{
    for (int i = 0; i < r->p.nbackends; i++) {
        if (hm_backend_memory(r->p.backend[i]) != HM_MEMORY_DEVICE) continue;
        if (hm_backend_check(r->p.backend[i]) != HM_OK) {
            fail(f, HM_PATTERN_FAILED_BACKEND, i);
            return HM_EINVAL; /* sentence: set by hm_backend_check */
        }
    }
    if (!mpi) return HM_OK;
    int count;
    if (hm_gpu_count(&count) != HM_OK) {
        fail(f, HM_PATTERN_FAILED_DEVICE, 0);
        return HM_EINVAL; /* sentence: set by hm_gpu_count */
    }
    if (hm_gpu_mpi_cuda_aware() != HM_OK)
        return fail(f, HM_PATTERN_FAILED_MPI_DEVICE, 0),
               hm__error_set(HM_EINVAL, "%s", hm_last_error());
    return HM_OK;
}

/* Local: the memory of the run's buffers, one kind for every step (they
 * share the buffers). */
static int memory_of(hm_pattern_run_t *r, hm_pattern_failure_t *f)
{
    int device = r->p.device_memory, mpi = 0, dev = -1, host = -1;
    for (int i = 0; i < r->p.nbackends; i++) {
        hm_memory_t m = hm_backend_memory(r->p.backend[i]);
        if (m == HM_MEMORY_DEVICE && dev < 0) dev = i;
        if (m == HM_MEMORY_SHARED && host < 0) host = i;
        device |= m == HM_MEMORY_DEVICE, mpi |= m == HM_MEMORY_HOST;
    }
    if (host >= 0 && r->p.device_memory)
        return fail(f, HM_PATTERN_FAILED_DEVICE_MEMORY, host),
               hm__error_set(HM_EINVAL, "%s copies host memory and device memory was asked for",
                             hm_backend_name(r->p.backend[host]));
    if (host >= 0 && dev >= 0)
        return fail(f, HM_PATTERN_FAILED_BACKEND_MEMORY, dev),
               hm__error_set(HM_EINVAL,
                             "%s copies host memory and %s asks for device memory, and the steps "
                             "share their buffers (with device memory: cuda, ipc, ipc-get, nccl, "
                             "mpi)",
                             hm_backend_name(r->p.backend[host]),
                             hm_backend_name(r->p.backend[dev]));
    r->memory = device ? HM_MEMORY_DEVICE : host >= 0 ? HM_MEMORY_SHARED : HM_MEMORY_HOST;
    return device ? device_checks(r, mpi, f) : HM_OK;
}

/* Local: one backend, or one per striping step; the shape refused at 1
 * byte, before any measurement. */
static int check_shape(hm_pattern_run_t *r, hm_pattern_failure_t *f)
{
    int striping = r->p.kind == HM_PATTERN_STRIPING;
    if (striping && r->p.nbackends == 1) { /* the same backend for every step */
        r->p.backend[1] = r->p.backend[2] = r->p.backend[0];
        r->p.nbackends = 3;
    }
    if ((!striping && r->p.nbackends != 1) || (striping && r->p.nbackends != 3))
        return fail(f, HM_PATTERN_FAILED_STEPS, 0),
               hm__error_set(HM_EINVAL, "one backend per step is for striping, 3 of them");
    for (int i = 0; i < r->p.nbackends; i++)
        if (!r->p.backend[i])
            return fail(f, HM_PATTERN_FAILED_BACKEND, i),
                   hm__error_set(HM_EINVAL, "backend %d is NULL", i);
    for (int i = 0; r->p.device_time && i < r->p.nbackends; i++)
        if (!r->p.backend[i]->on_stream)
            return fail(f, HM_PATTERN_FAILED_DEVICE_TIME, i),
                   hm__error_set(HM_EINVAL,
                                 "the %s backend has no stream to time on the device (the GPU "
                                 "backends have: cuda, ipc, ipc-get, nccl)",
                                 hm_backend_name(r->p.backend[i]));
    if (r->p.window < 0 || (striping && r->p.window > 1))
        return fail(f, HM_PATTERN_FAILED_WINDOW, 0),
               hm__error_set(HM_EINVAL, "%d %s", r->p.window,
                             r->p.window < 0 ? "is below 0"
                                             : "is for one step: striping's steps forward what "
                                               "they received");
    if (r->p.window < 1) r->p.window = 1;
    int rc = memory_of(r, f);
    if (rc != HM_OK) return rc;
    if (r->p.kind == HM_PATTERN_GROUPS) {
        hm_group_params_t gp = {r->n, r->g, r->k, r->p.direction, 1};
        hm_edges_t edges = {0};
        rc = r->p.generator ? hm_generator_edges(r->p.generator, &gp, &edges)
                            : hm__error_set(HM_EINVAL, "no generator");
        hm_edges_free(&edges);
        if (rc != HM_OK) return fail(f, HM_PATTERN_FAILED_SHAPE, 0), rc;
    }
    if (striping && r->n != 2)
        return fail(f, HM_PATTERN_FAILED_STRIPING, 0),
               hm__error_set(HM_EINVAL, "2 groups (here %d of %d)", r->n, r->g);
    return HM_OK;
}

/* Local: what each size times, the baseline, the sizes' order; the sizes
 * and the path copied from the caller's params. */
static int plan_rows(hm_pattern_run_t *r, const hm_pattern_run_params_t *params)
{
    int file = r->p.kind == HM_PATTERN_FILE;
    if (r->p.kind == HM_PATTERN_STRIPING)
        for (int m = HM_RUN_SPLIT; m <= HM_RUN_CONCURRENT; m++) r->measured[r->nmeasured++] = m;
    else
        r->measured[r->nmeasured++] = HM_RUN_PATTERN;
    hm_group_params_t gp = {r->n, r->g, r->k, r->p.direction, 1};
    r->baseline = file                             ? HM_BASELINE_ALLTOALLV
                  : r->p.kind == HM_PATTERN_GROUPS ? hm_baseline_for_group(r->p.generator, &gp)
                                                   : HM_BASELINE_NONE;
    /* The collectives run on host memory: beside a pattern in device memory
     * they compare unlike things (and at 256 MiB a validated MPI_Scatter
     * took the device's ipc runs past their limits); MPI on device buffers
     * is the mpi backend on device memory itself. */
    if (r->memory == HM_MEMORY_DEVICE) r->baseline = HM_BASELINE_NONE;
    /* One collective beside a window of messages in flight: unlike too. */
    if (r->p.window > 1) r->baseline = HM_BASELINE_NONE;
    if (r->baseline != HM_BASELINE_NONE) r->measured[r->nmeasured++] = HM_RUN_BASELINE;
    r->nsizes = file ? 1 : params->nsizes;
    size_t *sizes = calloc(r->nsizes ? r->nsizes : 1, sizeof *sizes);
    r->order = malloc((r->nsizes ? r->nsizes : 1) * sizeof *r->order);
    char *path = file ? strdup(params->file) : NULL;
    r->p.sizes = sizes, r->p.file = path;
    if (!sizes || !r->order || (file && !path)) return hm__error_set(HM_ENOMEM, "out of memory");
    if (!file && r->nsizes) memcpy(sizes, params->sizes, r->nsizes * sizeof *sizes);
    hm_measure_shuffle(r->order, r->nsizes, r->p.seed);
    return HM_OK;
}

int hm_pattern_run_create(MPI_Comm comm, const hm_pattern_run_params_t *params,
                          hm_pattern_run_t **out, hm_pattern_failure_t *failed)
{
    if (!params) return hm__error_null(__func__, "params");
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm_pattern_failure_t f = {HM_PATTERN_FAILED_NONE, 0, 0, 0};
    hm_pattern_run_t *r = calloc(1, sizeof *r);
    int rc = r ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    if (r) r->comm = comm, r->p = *params, r->p.sizes = NULL, r->p.file = NULL;
    rc = hm_agree(comm, rc); /* the groups may communicate: every rank goes on, or none */
    if (rc == HM_OK) rc = groups(r, &f);
    if (rc == HM_OK && params->kind == HM_PATTERN_FILE && !params->file)
        rc = (fail(&f, HM_PATTERN_FAILED_EDGES, 0), hm__error_set(HM_EINVAL, "no file"));
    if (rc == HM_OK) rc = check_shape(r, &f);
    if (rc == HM_OK && (rc = plan_rows(r, params)) != HM_OK) f.what = HM_PATTERN_FAILED_RUN;
    rc = hm__pattern_run_agree(comm, rc, &f);
    if (failed) *failed = f;
    if (rc != HM_OK) hm_pattern_run_free(r), r = NULL;
    *out = r;
    return rc;
}

void hm_pattern_run_groups(const hm_pattern_run_t *run, int *n, int *g, int *k)
{
    if (!run || !n || !g || !k) {
        hm__error_null(__func__, !run ? "run" : !n ? "n" : !g ? "g" : "k");
        return;
    }
    *n = run->n, *g = run->g, *k = run->k;
}

hm_memory_t hm_pattern_run_memory(const hm_pattern_run_t *run)
{
    if (!run) hm__error_null(__func__, "run");
    return run ? run->memory : HM_MEMORY_HOST;
}

size_t hm_pattern_run_rows(const hm_pattern_run_t *run)
{
    if (!run) hm__error_null(__func__, "run");
    return run ? run->nsizes * (size_t)run->nmeasured : 0;
}

void hm_pattern_run_free(hm_pattern_run_t *run)
{
    if (!run) return;
    free((void *)run->p.sizes);
    free((void *)run->p.file);
    free(run->order);
    free(run);
}
