/* src/measure/engine.c — one experiment: warm-up, repetitions under a
 * process synchronization, agreement on validity every chunk (Schuchart et al. 2023
 * Listing 1), reduction of the timestamps to the root (Hunold & Carpen-Amarie 2016, Alg. 1,
 * lines 16-20). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/idle.h"
#include "measure/measure_impl.h"

/* Values per repetition and rank reduced to the root. */
enum { TIMES = 7 };

/* Per-rank buffers of one chunk, allocated before the loop. */
typedef struct chunk_buf {
    int n;                /* repetitions in the current chunk */
    int *flags;           /* [chunk + FLAGS_AFTER]: validity, then in-time and no-error */
    double *times;        /* [TIMES * chunk]: -start, end, duration, start, device time,
                           * call time, late-start tolerance (reduced with MAX) */
    double *reduced;      /* [TIMES * chunk], every rank (MPI_Allreduce) */
    double *runs;         /* [chunk]: the chunk's run-times, for their median */
    unsigned char *cache; /* cold-cache buffer or NULL */
    size_t cache_bytes;
} chunk_buf_t;

/* What one experiment run carries from repetition to repetition. */
typedef struct engine {
    MPI_Comm comm;
    int rank;
    hm_procsync_t *ps;
    const hm_measure_target_t *target;
    const hm_measure_params_t *params;
    hm_timer_t *timer;
    chunk_buf_t buf;
    long attempt;       /* measured attempts so far (-1 during warm-up) */
    long wrong_results; /* this rank's failed validations */
    long capacity;      /* root arrays */
    int root_oom;       /* the root could not grow its arrays for this chunk */
    double started_s;   /* MPI_Wtime at the first measured attempt */
} engine_t;

/* The flags after a chunk's validity flags, agreed with them (MIN): every
 * rank in its time slice, the worst status of any rank, no rank with a
 * refinement of the clock due (so the refinement costs no message of its
 * own to agree on). */
enum { FLAG_IN_TIME, FLAG_STATUS, FLAG_NO_REFINE, FLAGS_AFTER };
enum { CHUNK_MPI_ERROR = 0, CHUNK_NO_MEMORY = 1, CHUNK_OK = 2 };

static void chunk_free(chunk_buf_t *b)
{
    free(b->flags);
    free(b->times);
    free(b->reduced);
    free(b->runs);
    free(b->cache);
    memset(b, 0, sizeof *b);
}

static int chunk_alloc(chunk_buf_t *b, int chunk, size_t cache_bytes)
{
    memset(b, 0, sizeof *b);
    b->flags = malloc((size_t)(chunk + FLAGS_AFTER) * sizeof *b->flags);
    b->times = malloc((size_t)(TIMES * chunk) * sizeof *b->times);
    b->reduced = malloc((size_t)(TIMES * chunk) * sizeof *b->reduced);
    b->runs = malloc((size_t)chunk * sizeof *b->runs);
    b->cache_bytes = cache_bytes;
    b->cache = cache_bytes ? malloc(cache_bytes) : NULL;
    return b->flags && b->times && b->reduced && b->runs && (!cache_bytes || b->cache);
}

/* Root arrays grow by doubling at chunk ends, never inside a chunk; the
 * device and call times only for a target that has them. */
static int result_reserve(hm_measure_result_t *r, long *capacity, long need,
                          const hm_measure_target_t *t)
{
    if (need <= *capacity) return 1;
    long cap = *capacity ? *capacity : 64;
    while (cap < need) cap *= 2;
    double **arrays[] = {&r->global_s,
                         &r->local_s,
                         &r->start_spread_s,
                         &r->start_s,
                         &r->late_tolerance_s,
                         t->device_time ? &r->device_s : NULL,
                         t->call_time ? &r->call_s : NULL};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
        if (!arrays[i]) continue;
        double *p = realloc(*arrays[i], (size_t)cap * sizeof **arrays[i]);
        if (!p) return 0;
        *arrays[i] = p;
    }
    unsigned char *v = realloc(r->valid, (size_t)cap);
    if (!v) return 0;
    r->valid = v;
    *capacity = cap;
    return 1;
}

/* A barrier that sleeps while it waits, leaving the core to the ranks
 * still running. */
static int idle_barrier(MPI_Comm comm)
{
    return hm__mpi_status(hm__idle_barrier(comm), __func__, "MPI_Barrier");
}

/* One repetition: synchronize, timestamp, run, timestamp — nothing else
 * between the two timestamps — then convert, check lateness, validate. */
static int repetition(engine_t *e, int k)
{
    const hm_measure_target_t *t = e->target;
    const hm_measure_params_t *p = e->params;
    int flag = 1, ok = 1;
    double deadline_s;
    /* Decided before the synchronization: after a cold-cache flush every
     * line read between the wait's exit and the start timestamp is a miss,
     * and a few of them make a start look late. */
    hm_timer_t *timer = e->timer;
    const hm_measure_injection_t *in = &p->inject;
    int inject =
        in->delay_s > 0 && in->rank == e->rank && e->attempt >= 0 && e->attempt + k == in->attempt;
    if (e->buf.cache) hm__measure_flush_cache(e->buf.cache, e->buf.cache_bytes, e->attempt + k);
    int rc = hm_procsync_start(e->ps, &flag, &deadline_s);
    if (inject) hm__idle_sleep(in->delay_s);
    double t0 = hm_timer_now(timer);
    int run_rc = t->run(t->ctx);
    double t1 = hm_timer_now(timer);
    hm_clock_t *clock = hm_procsync_clock(e->ps);
    double start_s = hm_clock_from_local(clock, t0), end_s = hm_clock_from_local(clock, t1);
    /* A rank that takes no part (pingpong's bystanders, a pattern step's
     * ranks without a message) runs nothing: its own run-time is about 0,
     * its tolerance capped at half of it is 1 us, and on a shared machine
     * its start was nearly always late (striping's split at 4 ranks on 2
     * cores kept 0 of 432 repetitions). Its start delays nothing that is
     * timed, so it is not judged. */
    int own = flag;
    hm_procsync_stop(e->ps, start_s, end_s, &own);
    double tolerance_s = hm_procsync_stop_tolerance(e->ps, start_s, end_s);
    flag = t->participates ? own : 1;
    if (p->validate && t->validate && run_rc == HM_OK) {
        /* Every rank out of its timed region first: a rank that validates
         * (a pattern's check and fill hash every byte, 150 us at 64 KiB)
         * holds the core that a rank sharing it still needs for its run,
         * and makes that one's start late. At 4 ranks on 2 cores a 64 KiB
         * self copy took 0.5-0.7 ms with validation beside 25-60 us without,
         * and harmonize kept 0-7 of 100 starts. */
        if (rc == HM_OK) rc = idle_barrier(e->comm);
        if (t->validate(t->ctx, &ok) != HM_OK) ok = 0;
        e->wrong_results += !ok;
    }
    double *times = e->buf.times + TIMES * k;
    times[0] = t->participates ? -start_s : -INFINITY;
    times[1] = t->participates ? end_s : -INFINITY;
    times[2] = t->participates ? t1 - t0 : 0.0;
    times[3] = t->participates ? start_s : -INFINITY;
    times[4] = times[5] = -INFINITY;
    times[6] = t->participates && isfinite(tolerance_s) ? tolerance_s : -INFINITY;
    if (t->device_time && t->participates && run_rc == HM_OK &&
        t->device_time(t->ctx, &times[4]) != HM_OK)
        times[4] = -INFINITY;
    if (t->call_time && t->participates && run_rc == HM_OK &&
        t->call_time(t->ctx, &times[5]) != HM_OK)
        times[5] = -INFINITY;
    e->buf.flags[k] = flag;
    return rc != HM_OK ? rc : run_rc;
}

/* The agreed failure of a chunk (status: the MIN of the ranks' chunk
 * statuses; rc: this rank's repetitions'): a rank that failed keeps its
 * own sentence, the others say that another rank failed. */
static int chunk_failed(const engine_t *e, int status, int rc)
{
    if (status == CHUNK_NO_MEMORY)
        return e->root_oom ? hm__error_nomem("hm_measure_run")
                           : hm__error_set(HM_ENOMEM, "hm_measure_run: out of memory on rank 0");
    if (rc != HM_OK) return HM_EMPI; /* sentence: set by the repetition that failed */
    return hm__error_set(HM_EMPI, "hm_measure_run: a repetition failed on another rank");
}

/* Every rank, from the agreed times: the median run-time (max end - min
 * start) of the chunk's valid repetitions, or of all when none is valid;
 * 0 when none was timed. The late-start cap's floor for the next chunk. */
static double median_run_s(chunk_buf_t *b, int n, int nvalid)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        const double *x = b->reduced + TIMES * k;
        double run_s = x[1] + x[0]; /* max end - min start: x[0] holds -start */
        if ((b->flags[k] || !nvalid) && isfinite(run_s) && run_s > 0) b->runs[m++] = run_s;
    }
    return m ? hm_stats_quantile_select(b->runs, (size_t)m, 0.5) : 0.0;
}

/* Run n repetitions and agree: flags (MIN = AND over 0/1), the in-time
 * and no-error flags in the same MPI_Allreduce; timestamps to the root.
 * Returns the number of valid repetitions, or a negative status. */
static int chunk_run(engine_t *e, int n, int *in_time)
{
    int rc = HM_OK, *after = e->buf.flags + n;
    double t0 = MPI_Wtime();
    if (e->attempt == 0) e->started_s = t0;
    for (int k = 0; k < n; k++) {
        int r = repetition(e, k);
        if (r != HM_OK && rc == HM_OK) rc = r;
    }
    double busy_s = MPI_Wtime() - t0;
    after[FLAG_IN_TIME] = hm_procsync_in_time(e->ps);
    after[FLAG_STATUS] = rc != HM_OK ? CHUNK_MPI_ERROR : e->root_oom ? CHUNK_NO_MEMORY : CHUNK_OK;
    after[FLAG_NO_REFINE] = !hm_procsync_refine_due(e->ps);
    if (MPI_Allreduce(MPI_IN_PLACE, e->buf.flags, n + FLAGS_AFTER, MPI_INT, MPI_MIN, e->comm) !=
        MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (MPI_Allreduce(e->buf.times, e->buf.reduced, TIMES * n, MPI_DOUBLE, MPI_MAX, e->comm) !=
        MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (after[FLAG_STATUS] != CHUNK_OK) return chunk_failed(e, after[FLAG_STATUS], rc);
    int nvalid = 0;
    for (int k = 0; k < n; k++) nvalid += e->buf.flags[k];
    hm_procsync_set_run_floor(e->ps, median_run_s(&e->buf, n, nvalid));
    hm_procsync_chunk_done(e->ps, n, nvalid, busy_s);
    if (!after[FLAG_NO_REFINE] && (rc = hm_procsync_refine(e->ps)) != HM_OK) return rc;
    *in_time = after[FLAG_IN_TIME];
    e->buf.n = n;
    return nvalid;
}

/* Root: append the chunk's repetitions to the result. */
static void chunk_store(engine_t *e, hm_measure_result_t *r)
{
    double scale = e->target->halve ? 0.5 : 1.0;
    for (int k = 0; k < e->buf.n; k++, r->n++) {
        const double *x = e->buf.reduced + TIMES * k;
        double min_start = -x[0], max_end = x[1];
        r->global_s[r->n] = (max_end - min_start) * scale;
        r->local_s[r->n] = x[2] * scale;
        r->start_spread_s[r->n] = x[3] - min_start;
        r->start_s[r->n] = min_start;
        r->late_tolerance_s[r->n] = isfinite(x[6]) ? x[6] : NAN;
        if (r->device_s) r->device_s[r->n] = isfinite(x[4]) ? x[4] * scale : NAN;
        if (r->call_s) r->call_s[r->n] = isfinite(x[5]) ? x[5] : NAN;
        r->valid[r->n] = (unsigned char)e->buf.flags[k];
    }
}

/* Warm-up: whole chunks through the same synchronization and agreement,
 * so that the method settles too (harmonize's slack, window's size), with
 * their data dropped. */
static int warm_up(engine_t *e)
{
    int chunk = hm_procsync_chunk(e->ps), in_time;
    e->attempt = -1;
    for (long done = 0; done < e->params->warmup;) {
        int n = (int)(e->params->warmup - done < chunk ? e->params->warmup - done : chunk);
        int rc = chunk_run(e, n, &in_time);
        if (rc < 0) return rc;
        done += n;
    }
    return HM_OK;
}

/* Root, after a chunk: the callers' progress and status. */
static void report(const engine_t *e, const hm_measure_result_t *r)
{
    const hm_measure_params_t *p = e->params;
    if (e->rank != 0) return;
    if (p->progress.fn) p->progress.fn(p->progress.arg, (double)r->nvalid, (double)p->nrep);
    if (p->status) {
        hm_measure_status_t st = {.nrep = p->nrep,
                                  .valid = r->nvalid,
                                  .attempts = r->attempts,
                                  .most_attempts = r->most_attempts,
                                  .elapsed_s = MPI_Wtime() - e->started_s};
        p->status(p->status_arg, &st);
    }
}

static hm_measure_end_t end_of(const hm_measure_result_t *r, long nrep, int in_time, int budget)
{
    if (r->nvalid >= nrep) return HM_MEASURE_END_NREP;
    if (!in_time) return HM_MEASURE_END_SLICE;
    return budget ? HM_MEASURE_END_BUDGET : HM_MEASURE_END_ATTEMPTS;
}

/* The attempts allowed: max_attempts (default 10 x nrep + 100), or the
 * budget, budget_factor x nrep + HM_MEASURE_BUDGET_EXTRA, when that is
 * fewer (*budget = 1). */
static long most_attempts(const hm_measure_params_t *p, int *budget)
{
    long most = p->max_attempts > 0 ? p->max_attempts : 10 * p->nrep + 100;
    double b = p->budget_factor * (double)p->nrep + HM_MEASURE_BUDGET_EXTRA;
    *budget = p->budget_factor > 0 && b < (double)most;
    return *budget ? (long)b : most;
}

static int measure(engine_t *e, hm_measure_result_t *r)
{
    const hm_measure_params_t *p = e->params;
    int chunk = hm_procsync_chunk(e->ps), in_time = 1, budget;
    long max_attempts = r->most_attempts = most_attempts(p, &budget);
    e->attempt = 0;
    while (r->nvalid < p->nrep && e->attempt < max_attempts && in_time) {
        long want = p->nrep - r->nvalid, left = max_attempts - e->attempt;
        int n = (int)(want < chunk ? want : chunk);
        if (left < n) n = (int)left;
        e->root_oom = e->rank == 0 && !result_reserve(r, &e->capacity, r->n + n, e->target);
        int nvalid = chunk_run(e, n, &in_time);
        if (nvalid < 0) return nvalid;
        if (e->rank == 0) chunk_store(e, r);
        r->nvalid += nvalid;
        r->attempts += n;
        e->attempt += n;
        report(e, r);
    }
    r->ninvalid = r->attempts - r->nvalid;
    r->end = end_of(r, p->nrep, in_time, budget);
    r->elapsed_s = r->attempts ? MPI_Wtime() - e->started_s : 0.0;
    /* Out of time (roundtime's slice) is the normal end of a time-based
     * experiment; running out of attempts or of the budget is not. */
    if (r->end != HM_MEASURE_END_ATTEMPTS && r->end != HM_MEASURE_END_BUDGET) return HM_OK;
    return hm__error_set(HM_EAGAIN,
                         "hm_measure_run: %ld of %ld repetitions valid after %ld attempts (the "
                         "%s ran out)",
                         r->nvalid, p->nrep, r->attempts, budget ? "budget" : "attempts");
}

static int check_params(const hm_measure_params_t *p, const hm_measure_target_t *t)
{
    if (!t->run) return hm__error_set(HM_EINVAL, "hm_measure_run: target->run is NULL");
    if (p->nrep < 1 || p->warmup < 0 || p->max_attempts < 0)
        return hm__error_set(HM_EINVAL,
                             "hm_measure_run: nrep %ld, warmup %ld, max_attempts %ld (accepted: "
                             "nrep 1 or more, the others 0 or more)",
                             p->nrep, p->warmup, p->max_attempts);
    if (!(p->inject.delay_s >= 0) || !isfinite(p->inject.delay_s))
        return hm__error_set(HM_EINVAL, "hm_measure_run: inject.delay_s %g (accepted: 0 or more)",
                             p->inject.delay_s);
    if (!(p->budget_factor >= 0) || !isfinite(p->budget_factor))
        return hm__error_set(HM_EINVAL, "hm_measure_run: budget_factor %g (accepted: 0 or more)",
                             p->budget_factor);
    if (p->max_attempts > 0 && p->max_attempts < p->nrep)
        return hm__error_set(HM_EINVAL,
                             "hm_measure_run: max_attempts %ld is below nrep %ld (accepted: 0 "
                             "or nrep and more)",
                             p->max_attempts, p->nrep);
    return HM_OK;
}

/* The first NULL pointer argument of hm_measure_run, or NULL. */
static const char *null_argument(hm_procsync_t *ps, const hm_measure_target_t *target,
                                 const hm_measure_params_t *params, hm_measure_result_t *result)
{
    return !ps ? "ps" : !target ? "target" : !params ? "params" : !result ? "result" : NULL;
}

int hm_measure_run(MPI_Comm comm, hm_procsync_t *ps, const hm_measure_target_t *target,
                   const hm_measure_params_t *params, hm_measure_result_t *result)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = null_argument(ps, target, params, result);
    if (null) return hm__error_null(__func__, null);
    engine_t e = {.comm = comm, .ps = ps, .target = target, .params = params};
    memset(result, 0, sizeof *result);
    if ((bad = check_params(params, target)) != HM_OK) return bad;
    MPI_Comm_rank(comm, &e.rank);
    e.timer = hm_clock_timer(hm_procsync_clock(ps));
    long capped_before = 0; /* the cap's count before the measured attempts */
    int ok = chunk_alloc(&e.buf, hm_procsync_chunk(ps), params->cold_cache_bytes);
    ok = ok && (e.rank != 0 || result_reserve(result, &e.capacity, params->nrep, target));
    int rc = hm__measure_agree(comm, ok ? HM_OK : hm__error_nomem(__func__), HM_ENOMEM, __func__);
    hm_procsync_set_run_floor(ps, 0); /* another experiment's run-time is not this one's */
    if (rc == HM_OK) rc = hm_procsync_begin(ps);
    if (rc == HM_OK) rc = warm_up(&e);
    capped_before = hm_procsync_late_capped(ps);
    if (rc == HM_OK) rc = hm_procsync_begin(ps);
    if (rc == HM_OK) rc = measure(&e, result);
    if (rc != HM_EMPI) {
        long mine[2] = {e.wrong_results, hm_procsync_late_capped(ps) - capped_before}, all[2];
        MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_SUM, comm);
        result->wrong_results = all[0];
        result->late_capped = all[1];
    }
    if (e.rank == 0) hm_procsync_describe(ps, result->procsync, sizeof result->procsync);
    result->window_s = e.rank == 0 ? hm_procsync_window(ps) : NAN;
    chunk_free(&e.buf);
    hm_procsync_set_run_floor(ps, 0);
    if (rc != HM_OK && rc != HM_EAGAIN) hm_measure_result_free(result);
    return rc;
}
