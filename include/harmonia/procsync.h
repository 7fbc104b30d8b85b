/* include/harmonia/procsync.h — process synchronization before each
 * measurement: synchronization in space (a barrier) or in space and time (a
 * start deadline agreed on the global clock).
 *
 * Methods (names as on the command line, --sync, and in result files):
 *   barrier    MPI_Barrier; no deadline, every repetition valid
 *   dissem     harmonia's own dissemination barrier (below); no deadline
 *   window     start times t0 + i * window on the global clock (SKaMPI, paper
 *              Hunold & Carpen-Amarie 2016, §3.3 and Alg. 10): a repetition is invalid when a rank
 *              starts late or overruns its window; fixed window or adaptive
 *              (doubled, or 1.5 x the mean run-time, when a quarter of a
 *              chunk overran)
 *   roundtime  Round-Time (Hunold & Carpen-Amarie 2018, Alg. 5): the root picks the next start
 *              as now + B x (measured MPI_Bcast latency) and broadcasts it;
 *              flags and out-of-time are agreed after every round
 *   harmonize  hm_harmonize() below (Schuchart et al. 2023, Alg. 1)
 *
 * A measurement loop (the measure layer) uses a method as
 *     hm_procsync_begin(ps)                     once per experiment
 *     repeat:
 *         hm_procsync_start(ps, &flag, &deadline) wait; local validity
 *         local start timestamp, operation, local end timestamp
 *         hm_procsync_stop(ps, start_g, end_g, &flag) late start / overrun
 *         every hm_procsync_chunk(ps) repetitions: agree on the flags
 *         (MPI_Allreduce) and call hm_procsync_chunk_done
 * The late-start check of hm_procsync_stop uses the *measured* start
 * timestamp converted to global time, not only the clock read before the
 * busy-wait: a preemption between the end of the wait and the timestamp
 * invalidates the repetition (ReproMPI checks only before its spin loop). */
#ifndef HARMONIA_PROCSYNC_H
#define HARMONIA_PROCSYNC_H
#include <harmonia/export.h>
#include <stddef.h>
#include <mpi.h>
#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/sync.h>
#include <harmonia/topo.h>
#include <harmonia/harmonize.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hm_harmonize and its options: <harmonia/harmonize.h>. */

/* ---- The methods of process synchronization ---- */

typedef struct hm_procsync hm_procsync_t;

typedef struct hm_procsync_params {
    double late_s;                    /* window, roundtime, harmonize: a measured start later
                                       * than the deadline by more than this is invalid */
    double window_s;                  /* window: fixed window; 0 = adaptive */
    double slice_s;                   /* roundtime: time slice of an experiment; 0 = none
                                       * (stop at nrep valid repetitions) */
    double bcast_factor;              /* roundtime: B, start = now + B x MPI_Bcast latency */
    double min_lead_s;                /* roundtime: the start at least this far ahead (0:
                                       * none; hm_procsync_fit: the lead it needed) */
    double late_run_factor;           /* a start may be late by late_s + this x the
                                       * repetition's own run-time (0; hm_procsync_fit: 1) */
    double late_cap_fraction;         /* > 0: never more than max(1 us, this x the
                                       * repetition's own run-time), whatever late_s and
                                       * late_run_factor allow (0: no cap; hm_procsync_fit
                                       * when it derives late_s: 0.5) */
    int check_every;                  /* repetitions between agreements on the flags */
    hm_harmonize_options_t harmonize; /* harmonize: clock_sync, sync, resync_s, spin_s */
    hm_sync_refiner_t *refiner;       /* the global clock's refiner (clock_sync "refine"),
                                       * borrowed: refined between chunks when due
                                       * (hm_procsync_refine), by harmonize at its
                                       * re-synchronizations; NULL: the clock stays */
} hm_procsync_params_t;

/* Defaults: late_s 1e-6 (a spin loop ends within a clock read of the
 * deadline, so a start later than 1 us is a preemption or a missed deadline;
 * with more ranks than processors hm_procsync_fit derives it from measured
 * waits instead), window adaptive (0), no slice (0), bcast_factor 3,
 * min_lead_s 0, late_run_factor 0, check_every 16 (paper Schuchart et al.
 * 2023, Listing 1), harmonize options default. */
HM_EXPORT void hm_procsync_params_default(hm_procsync_params_t *params);

/* Registry: count, i-th name, list "barrier, dissem, ..." for errors. */
HM_EXPORT size_t hm_procsync_count(void);
HM_EXPORT const char *hm_procsync_name_at(size_t i);
HM_EXPORT void hm_procsync_names(char *buf, size_t len);

/* The fields of hm_procsync_params_t that only some methods read, so that a
 * caller can refuse a setting that would change nothing. late_s is read by
 * every method (bench counts late starts under each). */
typedef enum hm_procsync_param {
    HM_PROCSYNC_PARAM_WINDOW = 1 << 0,       /* window_s: window */
    HM_PROCSYNC_PARAM_SLICE = 1 << 1,        /* slice_s: roundtime */
    HM_PROCSYNC_PARAM_BCAST_FACTOR = 1 << 2, /* bcast_factor: roundtime */
    HM_PROCSYNC_PARAM_CHECK_EVERY = 1 << 3,  /* check_every: all but roundtime */
    HM_PROCSYNC_PARAM_RESYNC = 1 << 4,       /* harmonize.resync_s: harmonize */
    HM_PROCSYNC_PARAM_MIN_LEAD = 1 << 5,     /* min_lead_s: roundtime */
} hm_procsync_param_t;

/* 1 when method reads param, 0 when it does not or is not a method. Local. */
HM_EXPORT int hm_procsync_reads(const char *method, hm_procsync_param_t param);

/* Check a method name and parameters without MPI: HM_ENOENT with the last
 * error naming the unknown method and the known ones, or HM_EINVAL with the
 * last error naming the option and its value (e.g. "--check-every 0 must be
 * at least 1"). */
HM_EXPORT int hm_procsync_check(const char *method, const hm_procsync_params_t *params);

/* Collective: set up method over comm (duplicated inside), with global the
 * clock synchronized over comm (retained). Measures what the method needs
 * (MPI_Bcast latency). Every rank returns the same status and leaves the
 * same last error: HM_ENOENT or HM_EINVAL as hm_procsync_check, HM_EINVAL
 * without a global clock, or the failure of the method's set-up on some rank
 * (HM_ENOMEM, HM_EMPI, harmonize's configuration), the sentence of the
 * lowest such rank. */
HM_EXPORT int hm_procsync_create(const char *method, MPI_Comm comm, hm_clock_t *global,
                                 const hm_procsync_params_t *params, hm_procsync_t **out);
HM_EXPORT void hm_procsync_free(hm_procsync_t *ps);

HM_EXPORT const char *hm_procsync_name(const hm_procsync_t *ps);
/* 1 when the method agrees a start deadline (window, roundtime, harmonize). */
HM_EXPORT int hm_procsync_has_deadline(const hm_procsync_t *ps);

/* Collective: start an experiment (window: the first window; roundtime: the
 * time slice). */
HM_EXPORT int hm_procsync_begin(hm_procsync_t *ps);

/* Collective: synchronize before one repetition. *flag = 0 when this rank
 * already knows the repetition is invalid (late before waiting); *deadline_s
 * = the agreed start on the global clock (NaN without deadline). */
HM_EXPORT int hm_procsync_start(hm_procsync_t *ps, int *flag, double *deadline_s);

/* Local, after the repetition: start_s and end_s are its timestamps on the
 * global clock (hm_procsync_clock). Clears *flag on a late start
 * (start_s > deadline + tolerance, tolerance = late_s + late_run_factor x
 * run, at most max(1 us, late_cap_fraction x run) when that is > 0 and run
 * > 0, run = end_s - start_s; start_s == end_s, no operation timed, as skew
 * passes its exits, is held to late_s alone) or, for window, an overrun
 * (end_s > deadline + window).
 * A start that only the cap made late is counted (hm_procsync_late_capped). */
HM_EXPORT void hm_procsync_stop(hm_procsync_t *ps, double start_s, double end_s, int *flag);

/* Local: the late-start tolerance hm_procsync_stop holds a repetition with
 * these timestamps to, floor included (hm_procsync_set_run_floor); NaN for
 * a method without a deadline, which judges no start. hm_measure_run
 * records the largest over ranks beside every repetition, so that a valid
 * repetition's start spread can be checked against what it was held to. */
HM_EXPORT double hm_procsync_stop_tolerance(const hm_procsync_t *ps, double start_s, double end_s);

/* Local: the run-time the tolerance's cap relates a timed start to is at
 * least run_s (0, the default: this rank's own, end_s - start_s). A rank
 * whose own part of an operation is short (an eager sender, a root, a
 * pattern's rank with one small message) finishes in a microsecond while
 * the operation takes the others far longer: capped at half its own
 * run-time, its start had a 1 us tolerance on a shared machine and was
 * late in most repetitions. hm_measure_run sets it after every chunk to
 * the median run-time (max end - min start) of the chunk's repetitions,
 * and back to 0 at its end. */
HM_EXPORT void hm_procsync_set_run_floor(hm_procsync_t *ps, double run_s);

/* The late-start tolerance params give a repetition whose own run-time is
 * run_s: late_s + late_run_factor x run_s, at most max(1 us,
 * late_cap_fraction x run_s) when late_cap_fraction > 0 and run_s > 0.
 * Pure. */
HM_EXPORT double hm_procsync_late_tolerance(const hm_procsync_params_t *params, double run_s);

/* Local: repetitions of this rank whose start the cap on the late-start
 * tolerance (late_cap_fraction) made late, since the handle was created. */
HM_EXPORT long hm_procsync_late_capped(const hm_procsync_t *ps);

/* The global clock to convert this repetition's timestamps with (harmonize
 * may re-synchronize at hm_procsync_start). Borrowed. */
HM_EXPORT hm_clock_t *hm_procsync_clock(const hm_procsync_t *ps);

/* Repetitions between agreements on the flags: check_every, or 1 for
 * roundtime (its flags are agreed after every round). */
HM_EXPORT int hm_procsync_chunk(const hm_procsync_t *ps);

/* Local: 1 when params.refiner has a refinement due on this rank's clock
 * (hm_sync_refiner_due) and the method does not refine itself (harmonize
 * refines at its own re-synchronizations). A caller agrees on it (any rank
 * due), as hm_measure_run does with a chunk's flags, and then calls
 * hm_procsync_refine on every rank. */
HM_EXPORT int hm_procsync_refine_due(const hm_procsync_t *ps);

/* Collective: refine the global clock (hm_sync_refiner_refine) and use the
 * refined one from the next start on. Between chunks only: a chunk's
 * repetitions are timed on one clock. Every rank returns the same status. */
HM_EXPORT int hm_procsync_refine(hm_procsync_t *ps);

/* Local: 0 when this rank's time slice (roundtime) is over. */
HM_EXPORT int hm_procsync_in_time(const hm_procsync_t *ps);

/* After the flags of a chunk were agreed (identical on every rank): n
 * repetitions, nvalid valid, busy_s the root's wall time of the chunk. The
 * window method adapts here (its new window is broadcast with the next
 * chunk's first window). Local. */
HM_EXPORT void hm_procsync_chunk_done(hm_procsync_t *ps, int n, int nvalid, double busy_s);

/* What the method did, for result files, e.g. "window=12.5us adaptive (3
 * adaptations)" or "slack=4.1us resyncs=2". Local (the root's view matters). */
HM_EXPORT void hm_procsync_describe(const hm_procsync_t *ps, char *buf, size_t len);

/* The window the window method holds now (fixed, or the adaptation's choice
 * for the next chunk), seconds; NaN for the methods without one. Local (the
 * root's view matters). */
HM_EXPORT double hm_procsync_window(const hm_procsync_t *ps);

/* ---- Building blocks ---- */

/* The dissemination barrier (Hensgen, Finkel and Manber 1988) over
 * point-to-point messages: in round k = 0 .. ceil(log2 p) - 1, rank r sends
 * a zero-byte message to (r + 2^k) mod p and receives one from
 * (r - 2^k) mod p. After the last round every rank has heard, directly or
 * through others, from every rank, so none leaves before all have entered.
 * Its exit pattern is harmonia's own, the same under every MPI library, so
 * results synchronized with it compare across libraries whatever their
 * MPI_Barrier does. Collective over comm, any size (1 returns at once).
 * Uses its own tag; comm should be private to harmonia (a duplicate) so that
 * no user message can match. Returns HM_OK or HM_EMPI. */
HM_EXPORT int hm_procsync_dissem_barrier(MPI_Comm comm);

/* Collective: the latency of MPI_Bcast of one double from rank 0 over comm,
 * the same on every rank: the median over reps of the slowest rank's time
 * from a common start (a barrier) to receipt. Used for the initial slack of
 * harmonize and the start offset of roundtime. */
HM_EXPORT int hm_procsync_bcast_latency(MPI_Comm comm, int reps, double *latency_s);

/* Wait until the global clock reads target_s: sleep while more than spin_s
 * remain (the processor goes to other ranks when they outnumber the cores),
 * then spin; with yield, the spin calls sched_yield between clock reads, so
 * that ranks sharing a core take turns reading the clock instead of one
 * spinning through the deadline while the others wait for a scheduler
 * slice. Returns the clock reading that ended the wait. */
HM_EXPORT double hm_procsync_wait_until(hm_clock_t *global, double target_s, double spin_s,
                                        int yield);

/* Collective: 1 on every rank when some node has more ranks of comm than
 * online processors (the spin of a wait should yield), else 0. */
HM_EXPORT int hm_procsync_oversubscribed(MPI_Comm comm);

/* ---- Tolerances fitted to the machine ---- */

/* What hm_procsync_fit detected and chose. */
typedef struct hm_procsync_fit {
    int oversubscribed;       /* hm_procsync_oversubscribed(comm) */
    int busy;                 /* the interference given to hm_procsync_fit was busy */
    int ranks;                /* ranks of comm on the most oversubscribed node */
    int processors;           /* that node's online processors */
    int late_given;           /* late_s was the caller's (--late-us): kept as given */
    int derived;              /* late_s was derived from the waits measured below */
    long waits;               /* common deadlines measured (0 when none) */
    double quantile;          /* which quantile of the slowest rank's lateness (0.99) */
    double lateness_s;        /* that quantile: how late the slowest rank's start came,
                               * seconds */
    double factor;            /* the safety factor on it (3) */
    double late_s;            /* the late-start tolerance now in params, seconds */
    double late_run_factor;   /* now in params: x the repetition's run-time on top (1) */
    double late_cap_fraction; /* now in params: the cap, x the run-time (0.5) */
    double first_lead_s;      /* the deadlines' first lead: 3 x MPI_Bcast latency */
    double lead_s;            /* their last: doubled while a quarter came late to a rank */
} hm_procsync_fit_t;

/* Collective over comm (global synchronized over it): fit params to this
 * machine, once, before hm_procsync_create. Without oversubscription
 * (hm_procsync_oversubscribed: no node has more ranks than online
 * processors) and without interference (interference NULL, or not busy:
 * topo.h, hm_interference_measure) nothing is measured and params is left
 * as it is, so the defaults (late_s 1 us) hold exactly. With either, ranks
 * take turns on their cores with each other or with other processes, and
 * each leaves a wait a scheduler switch or a slice after the
 * deadline (tens of us to ms): at 1 us nearly every repetition of window,
 * roundtime and harmonize would be invalid. Then, unless late_given (the
 * caller's late_s wins: kept, nothing measured), it measures how late: 200
 * common deadlines (rank 0 broadcasts global now + a lead, first 3 x the
 * MPI_Bcast latency as Round-Time's, doubled after 16 deadlines of which a
 * quarter reached some rank late; every rank waits with
 * hm_procsync_wait_until, yielding, and reads the global clock as a start
 * timestamp), per deadline the slowest rank's lateness (what decides a
 * repetition's validity), deadlines that some rank reached late left out;
 * and sets
 *     params->late_s     = max(params->late_s, 3 x the 0.99 quantile)
 *     params->min_lead_s = the last lead (roundtime: a start closer than
 *                          that may reach a rank too late)
 *     params->late_run_factor = 1: a rank behind another on its core starts
 *                          when that one blocks or yields in the operation,
 *                          up to about the operation's run-time later, which
 *                          the calibration (no operation) cannot see
 *     params->late_cap_fraction = 0.5: and yet never later than half the
 *                          repetition's run-time (or 1 us): a start that late
 *                          moved the makespan by half of what it measures, and
 *                          a tolerance of milliseconds under load would make
 *                          "valid" mean nothing for a 10 us operation
 * Takes tens of ms under Open MPI, seconds under MPICH's busy polling at 4
 * ranks on 2 cores. *fit says what was detected and chosen, the same on
 * every rank. Returns HM_OK, HM_ENOMEM or HM_EMPI, the same on every rank. */
HM_EXPORT int hm_procsync_fit(MPI_Comm comm, hm_clock_t *global, int late_given,
                              const hm_interference_t *interference, hm_procsync_params_t *params,
                              hm_procsync_fit_t *fit);

#ifdef __cplusplus
}
#endif
#endif
