/* tests/sync/flat/flat_util.h — the test bed of the flat synchronization
 * tests (skampi, netgauge, jk): the algorithms called directly
 * (src/sync/sync_impl.h) over the synthetic clocks of tests/common/truth.h,
 * pinning, and reductions that wait asleep. */
#ifndef HM_FLAT_UTIL_H
#define HM_FLAT_UTIL_H
#include <harmonia/clock.h>
#include <harmonia/timer.h>

#include "sync/sync_impl.h"

/* Seed of the draws. Seed 24 gives rank 1 a drift of -82.7 ppm and an
 * offset of +1.14 s against rank 0 (ranks 2-4: +48.0, -61.5, -83.4 ppm), so
 * that an ignored drift or offset cannot pass unseen; the precision test
 * checks the drift difference itself. (Seed 7, the timer tests' seed, gives
 * rank 1 only -17.9 ppm.) */
#define FLAT_SEED 24

/* Bind this process to one CPU of its allowed set, the rank-th one, unless
 * the launcher bound it already (a single allowed CPU). Open MPI binds ranks
 * to cores by default, MPICH's Hydra does not: unbound, two busy-polling
 * ranks can share one core while the other runs something else, and every
 * ping-pong then waits for a scheduler slice (a 2-rank jk took 15-90 s
 * instead of 0.1-0.5 s). Precision tests pin like the papers' experiments.
 * Returns 0, or -1 when the affinity calls fail. */
int flat_pin(int rank);

/* Collective reductions that wait asleep (MPI_Iallreduce + MPI_Test +
 * nanosleep): under MPICH, which busy-polls, ranks done early would
 * otherwise starve the ranks still finishing a synchronization when ranks
 * outnumber cores. */
double flat_max_abs(MPI_Comm comm, double v);
double flat_max(MPI_Comm comm, double v);
void flat_allreduce_int(MPI_Comm comm, const int *in, int *out, int n, MPI_Op op);

/* One synchronization, directly through the algorithm: on a duplicate of
 * comm, after a sleeping barrier. *duration_s receives the time the call
 * took on this rank (no collective after the call, so that the caller can
 * read its clock's error right away). The status is returned. */
int flat_sync(hm_sync_fn fn, MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
              hm_clock_t **out, hm__sync_stats_t *stats, double *duration_s);
#endif
