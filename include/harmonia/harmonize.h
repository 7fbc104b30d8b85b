/* include/harmonia/harmonize.h — hm_harmonize alone: synchronization of
 * the processes of a communicator in space and time
 * [Schuchart et al. 2023, Alg. 1], for codes that want only that. The
 * methods a benchmark chooses between (barrier, window, ...) are in
 * <harmonia/procsync.h>, which includes this header. */
#ifndef HARMONIA_HARMONIZE_H
#define HARMONIA_HARMONIZE_H
#include <harmonia/export.h>

#include <mpi.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/sync.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How hm_harmonize keeps the global clock of a communicator. Defaults (from
 * hm_harmonize_options_default): timer "monotonic", clock_sync "hca3" with
 * hm_sync_params_default, refresh_offset "skampi", resync_s 1.0, full_resync_s
 * 60, spin_s 100e-6, late_s 1e-6, global NULL, refiner NULL.
 *
 * Under a refining clock_sync ("refine", sync.h), every re-synchronization
 * is a refinement instead (one offset per rank, the drift refitted over the
 * whole run; never a full synchronization again), and a refinement falling
 * due (hm_sync_refiner_due: 1, 2, 4, ... ms after the ready phase, then
 * every doubling) is one more reason to re-synchronize at the next call.
 * The refiner is the caller's (opts->refiner, with the clock it made as
 * opts->global) or, without a global clock, hm_harmonize's own.
 *
 * Re-synchronizations (after a miss, or resync_s after the last one) are
 * cheap refreshes: every rank in turn measures its offset against the
 * root over the current global clock (its drift model kept) and folds it
 * into the clock's top model, ~0.5 ms at 2 ranks over TCP (the measuring
 * pairs are kept warm from one refresh to the next) against ~100 ms for a
 * full hca3. A full clock_sync runs at the first call and when full_resync_s has
 * passed since the last full one (a drift model learnt once serves minutes;
 * the refresh removes what it got wrong). Under a clock_sync whose innermost
 * level is prop (e.g. "hca3+prop"), only the leaders of that level measure
 * and pass their refreshed clock on to their group, as the full
 * synchronization does. refresh_offset NULL or "" makes every
 * re-synchronization full, as the paper's Alg. 1 does. */
typedef struct hm_harmonize_options {
    const char *timer;          /* time source when global is NULL (timer.h names) */
    const char *clock_sync;     /* spec of the full synchronizations (sync.h) */
    hm_sync_params_t sync;      /* their parameters (refreshes use sync.exchanges) */
    const char *refresh_offset; /* offset algorithm of a refresh (offset.h names) */
    double resync_s;            /* re-synchronize after this long (paper: 1 s) */
    double full_resync_s;       /* full synchronization after this long */
    double spin_s;              /* sleep until this close to the deadline, then spin */
    double late_s;              /* a wait that ends later than the deadline by more
                                 * than this returns flag 0 (a late exit) */
    hm_clock_t *global;         /* a clock already synchronized over comm (same
                                 * spec): used until the first re-synchronization,
                                 * saving the first one; retained, not owned */
    hm_sync_refiner_t *refiner; /* global's refiner (clock_sync "refine"; needs
                                 * global): borrowed, it must outlive comm's state */
} hm_harmonize_options_t;

HM_EXPORT void hm_harmonize_options_default(hm_harmonize_options_t *opts);

/* Collective: set how hm_harmonize works on comm, before its first call on
 * comm (a later call replaces the state), and prepare it: measure MPI_Bcast
 * and synchronize the clocks (unless opts->global is given), so that the
 * first hm_harmonize is as quick as the others. Without it the first
 * hm_harmonize uses the defaults and prepares. Errors: HM_EINVAL/HM_ENOENT
 * for a bad option (the same on every rank), or a synchronization's. */
HM_EXPORT int hm_harmonize_configure(MPI_Comm comm, const hm_harmonize_options_t *opts);

/* Synchronize the processes of comm in space and time (Schuchart et al. 2023, Alg. 1):
 * every rank returns at one agreed deadline on the global clock. Collective.
 * *flag = 1 when this rank met the deadline and waited for it; 0 when it
 * arrived late, when it saw the deadline further ahead than the slack
 * allows (its clock runs behind the root's: it returns at once instead of
 * waiting out the error, and the next call re-synchronizes, as after a
 * miss), or when its wait ended more than late_s after the deadline
 * (a late exit: the process was preempted across the deadline, which no
 * slack prevents; such a call grows no slack and re-synchronizes nothing;
 * not checked when a node has more ranks than processors, where sharing a
 * core makes every exit a scheduler switch late). Every rank receives the
 * same deadline, and no rank waits for it longer than the slack plus the
 * clocks' tolerance (max(10 us, 2 MPI_Bcast latencies)).
 * The flag is a local property: other ranks may return 1. The deadline is
 * global now + slack at the root; the clocks are re-synchronized when any
 * rank failed at its previous call or more than resync_s passed since the
 * last synchronization; the slack grows x1.5 after a failure and, every 16
 * calls without one, shrinks by at most 10% towards the cheapest slack for
 * the last 256 calls (1.25 x one of their arrivals after the root's
 * decision, trading the slack against the share of calls it misses times
 * the measured cost of a refresh), never below the measured MPI_Bcast
 * latency and never above max(100 us, 100 MPI_Bcast latencies) (a slack
 * that covered a scheduler slice would cost a slice at every call).
 * State (clock, slack, counters)
 * is cached on comm as an MPI attribute and freed with comm, so any
 * communicator works, sub-communicators included; messages use a private
 * duplicate of comm. Without hm_harmonize_configure, the first call on a comm
 * synchronizes the clocks and measures MPI_Bcast: it takes long.
 * Returns HM_OK, HM_EMPI, HM_ENOMEM, or a clock-synchronization error. */
HM_EXPORT int hm_harmonize(MPI_Comm comm, int *flag);

/* What hm_harmonize has done on comm (this rank's view). */
typedef struct hm_harmonize_info {
    double slack_s;         /* current slack (root's value, broadcast with each deadline) */
    double bcast_latency_s; /* measured MPI_Bcast latency: the slack's floor */
    double deadline_s;      /* deadline of the last call, global clock */
    double last_sync_s;     /* global time of the last clock synchronization */
    long calls;             /* calls on this rank */
    long missed;            /* calls that missed the deadline on this rank */
    long late_exits;        /* calls that met it but left later than late_s after it */
    long clock_errors;      /* calls that saw it further ahead than the slack allows: this
                             * rank's clock was behind the root's (failed at once) */
    long resyncs;           /* clock synchronizations, the first included */
    long full_syncs;        /* of which full ones (clock_sync) */
    long slack_grows, slack_shrinks;
    long slack_capped;    /* failures at which the slack stayed at its cap */
    double resync_time_s; /* time this rank spent in re-synchronizations */
    long refresh_repeats; /* refreshes measured again because a client's best round
                           * trip said it was preempted (same on every rank) */
} hm_harmonize_info_t;

/* Local. HM_ENOENT before the first call or configure on comm. */
HM_EXPORT int hm_harmonize_info(MPI_Comm comm, hm_harmonize_info_t *info);

/* The global clock hm_harmonize currently uses on comm (borrowed: valid until
 * the next call, which may re-synchronize). NULL before the first call. */
HM_EXPORT hm_clock_t *hm_harmonize_clock(MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
