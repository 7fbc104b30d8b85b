/* tests/overlap/test_study_params.c — hm_overlap_study's refusals name the
 * parameter at fault in a field, not only in a sentence, so that a program
 * blames its own option without reading the sentence; and the cells of a
 * grid are counted as `harmonia overlap` lists them (an op without a size,
 * ibarrier, has one column; comp_is_comm one computation per column). The
 * parameters are checked before any communication: no MPI_Init here. */
#include <stdio.h>

#include <harmonia/overlap.h>

#include "testutil.h"

static void refused(hm_overlap_study_params_t *sp, hm_overlap_param_t want, const char *what)
{
    hm_overlap_grid_t *grid = (hm_overlap_grid_t *)sp; /* must be set to NULL */
    hm_overlap_failure_t f;
    int rc = hm_overlap_study(MPI_COMM_WORLD, NULL, NULL, sp, NULL, &grid, &f);
    HM_CHECK(rc == HM_EINVAL && f.stage == HM_OVERLAP_STAGE_PARAMS && f.param == want &&
                 grid == NULL,
             "%s: rc %d stage %d param %d, want HM_EINVAL, params, %d (%s)", what, rc, (int)f.stage,
             (int)f.param, (int)want, hm_last_error());
}

int main(void)
{
    const hm_op_t *ops[2] = {hm_op_find("iallreduce"), hm_op_find("ibarrier")};
    const double comm_s[3] = {1e-3, 2e-3, 4e-3}, comp_s[2] = {1e-3, 2e-3};
    hm_overlap_study_params_t sp;
    hm_overlap_study_params_default(&sp);
    HM_CHECK(sp.grid.comp_runs == 5 && sp.cell.nrep == 20 && sp.cell.warmup == 1,
             "defaults: comp_runs %d nrep %ld warmup %ld", sp.grid.comp_runs, sp.cell.nrep,
             sp.cell.warmup);
    refused(&sp, HM_OVERLAP_PARAM_OPS, "no op");
    sp.grid.nops = 2, sp.grid.ops = ops;
    refused(&sp, HM_OVERLAP_PARAM_COMM_TARGETS, "no comm target");
    sp.grid.ncomm = 3, sp.grid.comm_targets_s = comm_s;
    refused(&sp, HM_OVERLAP_PARAM_COMP_TARGETS, "no comp target");
    sp.grid.ncomp = 2, sp.grid.comp_targets_s = comp_s;
    sp.grid.tolerance = 1.5;
    refused(&sp, HM_OVERLAP_PARAM_TOLERANCE, "tolerance 1.5");
    sp.grid.tolerance = 0.1, sp.grid.comp_runs = 0;
    refused(&sp, HM_OVERLAP_PARAM_COMP_RUNS, "comp_runs 0");
    sp.grid.comp_runs = 5, sp.cell.nrep = 0;
    refused(&sp, HM_OVERLAP_PARAM_NREP, "nrep 0");
    /* iallreduce: 3 columns x 2 targets; ibarrier: 1 x 2. */
    size_t n = hm_overlap_grid_ncells(&sp.grid);
    HM_CHECK(n == 8, "%zu cells, want 8", n);
    sp.grid.comp_is_comm = 1;
    n = hm_overlap_grid_ncells(&sp.grid);
    HM_CHECK(n == 4, "comp_is_comm: %zu cells, want 4", n);
    return hm_test_finish();
}
