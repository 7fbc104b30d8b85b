/* src/pattern/measure.c — a plan, or a sequence of plans, through the
 * measurement engine: every repetition started by the process
 * synchronization, its run-time max end - min start on the global clock
 * (CommBench times with a barrier and local clocks, §4.1). Steps run as
 * Fig. 5 of the paper draws them: dependent steps each rank in turn (its
 * wait of step i before its start of step i + 1, no barrier), concurrent
 * steps all started, then all waited for. */
#include <harmonia/clock.h>
#include <harmonia/measure.h>
#include <harmonia/pattern.h>
#include <harmonia/procsync.h>
#include <harmonia/timer.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

typedef struct sequence {
    hm_plan_t *const *steps;
    int nsteps;
    hm_sequence_mode_t mode;
    hm_plan_validation_t validation;
    uint64_t wrong; /* bytes, this rank, every check */
    hm_timer_t *timer;
    double start_call_s; /* the last run's time in hm_plan_start, every step */
} sequence_t;

/* hm_plan_start, its time added to the run's (two timer reads a step:
 * tens of nanoseconds inside the timed region). */
static int timed_start(sequence_t *q, int i)
{
    double t0 = hm_timer_now(q->timer);
    int rc = hm_plan_start(q->steps[i]);
    q->start_call_s += hm_timer_now(q->timer) - t0;
    return rc;
}

static int run_steps(void *ctx)
{
    sequence_t *q = ctx;
    int rc = HM_OK;
    q->start_call_s = 0;
    for (int i = 0; rc == HM_OK && i < q->nsteps; i++) {
        rc = timed_start(q, i);
        if (rc == HM_OK) rc = hm_plan_wait(q->steps[i]);
    }
    return rc;
}

static int run_concurrent(void *ctx)
{
    sequence_t *q = ctx;
    int rc = HM_OK;
    q->start_call_s = 0;
    for (int i = 0; rc == HM_OK && i < q->nsteps; i++) rc = timed_start(q, i);
    for (int i = 0; rc == HM_OK && i < q->nsteps; i++) rc = hm_plan_wait(q->steps[i]);
    return rc;
}

static int start_call_time(void *ctx, double *seconds)
{
    *seconds = ((const sequence_t *)ctx)->start_call_s;
    return HM_OK;
}

/* The device's own time of a run: the steps' stream times added (dependent
 * steps run one after the other), or the longest (concurrent steps). */
static int device_time(void *ctx, double *seconds)
{
    const sequence_t *q = ctx;
    *seconds = 0;
    for (int i = 0; i < q->nsteps; i++) {
        double s;
        int rc = hm_plan_device_time(q->steps[i], &s);
        if (rc != HM_OK) return rc;
        *seconds = q->mode == HM_SEQUENCE_STEPS ? *seconds + s : (s > *seconds ? s : *seconds);
    }
    return HM_OK;
}

/* Whether this rank has a message in some step; every rank does when no
 * step has any (nothing would be timed otherwise). */
static int takes_part(hm_plan_t *const *steps, int nsteps)
{
    uint64_t total = 0;
    for (int i = 0; i < nsteps; i++) {
        size_t nsend = 0, nrecv = 0;
        hm_plan_counts(steps[i], &nsend, &nrecv);
        if (nsend + nrecv > 0) return 1;
        total += hm_plan_total_bytes(steps[i]);
    }
    return total == 0;
}

static int all_have_device_time(hm_plan_t *const *steps, int nsteps)
{
    for (int i = 0; i < nsteps; i++)
        if (!steps[i]->backend->on_stream || !steps[i]->device_timing) return 0;
    return 1;
}

/* The default validation: every step's messages on their own. */
static int fill_each(void *ctx)
{
    const sequence_t *q = ctx;
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < q->nsteps; i++) rc = hm_plan_fill(q->steps[i]);
    return rc;
}

static int check_each(void *ctx, uint64_t *wrong)
{
    const sequence_t *q = ctx;
    int rc = HM_OK;
    *wrong = 0;
    for (int i = 0; rc == HM_OK && i < q->nsteps; i++) {
        uint64_t w = 0;
        rc = hm_plan_check(q->steps[i], &w);
        *wrong += w;
    }
    return rc;
}

/* The engine's validation after every run: check, count, fill again. */
static int validate(void *ctx, int *ok)
{
    sequence_t *q = ctx;
    uint64_t wrong = 0;
    int rc = q->validation.check(q->validation.ctx, &wrong);
    q->wrong += wrong;
    *ok = rc == HM_OK && wrong == 0;
    if (rc == HM_OK) rc = q->validation.fill(q->validation.ctx);
    return rc;
}

static int check_args(hm_plan_t *const *steps, int nsteps, hm_sequence_mode_t mode,
                      const hm_measure_params_t *params, const hm_plan_validation_t *v)
{
    if (!steps) return hm__error_null("hm_plan_measure", "steps");
    if (!params) return hm__error_null("hm_plan_measure", "params");
    if (nsteps < 1)
        return hm__error_set(HM_EINVAL, "hm_plan_measure: nsteps %d is below 1", nsteps);
    for (int i = 0; i < nsteps; i++)
        if (!steps[i] || !steps[i]->committed)
            return hm__error_set(HM_EINVAL, "step %d is not a committed plan", i);
    if (params->validate && !v && mode == HM_SEQUENCE_STEPS && nsteps > 1)
        return hm__error_set(HM_EINVAL,
                             "%d dependent steps forward what they receive: validating them "
                             "needs a validation of the whole sequence",
                             nsteps);
    if (v && (!v->fill || !v->check))
        return hm__error_set(HM_EINVAL, "a validation needs a fill and a check");
    return HM_OK;
}

int hm_plan_measure(hm_plan_t *const *steps, int nsteps, hm_sequence_mode_t mode, hm_procsync_t *ps,
                    const hm_measure_params_t *params, const hm_plan_validation_t *validation,
                    hm_measure_result_t *result, uint64_t *wrong)
{
    if (!ps) return hm__error_null(__func__, "ps");
    if (!result) return hm__error_null(__func__, "result");
    int rc = check_args(steps, nsteps, mode, params, validation);
    if (rc != HM_OK) return rc;
    sequence_t q = {steps, nsteps,
                    mode,  {fill_each, check_each, NULL},
                    0,     hm_clock_timer(hm_procsync_clock(ps)),
                    0};
    q.validation.ctx = &q;
    if (validation) q.validation = *validation;
    hm_measure_target_t target = {.run = mode == HM_SEQUENCE_STEPS ? run_steps : run_concurrent,
                                  .validate = params->validate ? validate : NULL,
                                  .ctx = &q,
                                  .participates = takes_part(steps, nsteps),
                                  .call_time = start_call_time,
                                  .device_time =
                                      all_have_device_time(steps, nsteps) ? device_time : NULL};
    if (params->validate) rc = q.validation.fill(q.validation.ctx);
    MPI_Comm comm = steps[0]->comm;
    int all = rc;
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return rc != HM_OK ? rc : hm__error_mpi(__func__, "MPI_Allreduce");
    if (all != HM_OK) return rc != HM_OK ? rc : hm__error_set(all, "another rank's fill failed");
    rc = hm_measure_run(comm, ps, &target, params, result);
    uint64_t total = 0;
    if (MPI_Allreduce(&q.wrong, &total, 1, MPI_UINT64_T, MPI_SUM, comm) != MPI_SUCCESS &&
        rc == HM_OK)
        rc = hm__error_set(HM_EMPI, "MPI_Allreduce failed");
    if (wrong) *wrong = total;
    return rc;
}
