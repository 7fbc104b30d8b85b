/* tests/sync/hca/hca_util.h — the hca and hca2 tests call the algorithms
 * directly (src/sync/sync_impl.h), over the synthetic clocks of
 * tests/common/truth.h. */
#ifndef HM_TEST_SYNC_HCA_UTIL_H
#define HM_TEST_SYNC_HCA_UTIL_H
#include <harmonia/clock.h>
#include <harmonia/sync.h>

#include "sync/sync_impl.h"

/* Run fn over comm (a duplicate, so that the algorithms' tags meet nothing
 * else) from base; *duration_s: max over the ranks of comm. Returns fn's
 * status; fn's sentence on error is the last error (hm_last_error). */
int hca_sync(hm_sync_fn fn, MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
             hm_clock_t **out, hm__sync_stats_t *stats, double *duration_s);
#endif
