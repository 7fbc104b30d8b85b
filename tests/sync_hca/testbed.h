/* tests/sync_hca/testbed.h — synthetic clocks with a known truth for the hca
 * and hca2 tests.
 *
 * Every rank reads "monotonic" through a synthetic clock: offset drawn in
 * +-1 s and drift in +-drift (seed 7, one clock domain per rank), no jitter.
 * All ranks share the origin, so the true time T (the underlying monotonic
 * reading) is the same instant on every rank, and rank 0's clock, the
 * reference of the synchronization, reads T (1 + d0) + o0 at that instant. */
#ifndef HM_TEST_SYNC_HCA_TESTBED_H
#define HM_TEST_SYNC_HCA_TESTBED_H
#include <harmonia/clock.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

#include "sync/sync_impl.h"

typedef struct testbed {
    hm_timer_t *timer;
    hm_clock_t *base; /* identity clock over timer: what the algorithms model */
    double offset_s;  /* this rank's injected offset and drift */
    double drift;
    double ref_offset_s; /* rank 0's (the reference's) */
    double ref_drift;
} testbed_t;

/* Collective over MPI_COMM_WORLD. drift: bound of the drawn drifts (0: none).
 * Returns HM_OK or the failing status (then the test cannot go on). */
int testbed_open(testbed_t *tb, double drift);
void testbed_close(testbed_t *tb);

/* The true error of global now: its reading minus the reference's reading at
 * the same true instant. */
double testbed_true_error(const testbed_t *tb, hm_clock_t *global);

/* The slope of the model t - (s t + i) that maps this rank's synthetic clock
 * exactly onto rank 0's: x_r = T (1 + d_r) + o_r, x_0 = T (1 + d_0) + o_0
 * give x_0 = x_r (1 + d_0) / (1 + d_r) + const, so s = (d_r - d_0) / (1 + d_r). */
double testbed_true_slope(const testbed_t *tb);

/* The parameters of the tests: fitpoints, exchanges, SKaMPI offsets, drift
 * auto with 3 sigmas, intercepts re-measured. */
void testbed_params(hm_sync_params_t *params, int fitpoints, int exchanges);

/* Run fn over comm (a duplicate, so that the algorithms' tags meet nothing
 * else); *duration_s: max over the ranks of comm; why (may be NULL) receives
 * fn's sentence on error. Returns fn's status. */
int testbed_sync(hm_sync_fn fn, MPI_Comm comm, const testbed_t *tb, const hm_sync_params_t *params,
                 hm_clock_t **out, hm_sync_stats_t *stats, double *duration_s, char *why,
                 size_t why_len);
#endif
