/* include/harmonia/testing.h — test hooks. Not installed, and not part of
 * libharmonia's interface (the shared library does not export them): the
 * library's own tests and the program's testing option --inject-delay link
 * the static library. Each hook delays a rank where a preemption would, so
 * that tests can check how a late rank is caught. */
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

/* The measurement layer's types (measure.h), named here without it: this
 * header sits below that layer. */
struct hm_measure_target;
struct hm_measure_params;
struct hm_measure_result;

/* A late start in a measurement: rank sleeps delay_s between the end of the
 * synchronization and the start timestamp of attempt (counted from 0 after
 * the warm-up). */
typedef struct hm_measure_injection {
    int rank;
    long attempt;
    double delay_s;
} hm_measure_injection_t;

/* Testing: hm_measure_run with the late start of injection (NULL: none).
 * Collective, as hm_measure_run. */
int hm_measure_run_injected(MPI_Comm comm, hm_procsync_t *ps,
                            const struct hm_measure_target *target,
                            const struct hm_measure_params *params,
                            const hm_measure_injection_t *injection,
                            struct hm_measure_result *result);

#ifdef __cplusplus
}
#endif
#endif
