/* tests/sync_hier/truth.h — synthetic clocks with a known truth for the
 * hca3, prop and hierarchical tests.
 *
 * Every rank reads "monotonic" through a synthetic clock whose offset (within
 * +-1 s) and drift (within +-drift) are drawn from seed 7 and a clock domain
 * chosen by the test: the rank (every process its own clock) or its virtual
 * node (the ranks of a node share one clock, as the cores of a real node do).
 * No jitter. All ranks share the origin, so the true time T (the underlying
 * monotonic reading) is the same instant everywhere, and rank 0's clock, the
 * reference of every synchronization, reads T (1 + d0) + o0 at T. */
#ifndef HM_TEST_SYNC_HIER_TRUTH_H
#define HM_TEST_SYNC_HIER_TRUTH_H
#include <harmonia/clock.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

typedef struct truth {
    hm_timer_t *timer;
    hm_clock_t *base;    /* identity over timer: the base of the synchronization */
    double ref_offset_s; /* rank 0's draw */
    double ref_drift;
} truth_t;

/* Collective over MPI_COMM_WORLD. HM_OK or the failing status. */
int truth_open(truth_t *t, double drift, int domain);
void truth_close(truth_t *t);

/* The true error of global now: its reading minus rank 0's clock at the
 * same true instant. Local. */
double truth_error(const truth_t *t, hm_clock_t *global);

/* Collective over MPI_COMM_WORLD: the largest |true error| of any rank, on
 * every rank; *worst_rank receives that rank. */
double truth_max_error(const truth_t *t, hm_clock_t *global, int *worst_rank);

/* hm_sync_params_default with these fitpoints and exchanges (0: keep the
 * default). */
void truth_params(hm_sync_params_t *p, int fitpoints, int exchanges);
#endif
