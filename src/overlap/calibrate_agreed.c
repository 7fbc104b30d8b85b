/* src/overlap/calibrate_agreed.c — one dgemm order for every rank: each
 * calibrates on its own cores, and the largest order found is kept, so that
 * no rank's computation falls short of the target (Denis et al. 2022, §5.1
 * calibrates per process; a cell is only as long as its slowest rank). */
#include <harmonia/overlap.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "overlap/overlap_private.h"

/* The agreed status of an outcome: out of probes and out of range are
 * results the callers report, not failures. hm_compute_calibrate returned
 * the same status for it and set its sentence, still the last error when
 * the agreement reads it. */
static int outcome_status(hm_overlap_outcome_t outcome)
{
    if (outcome == HM_OVERLAP_CONVERGED) return HM_OK;
    if (outcome == HM_OVERLAP_OUT_OF_PROBES) return HM_EAGAIN; /* sentence: hm_compute_calibrate */
    return HM_ERANGE; /* sentence: set by hm_compute_calibrate */
}

int hm_compute_calibrate_agreed(MPI_Comm comm, hm_compute_t *c,
                                const hm_compute_calib_params_t *params,
                                hm_compute_calibration_t *agreed)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!c) return hm__error_null(__func__, "c");
    if (!agreed) return hm__error_null(__func__, "agreed");
    int rc = hm_compute_calibrate(c, params, agreed, NULL);
    int mine = outcome_status(agreed->outcome); /* its sentence in the last error */
    int local = rc == HM_ERANGE || rc == HM_EAGAIN ? HM_OK : rc;
    if ((rc = hm_agree(comm, local)) != HM_OK) return rc;
    int in[3] = {agreed->n, (int)agreed->outcome, agreed->probes}, all[3];
    double time_s = agreed->time_s;
    if (MPI_Allreduce(in, all, 3, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS ||
        MPI_Allreduce(MPI_IN_PLACE, &time_s, 1, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "calibration: MPI_Allreduce failed");
    agreed->n = all[0];
    agreed->outcome = (hm_overlap_outcome_t)all[1];
    agreed->probes = all[2];
    agreed->time_s = time_s;
    agreed->converged = agreed->outcome == HM_OVERLAP_CONVERGED;
    if ((rc = hm_agree(comm, hm_compute_set_size(c, agreed->n))) != HM_OK) return rc;
    return hm_agree(comm, mine);
}

int hm__overlap_calibrate_comp_at(MPI_Comm comm, hm_compute_t *c, double target_s, double tolerance,
                                  hm_compute_calibration_t *out)
{
    hm_compute_calib_params_t cp;
    hm_compute_calib_params_default(&cp);
    cp.target_s = target_s;
    if (tolerance > 0) cp.tolerance = tolerance;
    return hm_compute_calibrate_agreed(comm, c, &cp, out);
}
