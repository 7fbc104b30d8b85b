/* src/procsync/harmonize.c — hm_harmonize: synchronization in space and time
 * (Schuchart et al. 2023, Alg. 1, the proof of concept's MPIX_Harmonize). The state it
 * keeps per communicator is in harmonize_state.c.
 *
 * Deviations from Alg. 1, where harmonia improves on it:
 *  - Line 10 reduces three doubles with MPI_MAX, [failed, expired, used_s],
 *    instead of an int with MPI_BOR: the same one message, and the root also
 *    learns the latest "used" time of the previous call on any rank (how long
 *    after the root's decision that rank checked its deadline), so the slack
 *    can shrink safely, not only grow (the paper's slack only grows).
 *  - Line 22 broadcasts [sync_time, slack, resync]: every rank knows the
 *    slack (for hm_harmonize_info and to compute its used time), and the
 *    re-synchronization is a flag, not a negative sync_time: a global clock
 *    can read negative times (rank 0's timer with an origin ahead of it, a
 *    synthetic clock with a negative offset).
 *  - Lines 35-36 sleep while the deadline is far and spin only the last
 *    spin_s (hm_procsync_wait_until): when ranks outnumber the cores, a
 *    spinning rank would hold the core the others need to reach the deadline.
 *  - The slack never goes below the measured MPI_Bcast latency (or 1 us),
 *    and shrinks only cautiously (HZ_SHRINK_STEP below). */
#include <math.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/idle.h"
#include "procsync/harmonize_state.h"
#include "procsync/procsync_impl.h"
#include <harmonia/testing.h>

/* Alg. 1 line 15: a failure multiplies the slack by 1.5. */
#define HZ_GROW 1.5
/* Shrinking (the paper's slack only grows). The root keeps the "used" times
 * of the last HZ_HISTORY calls: for each call, the latest time any rank
 * checked its deadline after the root had picked it (the reduce brings it
 * with the next call). The target is the slack HZ_MARGIN x one of them with
 * the least expected cost per call over that history: the slack plus the
 * share of the calls it would have missed times what a miss costs, the
 * refresh that follows it (hm__hz_slack_target; before a refresh was timed,
 * HZ_MARGIN x the second largest, which all but one call would have met).
 * Every HZ_RUN calls since the last miss the slack moves down towards the
 * target, by at most HZ_SHRINK_STEP of itself, never below the floor (the
 * MPI_Bcast latency: a deadline closer than one broadcast cannot reach the
 * ranks). Why this converges instead of oscillating: a miss puts its own
 * large used time into the history, which holds the target up while it is
 * worth covering, so the slack grown x1.5 by the miss comes down only at
 * 10% per 16 calls. Earlier rules: shrinking every 16 calls towards 1.5 x
 * the latest used time since the last miss forgot the tail at every miss
 * and missed one call in 500 on a loaded machine; covering the second
 * largest used time always kept the slack above the 10-100 us tail of TCP
 * here (the hypervisor's interruptions), at a cost of 30 us per call against
 * 22 us for the cost rule, whose extra misses each cost a 0.5 ms refresh. */
#define HZ_MARGIN      1.25
#define HZ_SHRINK_STEP 0.9
enum { HZ_RUN = 16 };

/* The slack never grows beyond max(HZ_CAP_MIN_S, HZ_CAP_LATENCIES x the
 * MPI_Bcast latency). Alg. 1 grows it x1.5 at every failure without bound,
 * and the shrink comes down 10% per 16 calls: under other processes' load
 * a few ranks preempted for a scheduler slice (ms) at the wrong moment
 * pushed it to seconds here, every call then waited that long (one
 * repetition a second for minutes). A slack covers the deadline's way to
 * every rank and its check, microseconds; no slack worth paying at every
 * call covers a preemption, a CFS slice of milliseconds: a miss costs one
 * refresh (~0.5 ms at 2 ranks) and one repetition. Capped at 1 ms, the
 * slack sat at the cap under two busy loops and the default bench took
 * 40 s against 1.5 s quiet, most of it the slack paid at every call.
 * 100 latencies keep the cap far above what a large job's deadline needs
 * to reach every rank (tens of us at 4096 simulated ranks). */
#define HZ_CAP_MIN_S     100e-6
#define HZ_CAP_LATENCIES 100.0

/* A rank that sees the deadline further ahead than the slack by more than
 * this (or two MPI_Bcast latencies) has a clock behind the root's: see
 * clock_behind. 10 us: several times what hca3 and a refresh leave between
 * two clocks over shared memory or TCP here (0.1-1 us right after, a few us
 * of drift by the next refresh), and nothing next to the seconds a broken
 * clock can be off by. */
#define HZ_CLOCK_TOLERANCE_S 10e-6

/* Indices of the reduced flags (line 10). */
enum { HZ_FAILED, HZ_EXPIRED, HZ_USED, HZ_NFLAGS };

void hm_harmonize_options_default(hm_harmonize_options_t *opts)
{
    if (!opts) {
        hm__error_null(__func__, "opts");
        return;
    }
    *opts = (hm_harmonize_options_t){.timer = "monotonic",
                                     .clock_sync = "hca3",
                                     .refresh_offset = "skampi",
                                     .resync_s = 1.0,
                                     .full_resync_s = 60.0,
                                     .spin_s = HM_PROCSYNC_SPIN_S,
                                     .late_s = 1e-6,
                                     .global = NULL,
                                     .refiner = NULL};
    hm_sync_params_default(&opts->sync);
}

/* Local: what can be checked without MPI. */
static int check_options(const hm_harmonize_options_t *o)
{
    static const char fn[] = "hm_harmonize_configure";
    if (!o->clock_sync) return hm__error_null(fn, "opts->clock_sync");
    int rc = hm_sync_check_spec(o->clock_sync);
    if (rc != HM_OK) return rc;
    if (!o->global && !o->timer)
        return hm__error_set(HM_EINVAL, "%s: neither opts->global nor opts->timer is given", fn);
    if (o->refiner && !o->global)
        return hm__error_set(HM_EINVAL, "%s: opts->refiner without opts->global, the clock it made",
                             fn);
    if (!(o->resync_s > 0) || !(o->full_resync_s > 0))
        return hm__error_set(HM_EINVAL, "%s: resync_s %g and full_resync_s %g must be above 0", fn,
                             o->resync_s, o->full_resync_s);
    if (!(o->spin_s >= 0) || !isfinite(o->spin_s))
        return hm__error_set(HM_EINVAL, "%s: spin_s %g must be finite and at least 0", fn,
                             o->spin_s);
    if (!(o->late_s >= 0) || !isfinite(o->late_s))
        return hm__error_set(HM_EINVAL, "%s: late_s %g must be finite and at least 0", fn,
                             o->late_s);
    hm_offset_kind_t kind;
    if (o->refresh_offset && o->refresh_offset[0]) return hm_offset_find(o->refresh_offset, &kind);
    return HM_OK;
}

int hm_harmonize_configure(MPI_Comm comm, const hm_harmonize_options_t *opts)
{
    if (!opts) return hm__error_null(__func__, "opts");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm__hz_state_t *st;
    int rc = hm__hz_state_create(comm, opts, check_options(opts), &st);
    /* Collective already: measure MPI_Bcast (and synchronize the clocks
     * unless given) now rather than in the first call, which a benchmark
     * may time. */
    return rc == HM_OK ? hm__hz_state_prepare(st) : rc;
}

/* The state of comm, built with the defaults and prepared at the first call.
 * Collective when it builds or prepares (every rank calls for the first time
 * together). */
static int state_get(MPI_Comm comm, hm__hz_state_t **st)
{
    int rc = hm__hz_state_find(comm, st);
    if (rc == HM_OK && !*st) {
        hm_harmonize_options_t o;
        hm_harmonize_options_default(&o);
        rc = hm__hz_state_create(comm, &o, HM_OK, st);
    }
    if (rc == HM_OK && !(*st)->prepared) rc = hm__hz_state_prepare(*st);
    return rc;
}

/* HZ_MARGIN x a used time of the history: see hm__hz_slack_target. */
static double shrink_target(const hm__hz_state_t *st)
{
    int n = st->history_n < HZ_HISTORY ? (int)st->history_n : HZ_HISTORY;
    return hm__hz_slack_target(st->sorted_s, n, HZ_MARGIN, st->refresh_cost_s);
}

/* The largest slack: see HZ_CAP_MIN_S. */
static double slack_cap(const hm__hz_state_t *st)
{
    return fmax(HZ_CAP_MIN_S, HZ_CAP_LATENCIES * st->bcast_latency_s);
}

/* Root, lines 11-21, plus the cap (see HZ_CAP_MIN_S) and the shrink rule
 * (see HZ_MARGIN). Returns 1 when the cap held the slack at this call. */
static int root_adapt_slack(hm__hz_state_t *st, const double *flags)
{
    if (st->calls > 1) /* the first call reports no previous call */
        hm__hz_history_add(st, flags[HZ_USED]);
    if (flags[HZ_FAILED] > 0) {
        double cap = slack_cap(st);
        st->run = 0;
        if (st->slack_s >= cap) return 1;
        st->slack_s = fmin(HZ_GROW * st->slack_s, cap);
        return st->slack_s == cap;
    }
    if (++st->run % HZ_RUN || st->history_n < HZ_RUN) return 0;
    double target = fmax(st->floor_s, shrink_target(st));
    if (target < st->slack_s) st->slack_s = fmax(target, HZ_SHRINK_STEP * st->slack_s);
    return 0;
}

/* Lines 4-22: agree whether to re-synchronize (*resync), else the deadline.
 * The root broadcasts [deadline, slack, resync, capped]: every rank counts
 * the root's decisions alike. */
static int agree_deadline(hm__hz_state_t *st, double *sync_time, int *resync)
{
    double now = hm_clock_now(st->global), msg[4];
    /* A refinement due is one more reason: its schedule (1, 2, 4, ... ms)
     * is what keeps the drift's error at one offset's (sync.h). */
    int expired = now - st->last_sync_s > st->resync_s ||
                  (st->refiner && hm_sync_refiner_due(st->refiner, now));
    double flags[HZ_NFLAGS] = {
        [HZ_FAILED] = st->last_failed, [HZ_EXPIRED] = expired, [HZ_USED] = st->used_s};
    double all[HZ_NFLAGS];
    if (MPI_Reduce(flags, all, HZ_NFLAGS, MPI_DOUBLE, MPI_MAX, 0, st->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Reduce");
    double before_s = st->slack_s;
    if (st->rank == 0) {
        msg[3] = root_adapt_slack(st, all);
        msg[2] = all[HZ_FAILED] > 0 || all[HZ_EXPIRED] > 0;
        msg[0] = msg[2] ? NAN : hm_clock_now(st->global) + st->slack_s;
        msg[1] = st->slack_s;
    }
    if (MPI_Bcast(msg, 4, MPI_DOUBLE, 0, st->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *sync_time = msg[0];
    *resync = msg[2] > 0;
    st->slack_grows += msg[1] > before_s;
    st->slack_shrinks += msg[1] < before_s;
    st->slack_capped += msg[3] > 0;
    st->slack_s = msg[1];
    return HM_OK;
}

/* Root: the running mean of what a refresh costs (full synchronizations,
 * ~100 ms and rare, are not what a miss costs). */
static void note_refresh_cost(hm__hz_state_t *st, double cost_s, long full_before)
{
    if (st->rank != 0 || st->full_syncs != full_before) return;
    st->refresh_cost_s =
        st->refresh_cost_s > 0 ? 0.75 * st->refresh_cost_s + 0.25 * cost_s : cost_s;
}

/* Lines 23-29: synchronize the clocks, line up after it (the ranks leave
 * hm_sync_run at different times), and agree a new deadline. */
static int resync(hm__hz_state_t *st, double *sync_time)
{
    double t0 = MPI_Wtime();
    long full_before = st->full_syncs;
    int rc = hm__hz_state_sync(st), dummy = 0;
    if (rc != HM_OK) return rc;
    if (MPI_Reduce(st->rank == 0 ? MPI_IN_PLACE : &dummy, &dummy, 1, MPI_INT, MPI_SUM, 0,
                   st->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Reduce");
    note_refresh_cost(st, MPI_Wtime() - t0, full_before);
    st->resync_time_s += MPI_Wtime() - t0;
    double t = st->rank == 0 ? hm_clock_now(st->global) + st->slack_s : 0.0;
    if (MPI_Bcast(&t, 1, MPI_DOUBLE, 0, st->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *sync_time = t;
    return HM_OK;
}

/* Testing hook: as a preemption between learning and checking would. */
static void sleep_injected(hm__hz_state_t *st)
{
    double s = st->delay_s;
    st->delay_s = 0;
    hm__idle_sleep(s);
}

/* The root picked the deadline slack ahead of its clock before this rank
 * learnt it, so on clocks that agree no rank sees it further ahead than the
 * slack. One that does runs behind the root by at least the excess: it
 * would wait that long past the others in true time and still return flag 1
 * (a refresh measured across a preemption, a drift model gone wrong; Alg. 1
 * checks only for a deadline already passed, which catches a clock ahead).
 * It fails instead, at once, and its failure re-synchronizes at the next
 * call, as a miss does. The tolerance is what clocks that agree may still
 * differ by: an offset estimate is good to half a round trip, about one
 * MPI_Bcast latency, and drift between refreshes adds microseconds. */
static int clock_behind(const hm__hz_state_t *st, double ahead_s)
{
    double tolerance_s = fmax(HZ_CLOCK_TOLERANCE_S, 2.0 * st->bcast_latency_s);
    return ahead_s > st->slack_s + tolerance_s;
}

/* Lines 30-37, and the late exit: the clock read that ended the wait came
 * more than late_s after the deadline, so this rank was off the processor
 * across it (over TCP on this 2-core VM, 1.3-1.8% of back-to-back calls had
 * a rank interrupted for 1-100 us there, three times as many as missed the
 * deadline). Alg. 1 knows only the check before the wait; its remedies (a
 * larger slack, a clock re-synchronization) do not help here, so the call
 * only returns flag 0 and is counted. Not when ranks outnumber the
 * processors: the yielding spin makes every rank that shares a core leave a
 * scheduler switch (microseconds) late, and every call would fail. */
static int meet_deadline(hm__hz_state_t *st, double sync_time)
{
    double now = hm_clock_now(st->global);
    st->used_s = st->slack_s - (sync_time - now);
    if (sync_time < now) {
        st->last_failed = 1;
        st->missed++;
        return 0;
    }
    if (clock_behind(st, sync_time - now)) {
        st->last_failed = 1;
        st->clock_errors++;
        return 0;
    }
    now = hm_procsync_wait_until(st->global, sync_time, st->spin_s, st->yield);
    if (!st->yield && now - sync_time > st->late_s) {
        st->late_exits++;
        return 0;
    }
    return 1;
}

int hm_harmonize(MPI_Comm comm, int *flag)
{
    if (!flag) return hm__error_null(__func__, "flag");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    *flag = 0;
    hm__hz_state_t *st = NULL;
    int rc = state_get(comm, &st);
    if (rc != HM_OK) return rc;
    st->calls++;
    double sync_time = NAN; /* set by agree_deadline: GCC cannot see that a failure is not 0 */
    int again = 0;
    if ((rc = agree_deadline(st, &sync_time, &again)) != HM_OK) return rc;
    if (again && (rc = resync(st, &sync_time)) != HM_OK) return rc;
    st->deadline_s = sync_time;
    sleep_injected(st);
    *flag = meet_deadline(st, sync_time);
    return HM_OK;
}

/* The state of an earlier hm_harmonize or hm_harmonize_configure on comm,
 * for the calls that read or adjust it; fn names the caller. */
static int existing_state(MPI_Comm comm, const char *fn, hm__hz_state_t **st)
{
    int rc = hm__hz_state_find(comm, st);
    if (rc != HM_OK)
        return hm__error_set(rc, "%s: cannot read the state of comm: %s", fn, hm_last_error());
    if (!*st)
        return hm__error_set(HM_ENOENT, "%s: no hm_harmonize or hm_harmonize_configure on comm yet",
                             fn);
    return HM_OK;
}

int hm_harmonize_info(MPI_Comm comm, hm_harmonize_info_t *info)
{
    if (!info) return hm__error_null(__func__, "info");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm__hz_state_t *st = NULL;
    int rc = existing_state(comm, __func__, &st);
    if (rc != HM_OK) return rc;
    *info = (hm_harmonize_info_t){.slack_s = st->slack_s,
                                  .bcast_latency_s = st->bcast_latency_s,
                                  .deadline_s = st->deadline_s,
                                  .last_sync_s = st->last_sync_s,
                                  .calls = st->calls,
                                  .missed = st->missed,
                                  .late_exits = st->late_exits,
                                  .clock_errors = st->clock_errors,
                                  .resyncs = st->resyncs,
                                  .full_syncs = st->full_syncs,
                                  .slack_grows = st->slack_grows,
                                  .slack_shrinks = st->slack_shrinks,
                                  .slack_capped = st->slack_capped,
                                  .resync_time_s = st->resync_time_s,
                                  .refresh_repeats = st->refresh_repeats};
    return HM_OK;
}

hm_clock_t *hm_harmonize_clock(MPI_Comm comm)
{
    if (hm__comm_check(comm, __func__) != HM_OK) return NULL;
    hm__hz_state_t *st = NULL;
    if (hm__hz_state_find(comm, &st) != HM_OK || !st || !st->prepared) return NULL;
    return st->global;
}

int hm_harmonize_inject_delay(MPI_Comm comm, double delay_s)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm__hz_state_t *st = NULL;
    if (!(delay_s >= 0) || !isfinite(delay_s))
        return hm__error_set(HM_EINVAL, "%s: delay_s %g is not a finite number >= 0", __func__,
                             delay_s);
    int rc = existing_state(comm, __func__, &st);
    if (rc != HM_OK) return rc;
    st->delay_s = delay_s;
    return HM_OK;
}
