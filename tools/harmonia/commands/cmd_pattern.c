/* tools/harmonia/commands/cmd_pattern.c — `harmonia pattern`: a
 * point-to-point pattern [CommBench, Hidayetoglu et al. 2024] measured at
 * every --sizes (a generator over groups of --ranks-per-node ranks, or
 * striping), or once (a pattern file), each repetition started together
 * and timed on the global clock. The library (hm_pattern_run_create,
 * hm_pattern_run_measure) decides and measures; this file maps the options,
 * names the option a failure concerns, and hands the rows to the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>
#include <harmonia/pattern.h>

#include "commands/commands.h"
#include "commands/gpu_setup.h"
#include "commands/measure_setup.h"
#include "commands/pattern_report.h"

/* Local: the options that do not go together, before anything is run
 * (the same on every rank). HM_OK, or HM_EINVAL with why. */
static int check_options(const cli_config_t *cfg, const char *pattern)
{
    int file = strcmp(pattern, "file") == 0, striping = strcmp(pattern, "striping") == 0;
    if (file && !cfg->pattern_file[0])
        return hm_error_set(HM_EINVAL, "--pattern file: give the file with --file"), HM_EINVAL;
    if (!file && cfg->pattern_file[0])
        return hm_error_set(HM_EINVAL, "--file %.200s: only --pattern file reads a file",
                            cfg->pattern_file),
               HM_EINVAL;
    if (!file && (cfg->given & HM_OPT_BIT(HM_OPT_FILE_ELEMENT_BYTES)))
        return hm_error_set(HM_EINVAL, "--file-element-bytes %ld: only --pattern file reads a file",
                            cfg->file_element_bytes),
               HM_EINVAL;
    const cli_opt_mask_t sizes = HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_MINBYTES) |
                                 HM_OPT_BIT(HM_OPT_MAXBYTES) | HM_OPT_BIT(HM_OPT_STEPFACTOR);
    if (file && (cfg->given & sizes))
        return hm_error_set(HM_EINVAL, "--sizes%s: the file gives every message's size",
                            cfg->given & HM_OPT_BIT(HM_OPT_SIZES) ? "" : " (-b/-e/-f)"),
               HM_EINVAL;
    if ((file || striping || !strcmp(pattern, "self")) &&
        (cfg->given & HM_OPT_BIT(HM_OPT_DIRECTION)))
        return hm_error_set(HM_EINVAL, "--direction %s: --pattern %s has no direction",
                            cfg->direction, pattern),
               HM_EINVAL;
    if ((file || striping) && (cfg->given & HM_OPT_BIT(HM_OPT_SUBGROUP)))
        return hm_error_set(HM_EINVAL, "--k %d: --pattern %s has no subgroup", cfg->subgroup,
                            pattern),
               HM_EINVAL;
    int model_parts = (cfg->nic_bw_gbps > 0) + (cfg->gpus_per_nic > 0) + (cfg->nics > 0);
    if (model_parts > 0 && (cfg->nic_bw_gbps <= 0 || model_parts != 2))
        return hm_error_set(
                   HM_EINVAL,
                   "--nic-bw: give it with one of --gpus-per-nic (eq. 1, packed) or --nics "
                   "(eq. 2, round-robin)"),
               HM_EINVAL;
    return HM_OK;
}

/* The library's parameters and the report's shape from the options (parsed
 * already: every name is known). */
static void params_of(const cli_config_t *cfg, hm_pattern_run_params_t *p,
                      cli_pattern_shape_t *shape)
{
    hm_pattern_run_params_default(p);
    snprintf(shape->pattern, sizeof shape->pattern, "%s", cfg->pattern[0] ? cfg->pattern : "rail");
    snprintf(shape->backend, sizeof shape->backend, "%s", cfg->backend[0] ? cfg->backend : "mpi");
    p->kind = !strcmp(shape->pattern, "file")       ? HM_PATTERN_FILE
              : !strcmp(shape->pattern, "striping") ? HM_PATTERN_STRIPING
                                                    : HM_PATTERN_GROUPS;
    p->generator = hm_generator_find(shape->pattern);
    if (cfg->direction[0]) hm_direction_find(cfg->direction, &p->direction);
    snprintf(shape->direction, sizeof shape->direction, "%s",
             p->generator && strcmp(shape->pattern, "self") != 0 ? hm_direction_name(p->direction)
                                                                 : "");
    p->file = cfg->pattern_file;
    p->file_element_bytes = (size_t)cfg->file_element_bytes;
    p->ranks_per_group = cfg->ranks_per_node;
    p->subgroup = cfg->subgroup;
    char buf[sizeof shape->backend];
    snprintf(buf, sizeof buf, "%s", shape->backend);
    p->nbackends = 0;
    for (char *item = buf, *next; item && p->nbackends < HM_PATTERN_MAX_STEPS; item = next) {
        if ((next = strchr(item, '+'))) *next++ = '\0';
        p->backend[p->nbackends++] = hm_backend_find(item);
    }
    p->device_memory = cfg->memory_device;
    p->device_time = cfg->device_time;
    p->window = cfg->pattern_window ? (int)cfg->pattern_window : 1;
    p->sizes = cfg->sizes;
    p->nsizes = (size_t)cfg->nsizes;
    p->seed = cfg->seed;
}

/* The message of a failure of the library's, naming the option it
 * concerns; the status. */
static int failure_message(const cli_config_t *cfg, const cli_pattern_shape_t *shape,
                           const hm_pattern_run_params_t *p, const hm_pattern_failure_t *f)
{
    const char *s = hm_last_error(),
               *step = hm_backend_name(p->backend[f->step < p->nbackends ? f->step : 0]);
    switch (f->what) {
    case HM_PATTERN_FAILED_NODES:
        return hm_error_set(HM_EINVAL, "pattern: %s", s), HM_EFAILED;
    case HM_PATTERN_FAILED_NODE_SIZES:
        hm_error_set(HM_EINVAL, "pattern: %s; give --ranks-per-node for groups of one size", s);
        break;
    case HM_PATTERN_FAILED_NODE_ORDER:
        hm_error_set(HM_EINVAL, "pattern: %s: map by core or slot, or give --ranks-per-node", s);
        break;
    case HM_PATTERN_FAILED_GROUPS:
        hm_error_set(HM_EINVAL, "--ranks-per-node %d: %s", cfg->ranks_per_node, s);
        break;
    case HM_PATTERN_FAILED_SUBGROUP:
        hm_error_set(HM_EINVAL, "--k %d: %s", cfg->subgroup, s);
        break;
    case HM_PATTERN_FAILED_STEPS:
        hm_error_set(HM_EINVAL, "--backend %s: one backend per step is for --pattern striping",
                     cfg->backend);
        break;
    case HM_PATTERN_FAILED_BACKEND_MEMORY:
        hm_error_set(HM_EINVAL, "--backend %s: %s", shape->backend, s);
        break;
    case HM_PATTERN_FAILED_DEVICE_MEMORY:
        hm_error_set(HM_EINVAL,
                     "--backend %s: %s copies host memory and --memory device asks for device "
                     "memory, and the steps share their buffers (with device memory: cuda, ipc, "
                     "ipc-get, nccl, mpi)",
                     shape->backend, step);
        break;
    case HM_PATTERN_FAILED_BACKEND:
        hm_error_set(HM_EINVAL, "--backend %s: %s", step, s);
        break;
    case HM_PATTERN_FAILED_DEVICE_TIME:
        hm_error_set(HM_EINVAL, "--device-time: %s", s);
        break;
    case HM_PATTERN_FAILED_WINDOW:
        hm_error_set(HM_EINVAL, "--window %s", s);
        break;
    case HM_PATTERN_FAILED_DEVICE:
        hm_error_set(HM_EINVAL, "--memory device: %s", s);
        break;
    case HM_PATTERN_FAILED_MPI_DEVICE:
        hm_error_set(HM_EINVAL, "--backend mpi with device memory: %s", s);
        break;
    case HM_PATTERN_FAILED_SHAPE:
        hm_error_set(HM_EINVAL, "--pattern %s: %s%s", shape->pattern, s,
                     cfg->ranks_per_node ? ""
                                         : " (the groups are the nodes: on one node, give "
                                           "--ranks-per-node)");
        break;
    case HM_PATTERN_FAILED_STRIPING:
        hm_error_set(HM_EINVAL,
                     "--pattern striping: 2 groups of --ranks-per-node ranks (here %d of %d)", f->n,
                     f->g);
        break;
    case HM_PATTERN_FAILED_EDGES: /* "8 B: ..." for a generated pattern */
        hm_error_set(HM_EINVAL, "--pattern %s%s %s", shape->pattern,
                     strcmp(shape->pattern, "file") ? "," : ":", s);
        break;
    case HM_PATTERN_FAILED_RANKS:
        hm_error_set(HM_EINVAL, "--pattern %s: %s", shape->pattern, s);
        break;
    default: /* a runtime failure: its sentence names the size and the row */
        return hm_error_set(HM_EINVAL, "%s", s), HM_EFAILED;
    }
    return HM_EINVAL;
}

/* What the rows are handed to. */
typedef struct row_sink {
    const cli_config_t *cfg;
    MPI_Comm comm;
    const hm_experiment_t *e;
    cli_pattern_report_t *rep;
    int status; /* the agreed status of the last row */
} row_sink_t;

/* Collective: the agreed status of a row whose measurement or report
 * ended with rc; too few valid repetitions are judged as bench judges them
 * (cli_partial_status). */
static int row_status(const row_sink_t *s, const hm_pattern_row_t *row, int rc)
{
    char words[96];
    hm_pattern_row_words(row, words, sizeof words);
    int status = HM_OK;
    if (rc == HM_EAGAIN) {
        status = cli_partial_status(s->cfg, s->comm, s->e, words, row->result);
    } else if (rc != HM_OK) { /* the root could not keep the row */
        hm_error_set(HM_EINVAL, "%s: %s", words, hm_strerror(rc));
        status = HM_EFAILED;
    }
    return cli_agree(s->comm, status, hm_last_error());
}

/* Collective: one measured row into the report. */
static int on_row(void *ctx, const hm_pattern_row_t *row)
{
    row_sink_t *s = ctx;
    int rank, rc = row->status;
    MPI_Comm_rank(s->comm, &rank);
    cli_pattern_cell_t cell = {row->measured, row->size_bytes, row->messages,
                               row->bytes,    row->node_bytes, row->wrong};
    if (rank == 0 &&
        cli_pattern_report_add(s->rep, row->index, row->order, &cell, row->result) != HM_OK)
        rc = HM_ENOMEM;
    if (row->plan) cli_pattern_report_matrix(s->rep, s->comm, row->plan, row->size_bytes);
    /* The baseline is the comparison, not the measurement asked for: too
     * few valid repetitions leave its row partial (valid < --nrep in the
     * table and the files) and say so, and the run goes on. A collective
     * that is slow to start together (Open MPI's MPI_Scatter of 1 MiB, 330
     * us under load: 220 of 1000 valid) must not cost the pattern's rows. */
    if (row->baseline && rc == HM_EAGAIN) {
        char words[96];
        hm_pattern_row_words(row, words, sizeof words);
        if (rank == 0)
            fprintf(stderr,
                    "harmonia: warning: %s: only %ld of --nrep %ld repetitions were valid after "
                    "%ld attempts; its row is partial\n",
                    words, row->result->nvalid, s->cfg->nrep, row->result->attempts);
        rc = HM_OK;
    }
    s->status = row_status(s, row, rc);
    return s->status;
}

/* Collective: the run checked and decided; agreed status, a failure
 * printed once. */
static int create(const cli_config_t *cfg, MPI_Comm comm, const cli_pattern_shape_t *shape,
                  const hm_pattern_run_params_t *p, hm_pattern_run_t **run)
{
    int status = check_options(cfg, shape->pattern);
    if ((status = cli_agree(comm, status, hm_last_error())) != HM_OK) return status;
    hm_pattern_failure_t f;
    if (hm_pattern_run_create(comm, p, run, &f) == HM_OK) return HM_OK;
    status = failure_message(cfg, shape, p, &f);
    return cli_agree(comm, status, hm_last_error());
}

/* Collective: every size measured, each row reported. */
static int measure(const cli_config_t *cfg, MPI_Comm comm, const cli_pattern_shape_t *shape,
                   const hm_pattern_run_params_t *p, hm_pattern_run_t *run, hm_experiment_t *e,
                   cli_pattern_report_t *rep)
{
    row_sink_t sink = {cfg, comm, e, rep, HM_OK};
    hm_measure_params_t mp;
    hm_pattern_failure_t f;
    cli_measure_params(cfg, e, &mp);
    int rc = hm_pattern_run_measure(run, hm_experiment_procsync(e), &mp, on_row, &sink, &f);
    if (rc == HM_OK) return HM_OK;
    if (f.what == HM_PATTERN_FAILED_ROW) return sink.status; /* printed already */
    int status = failure_message(cfg, shape, p, &f);
    return cli_agree(comm, status, hm_last_error());
}

int cli_cmd_pattern(cli_config_t *cfg, MPI_Comm comm)
{
    hm_pattern_run_params_t p;
    cli_pattern_shape_t shape = {0};
    hm_pattern_run_t *run = NULL;
    hm_experiment_t *e = NULL;
    cli_pattern_report_t *rep = NULL;
    params_of(cfg, &p, &shape);
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK) rc = create(cfg, comm, &shape, &p, &run);
    if (rc == HM_OK) hm_pattern_run_groups(run, &shape.n, &shape.g, &shape.k);
    if (rc == HM_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &e);
    if (rc == HM_OK)
        rc = cli_gpu_setup(cfg, comm, hm_pattern_run_memory(run) == HM_MEMORY_DEVICE,
                           hm_experiment_factors(e));
    if (rc == HM_OK)
        rc = cli_pattern_report_open(cfg, comm, e, &shape, hm_pattern_run_rows(run), &rep);
    if (rc == HM_OK) rc = measure(cfg, comm, &shape, &p, run, e, rep);
    int closed = rep ? cli_pattern_report_close(rep, comm) : HM_OK;
    if (rc == HM_OK) rc = closed;
    rc = cli_experiment_close(e, comm, rc);
    hm_pattern_run_free(run);
    return rc;
}
