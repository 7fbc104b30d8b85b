/* src/overlap/overlap_private.h — names the overlap layer's files share,
 * not installed and not exported. */
#ifndef HM_OVERLAP_PRIVATE_H
#define HM_OVERLAP_PRIVATE_H
#include <harmonia/overlap.h>

/* HM_OK, or HM_EINVAL with the last error and *which naming the field at
 * fault (HM_OVERLAP_PARAM_NONE on HM_OK). Local. */
int hm__overlap_grid_check(const hm_overlap_grid_params_t *p, hm_overlap_param_t *which);

/* hm_compute_calibrate_agreed at target_s, with the default calibration
 * parameters but tolerance (0: the default's): the one calibration of the
 * computation that the grid and the impact ratio share. */
int hm__overlap_calibrate_comp_at(MPI_Comm comm, hm_compute_t *c, double target_s, double tolerance,
                                  hm_compute_calibration_t *out);

#endif
