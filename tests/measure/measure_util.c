/* tests/measure/measure_util.c */
#include "measure_util.h"

double spin_delay(const spin_op_t *op, int rank, long run)
{
    return op->step_s * (double)((3 * rank + run) % 4);
}

static int spin_run(void *ctx)
{
    spin_op_t *op = ctx;
    double t0, now;
    hm_timer_now_truth(op->timer, &t0);
    double until = t0 + spin_delay(op, op->rank, op->runs);
    do hm_timer_now_truth(op->timer, &now);
    while (now < until);
    int rc = MPI_Barrier(op->comm) == MPI_SUCCESS ? HM_OK : HM_EMPI;
    hm_timer_now_truth(op->timer, &now);
    if (op->runs < SPIN_MAX_RUNS) {
        op->true_start_s[op->runs] = t0;
        op->true_end_s[op->runs] = now;
    }
    op->runs++;
    return rc;
}

void spin_target(spin_op_t *op, hm_measure_target_t *target)
{
    *target = (hm_measure_target_t){.run = spin_run, .ctx = op, .participates = 1};
}

int open_global(hm_truth_t *t, hm_clock_t **global)
{
    return open_global_with(t, "hca3", HM_TRUTH_SEED, global, NULL);
}

int open_global_with(hm_truth_t *t, const char *clock_sync, uint64_t seed, hm_clock_t **global,
                     hm_sync_refiner_t **refiner)
{
    hm_synthetic_spec_t spec = {1.0, 1e-4, 0};
    hm_sync_params_t p;
    int rc = hm_truth_open(t, MPI_COMM_WORLD, spec, seed, HM_TRUTH_OWN_CLOCK);
    hm_sync_params_default(&p);
    if (rc == HM_OK)
        rc = hm_sync_run_refining(MPI_COMM_WORLD, clock_sync, &p, t->base, global, NULL, refiner);
    return rc;
}
