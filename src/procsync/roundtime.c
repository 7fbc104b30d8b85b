/* src/procsync/roundtime.c — --sync roundtime: Round-Time (Hunold & Carpen-Amarie 2018, §V.A,
 * Alg. 5).
 *
 * Before every repetition the root picks the start as its global now plus
 * B x (measured MPI_Bcast latency) and broadcasts it (lines 6-11); a rank
 * that receives it when the start has already passed marks the repetition
 * invalid (lines 12-15), unless by no more than late_s (its start decides
 * then: hm__procsync_reached_in_time), the others wait for it. The flags and the
 * out-of-time flag are agreed after every round (line 22): the chunk is 1,
 * and the measure layer's per-chunk MPI_Allreduce is that agreement.
 *
 * The time slice (lines 3 and 20-21) starts at begin. params.slice_s = 0
 * means no slice: the experiment ends at --nrep valid repetitions (line 25's
 * other exit) however long that takes. ReproMPI instead ran a single
 * repetition when no slice was given, which silently measured nothing
 * useful. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error_set.h"
#include "procsync/procsync_impl.h"

typedef struct roundtime_state {
    double latency_s; /* lat_MPI_Bcast of line 1 */
    double t_start_s; /* line 3: the time slice started here */
} roundtime_state_t;

/* Line 1. The collective measurement comes before the local allocation (see
 * window.c). */
static int roundtime_create(hm_procsync_t *ps)
{
    double latency_s;
    int rc = hm_procsync_bcast_latency(ps->comm, HM_PROCSYNC_LATENCY_REPS, &latency_s);
    if (rc != HM_OK) return rc;
    roundtime_state_t *r = calloc(1, sizeof *r);
    if (!r) return hm__error_nomem(__func__);
    ps->state = r;
    r->latency_s = latency_s;
    return HM_OK;
}

static void roundtime_free(hm_procsync_t *ps)
{
    free(ps->state);
}

static int roundtime_begin(hm_procsync_t *ps)
{
    roundtime_state_t *r = ps->state;
    r->t_start_s = hm_clock_now(ps->global);
    return HM_OK;
}

/* Lines 6-16. Only the root's clock read counts for the start; the others'
 * value is overwritten by the broadcast. The lead is at least min_lead_s:
 * with more ranks than processors a rank learns the start only once it runs
 * again, which the median MPI_Bcast latency does not contain (at 4 ranks on
 * 2 cores under MPICH's busy polling, B x latency left 0 of 300 rounds in
 * time); hm_procsync_fit sets it to the lead its own deadlines needed to
 * reach every rank in time. */
static int roundtime_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    const roundtime_state_t *r = ps->state;
    double lead = fmax(ps->params.bcast_factor * r->latency_s, ps->params.min_lead_s);
    double start = hm_clock_now(ps->global) + lead;
    if (MPI_Bcast(&start, 1, MPI_DOUBLE, 0, ps->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *deadline_s = start;
    double now = hm_clock_now(ps->global);
    *flag = hm__procsync_reached_in_time(ps, now, start);
    if (now < start) hm_procsync_wait_until(ps->global, start, ps->spin_s, ps->yield);
    return HM_OK;
}

static int roundtime_chunk(const hm_procsync_t *ps)
{
    (void)ps;
    return 1;
}

/* Lines 20-21: out of time once the slice has passed on this rank. */
static int roundtime_in_time(const hm_procsync_t *ps)
{
    const roundtime_state_t *r = ps->state;
    double slice = ps->params.slice_s;
    return slice <= 0.0 || hm_clock_now(ps->global) - r->t_start_s < slice;
}

static void roundtime_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    const roundtime_state_t *r = ps->state;
    char lead[64], slice[32] = "no slice";
    if (ps->params.min_lead_s > 0.0) /* no comma: the text goes into CSV cells */
        snprintf(lead, sizeof lead, "max(%gxbcast(%.1fus) %.1fus)", ps->params.bcast_factor,
                 r->latency_s * 1e6, ps->params.min_lead_s * 1e6);
    else
        snprintf(lead, sizeof lead, "%gxbcast(%.1fus)", ps->params.bcast_factor,
                 r->latency_s * 1e6);
    if (ps->params.slice_s > 0.0) snprintf(slice, sizeof slice, "slice=%gs", ps->params.slice_s);
    snprintf(buf, len, "start=now+%s %s", lead, slice);
}

const hm__procsync_method_t hm__procsync_roundtime_method = {
    .name = "roundtime",
    .has_deadline = 1,
    .reads = HM_PROCSYNC_PARAM_SLICE | HM_PROCSYNC_PARAM_BCAST_FACTOR | HM_PROCSYNC_PARAM_MIN_LEAD,
    .create = roundtime_create,
    .release = roundtime_free,
    .begin = roundtime_begin,
    .start = roundtime_start,
    .chunk = roundtime_chunk,
    .in_time = roundtime_in_time,
    .describe = roundtime_describe,
};
