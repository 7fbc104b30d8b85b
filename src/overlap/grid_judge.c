/* src/overlap/grid_judge.c — whether a reference of the overlap grid may
 * stand for its target, and a cell's verdict from its two references
 * [Denis et al. 2022, §4.3, §5.1]. The paper's calibration stops within
 * 10 % of the target and the ratios take the measured time, not the
 * target; a reference measured 75 % away from its target, or one that
 * moved by more than the tolerance between the start and the end of the
 * grid, means the cell did not run at the times it is reported under, and
 * its ratios divide by a time that was not the computation's (or the
 * communication's) while it ran. */
#include <math.h>

#include <harmonia/overlap.h>

#include "common/error_set.h"

void hm_overlap_ref_judge(hm_overlap_ref_t *r, double tolerance)
{
    if (!r) {
        hm__error_null(__func__, "r");
        return;
    }
    r->error = r->target_s > 0 ? (r->ref_s - r->target_s) / r->target_s : NAN;
    r->moved = r->ref_s > 0 && isfinite(r->end_s) ? (r->end_s - r->ref_s) / r->ref_s : NAN;
    if (r->outcome != HM_OVERLAP_CONVERGED && r->outcome != HM_OVERLAP_FIXED)
        r->state = HM_OVERLAP_REF_UNCALIBRATED;
    else if (!(r->ref_s > 0))
        r->state = HM_OVERLAP_REF_UNCALIBRATED;
    /* NAN error (a size given, no target) passes: only a target can be missed. */
    else if (fabs(r->error) > tolerance)
        r->state = HM_OVERLAP_REF_OFF_TARGET;
    else if (fabs(r->moved) > tolerance)
        r->state = HM_OVERLAP_REF_MOVED;
    else
        r->state = HM_OVERLAP_REF_OK;
}

/* The deviation that explains a state. */
static double deviation(const hm_overlap_ref_t *r)
{
    return r->state == HM_OVERLAP_REF_OFF_TARGET ? r->error
           : r->state == HM_OVERLAP_REF_MOVED    ? r->moved
                                                 : NAN;
}

void hm_overlap_verdict(const hm_overlap_ref_t *comm, const hm_overlap_ref_t *comp,
                        hm_overlap_verdict_t *out)
{
    const char *null = !comm ? "comm" : !comp ? "comp" : !out ? "out" : NULL;
    if (null) {
        hm__error_null(__func__, null);
        return;
    }
    *out = (hm_overlap_verdict_t){1, 0, HM_OVERLAP_REF_OK, NAN};
    /* A calibration that failed on either side names both outcomes, as the
     * table always did; otherwise the communication's reference first. */
    const hm_overlap_ref_t *bad = NULL;
    if (comm->state == HM_OVERLAP_REF_UNCALIBRATED || comp->state == HM_OVERLAP_REF_UNCALIBRATED)
        bad = comm->state == HM_OVERLAP_REF_UNCALIBRATED ? comm : comp;
    else if (comm->state != HM_OVERLAP_REF_OK)
        bad = comm;
    else if (comp->state != HM_OVERLAP_REF_OK)
        bad = comp;
    if (!bad) return;
    out->valid = 0;
    out->comp_side = bad == comp;
    out->state = bad->state;
    out->deviation = deviation(bad);
}
