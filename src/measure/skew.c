/* src/measure/skew.c — exit skew of a synchronization method: every
 * repetition starts at a common time on the global clock (Round-Time, paper
 * Hunold & Carpen-Amarie 2018, Alg. 5), the method runs, and each rank's exit is timestamped (paper
 * Hunold & Carpen-Amarie 2016, §4.6 Fig. 10; Schuchart et al. 2023, Fig. 3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "measure/measure_impl.h"

/* The common start lies 3 broadcast latencies ahead: one for the broadcast
 * itself, two for the ranks' reaction (as roundtime's default B). */
enum { START_LATENCIES = 3, LATENCY_REPS = 20 };
static const double SPIN_S = 50e-6;

typedef struct skew_local {
    double *exit_s, *true_exit_s; /* [nrep] this rank */
    int *flags;                   /* [2 * nrep]: method flag, reached the start in time */
    double *cost_s;               /* [nrep] exit - common start */
} skew_local_t;

/* True time is known when every rank reads one real clock (equal domains)
 * or a synthetic clock over the shared real one (check.c reasons alike). */
static int truth_known(MPI_Comm comm, hm_timer_t *timer)
{
    double drift, offset;
    int synthetic = hm_timer_synthetic_draw(timer, &offset, &drift) == HM_OK, both[2], all[2];
    uint64_t dom = hm_timer_domain(timer), lo, hi;
    MPI_Allreduce(&dom, &lo, 1, MPI_UINT64_T, MPI_MIN, comm);
    MPI_Allreduce(&dom, &hi, 1, MPI_UINT64_T, MPI_MAX, comm);
    both[0] = synthetic, both[1] = !synthetic;
    MPI_Allreduce(both, all, 2, MPI_INT, MPI_LAND, comm);
    return all[0] || (all[1] && lo == hi);
}

static void local_free(skew_local_t *l)
{
    free(l->exit_s);
    free(l->true_exit_s);
    free(l->flags);
    free(l->cost_s);
}

static int local_alloc(skew_local_t *l, long nrep)
{
    l->exit_s = malloc((size_t)nrep * sizeof *l->exit_s);
    l->true_exit_s = malloc((size_t)nrep * sizeof *l->true_exit_s);
    l->flags = malloc((size_t)(2 * nrep) * sizeof *l->flags);
    l->cost_s = malloc((size_t)nrep * sizeof *l->cost_s);
    return l->exit_s && l->true_exit_s && l->flags && l->cost_s;
}

/* The lead of the common start over the root's clock read. It starts at
 * START_LATENCIES broadcast latencies and doubles after a repetition that a
 * rank reached late (ranks that outnumber the cores wait for scheduler
 * slices, not for the message); after LEAD_RUN repetitions in time it
 * shrinks by 10%, never below its start. Capped at LEAD_MAX_S: every
 * repetition waits the lead, and under other processes' load late starts
 * (preemptions of a slice, which no lead cures) had doubled it to the old
 * cap of 1 s, 1000 s for 1000 repetitions; a start reached late is counted
 * and left out, not waited for. 0.1 s covers MPICH's busy polling at 4 ranks
 * on 2 cores (leads of ms). */
enum { LEAD_RUN = 16 };
#define LEAD_MAX_S 0.1

typedef struct lead {
    double floor_s, now_s;
    int run;
} lead_t;

static void lead_update(lead_t *l, int all_in_time)
{
    if (!all_in_time) {
        l->now_s = fmin(2.0 * l->now_s, LEAD_MAX_S);
        l->run = 0;
    } else if (++l->run % LEAD_RUN == 0) {
        l->now_s = fmax(l->floor_s, 0.9 * l->now_s);
    }
}

/* The common start of a repetition, broadcast by the root; *in_time = 0 when
 * this rank reads its clock past it already. */
static int common_start(MPI_Comm comm, int rank, hm_clock_t *global, const lead_t *lead,
                        double *start_s, int *in_time, int yield)
{
    if (rank == 0) *start_s = hm_clock_now(global) + lead->now_s;
    if (MPI_Bcast(start_s, 1, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *in_time = hm_clock_now(global) < *start_s;
    hm_procsync_wait_until(global, *start_s, SPIN_S, yield);
    return HM_OK;
}

/* After the exit timestamp (outside what is measured): agree whether every
 * rank reached the start in time, to size the next lead, and whether any
 * rank has a refinement of the clock due (hm_procsync_refine_due), in one
 * MPI_Allreduce: the refinement, when due, comes between repetitions
 * without a message of its own. */
static int agree_in_time(MPI_Comm comm, hm_procsync_t *ps, int *in_time)
{
    int flags[2] = {*in_time, !hm_procsync_refine_due(ps)};
    int rc = hm__mpi_status(MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MIN, comm), __func__,
                            "MPI_Allreduce");
    *in_time = flags[0];
    return rc == HM_OK && !flags[1] ? hm_procsync_refine(ps) : rc;
}

static int run_reps(MPI_Comm comm, hm_procsync_t *ps, hm_clock_t *global, long nrep,
                    int back_to_back, double latency_s, skew_local_t *l, double *wall_s)
{
    int rank, rc = HM_OK;
    lead_t lead = {START_LATENCIES * latency_s, START_LATENCIES * latency_s, 0};
    int yield = hm_procsync_oversubscribed(comm), chunk = hm_procsync_chunk(ps);
    hm_timer_t *timer = hm_clock_timer(global);
    MPI_Comm_rank(comm, &rank);
    double t0 = MPI_Wtime();
    for (long i = 0; i < nrep && rc == HM_OK; i++) {
        double start_s = NAN, deadline_s;
        int in_time = 1;
        /* The method's clock: refined between repetitions (or harmonize's). */
        if (!back_to_back)
            rc = common_start(comm, rank, hm_procsync_clock(ps), &lead, &start_s, &in_time, yield);
        if (rc == HM_OK) rc = hm_procsync_start(ps, &l->flags[2 * i], &deadline_s);
        /* The timer first, then its reading on the method's clock
         * (harmonize re-synchronizes its own), which the late-start check of
         * bench compares with the deadline: the exit is the start timestamp a
         * benchmark would take here. Looking the clock up (an MPI attribute)
         * before the reading would lengthen the path from the wait to it. */
        double local_s = hm_timer_now_truth(timer, &l->true_exit_s[i]);
        l->exit_s[i] = hm_clock_from_local(hm_procsync_clock(ps), local_s);
        hm_procsync_stop(ps, l->exit_s[i], l->exit_s[i], &l->flags[2 * i]);
        l->cost_s[i] = l->exit_s[i] - start_s;
        if (rc == HM_OK && !back_to_back && (rc = agree_in_time(comm, ps, &in_time)) == HM_OK)
            lead_update(&lead, in_time);
        l->flags[2 * i + 1] = in_time;
        /* Chunks as the engine's: the window method opens a new schedule
         * (and adapts its window) at the first start after one. Without
         * it, the common starts pushed every later window start into the
         * past: all 3000 repetitions of window missed. The flags are
         * agreed at the end, so the chunk counts as all valid. */
        if ((i + 1) % chunk == 0) hm_procsync_chunk_done(ps, chunk, chunk, 0.0);
    }
    *wall_s = (MPI_Wtime() - t0) / (double)nrep;
    return rc;
}

/* Root: skew of every kept repetition; every rank: its mean offset from the
 * first exit. first/last are the MIN/MAX over ranks of the exits. */
static void offsets(const double *exit_s, const double *first, const int *keep, long nrep,
                    double *mean_s)
{
    double sum = 0.0;
    long n = 0;
    for (long i = 0; i < nrep; i++)
        if (keep[i]) sum += exit_s[i] - first[i], n++;
    *mean_s = n ? sum / (double)n : NAN;
}

/* Reduce the exits of one clock (global or true) into skews on the root
 * and per-rank mean offsets gathered on the root. */
static int summarize(MPI_Comm comm, const double *exit_s, const int *keep, long nrep,
                     double *skew_s, double *mean_offset_s)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    double *first = malloc((size_t)nrep * sizeof *first), *last = NULL, mean;
    if (rank == 0) last = malloc((size_t)nrep * sizeof *last);
    int ok = first && (rank != 0 || last);
    int rc = hm__measure_agree(comm, ok ? HM_OK : hm__error_nomem(__func__), HM_ENOMEM,
                               "hm_measure_skew");
    if (rc != HM_OK) {
        free(first), free(last);
        return rc;
    }
    MPI_Allreduce(exit_s, first, (int)nrep, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Reduce(exit_s, last, (int)nrep, MPI_DOUBLE, MPI_MAX, 0, comm);
    offsets(exit_s, first, keep, nrep, &mean);
    MPI_Gather(&mean, 1, MPI_DOUBLE, mean_offset_s, 1, MPI_DOUBLE, 0, comm);
    for (long i = 0, n = 0; rank == 0 && i < nrep; i++)
        if (keep[i]) skew_s[n++] = last[i] - first[i];
    free(first), free(last);
    return HM_OK;
}

static int alloc_root(hm_skew_result_t *r, long nrep, int size, int truth)
{
    r->skew_s = malloc((size_t)nrep * sizeof *r->skew_s);
    r->mean_offset_s = malloc((size_t)size * sizeof *r->mean_offset_s);
    r->valid = malloc((size_t)nrep * sizeof *r->valid);
    if (truth) {
        r->true_skew_s = malloc((size_t)nrep * sizeof *r->true_skew_s);
        r->true_mean_offset_s = malloc((size_t)size * sizeof *r->true_mean_offset_s);
    }
    return r->skew_s && r->mean_offset_s && r->valid &&
           (!truth || (r->true_skew_s && r->true_mean_offset_s));
}

/* Agreed flags: a repetition is kept when every rank reached the common
 * start in time; missed (not valid) when some rank's method flag was 0 or
 * its exit failed the late-start check. */
static int agree_flags(MPI_Comm comm, skew_local_t *l, long nrep, int *keep, hm_skew_result_t *r)
{
    if (MPI_Allreduce(MPI_IN_PLACE, l->flags, (int)(2 * nrep), MPI_INT, MPI_MIN, comm) !=
        MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    for (long i = 0; i < nrep; i++) {
        keep[i] = l->flags[2 * i + 1];
        r->late_starts += !keep[i];
        r->missed += keep[i] && !l->flags[2 * i];
        if (keep[i] && r->valid) r->valid[r->n] = (unsigned char)(l->flags[2 * i] != 0);
        r->n += keep[i];
    }
    return HM_OK;
}

static void cost(MPI_Comm comm, const skew_local_t *l, const int *keep, long nrep, int back_to_back,
                 double wall_s, double *cost_s)
{
    double sum = 0.0, mine;
    long n = 0;
    for (long i = 0; i < nrep; i++)
        if (keep[i]) sum += l->cost_s[i], n++;
    mine = back_to_back ? wall_s : n ? sum / (double)n : NAN;
    MPI_Allreduce(&mine, cost_s, 1, MPI_DOUBLE, MPI_MAX, comm);
}

int hm_measure_skew(MPI_Comm comm, hm_procsync_t *ps, hm_clock_t *global, long nrep,
                    int back_to_back, hm_skew_result_t *result)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!ps) return hm__error_null(__func__, "ps");
    if (!global) return hm__error_null(__func__, "global");
    if (!result) return hm__error_null(__func__, "result");
    int rank, size, rc;
    skew_local_t l = {0};
    double latency_s = 0.0, wall_s = 0.0;
    memset(result, 0, sizeof *result);
    if (nrep < 1)
        return hm__error_set(HM_EINVAL, "%s: nrep %ld (accepted: 1 or more)", __func__, nrep);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    result->truth_known = truth_known(comm, hm_clock_timer(global));
    int *keep = malloc((size_t)nrep * sizeof *keep);
    int ok = local_alloc(&l, nrep) && keep &&
             (rank != 0 || alloc_root(result, nrep, size, result->truth_known));
    rc = hm__measure_agree(comm, ok ? HM_OK : hm__error_nomem(__func__), HM_ENOMEM, __func__);
    if (rc == HM_OK) rc = hm_procsync_bcast_latency(comm, LATENCY_REPS, &latency_s);
    if (rc == HM_OK) rc = hm_procsync_begin(ps);
    if (rc == HM_OK) rc = run_reps(comm, ps, global, nrep, back_to_back, latency_s, &l, &wall_s);
    rc = hm__measure_agree(comm, rc, HM_EMPI, __func__);
    if (rc == HM_OK) rc = agree_flags(comm, &l, nrep, keep, result);
    if (rc == HM_OK)
        rc = summarize(comm, l.exit_s, keep, nrep, result->skew_s, result->mean_offset_s);
    if (rc == HM_OK && result->truth_known)
        rc = summarize(comm, l.true_exit_s, keep, nrep, result->true_skew_s,
                       result->true_mean_offset_s);
    if (rc == HM_OK) cost(comm, &l, keep, nrep, back_to_back, wall_s, &result->cost_s);
    local_free(&l);
    free(keep);
    if (rc != HM_OK) hm_skew_result_free(result);
    return rc;
}

void hm_skew_result_free(hm_skew_result_t *result)
{
    if (!result) return;
    free(result->skew_s);
    free(result->true_skew_s);
    free(result->mean_offset_s);
    free(result->true_mean_offset_s);
    free(result->valid);
    result->valid = NULL;
    result->skew_s = result->true_skew_s = result->mean_offset_s = NULL;
    result->true_mean_offset_s = NULL;
}
