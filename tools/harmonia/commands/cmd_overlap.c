/* tools/harmonia/commands/cmd_overlap.c — `harmonia overlap`: the overlap
 * of nonblocking collectives with computation on a grid of target times
 * [Denis et al. 2022]. The library calibrates the grid (every
 * communication target per operation, every computation target) and judges
 * each reference, runs the cells (operation x comm x comp) in an order
 * shuffled with --seed, and measures the references again after the last;
 * this file maps the options and prints. */
#include <math.h>
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
    int ncomm; /* communication columns: --comm-us targets or --sizes */
    struct cell {
        int op, comm, comp; /* indices into ops, the op's columns, the computation targets */
    } * cells;
    size_t ncells, *order;
    hm_compute_t *compute;
    hm_experiment_t *e;
    hm_overlap_grid_t *grid;
} plan_t;

/* Communication columns of operation o: one without a size (ibarrier);
 * the grid says the same once calibrated. */
static int columns(const plan_t *p, int o)
{
    return hm_op_uses_size(p->ops[o]) ? p->ncomm : 1;
}

static const char *ops_of(const cli_config_t *cfg)
{
    return cfg->given & HM_OPT_BIT(HM_OPT_OPS) ? cfg->ops : DEFAULT_OPS;
}

/* Every item a nonblocking collective with a size (its time is calibrated
 * over the size). */
static int parse_ops(const cli_config_t *cfg, plan_t *p, char *why, size_t len)
{
    char buf[sizeof cfg->ops];
    snprintf(buf, sizeof buf, "%s", ops_of(cfg));
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        const hm_op_t *op = hm_op_find(item);
        if (!op || !hm_op_is_nonblocking(op) || hm_op_is_pingpong(op)) {
            snprintf(why, len,
                     "--ops: \"%.64s\" is not a nonblocking collective (overlap measures "
                     "ibcast, ireduce, iallreduce, iallgather, ialltoall, ialltoallv, igather, "
                     "iscatter, iscan, iexscan, ireduce_scatter_block, ibarrier)",
                     item);
            return HM_EXIT_USAGE;
        }
        if (p->nops == MAX_OPS) {
            snprintf(why, len, "--ops: more than %d operations", MAX_OPS);
            return HM_EXIT_USAGE;
        }
        p->ops[p->nops++] = op;
    }
    return HM_EXIT_OK;
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
    return cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE,
                     rc == HM_OK ? "" : hm_last_error());
}

static int open_compute(const cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    hm_compute_params_t cp;
    char msg[512] = "";
    hm_compute_params_default(&cp);
    cp.threads = cfg->threads;
    int rc = hm_overlap_share_node(comm, NULL);
    if (rc != HM_OK) return cli_agree(comm, HM_EXIT_FAILURE, hm_last_error());
    rc = hm_compute_create(&cp, &p->compute);
    if (rc != HM_OK) snprintf(msg, sizeof msg, "--threads %d: %s", cfg->threads, hm_last_error());
    return cli_agree(comm,
                     rc == HM_OK       ? HM_EXIT_OK
                     : rc == HM_EINVAL ? HM_EXIT_USAGE
                                       : HM_EXIT_FAILURE,
                     msg);
}

/* Collective: the grid's references, calibrated (or measured at the
 * sizes given) by the library, which judges each against its target. */
static int calibrate(const cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    hm_overlap_grid_params_t gp;
    hm_overlap_grid_params_default(&gp);
    int sized = (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)) != 0;
    gp.nops = p->nops;
    gp.ops = p->ops;
    gp.op_params = (hm_op_params_t){.root = cfg->root, .peer = 1};
    gp.ncomm = p->ncomm;
    gp.comm_targets_s = sized ? NULL : cfg->comm_targets_s;
    gp.sizes = sized ? cfg->sizes : NULL;
    gp.ncomp = cfg->ncomp_targets;
    gp.comp_targets_s = cfg->comp_targets_s;
    gp.comp_is_comm = cfg->comp_is_comm;
    int rc =
        hm_overlap_grid_calibrate(comm, hm_experiment_procsync(p->e), p->compute, &gp, &p->grid);
    return cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE,
                     rc == HM_OK ? "" : hm_last_error());
}

/* Collective: the references measured again after the last cell; the
 * report's verdicts read them. */
static int recheck(MPI_Comm comm, plan_t *p)
{
    int rc = hm_overlap_grid_recheck(comm, hm_experiment_procsync(p->e), p->compute, p->grid);
    return cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE,
                     rc == HM_OK ? "" : hm_last_error());
}

/* Collective: one cell. A cell whose calibrations did not both converge is
 * reported, not run. */
static int run_cell(const cli_config_t *cfg, MPI_Comm comm, plan_t *p, cli_overlap_report_t *rep,
                    size_t index, size_t order)
{
    const struct cell *c = &p->cells[index];
    hm_overlap_result_t r;
    hm_measure_params_t mp;
    int rank, ran = 0;
    MPI_Comm_rank(comm, &rank);
    cli_measure_params(cfg, p->e, &mp);
    int rc = hm_overlap_grid_run_cell(comm, hm_experiment_procsync(p->e), p->compute, p->grid,
                                      c->op, c->comm, c->comp, &mp, &r, &ran);
    if ((rc == HM_OK || rc == HM_EAGAIN) && rank == 0)
        cli_overlap_report_add(rep, index, order, hm_op_name(p->ops[c->op]), c->op, c->comm,
                               c->comp, ran ? &r : NULL);
    if (ran) hm_overlap_result_free(&r);
    char msg[256] = "";
    if (rc != HM_OK && rc != HM_EAGAIN)
        snprintf(msg, sizeof msg, "%s: %s", hm_op_name(p->ops[c->op]), hm_last_error());
    return cli_agree(comm, rc == HM_OK || rc == HM_EAGAIN ? HM_EXIT_OK : HM_EXIT_FAILURE, msg);
}

static int run_cells(const cli_config_t *cfg, MPI_Comm comm, plan_t *p, cli_overlap_report_t *rep)
{
    cli_progress_t line;
    int rank, rc = HM_EXIT_OK;
    MPI_Comm_rank(comm, &rank);
    cli_progress_init(&line, rank == 0);
    cli_progress_stage(&line, "overlap", "cells");
    for (size_t k = 0; k < p->ncells && rc == HM_EXIT_OK; k++) {
        rc = run_cell(cfg, comm, p, rep, p->order[k], k);
        cli_progress_report(&line, (double)k + 1, (double)p->ncells);
    }
    cli_progress_clear(&line);
    return rc;
}

/* The cells in table order: per operation, its communication columns
 * (one for ibarrier, which has no size to aim) x the computation targets. */
static int list_cells(const cli_config_t *cfg, plan_t *p)
{
    size_t n = 0;
    for (int o = 0; o < p->nops; o++) n += (size_t)columns(p, o) * (size_t)cfg->ncomp_targets;
    p->cells = malloc((n ? n : 1) * sizeof *p->cells);
    p->order = malloc((n ? n : 1) * sizeof *p->order);
    if (!p->cells || !p->order) return HM_ENOMEM;
    p->ncells = 0;
    for (int o = 0; o < p->nops; o++)
        for (int i = 0; i < columns(p, o); i++)
            for (int j = 0; j < cfg->ncomp_targets; j++)
                p->cells[p->ncells++] = (struct cell){o, i, j};
    return HM_OK;
}

static int make_plan(const cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    char why[1024] = "";
    int size, rc = parse_ops(cfg, p, why, sizeof why);
    MPI_Comm_size(comm, &size);
    if (rc == HM_EXIT_OK) rc = cli_check_procsync(cfg, cfg->sync, why, sizeof why);
    if (rc == HM_EXIT_OK) rc = cli_check_applies(cfg, cfg->sync, size, why, sizeof why);
    for (int o = 0; rc == HM_EXIT_OK && o < p->nops; o++) {
        hm_op_params_t opp = {.root = cfg->root, .peer = 1};
        if (hm_op_check(p->ops[o], comm, 1, &opp) != HM_OK)
            rc = HM_EXIT_USAGE, snprintf(why, sizeof why, "--root: %s", hm_last_error());
    }
    int sized = (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)) != 0;
    p->ncomm = sized ? cfg->nsizes : cfg->ncomm_targets;
    if (rc == HM_EXIT_OK && sized && (cfg->given & HM_OPT_BIT(HM_OPT_COMM_US)))
        rc = HM_EXIT_USAGE, snprintf(why, sizeof why,
                                     "--sizes and --comm-us: give one (--sizes fixes the message "
                                     "sizes, --comm-us calibrates them to times)");
    if (rc == HM_EXIT_OK && sized && cfg->nsizes > HM_CLI_MAX_TARGETS)
        rc = HM_EXIT_USAGE, snprintf(why, sizeof why, "--sizes: %d sizes, overlap takes %d at most",
                                     cfg->nsizes, HM_CLI_MAX_TARGETS);
    if (rc == HM_EXIT_OK && list_cells(cfg, p) != HM_OK)
        rc = HM_EXIT_FAILURE, snprintf(why, sizeof why, "out of memory");
    if (rc == HM_EXIT_OK) hm_measure_shuffle(p->order, p->ncells, cfg->seed);
    return cli_agree(comm, rc, why);
}

/* `harmonia overlap impact`: the kernel with and without MPI, per thread;
 * 100 ms (the order of the paper's 512 ms, and short) without --comp-us. */
static int impact(cli_config_t *cfg, MPI_Comm comm, plan_t *p)
{
    if (cfg->raw[0])
        return cli_agree(comm, HM_EXIT_USAGE,
                         "--raw: overlap impact keeps no repetitions (its rows, one per rank "
                         "and thread, go to --output)");
    if (cfg->comp_is_comm || (cfg->given & HM_OPT_BIT(HM_OPT_SIZES)))
        return cli_agree(comm, HM_EXIT_USAGE,
                         cfg->comp_is_comm
                             ? "--comp-us comm: overlap impact has no communication (give "
                               "times in microseconds)"
                             : "--sizes: overlap impact has no communication");
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_NREP))) cfg->nrep = 5;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_COMP_US))) {
        cfg->comp_targets_s[0] = 0.1;
        cfg->ncomp_targets = 1;
    }
    int rc = open_compute(cfg, comm, p);
    return rc == HM_EXIT_OK ? cli_overlap_impact(cfg, comm, p->compute) : rc;
}

int cli_cmd_overlap(cli_config_t *cfg, MPI_Comm comm)
{
    if (cfg->nfiles > 1 || (cfg->nfiles == 1 && strcmp(cfg->files[0], "impact") != 0)) {
        char msg[256];
        snprintf(msg, sizeof msg, "unexpected argument \"%.64s\" (overlap takes one word: impact)",
                 cfg->files[cfg->nfiles > 1 && !strcmp(cfg->files[0], "impact")]);
        return cli_agree(comm, HM_EXIT_USAGE, msg);
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
    if (!p) return HM_EXIT_FAILURE;
    /* Repetitions of milliseconds to a second: far fewer than bench's. */
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_NREP))) cfg->nrep = 20;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_WARMUP))) cfg->warmup = 1;
    /* 1 us, bench's tolerance for microsecond operations, would discard
     * repetitions of milliseconds for a scheduler's wake-up; 20 us is 4 % of
     * the smallest default target. */
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_LATE_US))) cfg->late_us = 20;
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_OPS)))
        snprintf(cfg->ops, sizeof cfg->ops, "%s", DEFAULT_OPS);
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_EXIT_OK) rc = make_plan(cfg, comm, p);
    if (rc == HM_EXIT_OK) rc = open_compute(cfg, comm, p);
    if (rc == HM_EXIT_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &p->e);
    if (rc == HM_EXIT_OK) rc = progress_config(cfg, comm, p->compute, progress, sizeof progress);
    if (rc == HM_EXIT_OK) {
        hm_compute_describe(p->compute, compute, sizeof compute);
        rc = cli_overlap_report_open(cfg, comm, p->e, p->ncells, progress, compute, &rep);
    }
    if (rc == HM_EXIT_OK) rc = calibrate(cfg, comm, p);
    if (rc == HM_EXIT_OK) cli_overlap_report_grid(rep, p->grid);
    if (rc == HM_EXIT_OK) rc = run_cells(cfg, comm, p, rep);
    if (rc == HM_EXIT_OK) rc = recheck(comm, p);
    if (rep) cli_overlap_report_close(rep, comm);
    rc = cli_experiment_close(p->e, comm, rc);
    hm_overlap_grid_free(p->grid);
    hm_compute_free(p->compute);
    free(p->order);
    free(p->cells);
    free(p);
    return rc;
}
