/* tools/harmonia/commands/cmd_pattern.c — `harmonia pattern`: a
 * point-to-point pattern [CommBench, Hidayetoglu et al. 2024] measured at
 * every --sizes (a generator over groups of --ranks-per-node ranks, or
 * striping), or once (a pattern file), each repetition started together
 * and timed on the global clock. The library builds, moves and checks the
 * bytes; this file the plan of sizes and the buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/measure.h>
#include <harmonia/pattern.h>
#include <harmonia/topo.h>

#include "commands/commands.h"
#include "commands/gpu_setup.h"
#include "commands/measure_setup.h"
#include "commands/pattern_report.h"

enum { MAX_STEPS = 3, MAX_BUFS = 3 };

/* What the rows of one size time, in table order (docs/pattern.md). */
typedef enum measured {
    M_PATTERN, /* the pattern's one step */
    M_SPLIT,   /* striping's steps, each alone */
    M_TRANSLATE,
    M_ASSEMBLE,
    M_SEQUENCE,   /* the steps as dependent steps, end to end (§4.2, Fig. 5a) */
    M_CONCURRENT, /* every step started, then every step waited for (Fig. 5c) */
    M_BASELINE    /* the MPI collective that moves the same data (§5.2.5) */
} measured_t;
static const char *const measured_names[] = {"pattern",  "split",      "translate", "assemble",
                                             "sequence", "concurrent", "baseline"};
enum { MAX_MEASURED = 7 };

typedef struct pattern_run {
    cli_pattern_shape_t shape;
    const hm_generator_t *gen; /* NULL: striping or file */
    hm_direction_t direction;
    const hm_backend_t *backend[MAX_STEPS];
    int nbackends;
    hm_memory_t memory;
    size_t *order, nsizes;
    measured_t measured[MAX_MEASURED];
    int nmeasured;
    hm_baseline_kind_t baseline;
    const hm_experiment_t *e; /* the set-up: clocks, procsync, what the machine is */
} pattern_run_t;

/* The real nodes as groups: g = the ranks of a node, the same on every
 * node, and each node's ranks consecutive in comm (the generators put rank
 * r in group r / g). HM_EXIT_OK, or HM_EXIT_USAGE with the reason. */
static int real_groups(MPI_Comm comm, int *g, char *why, size_t len)
{
    hm_topo_t *topo = NULL;
    int rank, lo, hi, consecutive, all = 0;
    if (hm_topo_create(comm, NULL, &topo) != HM_OK)
        return snprintf(why, len, "pattern: the nodes of the run: %s", hm_last_error()),
               HM_EXIT_FAILURE;
    MPI_Comm node = hm_topo_node_comm(topo);
    int node_rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(node, g);
    MPI_Comm_rank(node, &node_rank);
    MPI_Allreduce(g, &lo, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(g, &hi, 1, MPI_INT, MPI_MAX, comm);
    consecutive = rank == hm_topo_node_index(topo) * *g + node_rank;
    MPI_Allreduce(&consecutive, &all, 1, MPI_INT, MPI_LAND, comm);
    hm_topo_free(topo);
    if (lo != hi)
        return snprintf(why, len,
                        "pattern: the nodes hold %d to %d ranks; give --ranks-per-node for "
                        "groups of one size",
                        lo, hi),
               HM_EXIT_USAGE;
    if (!all)
        return snprintf(why, len,
                        "pattern: the ranks of a node are not consecutive (mpirun --map-by "
                        "node?): map by core or slot, or give --ranks-per-node"),
               HM_EXIT_USAGE;
    return HM_EXIT_OK;
}

/* The groups: g ranks each (--ranks-per-node, else the real node), n = P
 * / g whole groups. */
static int groups(const cli_config_t *cfg, MPI_Comm comm, pattern_run_t *r, char *why, size_t len)
{
    int size, g = cfg->ranks_per_node, rc = HM_EXIT_OK;
    MPI_Comm_size(comm, &size);
    if (g <= 0 && (rc = real_groups(comm, &g, why, len)) != HM_EXIT_OK) return rc;
    if (size % g != 0)
        return snprintf(why, len,
                        "--ranks-per-node %d: the %d ranks are not whole groups of %d (the "
                        "pattern's groups must be full)",
                        g, size, g),
               HM_EXIT_USAGE;
    r->shape.g = g;
    r->shape.n = size / g;
    r->shape.k = cfg->subgroup ? cfg->subgroup : g;
    if (r->shape.k > g)
        return snprintf(why, len, "--k %d: more than the %d ranks of a group", r->shape.k, g),
               HM_EXIT_USAGE;
    return HM_EXIT_OK;
}

/* The memory of the run's buffers, from its backends and --memory: one
 * kind for every step (they share the buffers). */
static int memory_of(const cli_config_t *cfg, pattern_run_t *r, char *why, size_t len)
{
    int device = cfg->memory_device, mpi = 0;
    const char *dev_name = cfg->memory_device ? "--memory device" : NULL, *host_name = NULL;
    for (int i = 0; i < r->nbackends; i++) {
        hm_memory_t m = hm_backend_memory(r->backend[i]);
        if (m == HM_MEMORY_DEVICE && !dev_name) dev_name = hm_backend_name(r->backend[i]);
        if (m == HM_MEMORY_SHARED && !host_name) host_name = hm_backend_name(r->backend[i]);
        device |= m == HM_MEMORY_DEVICE, mpi |= m == HM_MEMORY_HOST;
    }
    if (dev_name && host_name)
        return snprintf(why, len,
                        "--backend %s: %s copies host memory and %s asks for device memory, and "
                        "the steps share their buffers (with device memory: cuda, ipc, ipc-get, "
                        "nccl, mpi)",
                        r->shape.backend, host_name, dev_name),
               HM_EXIT_USAGE;
    r->memory = device ? HM_MEMORY_DEVICE : host_name ? HM_MEMORY_SHARED : HM_MEMORY_HOST;
    char what[96];
    for (int i = 0; device && i < r->nbackends; i++) {
        snprintf(what, sizeof what, "--backend %s", hm_backend_name(r->backend[i]));
        if (hm_backend_memory(r->backend[i]) != HM_MEMORY_DEVICE) continue;
        if (hm_backend_check(r->backend[i]) != HM_OK)
            return snprintf(why, len, "%s: %s", what, hm_last_error()), HM_EXIT_USAGE;
    }
    if (device && mpi) {
        int rc = cli_gpu_check("--memory device", why, len);
        if (rc != HM_EXIT_OK) return rc;
        char reason[160];
        if (!hm_gpu_mpi_cuda_aware(reason, sizeof reason))
            return snprintf(why, len, "--backend mpi with device memory: %s", reason),
                   HM_EXIT_USAGE;
    }
    return HM_EXIT_OK;
}

/* The backends: one, or one per step of striping. */
static int backends(const cli_config_t *cfg, pattern_run_t *r, char *why, size_t len)
{
    char buf[sizeof cfg->backend];
    snprintf(buf, sizeof buf, "%s", cfg->backend[0] ? cfg->backend : "mpi");
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, '+');
        if (next) *next++ = '\0';
        r->backend[r->nbackends++] = hm_backend_find(item);
    }
    int striping = strcmp(r->shape.pattern, "striping") == 0;
    if (striping && r->nbackends == 1) {
        r->backend[1] = r->backend[2] = r->backend[0];
        r->nbackends = 3;
    }
    if (!striping && r->nbackends != 1)
        return snprintf(why, len, "--backend %s: one backend per step is for --pattern striping",
                        cfg->backend),
               HM_EXIT_USAGE;
    snprintf(r->shape.backend, sizeof r->shape.backend, "%s",
             cfg->backend[0] ? cfg->backend : "mpi");
    return memory_of(cfg, r, why, len);
}

static int check_options(const cli_config_t *cfg, pattern_run_t *r, char *why, size_t len)
{
    int file = strcmp(r->shape.pattern, "file") == 0;
    if (file && !cfg->pattern_file[0])
        return snprintf(why, len, "--pattern file: give the file with --file"), HM_EXIT_USAGE;
    if (!file && cfg->pattern_file[0])
        return snprintf(why, len, "--file %.200s: only --pattern file reads a file",
                        cfg->pattern_file),
               HM_EXIT_USAGE;
    const uint64_t sizes = HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_MINBYTES) |
                           HM_OPT_BIT(HM_OPT_MAXBYTES) | HM_OPT_BIT(HM_OPT_STEPFACTOR);
    if (file && (cfg->given & sizes))
        return snprintf(why, len, "--sizes%s: the file gives every message's size",
                        cfg->given & HM_OPT_BIT(HM_OPT_SIZES) ? "" : " (-b/-e/-f)"),
               HM_EXIT_USAGE;
    if ((file || strcmp(r->shape.pattern, "striping") == 0 || !strcmp(r->shape.pattern, "self")) &&
        (cfg->given & (HM_OPT_BIT(HM_OPT_DIRECTION))))
        return snprintf(why, len, "--direction %s: --pattern %s has no direction", cfg->direction,
                        r->shape.pattern),
               HM_EXIT_USAGE;
    if ((file || strcmp(r->shape.pattern, "striping") == 0) &&
        (cfg->given & HM_OPT_BIT(HM_OPT_SUBGROUP)))
        return snprintf(why, len, "--k %d: --pattern %s has no subgroup", cfg->subgroup,
                        r->shape.pattern),
               HM_EXIT_USAGE;
    int model_parts = (cfg->nic_bw_gbps > 0) + (cfg->gpus_per_nic > 0) + (cfg->nics > 0);
    if (model_parts > 0 && (cfg->nic_bw_gbps <= 0 || model_parts != 2))
        return snprintf(why, len,
                        "--nic-bw: give it with one of --gpus-per-nic (eq. 1, packed) or --nics "
                        "(eq. 2, round-robin)"),
               HM_EXIT_USAGE;
    if (r->gen) { /* the shape refused before any measurement, not at the first size */
        hm_group_params_t gp = {r->shape.n, r->shape.g, r->shape.k, r->direction, 1};
        hm_edges_t edges = {0};
        int bad = hm_generator_edges(r->gen, &gp, &edges) != HM_OK;
        hm_edges_free(&edges);
        if (bad)
            return snprintf(why, len, "--pattern %s: %s%s", r->shape.pattern, hm_last_error(),
                            cfg->ranks_per_node ? ""
                                                : " (the groups are the nodes: on one node, "
                                                  "give --ranks-per-node)"),
                   HM_EXIT_USAGE;
    }
    if (strcmp(r->shape.pattern, "striping") == 0 && r->shape.n != 2)
        return snprintf(why, len,
                        "--pattern striping: 2 groups of --ranks-per-node ranks (here %d of %d)",
                        r->shape.n, r->shape.g),
               HM_EXIT_USAGE;
    return HM_EXIT_OK;
}

static int make_run(const cli_config_t *cfg, MPI_Comm comm, pattern_run_t *r)
{
    char why[512] = "";
    snprintf(r->shape.pattern, sizeof r->shape.pattern, "%s",
             cfg->pattern[0] ? cfg->pattern : "rail");
    r->gen = hm_generator_find(r->shape.pattern);
    r->direction = HM_DIRECTION_UNI;
    if (cfg->direction[0]) hm_direction_find(cfg->direction, &r->direction);
    snprintf(r->shape.direction, sizeof r->shape.direction, "%s",
             r->gen && strcmp(r->shape.pattern, "self") != 0 ? hm_direction_name(r->direction)
                                                             : "");
    int rc = groups(cfg, comm, r, why, sizeof why);
    if (rc == HM_EXIT_OK) rc = backends(cfg, r, why, sizeof why);
    if (rc == HM_EXIT_OK) rc = check_options(cfg, r, why, sizeof why);
    r->nsizes = strcmp(r->shape.pattern, "file") == 0 ? 1 : (size_t)cfg->nsizes;
    if (strcmp(r->shape.pattern, "striping") == 0)
        for (measured_t m = M_SPLIT; m <= M_CONCURRENT; m++) r->measured[r->nmeasured++] = m;
    else
        r->measured[r->nmeasured++] = M_PATTERN;
    hm_group_params_t gp = {r->shape.n, r->shape.g, r->shape.k, r->direction, 1};
    r->baseline = strcmp(r->shape.pattern, "file") == 0 ? HM_BASELINE_ALLTOALLV
                  : r->gen                              ? hm_baseline_for_group(r->gen, &gp)
                                                        : HM_BASELINE_NONE;
    /* The collectives run on host memory: beside a pattern in device memory
     * they compare unlike things (and at 256 MiB a validated MPI_Scatter
     * took the device's ipc runs past their limits); MPI on device buffers
     * is --backend mpi --memory device itself. */
    if (r->memory == HM_MEMORY_DEVICE) r->baseline = HM_BASELINE_NONE;
    if (r->baseline != HM_BASELINE_NONE) r->measured[r->nmeasured++] = M_BASELINE;
    if (rc == HM_EXIT_OK && !(r->order = malloc(r->nsizes * sizeof *r->order)))
        rc = HM_EXIT_FAILURE, snprintf(why, sizeof why, "out of memory");
    if (rc == HM_EXIT_OK) hm_measure_shuffle(r->order, r->nsizes, cfg->seed);
    return cli_agree(comm, rc, why);
}

/* Local: the edges of every step at size (bytes per message; striping:
 * the whole buffer). */
static int edges_at(const cli_config_t *cfg, const pattern_run_t *r, int nranks, size_t size,
                    hm_edges_t *steps, int *nsteps)
{
    memset(steps, 0, MAX_STEPS * sizeof *steps);
    *nsteps = 1;
    if (strcmp(r->shape.pattern, "file") == 0)
        return hm_edges_read(cfg->pattern_file, nranks, steps);
    if (strcmp(r->shape.pattern, "striping") == 0) {
        *nsteps = 3;
        return hm_striping_edges(r->shape.g, size, steps);
    }
    hm_group_params_t gp = {r->shape.n, r->shape.g, r->shape.k, r->direction, size};
    return hm_generator_edges(r->gen, &gp, steps);
}

/* Striping is validated end to end: rank g's buffer 1 must hold rank 0's
 * buffer 0 after the three steps. */
typedef struct striping_check {
    hm_buffer_t *src, *dst;
    int rank, g;
} striping_check_t;

enum { STAGE_BYTES = 1 << 20 }; /* striping's fill and check go through the host in pieces */

static int striping_fill(void *ctx)
{
    striping_check_t *c = ctx;
    hm_buffer_t *b = c->rank == 0 ? c->src : c->dst;
    if (c->rank != 0 && c->rank != c->g) return HM_OK;
    unsigned char *stage = malloc(STAGE_BYTES);
    int rc = stage ? HM_OK : HM_ENOMEM;
    for (size_t at = 0, n = hm_buffer_size(b); rc == HM_OK && at < n; at += STAGE_BYTES) {
        size_t k = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
        for (size_t i = 0; i < k; i++) stage[i] = c->rank == 0 ? hm_pattern_byte(0, at + i) : 0;
        rc = hm_buffer_write(b, at, stage, k);
    }
    free(stage);
    return rc;
}

static int striping_verify(void *ctx, uint64_t *wrong)
{
    striping_check_t *c = ctx;
    *wrong = 0;
    if (c->rank != c->g) return HM_OK;
    unsigned char *stage = malloc(STAGE_BYTES);
    int rc = stage ? HM_OK : HM_ENOMEM;
    for (size_t at = 0, n = hm_buffer_size(c->dst); rc == HM_OK && at < n; at += STAGE_BYTES) {
        size_t k = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
        rc = hm_buffer_read(c->dst, at, stage, k);
        for (size_t i = 0; rc == HM_OK && i < k; i++)
            *wrong += stage[i] != hm_pattern_byte(0, at + i);
    }
    free(stage);
    return rc;
}

typedef struct cell {
    hm_edges_t steps[MAX_STEPS];
    int nsteps;
    hm_buffer_t *buf[MAX_BUFS];
    hm_plan_t *plan[MAX_STEPS];
} cell_t;

static void free_cell(cell_t *c)
{
    for (int i = 0; i < MAX_STEPS; i++) hm_plan_free(c->plan[i]), hm_edges_free(&c->steps[i]);
    for (int b = 0; b < MAX_BUFS; b++) hm_buffer_free(c->buf[b]);
}

/* Collective: buffers as large as this rank's regions need, and the
 * committed plans. Agreed status; the sentence in hm_last_error. */
static int build(MPI_Comm comm, const pattern_run_t *r, int rank, cell_t *c)
{
    size_t need[MAX_BUFS] = {0};
    for (int s = 0; s < c->nsteps; s++) {
        size_t extent[MAX_BUFS] = {0};
        hm_edges_extent(&c->steps[s], rank, extent);
        for (int b = 0; b < c->steps[s].nbufs && b < MAX_BUFS; b++)
            if (extent[b] > need[b]) need[b] = extent[b];
    }
    int rc = HM_OK;
    for (int b = 0; b < MAX_BUFS && rc == HM_OK; b++)
        rc = hm_buffer_alloc(comm, r->memory, need[b], &c->buf[b]);
    for (int s = 0; s < c->nsteps && rc == HM_OK; s++) {
        rc = hm_plan_create(comm, r->backend[s < r->nbackends ? s : 0], &c->plan[s]);
        if (rc == HM_OK) rc = hm_edges_add(&c->steps[s], c->plan[s], c->buf, MAX_BUFS);
        if (rc == HM_OK) rc = hm_plan_commit(c->plan[s]);
    }
    return rc;
}

/* The steps a row times: one plan, or every step in mode. */
typedef struct timed {
    hm_plan_t *const *steps;
    int nsteps;
    hm_sequence_mode_t mode;
    long long messages;
    unsigned long long bytes;
} timed_t;

static timed_t timed_of(const cell_t *c, measured_t m, size_t bytes)
{
    timed_t t = {c->plan, c->nsteps, HM_SEQUENCE_STEPS, 0, 0};
    if (m == M_PATTERN || (m >= M_SPLIT && m <= M_ASSEMBLE)) {
        int s = m == M_PATTERN ? 0 : (int)(m - M_SPLIT);
        t.steps = &c->plan[s];
        t.nsteps = 1;
        t.messages = (long long)c->steps[s].n;
        t.bytes = hm_plan_total_bytes(c->plan[s]);
        return t;
    }
    for (int s = 0; s < c->nsteps; s++) t.messages += (long long)c->steps[s].n;
    /* Striping moves one buffer, whatever its stripes cross: the paper's
     * time for moving 1 GB (Fig. 9). */
    t.bytes = bytes;
    if (m == M_CONCURRENT) t.mode = HM_SEQUENCE_CONCURRENT;
    return t;
}

/* How a row's measurement ended: its status, the result (for HM_EAGAIN:
 * what was measured), and the wrong bytes. */
typedef struct outcome {
    int rc;
    const hm_measure_result_t *res;
    uint64_t wrong;
} outcome_t;

/* Collective: the agreed exit status of a row measured with outcome o; the
 * sentence names the size and what was timed. Too few valid repetitions
 * are judged as bench judges them (cli_partial_status). */
static int row_status(const cli_config_t *cfg, MPI_Comm comm, const pattern_run_t *r,
                      const outcome_t *o, int validated, size_t bytes, const char *measured)
{
    char why[1024] = "", what[64] = "", row[96];
    if (strcmp(measured, "pattern") != 0) snprintf(what, sizeof what, " (%s)", measured);
    int status = HM_EXIT_OK;
    if (o->rc == HM_EAGAIN) {
        snprintf(row, sizeof row, "%zu B%s", bytes, what);
        status = cli_partial_status(cfg, comm, r->e, row, o->res, why, sizeof why);
    } else if (o->rc != HM_OK) {
        /* HM_ENOMEM: the root could not summarize the row (no sentence set). */
        snprintf(why, sizeof why, "%zu B%s: %s", bytes, what,
                 o->rc == HM_ENOMEM ? hm_strerror(o->rc) : hm_last_error());
        status = HM_EXIT_FAILURE;
    }
    status = cli_agree(comm, status, why);
    if (status == HM_EXIT_OK && validated && o->wrong > 0) {
        snprintf(why, sizeof why, "%zu B%s: %llu received bytes differ from what was sent", bytes,
                 what, (unsigned long long)o->wrong);
        status = cli_agree(comm, HM_EXIT_FAILURE, why);
    }
    return status;
}

/* Collective: the collective baseline of the size's pattern, over every
 * rank of comm, from the pattern's edges. */
static int measure_baseline(const cli_config_t *cfg, MPI_Comm comm, hm_procsync_t *ps,
                            const pattern_run_t *r, cli_pattern_report_t *rep, const cell_t *c,
                            size_t bytes, size_t index, size_t order)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const char *name = hm_baseline_name(r->baseline);
    hm_baseline_t *b = NULL;
    int rc = hm_baseline_create(comm, r->baseline, &c->steps[0], &b);
    outcome_t o = {rc, NULL, 0};
    if (rc != HM_OK) return row_status(cfg, comm, r, &o, 0, bytes, name);
    hm_measure_params_t mp;
    hm_measure_result_t res = {0};
    cli_measure_params(cfg, r->e, &mp);
    rc = o.rc = hm_baseline_measure(b, ps, &mp, &res, &o.wrong);
    long nvalid = res.nvalid, attempts = res.attempts;
    if (rc == HM_OK || rc == HM_EAGAIN) {
        long long messages = r->baseline == HM_BASELINE_SCATTER    ? size - 1
                             : r->baseline == HM_BASELINE_ALLTOALL ? (long long)size * (size - 1)
                                                                   : (long long)c->steps[0].n;
        cli_pattern_cell_t cell = {name, bytes, messages, hm_baseline_bytes(b),
                                   mp.validate ? (long long)o.wrong : -1};
        if (rank == 0 && cli_pattern_report_add(rep, index, order, &cell, &res) != HM_OK)
            o.rc = HM_ENOMEM;
        hm_measure_result_free(&res);
    }
    hm_baseline_free(b);
    /* The baseline is the comparison, not the measurement asked for: too
     * few valid repetitions leave its row partial (valid < --nrep in the
     * table and the files) and say so, and the run goes on. A collective
     * that is slow to start together (Open MPI's MPI_Scatter of 1 MiB, 330
     * us under load: 220 of 1000 valid) must not cost the pattern's rows. */
    if (o.rc == HM_EAGAIN) {
        if (rank == 0)
            fprintf(stderr,
                    "harmonia: warning: %zu B (%s): only %ld of --nrep %ld repetitions were "
                    "valid after %ld attempts; its row is partial\n",
                    bytes, name, nvalid, cfg->nrep, attempts);
        o.rc = HM_OK;
    }
    return row_status(cfg, comm, r, &o, mp.validate, bytes, name);
}

/* Collective: one row of a size, measured and reported. Striping's steps
 * alone are validated each on its own; the sequence end to end (rank g's
 * buffer against rank 0's); the concurrent run is not: its steps forward
 * what they are still receiving, as the paper's Fig. 5c does. */
static int measure_row(const cli_config_t *cfg, MPI_Comm comm, hm_procsync_t *ps,
                       const pattern_run_t *r, cli_pattern_report_t *rep, cell_t *c, measured_t m,
                       size_t bytes, size_t index, size_t order)
{
    if (m == M_BASELINE) return measure_baseline(cfg, comm, ps, r, rep, c, bytes, index, order);
    int rank;
    MPI_Comm_rank(comm, &rank);
    timed_t t = timed_of(c, m, bytes);
    if (t.messages == 0) return HM_EXIT_OK; /* striping's split and assemble at g = 1 */
    hm_measure_params_t mp;
    hm_measure_result_t res;
    outcome_t o = {0, &res, 0};
    striping_check_t sc = {c->buf[0], c->buf[1], rank, r->shape.g};
    hm_plan_validation_t v = {striping_fill, striping_verify, &sc};
    cli_measure_params(cfg, r->e, &mp);
    if (m == M_CONCURRENT) mp.validate = 0;
    o.rc = hm_plan_measure(t.steps, t.nsteps, t.mode, ps, &mp, m == M_SEQUENCE ? &v : NULL, &res,
                           &o.wrong);
    int measured = o.rc == HM_OK || o.rc == HM_EAGAIN;
    if (measured) {
        cli_pattern_cell_t cell = {measured_names[m], bytes, t.messages, t.bytes,
                                   mp.validate ? (long long)o.wrong : -1};
        if (rank == 0 && cli_pattern_report_add(rep, index, order, &cell, &res) != HM_OK)
            o.rc = HM_ENOMEM;
        /* Once, collectively: the first size's pattern (striping: its translation). */
        if (order < (size_t)r->nmeasured && (m == M_PATTERN || m == M_TRANSLATE))
            cli_pattern_report_matrix(rep, comm, c->plan[c->nsteps > 1 ? 1 : 0], bytes);
    }
    int status = row_status(cfg, comm, r, &o, mp.validate, bytes, measured_names[m]);
    if (measured) hm_measure_result_free(&res);
    return status;
}

/* Collective: one size, measured and reported. */
static int run_size(const cli_config_t *cfg, MPI_Comm comm, hm_procsync_t *ps,
                    const pattern_run_t *r, cli_pattern_report_t *rep, size_t index, size_t order)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t bytes = r->nsizes == 1 && !strcmp(r->shape.pattern, "file") ? 0 : cfg->sizes[index];
    cell_t c = {0};
    int rc = edges_at(cfg, r, size, bytes, c.steps, &c.nsteps);
    char why[1024] = "";
    if (rc != HM_OK)
        snprintf(why, sizeof why, "--pattern %s, %zu B: %s", r->shape.pattern, bytes,
                 hm_last_error());
    else if (c.steps[0].nranks > size)
        rc = HM_EINVAL, snprintf(why, sizeof why, "--pattern %s: it needs %d ranks, the run has %d",
                                 r->shape.pattern, c.steps[0].nranks, size);
    int status = cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_USAGE, why);
    if (status == HM_EXIT_OK) {
        rc = build(comm, r, rank, &c);
        if (rc != HM_OK) snprintf(why, sizeof why, "%zu B: %s", bytes, hm_last_error());
        status = cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE, why);
    }
    for (int k = 0; status == HM_EXIT_OK && k < r->nmeasured; k++)
        status = measure_row(cfg, comm, ps, r, rep, &c, r->measured[k], bytes,
                             index * (size_t)r->nmeasured + (size_t)k,
                             order * (size_t)r->nmeasured + (size_t)k);
    free_cell(&c);
    return status;
}

int cli_cmd_pattern(cli_config_t *cfg, MPI_Comm comm)
{
    pattern_run_t r = {0};
    hm_experiment_t *e = NULL;
    cli_pattern_report_t *rep = NULL;
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_EXIT_OK) rc = make_run(cfg, comm, &r);
    if (rc == HM_EXIT_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &e);
    r.e = e;
    if (rc == HM_EXIT_OK)
        rc = cli_gpu_setup(cfg, comm, r.memory == HM_MEMORY_DEVICE, hm_experiment_factors(e));
    if (rc == HM_EXIT_OK)
        rc = cli_pattern_report_open(cfg, comm, e, &r.shape, r.nsizes * (size_t)r.nmeasured, &rep);
    for (size_t k = 0; rc == HM_EXIT_OK && k < r.nsizes; k++)
        rc = run_size(cfg, comm, hm_experiment_procsync(e), &r, rep, r.order[k], k);
    int closed = rep ? cli_pattern_report_close(rep, comm) : HM_EXIT_OK;
    if (rc == HM_EXIT_OK) rc = closed;
    rc = cli_experiment_close(e, comm, rc);
    free(r.order);
    return rc;
}
