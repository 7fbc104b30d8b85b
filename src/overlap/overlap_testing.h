/* src/overlap/overlap_testing.h — test hooks of the overlap layer. Not
 * installed and not exported (the library's own tests link the static
 * library), as include/harmonia/testing.h. */
#ifndef HM_OVERLAP_TESTING_H
#define HM_OVERLAP_TESTING_H
#include <harmonia/overlap.h>

/* Testing: every later hm_compute_run of c takes extra_s more, spun on the
 * calling thread and added to each thread's time, as a neighbour's process
 * taking the cores would; 0 stops it. A reference measured before and a
 * cell run after see different computations: what the grid's recheck must
 * catch. HM_EINVAL for a negative time. Local. */
int hm__compute_inject_slowdown(hm_compute_t *c, double extra_s);

/* Testing: every later hm_compute_run of c computes nothing and reports,
 * for each thread t, model(arg, n, t) seconds at the current order n (once
 * a size is set; before, the run fails as it would). A calibration then
 * searches a kernel whose every time the test knows, e.g. one whose speed
 * changes after a given run, as a virtual core's does when the host's
 * other tenants take its physical core. NULL restores dgemm. Local. */
typedef double (*hm__compute_model_fn)(void *arg, int n, int thread);
int hm__compute_inject_model(hm_compute_t *c, hm__compute_model_fn model, void *arg);

#endif
