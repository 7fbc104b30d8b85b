/* src/procsync/window.c — --sync window: SKaMPI's window-based process
 * synchronization (Hunold & Carpen-Amarie 2016, §3.3 and appendix B, Alg. 8 Start_Sync /
 * Stop_Sync, Alg. 10).
 *
 * At the first start of a chunk (after begin, or after chunk_done) the root
 * broadcasts [t0, window]; repetition i of the chunk starts at
 * t0 + (i + 1) x window on the global clock (Start_Sync line 26). A repetition is invalid when a
 * rank reaches its start already late (Start_Sync line 28), starts measurably late (the generic
 * check of hm_procsync_stop), or ends more than a window after its start (Stop_Sync line 37,
 * TOOK_TOO_LONG).
 *
 * t0 lies T0_MARGIN x (measured MPI_Bcast latency) + T0_FLOOR_S after the
 * root's clock read, so the broadcast arrives before the first start: one
 * latency for the message and two for the slowest rank and the clock reads
 * around it (the same factor as Round-Time's default B), plus the exit skew
 * of the flag agreement (an MPI_Allreduce) just before, which the latency,
 * timed from each rank's own barrier exit, does not contain. On the 2-core
 * test machine the latency alone (~2.4 us) left 50-60 % of the first starts
 * of a chunk late before waiting; 10 us more, up to 6 %; 20 us more, none of
 * 200 (loaded machine, 2 ranks, Open MPI). 20 us per chunk
 * costs ~1 us per repetition at --check-every 16. SKaMPI's own margin, the
 * first repetition one window after t0, comes on top: with more ranks than
 * cores the broadcast itself can wait for a scheduler slice, and without it
 * the first repetition of every chunk was late (a chunk of one repetition,
 * the last of an experiment, then never succeeded).
 *
 * Fixed window when params.window_s > 0. Adaptive when 0 (Alg. 10): every
 * experiment starts at window 0 (line 10), so the first chunk fails; after a
 * chunk with at least a quarter overrun (see adapt) the window becomes
 * max(2 x window, 1.5 x cost) (lines 24-25), and the root's value travels
 * with the next t0 (line 33). Alg. 10's cost is the chunk's wall time over
 * its repetitions, a mean: one rank late by 5 s in the first chunk made
 * every later window 441 ms, and the run-times measured after such waits
 * 75 times those of a tight window. harmonia's cost is robust: the largest
 * over ranks of the median, over the chunk, of a repetition's own time
 * (from the end of the one before to the call of its start, plus from its
 * start to its end; a late start's wait and a preemption are outliers of
 * it). The window also shrinks back, halving while it is more than 4 x
 * 1.5 x the cost; and grows at most 2 x per chunk, to
 * WINDOW_CAP_S at most: an operation that overruns a 1 s window is
 * preempted or broken (SKaMPI has no cap and never shrinks). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error_set.h"
#include "procsync/procsync_impl.h"

#define T0_MARGIN    3.0
#define T0_FLOOR_S   20e-6
#define WINDOW_CAP_S 1.0

typedef struct window_state {
    double latency_s;     /* MPI_Bcast latency, sizes t0's margin */
    double window_s;      /* of the current chunk (the root's, broadcast) */
    double next_window_s; /* the root's choice for the next chunk */
    double t0_s;          /* start of repetition 0 of the chunk */
    long index;           /* next repetition in the chunk */
    long adaptations;     /* window changes in this experiment */
    int need_t0;          /* the next start opens a chunk */
    int overruns;         /* this rank's repetitions of the chunk that overran */
    int oversubscribed;   /* ranks outnumber the cores of a node: see adapt */
    int last_n;           /* repetitions of the chunk just agreed (0: none) */
    double entry_s;       /* when the current repetition called start */
    double prev_end_s;    /* end of the previous repetition of the chunk; < 0: none */
    double *cost_s;       /* this rank's repetitions' own times in the chunk */
    int ncost, cost_cap;
} window_state_t;

static int adaptive(const hm_procsync_t *ps)
{
    return ps->params.window_s == 0.0;
}

/* The collective measurement first, the local allocation after: a rank
 * whose allocation fails must not skip a collective the others enter (the
 * caller agrees the statuses). */
static int window_create(hm_procsync_t *ps)
{
    double latency_s;
    int rc = hm_procsync_bcast_latency(ps->comm, HM_PROCSYNC_LATENCY_REPS, &latency_s);
    if (rc != HM_OK) return rc;
    int oversubscribed = hm_procsync_oversubscribed(ps->comm);
    window_state_t *w = calloc(1, sizeof *w);
    if (!w) return hm__error_nomem(__func__);
    w->cost_cap = ps->params.check_every;
    w->cost_s = malloc((size_t)w->cost_cap * sizeof *w->cost_s);
    if (!w->cost_s) return free(w), hm__error_nomem(__func__);
    ps->state = w;
    w->latency_s = latency_s;
    w->oversubscribed = oversubscribed;
    w->window_s = w->next_window_s = ps->params.window_s;
    w->need_t0 = 1;
    return HM_OK;
}

static void window_free(hm_procsync_t *ps)
{
    window_state_t *w = ps->state;
    if (w) free(w->cost_s);
    free(w);
}

/* Alg. 10 line 10: the window is sized afresh for every experiment. */
static int window_begin(hm_procsync_t *ps)
{
    window_state_t *w = ps->state;
    if (adaptive(ps)) {
        w->window_s = w->next_window_s = 0.0;
        w->adaptations = 0;
    }
    w->need_t0 = 1;
    w->overruns = w->last_n = w->ncost = 0;
    return HM_OK;
}

/* Root, Alg. 10 lines 24-25: after a chunk where a quarter of the
 * repetitions overran their window (max_overruns: the most of any rank) the
 * window becomes max(2 x window, 1.5 x cost) (cost: the robust one of the
 * header; Alg. 10 has busy / (n + 1)), unless it already holds 4 x 1.5 x
 * cost; a window above that halves, not below 2 x 1.5 x cost, whatever the
 * overruns. SKaMPI counts every invalid repetition; harmonia counts only
 * overruns, the failures a wider window cures: a late start (a preempted
 * rank, ranks outnumbering the cores) recurs at any width, and growing for
 * it stretched a run at 3 ranks on 2 cores to 1 s windows. Overruns of a
 * window four times the median repetition are the noise tail, which no
 * width cures either: on a loaded CI machine a 20 us operation overran a
 * 900 us window in 5 to 8 of 16 repetitions, and growing (or only holding)
 * for them kept the window at 1.8 ms. The window thus stays within
 * [2, 8] x 1.5 x cost once the cost is known. Not with ranks outnumbering
 * the cores of a node: there a rank sharing its core loses a scheduler
 * slice in many repetitions, systematically, and the window must hold it
 * (gather at 4 ranks on 2 cores kept 0 of 300 repetitions in a window of
 * 8 x the median); it grows after a quarter overran, as Alg. 10 has it,
 * and shrinks only after a chunk without overrun. */
static void adapt(window_state_t *w, int max_overruns, double cost_s)
{
    int n = w->last_n;
    double need_s = 1.5 * cost_s;
    if (n < 1) return;
    int overran = 4 * max_overruns >= n;
    if (overran && (w->oversubscribed || w->window_s <= 4.0 * need_s))
        w->next_window_s = fmin(fmax(2.0 * w->window_s, need_s), WINDOW_CAP_S);
    else if (w->window_s > 4.0 * need_s && (!w->oversubscribed || max_overruns == 0))
        w->next_window_s = fmax(w->window_s / 2.0, 2.0 * need_s);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of this rank's repetition costs in the chunk (0: none). */
static double median_cost(window_state_t *w)
{
    if (w->ncost == 0) return 0.0;
    qsort(w->cost_s, (size_t)w->ncost, sizeof *w->cost_s, cmp_double);
    int h = w->ncost / 2;
    return w->ncost % 2 ? w->cost_s[h] : 0.5 * (w->cost_s[h - 1] + w->cost_s[h]);
}

/* Initialize_First_Sync_Window (Alg. 8 lines 19-22), with the window of
 * Alg. 10 line 33 in the same message. */
static int open_chunk(hm_procsync_t *ps, window_state_t *w)
{
    /* Overruns and median cost, the largest of every rank, in one message. */
    double mine[2] = {(double)w->overruns, median_cost(w)}, most[2] = {0, 0};
    if (adaptive(ps) && w->last_n > 0 &&
        MPI_Reduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, 0, ps->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Reduce");
    if (ps->rank == 0 && adaptive(ps)) adapt(w, (int)most[0], most[1]);
    double margin = T0_MARGIN * w->latency_s + T0_FLOOR_S;
    double msg[2] = {hm_clock_now(ps->global) + margin, w->next_window_s};
    if (MPI_Bcast(msg, 2, MPI_DOUBLE, 0, ps->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    w->t0_s = msg[0];
    w->adaptations += msg[1] != w->window_s && w->last_n > 0;
    w->window_s = w->next_window_s = msg[1];
    w->index = 0;
    w->need_t0 = 0;
    w->overruns = w->last_n = w->ncost = 0;
    w->prev_end_s = -1.0;
    return HM_OK;
}

/* Start_Sync (Alg. 8 lines 24-32): late when the clock already passed the
 * start before waiting, by more than late_s (hm__procsync_reached_in_time);
 * a late rank does not wait. */
static int window_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    window_state_t *w = ps->state;
    int rc;
    if (w->need_t0 && (rc = open_chunk(ps, w)) != HM_OK) return rc;
    double start = w->t0_s + (double)(++w->index) * w->window_s;
    *deadline_s = start;
    w->entry_s = hm_clock_now(ps->global);
    *flag = hm__procsync_reached_in_time(ps, w->entry_s, start);
    if (w->entry_s <= start) hm_procsync_wait_until(ps->global, start, ps->spin_s, ps->yield);
    return HM_OK;
}

/* Stop_Sync (Alg. 8 lines 34-39): the repetition overran its window. */
static void window_stop(hm_procsync_t *ps, double start_s, double end_s, int *flag)
{
    window_state_t *w = ps->state;
    if (end_s - ps->deadline_s > w->window_s) {
        *flag = 0;
        w->overruns++;
    }
    double between_s = w->prev_end_s >= 0 ? fmax(w->entry_s - w->prev_end_s, 0.0) : 0.0;
    /* A start reached in time wakes up some time after its deadline, and
     * that wake-up is part of what the window must hold: without it a
     * shrunk window overran again and the window oscillated (112 <-> 450
     * us for a 20 us operation). A late start's lateness is the rank's,
     * not the window's, and stays out. */
    double wake_s = w->entry_s <= ps->deadline_s ? fmax(start_s - ps->deadline_s, 0.0) : 0.0;
    if (w->ncost < w->cost_cap) w->cost_s[w->ncost++] = between_s + wake_s + (end_s - start_s);
    w->prev_end_s = end_s;
}

/* The adaptation waits for the next chunk's first start, where the root
 * learns the overruns (open_chunk). */
static void window_chunk_done(hm_procsync_t *ps, int n, int nvalid, double busy_s)
{
    window_state_t *w = ps->state;
    (void)nvalid, (void)busy_s;
    w->need_t0 = 1;
    w->last_n = n;
}

/* Fixed: the window; adaptive: the one chosen for the next chunk. */
static double window_now(const hm_procsync_t *ps)
{
    const window_state_t *w = ps->state;
    return adaptive(ps) ? w->next_window_s : w->window_s;
}

static void window_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    const window_state_t *w = ps->state;
    if (!adaptive(ps)) {
        snprintf(buf, len, "window=%.1fus fixed", window_now(ps) * 1e6);
        return;
    }
    /* No commas: the text goes into CSV cells that awk -F, should read. */
    snprintf(buf, len, "window=%.1fus adaptive (%ld adaptation%s%s)", window_now(ps) * 1e6,
             w->adaptations, w->adaptations == 1 ? "" : "s",
             w->next_window_s >= WINDOW_CAP_S ? "; capped at 1 s" : "");
}

const hm__procsync_method_t hm__procsync_window_method = {
    .name = "window",
    .has_deadline = 1,
    .reads = HM_PROCSYNC_PARAM_WINDOW | HM_PROCSYNC_PARAM_CHECK_EVERY,
    .create = window_create,
    .release = window_free,
    .begin = window_begin,
    .start = window_start,
    .stop = window_stop,
    .chunk_done = window_chunk_done,
    .window = window_now,
    .describe = window_describe,
};
