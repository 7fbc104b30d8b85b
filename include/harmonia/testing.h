/* include/harmonia/testing.h — test hooks. Not installed, and not part of
 * libharmonia's interface (the shared library does not export them): only
 * the library's own tests, which link the static library, use them. Each
 * hook delays a rank where a preemption would, so that tests can check how a
 * late rank is caught. (A late start inside a measurement is no hook but a
 * parameter of the engine, hm_measure_params_t.inject: the program's
 * --inject-delay uses it through the installed library.) */
#ifndef HARMONIA_TESTING_H
#define HARMONIA_TESTING_H
#include <harmonia/harmonize.h>
#include <harmonia/procsync.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Testing: the next hm_harmonize on comm, on this rank only, sleeps delay_s
 * after it learnt the deadline and before it checks it, as a preemption
 * would. Local. */
int hm_harmonize_inject_delay(MPI_Comm comm, double delay_s);

/* Testing: this rank's next hm_procsync_start is delayed by delay_s where a
 * preemption hurts most: harmonize inside hm_harmonize between learning and
 * checking its deadline (a missed deadline: flag 0, slack x 1.5), the other
 * methods before their synchronization (a late arrival: window and roundtime
 * flag it). Local. */
int hm_procsync_inject_delay(hm_procsync_t *ps, double delay_s);

#ifdef __cplusplus
}
#endif
#endif
