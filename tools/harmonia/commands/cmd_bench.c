/* tools/harmonia/commands/cmd_bench.c — `harmonia bench`: latency of MPI operations from a
 * common start (design: "Data flow of one bench run"). Everything that can
 * be refused is checked before the clocks are synchronized, so a bad option
 * costs nothing and no rank waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/bench.h>
#include <harmonia/gpu.h>
#include <harmonia/measure.h>
#include <harmonia/ops.h>
#include <harmonia/pattern.h>

#include "commands/bench_report.h"
#include "commands/commands.h"
#include "commands/gpu_setup.h"
#include "commands/measure_setup.h"

typedef struct bench_plan {
    int nccl, device;    /* --backend nccl; buffers in device memory */
    hm_bench_run_t *run; /* the experiments, checked against the communicator */
} bench_plan_t;

/* The option each of hm_bench_run's parameters comes from. */
static const char *blamed_option(hm_bench_failed_t failed)
{
    switch (failed) {
    case HM_BENCH_FAILED_ROOT:
        return "--root";
    case HM_BENCH_FAILED_PEER:
        return "--peer";
    case HM_BENCH_FAILED_SIZE:
        return "--sizes";
    case HM_BENCH_FAILED_BATCH:
        return "--batch";
    default:
        return "--ops";
    }
}

/* The experiments of --ops x --sizes (hm_bench_run_create): a bad
 * operation, root, peer or size is a usage error naming its option. */
static int create_run(const cli_config_t *cfg, MPI_Comm comm, bench_plan_t *plan)
{
    hm_bench_run_params_t p = {
        .ops = plan->nccl && !(cfg->given & HM_OPT_BIT(HM_OPT_OPS)) ? "allreduce" : cfg->ops,
        .sizes = cfg->sizes,
        .nsizes = cfg->nsizes,
        .op = {.root = cfg->root, .peer = cfg->peer, .batch = cfg->batch},
        .nccl = plan->nccl,
        .device_memory = plan->device,
        .seed = cfg->seed};
    hm_bench_failed_t failed;
    int rc = hm_bench_run_create(comm, &p, &plan->run, &failed);
    if (rc == HM_OK) return HM_OK;
    if (rc == HM_ENOMEM) return hm_error_set(HM_EINVAL, "out of memory"), HM_EFAILED;
    hm_error_set(HM_EINVAL, "%s: %s", blamed_option(failed), hm_last_error());
    return HM_EINVAL;
}

/* --backend mpi (default) or nccl, and --memory: where the buffers are
 * and whether this process can put them there (usage errors: the run
 * asked for what the machine lacks). */
static int gpu_choice(const cli_config_t *cfg, bench_plan_t *plan)
{
    const char *backend = cfg->backend[0] ? cfg->backend : "mpi";
    plan->nccl = strcmp(backend, "nccl") == 0;
    if (!plan->nccl && strcmp(backend, "mpi") != 0)
        return hm_error_set(HM_EINVAL, "--backend %s: bench runs mpi or nccl (%s is for pattern)",
                            backend, backend),
               HM_EINVAL;
    plan->device = plan->nccl || cfg->memory_device;
    if (plan->nccl && (cfg->given & HM_OPT_BIT(HM_OPT_MEMORY)) && !cfg->memory_device)
        return hm_error_set(HM_EINVAL, "--memory host: NCCL moves device memory"), HM_EINVAL;
    if (plan->nccl && hm_backend_check(hm_backend_find("nccl")) != HM_OK)
        return hm_error_set(HM_EINVAL, "--backend nccl: %s", hm_last_error()), HM_EINVAL;
    if (!plan->nccl && plan->device) {
        int rc = cli_gpu_check("--memory device");
        if (rc == HM_OK && hm_gpu_mpi_cuda_aware() != HM_OK)
            return hm_error_set(HM_EINVAL, "--memory device: %s", hm_last_error()), HM_EINVAL;
        return rc;
    }
    return HM_OK;
}

static int make_plan(const cli_config_t *cfg, MPI_Comm comm, bench_plan_t *plan)
{
    memset(plan, 0, sizeof *plan);
    int rc = gpu_choice(cfg, plan);
    if (rc == HM_OK && strchr(cfg->sync, ','))
        rc = HM_EINVAL, hm_error_set(HM_EINVAL,
                                     "--sync: \"%s\" is a list; bench takes one method (skew "
                                     "compares several)",
                                     cfg->sync);
    if (rc == HM_OK) rc = cli_check_procsync(cfg, cfg->sync);
    int size;
    MPI_Comm_size(comm, &size);
    if (rc == HM_OK) rc = cli_check_applies(cfg, cfg->sync, size);
    if (rc == HM_OK && cfg->inject_rank >= size) {
        hm_error_set(HM_EINVAL, "--inject-delay: rank %d is outside the communicator (%d ranks)",
                     cfg->inject_rank, size);
        rc = HM_EINVAL;
    }
    if (rc == HM_OK && cfg->max_attempts > 0 && cfg->max_attempts < cfg->nrep) {
        hm_error_set(HM_EINVAL, "--max-attempts %ld is below --nrep %ld", cfg->max_attempts,
                     cfg->nrep);
        rc = HM_EINVAL;
    }
    /* Every rank reaches the collective hm_bench_run_create, or none. */
    rc = cli_agree(comm, rc, hm_last_error());
    if (rc != HM_OK) return rc; /* said */
    rc = create_run(cfg, comm, plan);
    return rc == HM_OK ? rc : cli_agree(comm, rc, hm_last_error());
}

/* The message of a failed experiment, or "" (rank 0 decides; the status is
 * the same everywhere). Collective: a shortfall looks at the machine again. */
static int experiment_status(const cli_config_t *cfg, MPI_Comm comm, const hm_experiment_t *e,
                             const char *op, size_t size, int rc, const hm_measure_result_t *r)
{
    if (rc == HM_EAGAIN) {
        char what[96];
        snprintf(what, sizeof what, "%s %zu B", op, size);
        int st = cli_partial_status(cfg, comm, e, what, r);
        if (st != HM_OK) return st;
        rc = HM_OK; /* a partial result: written and flagged */
    }
    if (rc != HM_OK) {
        hm_error_set(HM_EINVAL, "%s %zu B: %s", op, size, hm_strerror(rc));
        return HM_EFAILED;
    }
    if (r->wrong_results > 0) {
        hm_error_set(HM_EINVAL, "%s %zu B: --validate: %ld runs produced a wrong result", op, size,
                     r->wrong_results);
        return HM_EFAILED;
    }
    return HM_OK;
}

/* What the experiments of one run share: the report, the count of
 * partial experiments, the status the rows decided, and the progress
 * line, whose one stage is the whole run (the repetitions of the finished
 * experiments plus the current one's). */
typedef struct bench_run {
    const cli_config_t *cfg;
    MPI_Comm comm;
    const hm_experiment_t *e;
    cli_bench_report_t *rep;
    long npartial;
    long discarded; /* attempts discarded by the finished experiments */
    int status;
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

/* Collective, each experiment hm_bench_run measured: judged (a shortfall,
 * wrong results) and, on rank 0, added to the report. A failed experiment
 * is not a result: it goes to no file and no table; the finished ones
 * stay. Returns the agreed status (not 0 stops the run). */
static int on_row(void *ctx, const hm_bench_row_t *row)
{
    bench_run_t *run = ctx;
    const hm_measure_result_t *r = row->result;
    const char *name = hm_op_name(row->op);
    int rank;
    MPI_Comm_rank(run->comm, &rank);
    int status =
        experiment_status(run->cfg, run->comm, run->e, name, row->size_bytes, row->status, r);
    if (status == HM_OK && r->end == HM_MEASURE_END_SLICE && r->nvalid < run->cfg->nrep)
        run->npartial++;
    run->reps_before += (double)run->cfg->nrep;
    run->discarded += r->ninvalid;
    if (status == HM_OK && rank == 0 &&
        cli_bench_report_add(run->rep, row->index, row->order, name, row->size_bytes, r,
                             row->wall_s) != HM_OK)
        status = HM_EFAILED, hm_error_set(HM_EINVAL, "out of memory");
    return run->status = cli_agree(run->comm, status, hm_last_error());
}

/* Experiments whose time slice ended before --nrep valid repetitions are
 * results, written and flagged: the run fails at the end unless
 * --allow-partial (every rank knows the counts). Those that ran out of
 * attempts or time were judged when they ended (cli_partial_status). */
static int partial_status(const cli_config_t *cfg, MPI_Comm comm, long npartial)
{
    if (npartial == 0 || cfg->allow_partial) return HM_OK;
    hm_error_set(HM_EINVAL,
                 "%ld experiment%s ended with fewer valid repetitions than --nrep %ld (see the "
                 "table); --allow-partial accepts them",
                 npartial, npartial == 1 ? "" : "s", cfg->nrep);
    return cli_agree(comm, HM_EFAILED, hm_last_error());
}

/* Collective: every experiment of the plan, with the run's progress line. */
static int run_plan(const cli_config_t *cfg, MPI_Comm comm, const bench_plan_t *plan,
                    const hm_experiment_t *ex, bench_run_t *run)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    hm_measure_params_t mp;
    cli_measure_params(cfg, ex, &mp);
    mp.progress = (hm_progress_t){report_progress, run};
    mp.status = report_status;
    mp.status_arg = run;
    /* --inject-delay (the test bed, docs/testbed.md): a late start of one rank. */
    if (cfg->inject_rank >= 0)
        mp.inject = (hm_measure_injection_t){.rank = cfg->inject_rank,
                                             .attempt = cfg->inject_attempt,
                                             .delay_s = cfg->inject_delay_us * 1e-6};
    *run = (bench_run_t){.cfg = cfg, .comm = comm, .e = ex, .rep = run->rep};
    cli_progress_init(&run->line, rank == 0);
    cli_progress_stage(&run->line, "bench", "repetitions");
    run->reps_total = (double)hm_bench_run_rows(plan->run) * (double)cfg->nrep;
    hm_bench_failed_t failed;
    int rc = hm_bench_run_measure(plan->run, hm_experiment_procsync(ex), &mp, on_row, run, &failed);
    cli_progress_clear(&run->line);
    if (rc == HM_OK) return HM_OK;
    if (failed == HM_BENCH_FAILED_ROW) return run->status; /* said */
    return cli_agree(comm, HM_EFAILED, hm_last_error());
}

int cli_cmd_bench(cli_config_t *cfg, MPI_Comm comm)
{
    bench_plan_t plan;
    hm_experiment_t *e = NULL;
    bench_run_t run = {0};
    int rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK)
        rc = make_plan(cfg, comm, &plan);
    else
        memset(&plan, 0, sizeof plan);
    if (rc == HM_OK) rc = cli_experiment_open(cfg, comm, cfg->sync, &e);
    if (rc == HM_OK) rc = cli_gpu_setup(cfg, comm, plan.device, hm_experiment_factors(e));
    if (rc == HM_OK)
        rc = cli_bench_report_open(cfg, comm, e, hm_bench_run_rows(plan.run), &run.rep);
    if (rc == HM_OK) rc = run_plan(cfg, comm, &plan, e, &run);
    if (run.rep) cli_bench_report_close(run.rep, comm);
    rc = cli_experiment_close(e, comm, rc);
    if (rc == HM_OK) rc = partial_status(cfg, comm, run.npartial);
    hm_bench_run_free(plan.run);
    return rc;
}
