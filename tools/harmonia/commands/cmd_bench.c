/* tools/harmonia/commands/cmd_bench.c — `harmonia bench`: latency of MPI operations from a
 * common start (design: "Data flow of one bench run"). Everything that can
 * be refused is checked before the clocks are synchronized, so a bad option
 * costs nothing and no rank waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/measure.h>
#include <harmonia/ops.h>
#include <harmonia/pattern.h>

#include "commands/bench_report.h"
#include "commands/commands.h"
#include "commands/gpu_setup.h"
#include "commands/measure_setup.h"

enum { MAX_OPS = 64 };

/* An experiment: an operation at a size (barrier and ibarrier once, at 0). */
typedef struct experiment {
    const hm_op_t *op;
    size_t size_bytes;
} experiment_t;

typedef struct bench_plan {
    const hm_op_t *ops[MAX_OPS];
    int nops;
    int nccl, device;          /* --backend nccl; buffers in device memory */
    hm_gpu_nccl_t *nccl_comm;  /* --backend nccl: made once, after the clocks */
    experiment_t *experiments; /* op-major, sizes ascending: the table's order */
    size_t nexperiments;
    size_t *order; /* run order (shuffled with --seed) */
} bench_plan_t;

static int parse_ops(const cli_config_t *cfg, bench_plan_t *plan, char *why, size_t len)
{
    char buf[sizeof cfg->ops], known[512];
    strcpy(buf, plan->nccl && !(cfg->given & HM_OPT_BIT(HM_OPT_OPS)) ? "allreduce" : cfg->ops);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        const hm_op_t *op = plan->nccl ? hm_op_nccl_find(item) : hm_op_find(item);
        if (!op) {
            if (plan->nccl)
                hm_op_nccl_names(known, sizeof known);
            else
                hm_op_names(known, sizeof known);
            snprintf(why, len, "--ops: unknown %soperation \"%.64s\" (known: %s)",
                     plan->nccl ? "NCCL " : "", item, known);
            return HM_EXIT_USAGE;
        }
        if (plan->nops == MAX_OPS) {
            snprintf(why, len, "--ops: more than %d operations", MAX_OPS);
            return HM_EXIT_USAGE;
        }
        plan->ops[plan->nops++] = op;
    }
    return HM_EXIT_OK;
}

static hm_op_params_t op_params(const cli_config_t *cfg)
{
    hm_op_params_t p = {.root = cfg->root, .peer = cfg->peer};
    return p;
}

/* Root, peer and sizes of every operation, against the communicator. */
static int check_ops(const cli_config_t *cfg, MPI_Comm comm, const bench_plan_t *plan, char *why,
                     size_t len)
{
    /* An operation that needs more ranks is the choice of --ops. */
    static const char *const option[] = {[HM_OP_CHECK_OK] = "--ops",
                                         [HM_OP_CHECK_RANKS] = "--ops",
                                         [HM_OP_CHECK_ROOT] = "--root",
                                         [HM_OP_CHECK_PEER] = "--peer",
                                         [HM_OP_CHECK_SIZE] = "--sizes"};
    hm_op_params_t p = op_params(cfg);
    hm_op_check_failed_t failed;
    for (int i = 0; i < plan->nops; i++)
        for (int s = 0; s < cfg->nsizes; s++)
            if (hm_op_check_which(plan->ops[i], comm, cfg->sizes[s], &p, &failed) != HM_OK) {
                snprintf(why, len, "%s: %s (operation %s)", option[failed], hm_last_error(),
                         hm_op_name(plan->ops[i]));
                return HM_EXIT_USAGE;
            }
    return HM_EXIT_OK;
}

static int list_experiments(const cli_config_t *cfg, bench_plan_t *plan)
{
    size_t most = (size_t)plan->nops * (size_t)cfg->nsizes;
    plan->experiments = malloc(most * sizeof *plan->experiments);
    plan->order = malloc(most * sizeof *plan->order);
    if (!plan->experiments || !plan->order) return HM_ENOMEM;
    for (int i = 0; i < plan->nops; i++)
        for (int k = 0; k < cfg->nsizes; k++) {
            int sized = hm_op_uses_size(plan->ops[i]);
            if (!sized && k > 0) break;
            experiment_t e = {plan->ops[i], sized ? cfg->sizes[k] : 0};
            plan->experiments[plan->nexperiments++] = e;
        }
    hm_measure_shuffle(plan->order, plan->nexperiments, cfg->seed);
    return HM_OK;
}

/* --backend mpi (default) or nccl, and --memory: where the buffers are
 * and whether this process can put them there (usage errors: the run
 * asked for what the machine lacks). */
static int gpu_choice(const cli_config_t *cfg, bench_plan_t *plan, char *why, size_t len)
{
    const char *backend = cfg->backend[0] ? cfg->backend : "mpi";
    plan->nccl = strcmp(backend, "nccl") == 0;
    if (!plan->nccl && strcmp(backend, "mpi") != 0)
        return snprintf(why, len, "--backend %s: bench runs mpi or nccl (%s is for pattern)",
                        backend, backend),
               HM_EXIT_USAGE;
    plan->device = plan->nccl || cfg->memory_device;
    if (plan->nccl && (cfg->given & HM_OPT_BIT(HM_OPT_MEMORY)) && !cfg->memory_device)
        return snprintf(why, len, "--memory host: NCCL moves device memory"), HM_EXIT_USAGE;
    if (plan->nccl && hm_backend_check(hm_backend_find("nccl")) != HM_OK)
        return snprintf(why, len, "--backend nccl: %s", hm_last_error()), HM_EXIT_USAGE;
    if (!plan->nccl && plan->device) {
        int rc = cli_gpu_check("--memory device", why, len);
        if (rc == HM_EXIT_OK && hm_gpu_mpi_cuda_aware() != HM_OK)
            return snprintf(why, len, "--memory device: %s", hm_last_error()), HM_EXIT_USAGE;
        return rc;
    }
    return HM_EXIT_OK;
}

static int make_plan(const cli_config_t *cfg, MPI_Comm comm, bench_plan_t *plan)
{
    char why[1024] = "";
    memset(plan, 0, sizeof *plan);
    int rc = gpu_choice(cfg, plan, why, sizeof why);
    if (rc == HM_EXIT_OK) rc = parse_ops(cfg, plan, why, sizeof why);
    if (rc == HM_EXIT_OK && strchr(cfg->sync, ','))
        rc = HM_EXIT_USAGE, snprintf(why, sizeof why,
                                     "--sync: \"%s\" is a list; bench takes one method (skew "
                                     "compares several)",
                                     cfg->sync);
    if (rc == HM_EXIT_OK) rc = cli_check_procsync(cfg, cfg->sync, why, sizeof why);
    int size;
    MPI_Comm_size(comm, &size);
    if (rc == HM_EXIT_OK) rc = cli_check_applies(cfg, cfg->sync, size, why, sizeof why);
    if (rc == HM_EXIT_OK) rc = check_ops(cfg, comm, plan, why, sizeof why);
    if (rc == HM_EXIT_OK && cfg->inject_rank >= size) {
        snprintf(why, sizeof why, "--inject-delay: rank %d is outside the communicator (%d ranks)",
                 cfg->inject_rank, size);
        rc = HM_EXIT_USAGE;
    }
    if (rc == HM_EXIT_OK && cfg->max_attempts > 0 && cfg->max_attempts < cfg->nrep) {
        snprintf(why, sizeof why, "--max-attempts %ld is below --nrep %ld", cfg->max_attempts,
                 cfg->nrep);
        rc = HM_EXIT_USAGE;
    }
    if (rc == HM_EXIT_OK && list_experiments(cfg, plan) != HM_OK)
        rc = HM_EXIT_FAILURE, snprintf(why, sizeof why, "out of memory");
    return cli_agree(comm, rc, why);
}

/* The message of a failed experiment, or "" (rank 0 decides; the status is
 * the same everywhere). Collective: a shortfall looks at the machine again. */
static int experiment_status(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                             const char *op, size_t size, int rc, const hm_measure_result_t *r,
                             char *why, size_t len)
{
    if (rc == HM_EAGAIN) {
        char what[96];
        snprintf(what, sizeof what, "%s %zu B", op, size);
        int st = cli_partial_status(cfg, comm, e, what, r, why, len);
        if (st != HM_EXIT_OK) return st;
        rc = HM_OK; /* a partial result: written and flagged */
    }
    if (rc != HM_OK) {
        snprintf(why, len, "%s %zu B: %s", op, size, hm_strerror(rc));
        return HM_EXIT_FAILURE;
    }
    if (r->wrong_results > 0) {
        snprintf(why, len, "%s %zu B: --validate: %ld runs produced a wrong result", op, size,
                 r->wrong_results);
        return HM_EXIT_FAILURE;
    }
    return HM_EXIT_OK;
}

/* What the experiments of one run share: the report, the count of
 * partial experiments, and the progress line, whose one stage is the whole
 * run (the repetitions of the finished experiments plus the current one's). */
typedef struct bench_run {
    cli_bench_report_t *rep;
    long npartial;
    long discarded; /* attempts discarded by the finished experiments */
    cli_progress_t line;
    double reps_before, reps_total;
} bench_run_t;

static void report_progress(void *arg, double done, double total)
{
    bench_run_t *run = arg;
    (void)total;
    cli_progress_report(&run->line, run->reps_before + done, run->reps_total);
}

/* The attempts discarded so far, on the line while the run goes: a busy
 * machine shows while it costs time, not only in the table at the end. */
static void report_status(void *arg, const hm_measure_status_t *st)
{
    bench_run_t *run = arg;
    char note[96] = "";
    long discarded = run->discarded + (st->attempts - st->valid);
    if (discarded > 0)
        snprintf(note, sizeof note, "%ld attempts discarded (%ld in this experiment, of %ld)",
                 discarded, st->attempts - st->valid, st->attempts);
    cli_progress_note(&run->line, note);
}

/* Collective: op set up at size in the plan's memory, on its backend. */
static int prepare(const bench_plan_t *plan, MPI_Comm comm, const hm_op_t *op, size_t size,
                   const hm_op_params_t *p, hm_op_instance_t **inst)
{
    if (plan->nccl) return hm_op_prepare_nccl(op, comm, plan->nccl_comm, size, p, inst);
    if (plan->device) return hm_op_prepare_device(op, comm, size, p, inst);
    return hm_op_prepare(op, comm, size, p, inst);
}

static int run_experiment(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                          const bench_plan_t *plan, const hm_op_t *op, size_t size, size_t index,
                          size_t order, bench_run_t *run)
{
    hm_procsync_t *ps = hm_experiment_procsync(e);
    hm_op_params_t p = op_params(cfg);
    hm_op_instance_t *inst = NULL;
    hm_measure_params_t mp;
    hm_measure_target_t target;
    hm_measure_result_t r;
    char msg[640] = "";
    int rank;
    MPI_Comm_rank(comm, &rank);
    int rc = prepare(plan, comm, op, size, &p, &inst);
    if (rc != HM_OK) {
        snprintf(msg, sizeof msg, "%s %zu B: %s", hm_op_name(op), size, hm_last_error());
        return cli_agree(comm, HM_EXIT_FAILURE, msg);
    }
    cli_measure_params(cfg, e, &mp);
    mp.progress = (hm_progress_t){report_progress, run};
    mp.status = report_status;
    mp.status_arg = run;
    /* --inject-delay (the test bed, docs/testbed.md): a late start of one rank. */
    if (cfg->inject_rank >= 0)
        mp.inject = (hm_measure_injection_t){.rank = cfg->inject_rank,
                                             .attempt = cfg->inject_attempt,
                                             .delay_s = cfg->inject_delay_us * 1e-6};
    hm_measure_target_op(&target, op, inst, rank, cfg->peer);
    double t0 = MPI_Wtime();
    rc = hm_measure_run(comm, ps, &target, &mp, &r);
    double wall_s = MPI_Wtime() - t0;
    int status = experiment_status(cfg, comm, e, hm_op_name(op), size, rc, &r, msg, sizeof msg);
    if (status == HM_EXIT_OK && r.end == HM_MEASURE_END_SLICE && r.nvalid < cfg->nrep)
        run->npartial++;
    run->reps_before += (double)cfg->nrep;
    run->discarded += r.ninvalid;
    /* A failed experiment (too few valid repetitions, wrong results) is not
     * a result: it goes to no file and no table; the finished ones stay. */
    if (status == HM_EXIT_OK && rank == 0 &&
        cli_bench_report_add(run->rep, index, order, hm_op_name(op), size, &r, wall_s) != HM_OK)
        status = HM_EXIT_FAILURE, snprintf(msg, sizeof msg, "out of memory");
    hm_measure_result_free(&r);
    hm_op_free(inst);
    return cli_agree(comm, status, msg);
}

/* Experiments whose time slice ended before --nrep valid repetitions are
 * results, written and flagged: the run fails at the end unless
 * --allow-partial (every rank knows the counts). Those that ran out of
 * attempts or time were judged when they ended (cli_partial_status). */
static int partial_status(const cli_config_t *cfg, MPI_Comm comm, long npartial)
{
    char msg[256] = "";
    if (npartial == 0 || cfg->allow_partial) return HM_EXIT_OK;
    snprintf(msg, sizeof msg,
             "%ld experiment%s ended with fewer valid repetitions than --nrep %ld (see the "
             "table); --allow-partial accepts them",
             npartial, npartial == 1 ? "" : "s", cfg->nrep);
    return cli_agree(comm, HM_EXIT_FAILURE, msg);
}

static int run_plan(const cli_config_t *cfg, MPI_Comm comm, const bench_plan_t *plan,
                    const hm_experiment_t *ex, bench_run_t *run)
{
    int rc = HM_EXIT_OK, rank;
    MPI_Comm_rank(comm, &rank);
    cli_progress_init(&run->line, rank == 0);
    cli_progress_stage(&run->line, "bench", "repetitions");
    run->reps_total = (double)plan->nexperiments * (double)cfg->nrep;
    for (size_t k = 0; k < plan->nexperiments && rc == HM_EXIT_OK; k++) {
        size_t index = plan->order[k];
        const experiment_t *e = &plan->experiments[index];
        rc = run_experiment(cfg, comm, ex, plan, e->op, e->size_bytes, index, k, run);
    }
    cli_progress_clear(&run->line);
    return rc;
}

int cli_cmd_bench(cli_config_t *cfg, MPI_Comm comm)
{
    bench_plan_t plan;
    hm_experiment_t *e = NULL;
    bench_run_t run = {0};
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_EXIT_OK)
        rc = make_plan(cfg, comm, &plan);
    else
        memset(&plan, 0, sizeof plan);
    if (rc == HM_EXIT_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &e);
    if (rc == HM_EXIT_OK) rc = cli_gpu_setup(cfg, comm, plan.device, hm_experiment_factors(e));
    if (rc == HM_EXIT_OK && plan.nccl && hm_gpu_nccl_create(comm, &plan.nccl_comm) != HM_OK)
        rc = cli_agree(comm, HM_EXIT_FAILURE, hm_last_error());
    if (rc == HM_EXIT_OK) rc = cli_bench_report_open(cfg, comm, e, plan.nexperiments, &run.rep);
    if (rc == HM_EXIT_OK) rc = run_plan(cfg, comm, &plan, e, &run);
    if (run.rep) cli_bench_report_close(run.rep, comm);
    rc = cli_experiment_close(e, comm, rc);
    if (rc == HM_EXIT_OK) rc = partial_status(cfg, comm, run.npartial);
    hm_gpu_nccl_free(plan.nccl_comm);
    free(plan.order);
    free(plan.experiments);
    return rc;
}
