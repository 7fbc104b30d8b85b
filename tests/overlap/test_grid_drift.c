/* tests/overlap/test_grid_drift.c — a reference that moves during the grid
 * is caught (issue 28, item 6) [Denis et al. 2022, §5.1: the ratios divide
 * by t_comp_ref and t_comm_ref as if they held for the whole grid]. At 2
 * ranks, a 1 x 1 grid (iallreduce at 2 ms, dgemm at 5 ms) is calibrated;
 * then every run of the computation is made longer by four times its
 * reference (hm__compute_inject_slowdown: spun on the computing thread, as a
 * neighbour's process taking the core), the cell runs, and the grid's
 * references are measured again. The computation's reference must come
 * back at least 4 times longer, MOVED, and the cell invalid.
 *
 * Tolerances: with the kernel at t after the grid and the first reference
 * r (r > t when load inflated it), the second reference is t + 4 r, so
 * moved = 3 + t / r: above +300 % whatever the load did to either
 * measurement. The check asks for +200 %, four times the grid's tolerance
 * here (50 %, see below). On the old code the grid kept no second
 * measurement: nothing marked the cell. */
#include <math.h>
#include <stdio.h>

#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

#include "overlap/overlap_testing.h"
#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, cpus = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    HM_CHECK(hm_overlap_share_node(MPI_COMM_WORLD, &cpus) == HM_OK, "placement");
    hm_experiment_params_t ep;
    hm_experiment_t *e = NULL;
    hm_experiment_params_default(&ep);
    hm_test_functional_experiment(&ep);
    HM_CHECK(hm_experiment_open(MPI_COMM_WORLD, &ep, &e, NULL) == HM_OK, "experiment: %s",
             hm_last_error());
    hm_compute_params_t cp = {.threads = 1};
    hm_compute_t *compute = NULL;
    HM_CHECK(hm_compute_create(&cp, &compute) == HM_OK, "compute: %s", hm_last_error());

    const hm_op_t *ops[] = {hm_op_find("iallreduce")};
    const double comm_s[] = {2e-3}, comp_s[] = {5e-3};
    hm_overlap_grid_params_t gp;
    hm_overlap_grid_params_default(&gp);
    gp.nops = 1, gp.ops = ops;
    gp.ncomm = 1, gp.comm_targets_s = comm_s;
    gp.ncomp = 1, gp.comp_targets_s = comp_s;
    /* 50 %: a calibration that converges on a machine shared with other
     * builds (at 10 % and 30 % it ran out of probes there under load 4 to
     * 7), still far below the +300 % the injection must show. */
    gp.tolerance = 0.5;
    hm_overlap_grid_t *g = NULL;
    hm_procsync_t *ps = hm_experiment_procsync(e);
    int rc = hm_overlap_grid_calibrate(MPI_COMM_WORLD, ps, compute, &gp, &g);
    HM_CHECK(rc == HM_OK, "grid: %s", hm_last_error());
    if (rc == HM_OK) {
        hm_overlap_ref_t before = *hm_overlap_grid_comp(g, 0, 0, 0);
        if (rank == 0)
            printf("comp: order %zu, %s, calibrated %.3f ms, t_comp_ref %.3f ms (%+.1f %%)\n",
                   before.size, hm_overlap_outcome_name(before.outcome), before.achieved_s * 1e3,
                   before.ref_s * 1e3, 100 * before.error);
        int usable = before.outcome == HM_OVERLAP_CONVERGED && before.ref_s > 0;
        if (!usable && rank == 0)
            hm_test_note("the calibration did not converge on this machine now: nothing to move");
        if (usable) {
            HM_CHECK(hm__compute_inject_slowdown(compute, 4 * before.ref_s) == HM_OK, "inject");
            hm_measure_params_t mp;
            hm_measure_params_default(&mp);
            mp.nrep = 3;
            mp.warmup = 1;
            hm_overlap_result_t r;
            int ran = 0;
            rc = hm_overlap_grid_run_cell(MPI_COMM_WORLD, ps, compute, g, 0, 0, 0, &mp, &r, &ran);
            HM_CHECK((rc == HM_OK || rc == HM_EAGAIN) && ran, "the cell ran: %s", hm_last_error());
            if (ran) hm_overlap_result_free(&r);
            rc = hm_overlap_grid_recheck(MPI_COMM_WORLD, ps, compute, g);
            HM_CHECK(rc == HM_OK, "recheck: %s", hm_last_error());
            const hm_overlap_ref_t *after = hm_overlap_grid_comp(g, 0, 0, 0);
            hm_overlap_verdict_t v;
            hm_overlap_verdict(hm_overlap_grid_comm(g, 0, 0), after, &v);
            if (rank == 0) {
                printf("after the grid: t_comp_ref %.3f ms, moved %+.1f %% (truth above +300 %%), "
                       "state %d, cell valid %d\n",
                       after->end_s * 1e3, 100 * after->moved, (int)after->state, v.valid);
                HM_CHECK(after->moved > 2, "t_comp_ref moved %+.1f %% > +200 %%",
                         100 * after->moved);
                /* Off target at the start (a busy machine) takes precedence
                 * over moved; either way the reference does not stand. */
                HM_CHECK(after->state == (before.state == HM_OVERLAP_REF_OK ? HM_OVERLAP_REF_MOVED
                                                                            : before.state),
                         "the computation's reference: state %d", (int)after->state);
                HM_CHECK(!v.valid, "the cell is invalid");
            }
            hm__compute_inject_slowdown(compute, 0);
        }
        hm_overlap_grid_free(g);
    }
    hm_compute_free(compute);
    hm_experiment_close(e);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
