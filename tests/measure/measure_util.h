/* tests/measure/measure_util.h — what the measurement tests share: a
 * synthetic operation with known per-rank arrival delays whose true start
 * and end are recorded, and the global clock over synthetic clocks. */
#ifndef HM_TEST_MEASURE_UTIL_H
#define HM_TEST_MEASURE_UTIL_H
#include <harmonia/measure.h>

#include "truth.h"

enum { SPIN_MAX_RUNS = 4096 };

/* Rank r spins delay(r, run) in true time, then enters MPI_Barrier: the
 * makespan is known from the recorded true timestamps. */
typedef struct spin_op {
    MPI_Comm comm;
    hm_timer_t *timer; /* synthetic: hm_timer_now_truth gives the true time */
    int rank, size;
    double step_s; /* delay unit */
    long runs;     /* runs so far (warm-up included) */
    double true_start_s[SPIN_MAX_RUNS], true_end_s[SPIN_MAX_RUNS];
} spin_op_t;

/* The delay of rank in run: step x ((3 rank + run) mod 4), so the last
 * rank to arrive changes from run to run. */
double spin_delay(const spin_op_t *op, int rank, long run);

/* A target over op (run = spin then barrier; participates, not halved). */
void spin_target(spin_op_t *op, hm_measure_target_t *target);

/* Collective: synthetic clocks (offset +-1 s, drift +-100 ppm, seed 7)
 * synchronized with hca3 into *global. */
int open_global(hm_truth_t *t, hm_clock_t **global);
/* The same with clock_sync and the clocks drawn from seed; *refiner (may
 * be NULL) receives a refining spec's refiner ("refine"), NULL for any
 * other. */
int open_global_with(hm_truth_t *t, const char *clock_sync, uint64_t seed, hm_clock_t **global,
                     hm_sync_refiner_t **refiner);
#endif
