/* tests/procsync/psloop.h — the measurement loop of the measure layer in
 * miniature, for the procsync tests: start, (delay), start timestamp,
 * operation, end timestamp, stop; flags agreed every chunk and chunk_done
 * called with the root's wall time of the chunk.
 *
 * The global clock of these tests is the identity over "monotonic" with the
 * origin agreed: all ranks run on one machine and read the same
 * CLOCK_MONOTONIC, so it is the true time without any synchronization. */
#ifndef HM_TEST_PSLOOP_H
#define HM_TEST_PSLOOP_H
#include <harmonia/procsync.h>
#include <harmonia/timer.h>

/* One repetition as this rank saw it. */
typedef struct ps_rep {
    double deadline_s; /* from hm_procsync_start */
    double start_s;    /* global start timestamp */
    double end_s;      /* global end timestamp */
    int flag_start;    /* flag after hm_procsync_start */
    int flag_stop;     /* after hm_procsync_stop (local) */
    int valid;         /* agreed over the ranks */
    int in_time;       /* hm_procsync_in_time after the repetition */
} ps_rep_t;

/* What happens in a repetition on this rank: before runs between the start
 * and the start timestamp (an injected preemption), op between the
 * timestamps (the measured operation). Either may be NULL. */
typedef struct ps_work {
    void (*before)(void *ctx, long rep);
    void (*op)(void *ctx, long rep);
    void *ctx;
} ps_work_t;

/* The shared true clock: "monotonic", origin agreed over comm. */
typedef struct ps_truth {
    hm_timer_t *timer;
    hm_clock_t *global;
} ps_truth_t;

int ps_truth_open(ps_truth_t *t, MPI_Comm comm);
void ps_truth_close(ps_truth_t *t);

/* Collective: nrep repetitions (rep numbers first .. first+nrep-1 for the
 * work callbacks) into reps[0..nrep-1]; stops early after a chunk in which
 * some rank was out of time (the roundtime slice): returns the repetitions
 * run, or a negative status. */
long ps_loop(hm_procsync_t *ps, MPI_Comm comm, long first, long nrep, const ps_work_t *work,
             ps_rep_t *reps);

/* Sleep s seconds (nanosleep); spin s seconds on the clock. */
void ps_sleep(double s);
void ps_spin(hm_clock_t *clock, double s);
#endif
