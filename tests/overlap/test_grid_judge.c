/* tests/overlap/test_grid_judge.c — a reference of the overlap grid is
 * judged against its target and against itself after the grid (issue 28):
 * the numbers of the run, where a 10 ms target was divided by a
 * t_comp_ref of 17.46 ms and a 1 ms one by 3.64 ms and both cells printed
 * ok, must make their cells invalid with the deviation named; within the
 * paper's 10 % (§5.1) they stand. Exact arithmetic on given numbers: no
 * tolerance beyond the judge's own. */
#include <math.h>
#include <stdio.h>

#include <harmonia/overlap.h>

#include "testutil.h"

static hm_overlap_ref_t ref(double target_s, double ref_s, double end_s,
                            hm_overlap_outcome_t outcome)
{
    return (hm_overlap_ref_t){.target_s = target_s,
                              .size = 100,
                              .outcome = outcome,
                              .achieved_s = target_s,
                              .ref_s = ref_s,
                              .local_s = NAN,
                              .end_s = end_s,
                              .error = NAN,
                              .moved = NAN};
}

static void judged(hm_overlap_ref_t *r, hm_overlap_ref_state_t want, const char *what)
{
    hm_overlap_ref_judge(r, 0.1);
    HM_CHECK(r->state == want, "%s: state %d, want %d (error %g, moved %g)", what, (int)r->state,
             (int)want, r->error, r->moved);
}

int main(void)
{
    hm_overlap_ref_t comm = ref(1e-3, 0.99e-3, NAN, HM_OVERLAP_CONVERGED);
    judged(&comm, HM_OVERLAP_REF_OK, "comm 1 ms at 0.99 ms");

    /* The cells: +75 % and +264 %. */
    hm_overlap_ref_t comp = ref(10e-3, 17.46e-3, NAN, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_OFF_TARGET, "comp 10 ms at 17.46 ms");
    HM_CHECK(fabs(comp.error - 0.746) < 1e-9, "error %g = +74.6 %%", comp.error);
    hm_overlap_verdict_t v;
    hm_overlap_verdict(&comm, &comp, &v);
    HM_CHECK(!v.valid && v.comp_side == 1 && v.state == HM_OVERLAP_REF_OFF_TARGET &&
                 fabs(v.deviation - 0.746) < 1e-9,
             "the cell: invalid, comp reference +75 %% off target (valid %d side %d state %d "
             "deviation %g)",
             v.valid, v.comp_side, (int)v.state, v.deviation);
    comp = ref(1e-3, 3.64e-3, NAN, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_OFF_TARGET, "comp 1 ms at 3.64 ms");
    HM_CHECK(fabs(comp.error - 2.64) < 1e-9, "error %g = +264 %%", comp.error);
    /* Below the target counts as much as above. */
    comp = ref(1e-3, 0.85e-3, NAN, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_OFF_TARGET, "comp 1 ms at 0.85 ms");

    /* Within 10 % at the start, 15 % slower after the grid: moved. */
    comp = ref(10e-3, 10.5e-3, 12.075e-3, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_MOVED, "comp 10.5 ms, 12.075 ms after");
    HM_CHECK(fabs(comp.moved - 0.15) < 1e-9, "moved %g = +15 %%", comp.moved);
    hm_overlap_verdict(&comm, &comp, &v);
    HM_CHECK(!v.valid && v.comp_side && v.state == HM_OVERLAP_REF_MOVED, "the cell: moved");
    comp = ref(10e-3, 10.5e-3, 11.0e-3, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_OK, "comp 10.5 ms, 11 ms after (+4.8 %)");
    hm_overlap_verdict(&comm, &comp, &v);
    HM_CHECK(v.valid && isnan(v.deviation), "both references stand: the cell is valid");

    /* A size given has no target to miss, but can move. */
    hm_overlap_ref_t given = ref(NAN, 2e-3, 2.1e-3, HM_OVERLAP_FIXED);
    judged(&given, HM_OVERLAP_REF_OK, "a size given, +5 % after");
    HM_CHECK(isnan(given.error), "no target: no error (%g)", given.error);
    given.end_s = 3e-3;
    judged(&given, HM_OVERLAP_REF_MOVED, "a size given, +50 % after");

    /* A calibration that did not converge names both outcomes, whatever
     * the other side's state: the communication's side is reported. */
    hm_overlap_ref_t lost = ref(1e-9, 1e-6, NAN, HM_OVERLAP_BELOW_MIN);
    judged(&lost, HM_OVERLAP_REF_UNCALIBRATED, "below-min");
    comp = ref(10e-3, 17.46e-3, NAN, HM_OVERLAP_CONVERGED);
    judged(&comp, HM_OVERLAP_REF_OFF_TARGET, "comp off");
    hm_overlap_verdict(&lost, &comp, &v);
    HM_CHECK(!v.valid && v.comp_side == 0 && v.state == HM_OVERLAP_REF_UNCALIBRATED,
             "uncalibrated comm before an off-target comp");
    return hm_test_finish();
}
