/* tools/harmonia/commands/cmd_overlap.c — `harmonia overlap`: the overlap
 * of nonblocking collectives with computation on a grid of target times
 * [Denis et al. 2022]. The library runs the study (hm_overlap_study: the
 * grid calibrated and judged, the cells in an order shuffled with --seed,
 * the references measured again after the last); this file maps the
 * options and prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>
#include <harmonia/ops.h>
#include <harmonia/overlap.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"
#include "commands/overlap_report.h"

enum { MAX_OPS = 16 };

/* Without --ops: the collective of the paper's figures that every MPI
 * implements with a real reduction. */
static const char *const DEFAULT_OPS = "iallreduce";

typedef struct plan {
    const hm_op_t *ops[MAX_OPS];
    int nops;
    hm_overlap_study_params_t sp;
    hm_compute_t *compute;
    hm_experiment_t *e;
    hm_overlap_grid_t *grid;
} plan_t;

static const char *ops_of(const cli_config_t *cfg)
{
    return cfg->given & HM_OPT_BIT(HM_OPT_OPS) ? cfg->ops : DEFAULT_OPS;
}

/* Every item a nonblocking collective with a size (its time is calibrated
 * over the size). */
static int parse_ops(const cli_config_t *cfg, plan_t *p)
{
    char buf[sizeof cfg->ops];
    snprintf(buf, sizeof buf, "%s", ops_of(cfg));
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        const hm_op_t *op = hm_op_find(item);
        if (!op || !hm_op_is_nonblocking(op) || hm_op_is_pingpong(op)) {
            hm_error_set(HM_EINVAL,
                         "--ops: \"%.64s\" is not a nonblocking collective (overlap measures "
                         "ibcast, ireduce, iallreduce, iallgather, ialltoall, ialltoallv, igather, "
                         "iscatter, iscan, iexscan, ireduce_scatter_block, ibarrier)",
                         item);
            return HM_EINVAL;
        }
        if (p->nops == MAX_OPS) {
            hm_error_set(HM_EINVAL, "--ops: more than %d operations", MAX_OPS);
            return HM_EINVAL;
        }
        p->ops[p->nops++] = op;
    }
    return HM_OK;
}

/* The progress configuration, a factor of every result: the cores of the
 * rank that --threads leaves free count as a dedicated progress core. */
static int progress_config(const cli_config_t *cfg, MPI_Comm comm, const hm_compute_t *c, char *buf,
                           size_t len)
{
    int free_cores = hm_compute_cores_of(c) - hm_compute_threads(c);
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_THREADS))) free_cores = 0;
    hm_overlap_progress_kind_t kind;
    int rc = hm_overlap_progress(free_cores, &kind, buf, len);
    return cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, rc == HM_OK ? "" : hm_last_error());
}

static int open_compute(const cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    hm_compute_params_t cp;
    hm_compute_params_default(&cp);
    cp.threads = cfg->threads;
    int rc = hm_overlap_share_node(comm, NULL);
    if (rc != HM_OK) return cli_agree(comm, HM_EFAILED, hm_last_error());
    rc = hm_compute_create(&cp, &p->compute);
    if (rc != HM_OK) hm_error_set(HM_EINVAL, "--threads %d: %s", cfg->threads, hm_last_error());
    return cli_agree(comm,
                     rc == HM_OK       ? HM_OK
                     : rc == HM_EINVAL ? HM_EINVAL
                                       : HM_EFAILED,
                     hm_last_error());
}

/* The grid from the options: the communication columns are --comm-us
 * targets, or the --sizes given. */
static void study_params(const cli_config_t *cfg, plan_t *p)
{
    hm_overlap_grid_params_t *gp = &p->sp.grid;
    int sized = (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)) != 0;
    gp->nops = p->nops;
    gp->ops = p->ops;
    gp->op_params = (hm_op_params_t){.root = cfg->root, .peer = 1};
    gp->ncomm = sized ? cfg->nsizes : cfg->ncomm_targets;
    gp->comm_targets_s = sized ? NULL : cfg->comm_targets_s;
    gp->sizes = sized ? cfg->sizes : NULL;
    gp->ncomp = cfg->ncomp_targets;
    gp->comp_targets_s = cfg->comp_targets_s;
    gp->comp_is_comm = cfg->comp_is_comm;
    p->sp.seed = cfg->seed;
}

typedef struct watch {
    cli_overlap_report_t *rep;
    cli_progress_t line;
    const plan_t *p;
    int rank;
} watch_t;

static void on_calibrated(void *arg, const hm_overlap_grid_t *grid)
{
    watch_t *w = arg;
    cli_overlap_report_grid(w->rep, grid);
    cli_progress_init(&w->line, w->rank == 0);
    cli_progress_stage(&w->line, "overlap", "cells");
}

static void on_cell(void *arg, const hm_overlap_cell_t *c)
{
    watch_t *w = arg;
    if (w->rank == 0)
        cli_overlap_report_add(w->rep, c->index, c->order, hm_op_name(w->p->ops[c->op]), c->op,
                               c->column, c->comp, c->result);
    cli_progress_report(&w->line, (double)c->order + 1, (double)c->ncells);
    if (c->order + 1 == c->ncells) cli_progress_clear(&w->line);
}

/* The option a parameter comes from. */
static const char *option_of(hm_overlap_param_t param, const hm_overlap_study_params_t *sp)
{
    if (param == HM_OVERLAP_PARAM_COMM_TARGETS && sp->grid.sizes) return "--sizes";
    static const char *const names[] = {[HM_OVERLAP_PARAM_OPS] = "--ops",
                                        [HM_OVERLAP_PARAM_COMM_TARGETS] = "--comm-us",
                                        [HM_OVERLAP_PARAM_COMP_TARGETS] = "--comp-us",
                                        [HM_OVERLAP_PARAM_NREP] = "--nrep"};
    const char *name = (size_t)param < sizeof names / sizeof names[0] ? names[param] : NULL;
    return name ? name : "overlap";
}

/* Collective: the study, and the sentence of its failure: a parameter's
 * names the option, a cell's the operation. */
static int study(MPI_Comm comm, plan_t *p, cli_overlap_report_t *rep)
{
    watch_t w = {.rep = rep, .p = p};
    hm_overlap_study_hooks_t hooks = {on_calibrated, on_cell, &w};
    hm_overlap_failure_t f;
    MPI_Comm_rank(comm, &w.rank);
    int rc = hm_overlap_study(comm, hm_experiment_procsync(p->e), p->compute, &p->sp, &hooks,
                              &p->grid, &f);
    cli_progress_clear(&w.line);
    if (rc != HM_OK && f.stage == HM_OVERLAP_STAGE_PARAMS)
        hm_error_set(HM_EINVAL, "%s: %s", option_of(f.param, &p->sp), hm_last_error());
    else if (rc != HM_OK && f.stage == HM_OVERLAP_STAGE_CELL)
        hm_error_set(HM_EINVAL, "%s: %s", hm_op_name(p->ops[f.op]), hm_last_error());
    return cli_agree(comm,
                     rc == HM_OK                          ? HM_OK
                     : f.stage == HM_OVERLAP_STAGE_PARAMS ? HM_EINVAL
                                                          : HM_EFAILED,
                     hm_last_error());
}

static int make_plan(const cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    int size, rc = parse_ops(cfg, p);
    MPI_Comm_size(comm, &size);
    if (rc == HM_OK) rc = cli_check_procsync(cfg, cfg->sync);
    if (rc == HM_OK) rc = cli_check_applies(cfg, cfg->sync, size);
    for (int o = 0; rc == HM_OK && o < p->nops; o++) {
        hm_op_params_t opp = {.root = cfg->root, .peer = 1};
        if (hm_op_check(p->ops[o], comm, 1, &opp) != HM_OK)
            rc = HM_EINVAL, hm_error_set(HM_EINVAL, "--root: %s", hm_last_error());
    }
    int sized = (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)) != 0;
    if (rc == HM_OK && sized && (cfg->given & HM_OPT_BIT(HM_OPT_COMM_US)))
        rc = HM_EINVAL,
        hm_error_set(HM_EINVAL, "--sizes and --comm-us: give one (--sizes fixes the message "
                                "sizes, --comm-us calibrates them to times)");
    if (rc == HM_OK && sized && cfg->nsizes > HM_CLI_MAX_TARGETS)
        rc = HM_EINVAL, hm_error_set(HM_EINVAL, "--sizes: %d sizes, overlap takes %d at most",
                                     cfg->nsizes, HM_CLI_MAX_TARGETS);
    if (rc == HM_OK) study_params(cfg, p);
    return cli_agree(comm, rc, hm_last_error());
}

/* `harmonia overlap impact`: the kernel with and without MPI, per thread;
 * 100 ms (the order of the paper's 512 ms, and short) without --comp-us. */
static int impact(cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    /* The kernel alone, on its own clock: no clock synchronization, no
     * process synchronization, no operation. */
    const cli_opt_mask_t reads = HM_OPT_BIT(HM_OPT_COMP_US) | HM_OPT_BIT(HM_OPT_THREADS) |
                                 HM_OPT_BIT(HM_OPT_NREP) | HM_OPT_BIT(HM_OPT_SEED) |
                                 HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) |
                                 HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_ALLOW_ONE_RANK);
    if (cli_refuse_unread(cfg, reads,
                          "overlap impact measures the compute kernel alone and does not read "
                          "it (it reads --comp-us, --threads, --nrep, --seed and --output)") !=
        HM_OK)
        return cli_agree(comm, HM_EINVAL, hm_last_error());
    if (cfg->raw[0])
        return cli_agree(comm, HM_EINVAL,
                         "--raw: overlap impact keeps no repetitions (its rows, one per rank "
                         "and thread, go to --output)");
    if (cfg->comp_is_comm || (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)))
        return cli_agree(comm, HM_EINVAL,
                         cfg->comp_is_comm
                             ? "--comp-us comm: overlap impact has no communication (give "
                               "times in microseconds)"
                             : "--sizes: overlap impact has no communication");
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_NREP))) cfg->nrep = HM_OVERLAP_IMPACT_REPS;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_COMP_US))) {
        cfg->comp_targets_s[0] = 0.1;
        cfg->ncomp_targets = 1;
    }
    int rc = open_compute(cfg, comm, p);
    return rc == HM_OK ? cli_overlap_impact(cfg, comm, p->compute) : rc;
}

int cli_cmd_overlap(cli_config_t *cfg, MPI_Comm comm)
{
    if (cfg->nfiles > 1 || (cfg->nfiles == 1 && strcmp(cfg->files[0], "impact") != 0)) {
        hm_error_set(HM_EINVAL, "unexpected argument \"%.64s\" (overlap takes one word: impact)",
                     cfg->files[cfg->nfiles > 1 && !strcmp(cfg->files[0], "impact")]);
        return cli_agree(comm, HM_EINVAL, hm_last_error());
    }
    if (cfg->nfiles == 1) {
        plan_t q = {0};
        int rc = impact(cfg, comm, &q);
        hm_compute_free(q.compute);
        return rc;
    }
    plan_t *p = calloc(1, sizeof *p);
    cli_overlap_report_t *rep = NULL;
    char progress[256], compute[512] = "";
    if (!p) return HM_EFAILED;
    hm_overlap_study_params_default(&p->sp);
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_NREP))) cfg->nrep = p->sp.cell.nrep;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_WARMUP))) cfg->warmup = p->sp.cell.warmup;
    /* 1 us, bench's tolerance for microsecond operations, would discard
     * repetitions of milliseconds for a scheduler's wake-up; 20 us is 4 % of
     * the smallest default target. */
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_LATE_US))) cfg->late_us = 20;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_OPS)))
        snprintf(cfg->ops, sizeof cfg->ops, "%s", DEFAULT_OPS);
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK) rc = make_plan(cfg, comm, p);
    if (rc == HM_OK) rc = open_compute(cfg, comm, p);
    if (rc == HM_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &p->e);
    if (rc == HM_OK) rc = progress_config(cfg, comm, p->compute, progress, sizeof progress);
    if (rc == HM_OK) {
        hm_compute_describe(p->compute, compute, sizeof compute);
        size_t ncells = hm_overlap_grid_ncells(&p->sp.grid);
        rc = cli_overlap_report_open(cfg, comm, p->e, ncells, progress, compute, &rep);
    }
    if (rc == HM_OK) {
        cli_measure_params(cfg, p->e, &p->sp.cell);
        rc = study(comm, p, rep);
    }
    if (rep) cli_overlap_report_close(rep, comm);
    rc = cli_experiment_close(p->e, comm, rc);
    hm_overlap_grid_free(p->grid);
    hm_compute_free(p->compute);
    free(p);
    return rc;
}
