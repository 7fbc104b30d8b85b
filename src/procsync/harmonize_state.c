/* src/procsync/harmonize_state.c — the per-communicator state of
 * hm_harmonize: cached on the user's communicator as an MPI attribute, so any
 * communicator works and the state goes with it (MPI_Comm_free runs the
 * attribute's delete callback, which frees the private duplicate, the clocks
 * and an owned timer). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <harmonia/agree.h>

#include "common/error_set.h"
#include "common/idle.h"
#include "procsync/harmonize_state.h"
#include "procsync/procsync_impl.h"

/* Below 1 us a deadline lies within a few clock reads and one MPI_Bcast of
 * the root's decision even at one rank (where the measured latency can be
 * tens of ns); a slack of 0 would never grow (x1.5) and every call would
 * miss. A microsecond costs nothing next to a failure, which costs a full
 * clock synchronization. */
#define HZ_MIN_SLACK_S 1e-6

/* The only static: the attribute keys. state holds hm__hz_state_t on user
 * communicators; finalize is set once on MPI_COMM_SELF, whose attributes MPI
 * deletes first thing in MPI_Finalize, to free MPI_COMM_WORLD's state, which
 * MPI itself never deletes. */
static struct {
    int state, finalize;
} hz_keys = {MPI_KEYVAL_INVALID, MPI_KEYVAL_INVALID};

static void state_free(hm__hz_state_t *st)
{
    if (!st) return;
    if (st->comm != MPI_COMM_NULL) MPI_Comm_free(&st->comm);
    hm_clock_free(st->global);
    hm_clock_free(st->base);
    if (st->owns_timer) hm_timer_free(st->timer);
    hm__hz_shared_close(st);
    for (int r = 0; st->pairs && r < st->size; r++) hm_offset_pair_free(st->pairs[r]);
    free(st->pairs);
    free(st->clock_sync);
    if (st->owns_refiner) hm_sync_refiner_free(st->refiner);
    free(st);
}

static int delete_state(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    state_free(value);
    return MPI_SUCCESS;
}

static int delete_at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    void *world_state = NULL;
    int found = 0;
    /* SMPI refuses MPI calls once MPI_Finalize has begun (MPI_Comm_get_attr:
     * "MPI_Init was not called"); a simulated rank's memory ends with the
     * simulation. */
    if (HM_SMPI) return MPI_SUCCESS;
    /* Deleting an attribute that is not set is an error under Open MPI. */
    MPI_Comm_get_attr(MPI_COMM_WORLD, hz_keys.state, &world_state, &found);
    if (found) MPI_Comm_delete_attr(MPI_COMM_WORLD, hz_keys.state);
    MPI_Comm_free_keyval(&hz_keys.state);
    MPI_Comm_free_keyval(&hz_keys.finalize);
    return MPI_SUCCESS;
}

/* Local. Not thread-safe: hm_harmonize, a collective, is called by one
 * thread per process. */
static int keys_ready(void)
{
    if (hz_keys.state != MPI_KEYVAL_INVALID) return HM_OK;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &hz_keys.state, NULL) !=
            MPI_SUCCESS ||
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_at_finalize, &hz_keys.finalize,
                               NULL) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_create_keyval");
    return hm__mpi_status(MPI_Comm_set_attr(MPI_COMM_SELF, hz_keys.finalize, NULL), __func__,
                          "MPI_Comm_set_attr");
}

int hm__hz_state_find(MPI_Comm comm, hm__hz_state_t **st)
{
    int found = 0;
    *st = NULL;
    if (hz_keys.state == MPI_KEYVAL_INVALID) return HM_OK;
    if (MPI_Comm_get_attr(comm, hz_keys.state, st, &found) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_get_attr");
    if (!found) *st = NULL;
    return HM_OK;
}

/* Local: everything that can fail on one rank only. */
static int state_alloc(const hm_harmonize_options_t *o, hm__hz_state_t **out)
{
    hm__hz_state_t *st = calloc(1, sizeof *st);
    if (!st) return hm__error_set(HM_ENOMEM, "hm_harmonize: cannot allocate its state");
    *out = st;
    st->comm = MPI_COMM_NULL;
    st->shared = MPI_COMM_NULL;
    st->sync = o->sync;
    st->resync_s = o->resync_s;
    st->spin_s = o->spin_s;
    st->late_s = o->late_s;
    st->full_resync_s = o->full_resync_s;
    st->clock_sync = strdup(o->clock_sync);
    st->refresh = o->refresh_offset && o->refresh_offset[0] &&
                  hm_offset_find(o->refresh_offset, &st->refresh_kind) == HM_OK;
    if (!st->clock_sync) return hm__error_set(HM_ENOMEM, "hm_harmonize: cannot copy clock_sync");
    int rc = HM_OK;
    st->refiner = o->refiner;
    if (o->global) {
        st->timer = hm_clock_timer(o->global);
        hm_clock_retain(o->global);
        st->global = o->global;
    } else {
        rc = hm_timer_create(o->timer, NULL, &st->timer);
        st->owns_timer = rc == HM_OK;
    }
    return rc == HM_OK ? hm_clock_identity(st->timer, &st->base) : rc;
}

static int agree(MPI_Comm comm, int rc)
{
    int all = hm_agree(comm, rc);
    if (all != HM_OK && rc == HM_OK)
        return hm__error_set(all, "hm_harmonize: the set-up failed on another rank: %s",
                             hm_last_error());
    return all;
}

/* Collective: the private duplicate; an owned timer agrees its origin over
 * it (ranks reading one source then read comparable values, which clock
 * propagation, "prop", relies on). */
static int state_attach(MPI_Comm comm, hm__hz_state_t *st)
{
    if (MPI_Comm_dup(comm, &st->comm) != MPI_SUCCESS) {
        st->comm = MPI_COMM_NULL;
        return hm__error_mpi(__func__, "MPI_Comm_dup");
    }
    MPI_Comm_rank(st->comm, &st->rank);
    MPI_Comm_size(st->comm, &st->size);
    int rc = st->owns_timer ? hm_timer_agree_origin(st->timer, st->comm) : HM_OK;
    /* Attached only once every rank succeeded: replacing an earlier state
     * frees it (its delete callback), which must happen on all ranks or none. */
    if ((rc = agree(st->comm, rc)) != HM_OK) return rc;
    return hm__mpi_status(MPI_Comm_set_attr(comm, hz_keys.state, st), __func__,
                          "MPI_Comm_set_attr");
}

int hm__hz_state_create(MPI_Comm comm, const hm_harmonize_options_t *opts, int rc,
                        hm__hz_state_t **out)
{
    hm__hz_state_t *st = NULL;
    *out = NULL;
    if (rc == HM_OK) rc = keys_ready();
    if (rc == HM_OK) rc = state_alloc(opts, &st);
    rc = agree(comm, rc);
    if (rc == HM_OK) rc = state_attach(comm, st);
    if (rc != HM_OK) {
        state_free(st);
        return rc;
    }
    *out = st;
    return HM_OK;
}

/* Fold an offset model over a model into one model over the latter's base:
 * g = x - (s x + i), then g - o = x - (s x + (i + o)). Keeps the chain as
 * deep as the full synchronization made it, however many refreshes follow. */
static int fold_offset(hm_clock_t *refreshed, hm_clock_t **out)
{
    hm_clock_t *below = hm_clock_base(refreshed), *base = below ? hm_clock_base(below) : NULL;
    if (hm_clock_kind(refreshed) != HM_CLOCK_OFFSET || !base ||
        hm_clock_kind(below) == HM_CLOCK_IDENTITY) {
        hm_clock_retain(refreshed);
        *out = refreshed;
        return HM_OK;
    }
    hm_lm_t lm = hm_clock_lm(below);
    lm.intercept += hm_clock_lm(refreshed).intercept;
    return hm_clock_model(base, hm_clock_kind(below), lm, out);
}

/* A refresh follows every miss: its cost is the price of a miss. The
 * minimum round trip of this many ping-pongs sits within ~0.1 us of the
 * best of 100 over shared memory and TCP here. */
enum { HZ_REFRESH_EXCHANGES = 30, HZ_TAG_TURN = 0x485a };

/* Local: the pair of client r, created at the first refresh and kept, so
 * that only the first refresh pays its warm-up (HM_OFFSET_WARMUP untimed
 * ping-pongs, 50 against the 30 measured: over TCP they made a refresh cost
 * ~1 ms instead of ~0.4 ms, and every miss pays a refresh). */
static int refresh_pair(hm__hz_state_t *st, int r, hm_offset_pair_t **pair)
{
    if (!st->pairs && !(st->pairs = calloc((size_t)st->size, sizeof *st->pairs)))
        return hm__error_nomem(__func__);
    int exchanges =
        st->sync.exchanges < HZ_REFRESH_EXCHANGES ? st->sync.exchanges : HZ_REFRESH_EXCHANGES;
    int rc = st->pairs[r] ? HM_OK
                          : hm_offset_pair_create(st->comm, 0, r, st->refresh_kind, exchanges,
                                                  &st->pairs[r]);
    *pair = st->pairs[r];
    return rc;
}

/* A refresh whose best round trip is this many times the best a refresh of
 * this rank has seen (and HZ_SUSPECT_EXCESS_S above it) was measured across
 * a preemption: a SKaMPI offset is off by up to half its round trip, so 10
 * exchanges all descheduled for a 4 ms slice left a rank's clock 1.9 ms off
 * (MPICH, 3 ranks on 2 cores, CI). It is measured again, at most
 * HZ_REFRESH_ATTEMPTS times in all, and the sample with the smallest round
 * trip is kept. 4x and 10 us: shared memory round trips here vary by < 2x
 * (0.5-1 us), TCP's by < 3x (30-80 us); an extra 10 us of round trip moves
 * an offset by at most 5 us, well inside harmonize's slack. */
#define HZ_SUSPECT_RATIO    4.0
#define HZ_SUSPECT_EXCESS_S 10e-6
enum { HZ_REFRESH_ATTEMPTS = 3 };

/* Client: whether sample's round trip says it was measured across a
 * preemption. Before any refresh, twice the measured MPI_Bcast latency
 * stands in for the best round trip. */
static int refresh_suspect(const hm__hz_state_t *st, const hm_offset_sample_t *sample)
{
    double best = st->refresh_best_rtt_s > 0 ? st->refresh_best_rtt_s : 2 * st->bcast_latency_s;
    return sample->rtt_s > HZ_SUSPECT_RATIO * best && sample->rtt_s - best > HZ_SUSPECT_EXCESS_S;
}

/* Client rank: wait (sleeping) for the root's go, then measure against it.
 * Root: give each client its turn in order (SKaMPI-Offset, O(p) rounds).
 * *kept keeps this rank's sample with the smallest round trip (rtt_s
 * INFINITY until one is measured; untouched on the root). */
static int measure_offsets(hm__hz_state_t *st, hm_offset_sample_t *kept)
{
    int rc = HM_OK;
    for (int r = 1; r < st->size && rc == HM_OK; r++) {
        if ((st->rank != 0 && st->rank != r) || !hm__hz_shared_measures(st, r)) continue;
        hm_offset_pair_t *pair = NULL;
        hm_offset_sample_t sample;
        if (st->rank == 0)
            rc = hm__mpi_status(MPI_Send(NULL, 0, MPI_BYTE, r, HZ_TAG_TURN, st->comm), __func__,
                                "MPI_Send");
        else
            rc = hm__mpi_status(hm__idle_wait_token(st->comm, 0, HZ_TAG_TURN), __func__,
                                "MPI_Irecv of the root's token");
        if (rc == HM_OK) rc = refresh_pair(st, r, &pair);
        if (rc == HM_OK) rc = hm_offset_measure(pair, st->global, &sample);
        if (rc == HM_OK && st->rank == r && sample.rtt_s < kept->rtt_s) *kept = sample;
    }
    return rc;
}

/* Every rank's offset against the root, measured again while some client's
 * best sample looks preempted (refresh_suspect), HZ_REFRESH_ATTEMPTS times
 * at most. Agreed, sleeping: ranks done early must not spin while others
 * measure. *offset_s: this rank's offset (0 on the root and on ranks that do
 * not measure). */
static int measure_agreed(hm__hz_state_t *st, double *offset_s)
{
    hm_offset_sample_t kept = {.offset_s = 0.0, .rtt_s = INFINITY};
    int measures = st->rank != 0 && hm__hz_shared_measures(st, st->rank);
    for (int attempt = 1;; attempt++) {
        int mine[2] = {measure_offsets(st, &kept), 0}, all[2];
        mine[1] = mine[0] == HM_OK && measures && refresh_suspect(st, &kept) ? -1 : 0;
        if (hm__idle_allreduce(mine, all, 2, MPI_INT, MPI_MIN, st->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Allreduce");
        if (all[0] != HM_OK) return hm_agree(st->comm, mine[0]); /* its sentence too */
        if (all[1] == 0 || attempt == HZ_REFRESH_ATTEMPTS) break;
        st->refresh_repeats++;
    }
    if (measures && (st->refresh_best_rtt_s <= 0 || kept.rtt_s < st->refresh_best_rtt_s))
        st->refresh_best_rtt_s = kept.rtt_s;
    *offset_s = kept.offset_s;
    return HM_OK;
}

/* A refresh: every rank's offset against the root over the current global
 * clock, folded into its top model (the drift model of the last full
 * synchronization stays). Costs a few hundred microseconds at 2 ranks
 * against ~1 ms through hm_sync_run, whose communicators and agreements
 * dominate when the measurement itself is this short. */
static int refresh(hm__hz_state_t *st, hm_clock_t **fresh)
{
    double offset_s = 0.0; /* set by measure_agreed (GCC cannot see a failure is not 0) */
    int rc = measure_agreed(st, &offset_s);
    if (rc != HM_OK) return rc;
    hm_clock_t *offset = NULL;
    hm_lm_t lm = {0.0, offset_s};
    rc = hm_clock_model(st->global, HM_CLOCK_OFFSET, lm, &offset);
    if (rc == HM_OK) rc = fold_offset(offset, fresh);
    hm_clock_free(offset);
    if (!st->topo) return rc; /* flat: every rank measured for itself */
    /* Agreed first: the propagation is collective over each group. */
    if ((rc = agree(st->comm, rc)) == HM_OK)
        rc = agree(st->comm, hm__hz_shared_propagate(st, fresh));
    if (rc != HM_OK) {
        hm_clock_free(*fresh);
        *fresh = NULL;
    }
    return rc;
}

static int full_sync_due(const hm__hz_state_t *st)
{
    if (st->global && st->refiner) return 0; /* a refinement refits the drift too */
    return !st->global || !st->refresh ||
           hm_clock_now(st->global) - st->last_full_s > st->full_resync_s;
}

/* A full synchronization; under a refining clock_sync its refiner is kept
 * (over one rank there is none: nothing to refine). */
static int full_sync(hm__hz_state_t *st, hm_clock_t **fresh)
{
    if (!hm_sync_spec_refines(st->clock_sync))
        return hm_sync_run(st->comm, st->clock_sync, &st->sync, st->base, fresh, NULL);
    hm_sync_refiner_t *rf = NULL;
    int rc = hm_sync_run_refining(st->comm, st->clock_sync, &st->sync, st->base, fresh, NULL, &rf);
    if (rc != HM_OK) return rc;
    if (st->owns_refiner) hm_sync_refiner_free(st->refiner);
    st->refiner = rf, st->owns_refiner = 1;
    return HM_OK;
}

static int sync_clock(hm__hz_state_t *st, int full, hm_clock_t **fresh)
{
    if (full) return full_sync(st, fresh);
    return st->refiner ? hm_sync_refiner_refine(st->refiner, fresh) : refresh(st, fresh);
}

int hm__hz_state_sync(hm__hz_state_t *st)
{
    hm_clock_t *fresh = NULL;
    /* Every rank decides alike: last_full_s and the clocks agree to well
     * within the minute-scale full_resync_s, but a rank exactly at the edge
     * must not disagree, so the root decides. */
    int full = full_sync_due(st);
    if (MPI_Bcast(&full, 1, MPI_INT, 0, st->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    int rc = sync_clock(st, full, &fresh);
    if (rc != HM_OK) return rc;
    hm_clock_free(st->global);
    st->global = fresh;
    st->resyncs++;
    st->full_syncs += full;
    st->last_failed = 0;
    st->last_sync_s = hm_clock_now(st->global);
    if (full) st->last_full_s = st->last_sync_s;
    return HM_OK;
}

int hm__hz_state_prepare(hm__hz_state_t *st)
{
#ifdef __linux__
    /* The naps of hm_procsync_wait_until end within the thread's timer slack
     * (50 us by default): 1 us lets the last nap end on time, before the
     * spin, instead of overshooting into the deadline. Applies to this
     * thread from now on. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
#endif
    double lat = 0.0;
    st->yield = hm_procsync_oversubscribed(st->comm);
    int rc = hm__hz_shared_open(st);
    if (rc == HM_OK) rc = hm_procsync_bcast_latency(st->comm, HM_PROCSYNC_LATENCY_REPS, &lat);
    if (rc != HM_OK) return rc;
    st->bcast_latency_s = lat;
    st->floor_s = lat > HZ_MIN_SLACK_S ? lat : HZ_MIN_SLACK_S;
    st->slack_s = 2.0 * st->floor_s; /* Schuchart et al. 2023, §5.2: from MPI_Bcast's latency */
    if (st->global)                  /* configured: saves the first (full) synchronization */
        st->last_sync_s = st->last_full_s = hm_clock_now(st->global);
    else if ((rc = hm__hz_state_sync(st)) != HM_OK)
        return rc;
    st->prepared = 1;
    return HM_OK;
}
