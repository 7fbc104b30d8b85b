/* tools/harmonia-trace/tracer.c — libharmonia-trace.so's state: at MPI_Init
 * the clocks are synchronized with the sync layer and a recorder opened; at
 * MPI_Finalize they are synchronized again, checked, and the rank's model
 * file written (include/harmonia/trace.h). Nothing is communicated between
 * the two. Under refine (the default on one node) the synchronizations at
 * MPI_Init and at MPI_Finalize take 16 offsets per rank each, refinements
 * of one refiner, and the line through all of them becomes the model at
 * the start as at the end, so the interpolation between them is that line
 * (an offset-only start model would bend it by up to drift x span / 4 at
 * the middle).
 *
 * Environment (set by `harmonia trace`, or by hand):
 *   HARMONIA_TRACE_DIR          where the rank files go (default harmonia-trace)
 *   HARMONIA_TRACE_CLOCK_SYNC   a --clock-sync spec (default refine, hca3+prop
 *                               when the ranks span several nodes)
 *   HARMONIA_TRACE_TIMER        a --timer name (default monotonic)
 *   HARMONIA_TRACE_SYNTHETIC    a --synthetic-clock spec (tests), with
 *   HARMONIA_TRACE_SEED         its seed (default 1)
 *   HARMONIA_TRACE_FITPOINTS, HARMONIA_TRACE_EXCHANGES   sync parameters; under
 *                               refine FITPOINTS is the offsets per rank at each
 *                               end (default up to 16, within 0.25 s)
 *   HARMONIA_TRACE_BUFFER       events a rank buffers between flushes (65536)
 *   HARMONIA_TRACE_INCLUDE      functions recorded (patterns, hm_trace_func_select;
 *   HARMONIA_TRACE_EXCLUDE      default all) and not recorded (default none)
 *   HARMONIA_TRACE_POLLS        burst (default): a run of unsuccessful polls of one
 *                               function is one event with its count; each: one a call
 *   HARMONIA_TRACE_DURING       FROM:TO, seconds after MPI_Init's synchronization:
 *                               calls recorded (default the whole run)
 * A value that does not parse ends the program at MPI_Init, every rank
 * alike, with the variable, the value and what it takes, exit status 2. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/clock.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

#include "tracer.h"

static struct tracer {
    hm_timer_t *timer;
    hm_clock_t *base, *start_clock;
    hm_sync_refiner_t *refiner; /* refine: its state from MPI_Init; else NULL */
    int offsets;                /* refine: offsets per rank at MPI_Init and at MPI_Finalize */
    int offsets_asked;          /* ... set by HARMONIA_TRACE_FITPOINTS: no budget */
    long refinements_init;      /* refine: the refinements made at MPI_Init */
    MPI_Comm comm;              /* the tracer's own duplicate of MPI_COMM_WORLD */
    int rank, size;
    char dir[2048], spec[64], timer_name[32];
    hm_sync_params_t params;
    hm_trace_recorder_t *recorder;
    hm_trace_model_t start;
    double check_init_s, pair_init_s;    /* rank 0: the start model checked at MPI_Init */
    double latency_init_s;               /* rank 0: latency_min at MPI_Init */
    double clock_cost_s;                 /* wall time on the clock at MPI_Init */
    double realtime_local_s, realtime_s; /* the date at MPI_Init: a local time, then the epoch's */
    int polls_each;                      /* no bursts */
    double from_s, to_s;                 /* local times recorded (after the start) */
    uint64_t poll_at; /* events recorded when the last poll was: it is the last event */
    pthread_t main_thread;
    int threads;      /* MPI_THREAD_MULTIPLE was asked for: take the lock */
    atomic_flag busy; /* one thread in the recorder at a time */
} tr = {.busy = ATOMIC_FLAG_INIT};

/* The tracer's own MPI calls pass through untraced; a thread's number (0:
 * the one that initialized MPI, 1 others, -1 not known yet). */
_Thread_local int hm__tracer_inside HM_TRACER_TLS;
_Thread_local int hm__tracer_thread HM_TRACER_TLS = -1;
hm_tracer_hot_t hm__tracer_hot = {.burst_func = -1, .clock_id = -1};

int hm_tracer_is_test(int func)
{
    return func == HM_TRACE_MPI_Test || func == HM_TRACE_MPI_Testall ||
           func == HM_TRACE_MPI_Testany || func == HM_TRACE_MPI_Testsome;
}

double hm__tracer_now_timer(void)
{
    return tr.timer ? hm_timer_now(tr.timer) : 0.0;
}

void hm_tracer_lock(void)
{
    /* Only a program that may call MPI from several threads at once pays
     * for the lock (about 20 ns a call). */
    if (tr.threads)
        while (atomic_flag_test_and_set_explicit(&tr.busy, memory_order_acquire)) continue;
}

void hm_tracer_unlock(void)
{
    if (tr.threads) atomic_flag_clear_explicit(&tr.busy, memory_order_release);
}

int hm_tracer_comm_size(MPI_Comm comm)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS) return 0;
    return size;
}

/* ---- Recording ---- */

uint64_t hm_tracer_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

uint64_t hm_tracer_bytes_v(const int *counts, int n, MPI_Datatype type)
{
    uint64_t total = 0;
    for (int i = 0; counts && i < n; i++) total += counts[i] > 0 ? (uint64_t)counts[i] : 0;
    return total > INT_MAX ? total * hm_tracer_bytes(1, type) : hm_tracer_bytes((int)total, type);
}

void hm_tracer_threads(int required)
{
    tr.threads = required == MPI_THREAD_MULTIPLE;
}

hm_tracer_call_t hm_tracer_call(int func, int kind, uint64_t handle, int peer, uint64_t bytes)
{
    return (hm_tracer_call_t){.func = func,
                              .kind = kind,
                              .handle = handle,
                              .peer = peer,
                              .tag = -1,
                              .recv_peer = HM_TRACER_NO_PEER,
                              .recv_tag = -1,
                              .bytes = bytes};
}

/* c continues the burst of unsuccessful polls that is the last event:
 * the same function, thread, communicator, source and tag. */
static hm_trace_event_t *burst_of(const hm_tracer_call_t *c, uint64_t key, int peer)
{
    if (!c->poll || tr.polls_each || tr.poll_at != hm_trace_recorder_events(tr.recorder))
        return NULL;
    hm_trace_event_t *last = hm_trace_recorder_last(tr.recorder);
    return last && last->func == c->func && last->thread == hm__tracer_thread &&
                   last->comm_key == key && last->peer == peer && last->tag == c->tag &&
                   last->calls < UINT32_MAX
               ? last
               : NULL;
}

/* e, a new event of the unsuccessful poll c, is a burst later polls may
 * join untimed: one thread in MPI at a time, bursts asked for. */
static void open_burst(const hm_tracer_call_t *c, hm_trace_event_t *e)
{
    hm_tracer_hot_t *h = &hm__tracer_hot;
    h->burst = e, h->burst_handle = c->handle, h->burst_peer = c->peer, h->burst_tag = c->tag;
    h->burst_func = c->func, h->burst_thread = hm__tracer_thread;
    h->burst_untimed = 0;
}

/* No burst that polls may join untimed. */
static void close_burst(void)
{
    hm__tracer_hot.burst = NULL, hm__tracer_hot.burst_func = -1;
}

void hm__tracer_burst_full(void)
{
    /* Its exit read now: it ends here (the next poll records anew). */
    hm__tracer_hot.burst->exit_s = hm_tracer_now();
    close_burst();
}

void hm__tracer_poll_timed(void)
{
    double t1 = hm_tracer_now();
    if (t1 > tr.to_s) { /* --during-s ended: later polls take the recorded() path */
        close_burst();
        return;
    }
    hm__tracer_hot.burst->exit_s = t1, hm__tracer_hot.burst_untimed = 0;
}

/* Whether a call of func entered at t0 is recorded (--include, --exclude,
 * --during-s); its object's numbering goes on either way, so that the N-th
 * collective is still the N-th on every member. */
static int recorded(int func, double t0)
{
    return hm__tracer_hot.selected[func] && t0 >= tr.from_s && t0 <= tr.to_s;
}

/* A peer of c as a rank of MPI_COMM_WORLD (-1: none). */
static int world_peer(const hm_tracer_obj_t *o, int peer)
{
    return peer == HM_TRACER_NO_PEER ? -1 : hm_tracer_world_rank(o, peer);
}

/* e filled from c, whose object is o, with seq its number there and peer
 * its world_peer. */
static void fill(hm_trace_event_t *e, const hm_tracer_call_t *c, const hm_tracer_obj_t *o,
                 double t0, double t1, uint32_t seq, int peer)
{
    e->enter_s = t0, e->exit_s = t1;
    e->func = (int16_t)c->func;
    e->comm_key = o ? o->key : 1;
    e->seq = seq;
    e->calls = 1;
    e->peer = peer;
    e->tag = c->tag;
    e->recv_peer = world_peer(o, c->recv_peer);
    e->recv_tag = c->recv_tag;
    e->bytes = c->bytes;
    e->request = c->request;
    e->thread = (int16_t)hm__tracer_thread;
}

static void know_thread(void)
{
    if (hm__tracer_thread < 0) hm__tracer_thread = !pthread_equal(pthread_self(), tr.main_thread);
}

void hm_tracer_record_locked(const hm_tracer_call_t *c, double t0, double t1, int numbered)
{
    know_thread();
    hm_tracer_obj_t *o = hm_tracer_find(c->kind, c->handle);
    if (numbered == HM_TRACER_BY_CLASS)
        numbered = hm_trace_func_class(c->func) == HM_TRACE_CLASS_COLLECTIVE;
    uint32_t seq = o && numbered ? ++o->seq : 0;
    if (!recorded(c->func, t0)) return;
    uint64_t key = o ? o->key : 1;
    int peer = world_peer(o, c->peer);
    hm_trace_event_t *e = burst_of(c, key, peer);
    if (e) {
        e->exit_s = t1, e->calls++, hm__tracer_hot.burst_untimed = 0;
        return;
    }
    close_burst();
    if (!(e = hm_trace_recorder_next(tr.recorder))) return;
    if (c->poll) tr.poll_at = hm_trace_recorder_events(tr.recorder);
    if (c->poll && !tr.polls_each && !tr.threads) open_burst(c, e);
    fill(e, c, o, t0, t1, seq, peer);
}

int hm_tracer_record_folded(const hm_tracer_call_t *call, const hm_tracer_call_t *completed,
                            double t0, double t1)
{
    if (!recorded(call->func, t0) || !recorded(HM_TRACE_MPI_T_completed, t0)) return 0;
    know_thread();
    close_burst();
    hm_trace_event_t *e = hm_trace_recorder_next(tr.recorder);
    if (!e) return 1; /* the recorder stopped: neither would be recorded */
    const hm_tracer_obj_t *o = hm_tracer_find(completed->kind, completed->handle);
    fill(e, completed, o, t0, t1, 0, world_peer(o, completed->peer));
    e->func = (int16_t)call->func;
    return 1;
}

void hm_tracer_record(const hm_tracer_call_t *c, double t0, double t1, int numbered)
{
    hm_tracer_lock();
    hm_tracer_record_locked(c, t0, t1, numbered);
    hm_tracer_unlock();
}

/* ---- Start and stop ---- */

/* A usage error: said once by rank 0, every rank leaves with status 2.
 * sentence names the value (the library's own sentences do). */
static void refuse(const char *var, const char *sentence)
{
    if (tr.rank == 0) fprintf(stderr, "harmonia-trace: error: %s: %s\n", var, sentence);
    PMPI_Finalize();
    exit(2);
}

/* The same for a value the tracer checks itself: what it is not. */
static void refuse_value(const char *var, const char *value, const char *what)
{
    char sentence[512];
    snprintf(sentence, sizeof sentence, "\"%s\" %s", value, what);
    refuse(var, sentence);
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

static long env_long(const char *name, long fallback, long lo, long hi)
{
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || x < lo || x > hi) {
        char what[96];
        snprintf(what, sizeof what, "is not a number from %ld to %ld", lo, hi);
        refuse_value(name, v, what);
    }
    return x;
}

/* Several nodes: the ranks that share memory are not all of them. */
static int spans_nodes(void)
{
    MPI_Comm node;
    int node_size = 0, all = 0;
    PMPI_Comm_split_type(tr.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    PMPI_Comm_size(node, &node_size);
    PMPI_Comm_free(&node);
    PMPI_Allreduce(&node_size, &all, 1, MPI_INT, MPI_MIN, tr.comm);
    return all < tr.size;
}

/* HARMONIA_TRACE_DURING: FROM:TO, 0 <= FROM < TO. */
static void read_during(void)
{
    const char *v = getenv("HARMONIA_TRACE_DURING");
    tr.from_s = 0, tr.to_s = INFINITY;
    if (!v || !*v) return;
    char *end;
    tr.from_s = strtod(v, &end);
    if (*end == ':') tr.to_s = strtod(end + 1, &end);
    if (*end || !(tr.from_s >= 0 && tr.to_s > tr.from_s))
        refuse_value("HARMONIA_TRACE_DURING", v, "is not FROM:TO seconds with 0 <= FROM < TO");
}

static void read_filters(void)
{
    const char *include = getenv("HARMONIA_TRACE_INCLUDE"),
               *exclude = getenv("HARMONIA_TRACE_EXCLUDE");
    if (hm_trace_func_select(include, NULL, hm__tracer_hot.selected) != HM_OK)
        refuse("HARMONIA_TRACE_INCLUDE", hm_last_error());
    if (hm_trace_func_select(include, exclude, hm__tracer_hot.selected) != HM_OK)
        refuse("HARMONIA_TRACE_EXCLUDE", hm_last_error());
    const char *polls = env_or("HARMONIA_TRACE_POLLS", "burst");
    if (strcmp(polls, "burst") != 0 && strcmp(polls, "each") != 0)
        refuse_value("HARMONIA_TRACE_POLLS", polls, "is not burst or each");
    tr.polls_each = !strcmp(polls, "each");
    read_during();
}

/* refine_times: the offsets at each end by default (HM_TRACE_REFINE_BUDGET_S
 * bounds their time). */
#define REFINE_OFFSETS 16

static void read_env(hm_timer_options_t *opts)
{
    snprintf(tr.dir, sizeof tr.dir, "%s", env_or("HARMONIA_TRACE_DIR", "harmonia-trace"));
    snprintf(tr.timer_name, sizeof tr.timer_name, "%s",
             env_or("HARMONIA_TRACE_TIMER", "monotonic"));
    /* refine on one node: with 16 offsets at each end it cost hpcc 1/17 to
     * 1/50 of hca3's clock time, quiet and busy, 2 and 4 ranks on 2 cores,
     * with no more receives before their sends (docs/trace.md). Across
     * nodes hca3+prop, whose levels were measured there and refine's not. */
    const char *spec = env_or("HARMONIA_TRACE_CLOCK_SYNC", spans_nodes() ? "hca3+prop" : "refine");
    if (hm_sync_check_spec(spec) != HM_OK) refuse("HARMONIA_TRACE_CLOCK_SYNC", hm_last_error());
    snprintf(tr.spec, sizeof tr.spec, "%s", spec);
    hm_sync_params_default(&tr.params);
    tr.params.fitpoints =
        (int)env_long("HARMONIA_TRACE_FITPOINTS", tr.params.fitpoints, 2, 1000000);
    tr.params.exchanges =
        (int)env_long("HARMONIA_TRACE_EXCHANGES", tr.params.exchanges, 1, 1000000);
    /* refine's fit points: the offsets at each end, all of them when asked
     * for, else up to REFINE_OFFSETS within HM_TRACE_REFINE_BUDGET_S. */
    tr.offsets_asked = *env_or("HARMONIA_TRACE_FITPOINTS", "") != '\0';
    tr.offsets = tr.offsets_asked ? tr.params.fitpoints : REFINE_OFFSETS;
    read_filters();
    memset(opts, 0, sizeof *opts);
    const char *synthetic = getenv("HARMONIA_TRACE_SYNTHETIC");
    if (synthetic && *synthetic) {
        if (hm_timer_parse_synthetic(synthetic, &opts->spec) != HM_OK)
            refuse("HARMONIA_TRACE_SYNTHETIC", hm_last_error());
        opts->synthetic = 1;
        opts->seed = (uint64_t)env_long("HARMONIA_TRACE_SEED", 1, 0, LONG_MAX);
        opts->domain = opts->rank = tr.rank;
    }
}

/* The failure of a step every rank took: said by the lowest failing rank
 * (why, else the library's last error), and the program goes on untraced:
 * a trace observes a run, it is never the reason the run fails. */
static int agreed(int st, const char *what, const char *why)
{
    int mine = st != HM_OK ? tr.rank : tr.size, first = mine;
    PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, tr.comm);
    if (first < tr.size && tr.rank == first)
        fprintf(stderr, "harmonia-trace: rank %d: %s failed: %s; %s\n", tr.rank, what,
                why && *why ? why : hm_last_error(),
                atomic_load(&hm__tracer_hot.on) ? "the trace ends here"
                                                : "the program runs untraced");
    return first < tr.size ? HM_EIO : HM_OK;
}

/* The checker's figures for clock at this moment, on rank 0 (NaN
 * elsewhere, or if it failed): *max_s the largest |offset| of a rank's
 * clock to rank 0's, *pair_s the largest error between two ranks, the sum
 * of the two largest |offsets| (rank 0's own is 0). */
static void check(hm_clock_t *clock, double *max_s, double *pair_s)
{
    hm_sync_check_t c;
    double *off = calloc((size_t)tr.size, sizeof *off);
    int st = off ? HM_OK : HM_ENOMEM, all = 0;
    PMPI_Allreduce(&(int){st == HM_OK}, &all, 1, MPI_INT, MPI_LAND, tr.comm);
    st = all ? hm_sync_check(tr.comm, clock, tr.params.exchanges, NULL, -1, &c, off, NULL)
             : HM_ENOMEM;
    *max_s = *pair_s = NAN;
    if (st == HM_OK && tr.rank == 0) {
        double first = 0, second = 0; /* rank 0's offset to itself */
        for (int r = 1; r < tr.size; r++) {
            double a = fabs(off[r]);
            if (isnan(a)) continue;
            if (a > first)
                second = first, first = a;
            else if (a > second)
                second = a;
        }
        *max_s = c.offset_max_s;
        *pair_s = first + second;
    }
    free(off);
}

/* Ping-pongs between rank 0 and each other rank in turn (zero-byte
 * messages, as a clock synchronization's): on rank 0 half the least round
 * trip of all, the shortest one-way latency a message between two ranks
 * of this run was seen to have (NaN elsewhere; on one rank none). A round
 * trip is a local interval: MPI_Wtime, not the traced timer, which a
 * synthetic clock's jitter (tests) would make shorter than the messages.
 * At least LATENCY_PINGPONGS_MIN a peer whatever --exchanges says: on a
 * busy machine a round trip is short only when both ranks happen to run
 * at once, and 10 ping-pongs all slowed by a time slice (milliseconds)
 * made a clock error of 20 us look "trusted" (check-under-load, load 3.4
 * on 2 cores). Measured at MPI_Init and at MPI_Finalize; the least of the
 * two counts. */
#define LATENCY_PINGPONGS_MIN 100
static double latency_min(int exchanges)
{
    if (exchanges < LATENCY_PINGPONGS_MIN) exchanges = LATENCY_PINGPONGS_MIN;
    double best = INFINITY;
    for (int peer = 1; peer < tr.size; peer++) {
        if (tr.rank != 0 && tr.rank != peer) continue;
        for (int i = 0; i < exchanges; i++) {
            if (tr.rank == 0) {
                double t0 = PMPI_Wtime();
                PMPI_Send(NULL, 0, MPI_BYTE, peer, 0, tr.comm);
                PMPI_Recv(NULL, 0, MPI_BYTE, peer, 0, tr.comm, MPI_STATUS_IGNORE);
                best = fmin(best, PMPI_Wtime() - t0);
            } else {
                PMPI_Recv(NULL, 0, MPI_BYTE, 0, 0, tr.comm, MPI_STATUS_IGNORE);
                PMPI_Send(NULL, 0, MPI_BYTE, 0, 0, tr.comm);
            }
        }
    }
    return tr.rank == 0 && isfinite(best) ? best / 2 : NAN;
}

static hm_sync_refiner_stats_t refiner_stats(void)
{
    hm_sync_refiner_stats_t st;
    hm_sync_refiner_stats(tr.refiner, &st);
    return st;
}

/* Under refine: up to times more offsets per rank, *clock the last
 * refinement's (the one it held freed). One offset is one ping-pong
 * batch's asymmetry off: 0.3-0.7 us at 4 ranks on 2 cores, above a
 * message's 0.3 us, and hpcc then had up to 631 receives before their
 * sends; the line through 16 of them at each end averages that noise (0 in
 * 5 runs; docs/trace.md). They stop once this end's refinements took
 * HM_TRACE_REFINE_BUDGET_S: a machine so busy that one takes a second (4
 * ranks on 2 cores beside two busy loops: 32 s for 32) gains little from
 * more. The refinements' cost is the same on every rank (max over the
 * ranks), so they all stop at the same one. */
static int refine_times(int times, hm_clock_t **clock)
{
    const double cost0_s = refiner_stats().refine_cost_s;
    for (int i = 0; i < times; i++) {
        if (i > 0 && !tr.offsets_asked &&
            refiner_stats().refine_cost_s - cost0_s > HM_TRACE_REFINE_BUDGET_S)
            break;
        hm_clock_t *fresh = NULL;
        int st = hm_sync_refiner_refine(tr.refiner, &fresh);
        if (st != HM_OK) return st;
        hm_clock_free(*clock);
        *clock = fresh;
    }
    return HM_OK;
}

void hm_tracer_start(void)
{
    hm__tracer_inside = 1;
    tr.main_thread = pthread_self();
    PMPI_Comm_dup(MPI_COMM_WORLD, &tr.comm);
    PMPI_Comm_rank(tr.comm, &tr.rank);
    PMPI_Comm_size(tr.comm, &tr.size);
    hm_timer_options_t opts;
    read_env(&opts);
    long cap = env_long("HARMONIA_TRACE_BUFFER", 65536, 2, 1L << 28);
    int st = hm_timer_create(tr.timer_name, &opts, &tr.timer);
    if (st != HM_OK) refuse("HARMONIA_TRACE_TIMER", hm_last_error());
    st = hm_timer_agree_origin(tr.timer, tr.comm);
    if (st == HM_OK) st = hm_clock_identity(tr.timer, &tr.base);
    if (agreed(st, "the timer", NULL) != HM_OK) return;
    if (hm_timer_posix_clock(tr.timer, &hm__tracer_hot.clock_id, &hm__tracer_hot.clock_origin_s) !=
        HM_OK)
        hm__tracer_hot.clock_id = -1;
    double clock_t0 = PMPI_Wtime();
    st = hm_sync_run_refining(tr.comm, tr.spec, &tr.params, tr.base, &tr.start_clock, NULL,
                              &tr.refiner);
    if (tr.refiner && st == HM_OK) st = refine_times(tr.offsets - 1, &tr.start_clock);
    if (agreed(st, "the clock synchronization at MPI_Init", NULL) != HM_OK) return;
    tr.refinements_init = tr.refiner ? refiner_stats().refinements : 0;
    tr.start = hm_trace_model_of(tr.start_clock, hm_timer_now(tr.timer));
    tr.from_s += tr.start.anchor_s, tr.to_s += tr.start.anchor_s; /* local times */
    struct timespec now;
    tr.realtime_local_s = hm_timer_now(tr.timer);
    clock_gettime(CLOCK_REALTIME, &now);
    tr.realtime_s = (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
    check(tr.start_clock, &tr.check_init_s, &tr.pair_init_s);
    tr.latency_init_s = latency_min(tr.params.exchanges);
    tr.clock_cost_s = PMPI_Wtime() - clock_t0;
    char why[2200] = "";
    if (mkdir(tr.dir, 0755) != 0 && errno != EEXIST)
        snprintf(why, sizeof why, "cannot create %s: %s", tr.dir, strerror(errno)), st = HM_EIO;
    if (st == HM_OK)
        st = hm_trace_recorder_open(tr.dir, tr.rank, (size_t)cap, tr.timer, &tr.recorder);
    if (agreed(st, "opening the trace files", why) != HM_OK) return;
    hm_tracer_objects_world(tr.size);
    hm__tracer_inside = 0;
    atomic_store(&hm__tracer_hot.on, 1);
}

static int write_model(const hm_trace_rank_info_t *info)
{
    size_t n, total = 0;
    const hm_tracer_obj_t *o = hm_tracer_objects(&n);
    for (size_t i = 0; i < n; i++) total += (size_t)o[i].size;
    uint64_t *keys = malloc((n + 1) * sizeof *keys);
    int *sizes = malloc((n + 1) * sizeof *sizes), *ranks = malloc((total + 1) * sizeof *ranks);
    int st = keys && sizes && ranks ? HM_OK : HM_ENOMEM;
    for (size_t i = 0, at = 0; st == HM_OK && i < n; at += (size_t)o[i++].size) {
        keys[i] = o[i].key, sizes[i] = o[i].size;
        for (int k = 0; k < sizes[i]; k++)
            ranks[at + (size_t)k] = o[i].world_ranks ? o[i].world_ranks[k] : k;
    }
    if (st == HM_OK) st = hm_trace_model_write(tr.dir, info, n, keys, sizes, ranks);
    free(keys), free(sizes), free(ranks);
    return st;
}

void hm_tracer_stop(void)
{
    if (!atomic_load(&hm__tracer_hot.on)) return;
    while (atomic_flag_test_and_set_explicit(&tr.busy, memory_order_acquire)) continue;
    atomic_store(&hm__tracer_hot.on, 0);
    close_burst();
    atomic_flag_clear_explicit(&tr.busy, memory_order_release);
    hm__tracer_inside = 1;
    hm_trace_rank_info_t info = {.rank = tr.rank,
                                 .size = tr.size,
                                 .start = tr.start,
                                 .check_start_s = NAN,
                                 .check_end_s = NAN,
                                 .check_init_s = tr.check_init_s,
                                 .pair_error_s = NAN,
                                 .latency_min_s = NAN,
                                 .realtime_local_s = tr.realtime_local_s,
                                 .realtime_s = tr.realtime_s};
    if (gethostname(info.host, sizeof info.host) != 0) info.host[0] = '\0';
    info.host[sizeof info.host - 1] = '\0';
    snprintf(info.clock_sync, sizeof info.clock_sync, "%s", tr.spec);
    snprintf(info.timer, sizeof info.timer, "%s", tr.timer_name);
    double anchor_s = hm_timer_now(tr.timer), clock_t0 = PMPI_Wtime();
    hm_clock_t *end_clock = NULL;
    int st = tr.refiner ? refine_times(tr.offsets, &end_clock)
                        : hm_sync_run(tr.comm, tr.spec, &tr.params, tr.base, &end_clock, NULL);
    if (tr.refiner) {
        info.offsets_init = (int)tr.refinements_init + 1; /* the ready one */
        info.offsets_end = (int)(refiner_stats().refinements - tr.refinements_init);
        info.offsets_asked = tr.offsets;
    }
    if (agreed(st, "the clock synchronization at MPI_Finalize", NULL) == HM_OK) {
        info.end = hm_trace_model_of(end_clock, anchor_s);
        info.has_end = 1;
        if (tr.refiner) info.start = hm_trace_model_of(end_clock, tr.start.anchor_s);
        double unused, pair_end_s;
        check(tr.refiner ? end_clock : tr.start_clock, &info.check_start_s, &unused);
        check(end_clock, &info.check_end_s, &pair_end_s);
        /* The interpolated times: each model where it was checked. */
        info.pair_error_s =
            isnan(tr.pair_init_s) || isnan(pair_end_s) ? NAN : fmax(tr.pair_init_s, pair_end_s);
        double latency_end_s = latency_min(tr.params.exchanges);
        info.latency_min_s = fmin(tr.latency_init_s, latency_end_s); /* NaN: the other */
    }
    info.clock_cost_s = tr.clock_cost_s + (PMPI_Wtime() - clock_t0);
    info.events = hm_trace_recorder_events(tr.recorder);
    info.flushes = hm_trace_recorder_flushes(tr.recorder);
    st = hm_trace_recorder_close(tr.recorder);
    tr.recorder = NULL;
    if (st == HM_OK) st = write_model(&info);
    if (st != HM_OK) fprintf(stderr, "harmonia-trace: rank %d: %s\n", tr.rank, hm_last_error());
    hm_clock_free(end_clock);
    hm_sync_refiner_free(tr.refiner);
    tr.refiner = NULL;
    hm_clock_free(tr.start_clock);
    hm_clock_free(tr.base);
    hm__tracer_hot.clock_id = -1;
    hm_timer_free(tr.timer);
    tr.timer = NULL;
    hm_tracer_objects_free();
    hm_tracer_requests_free();
    PMPI_Comm_free(&tr.comm);
}
