/* src/trace/summary.c — the merge's summary, tallied as every rank's
 * events go by (rank after rank or in the merge's global order, each
 * rank's in its order: the sums differ in their last bits, not in the
 * digits printed): per function its calls, events, total and
 * median duration; over the trace its span and largest drift correction;
 * from the models, the clocks' accuracy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/durations.h"
#include "trace/summary.h"

struct hm__trace_tally {
    int nf;
    uint64_t *calls, *events;
    double *total_s;
    hm__trace_durations_t **d;
    double first, last, drift_max;
};

int hm__trace_tally_open(hm__trace_tally_t **out)
{
    hm__trace_tally_t *t = calloc(1, sizeof *t);
    if (!t) return hm__error_nomem("hm_trace_merge");
    t->nf = hm_trace_func_count();
    t->calls = calloc((size_t)t->nf, sizeof *t->calls);
    t->events = calloc((size_t)t->nf, sizeof *t->events);
    t->total_s = calloc((size_t)t->nf, sizeof *t->total_s);
    t->d = calloc((size_t)t->nf, sizeof *t->d);
    t->first = INFINITY, t->last = -INFINITY;
    *out = t;
    if (!t->calls || !t->events || !t->total_s || !t->d)
        return hm__trace_tally_free(t), *out = NULL, hm__error_nomem("hm_trace_merge");
    return HM_OK;
}

int hm__trace_tally_event(hm__trace_tally_t *t, const hm__trace_ev_t *ev)
{
    for (int k = 0; k < 2; k++) {
        double c = fabs(ev->glob[k] - ev->ext[k]);
        if (c > t->drift_max) t->drift_max = c;
        if (ev->glob[k] < t->first) t->first = ev->glob[k];
        if (ev->glob[k] > t->last) t->last = ev->glob[k];
    }
    int f = ev->e.func;
    if (f < 0 || f >= t->nf || !hm__trace_is_call(&ev->e)) return HM_OK;
    double d = ev->glob[1] - ev->glob[0];
    t->events[f]++;
    t->calls[f] += ev->e.calls;
    t->total_s[f] += d;
    if (!t->d[f]) {
        int st = hm__trace_durations_open(&t->d[f]);
        if (st != HM_OK) return st;
    }
    return hm__trace_durations_add(t->d[f], d);
}

void hm__trace_tally_span(const hm__trace_tally_t *t, double *first, double *last)
{
    int any = t->last >= t->first;
    *first = any ? t->first : 0, *last = any ? t->last : 0;
}

/* Per function seen: calls, events, total and median duration. slot maps
 * a function to its place in s->funcs (-1: not seen). */
static int per_function(hm__trace_tally_t *t, hm_trace_summary_t *s, int *slot)
{
    for (int f = 0; f < t->nf; f++) slot[f] = t->events[f] ? (int)s->nfuncs++ : -1;
    if (!(s->funcs = calloc(s->nfuncs ? s->nfuncs : 1, sizeof *s->funcs)))
        return hm__error_nomem("hm_trace_merge");
    for (int f = 0; f < t->nf; f++) {
        if (!t->events[f]) continue;
        hm_trace_func_summary_t *fs = &s->funcs[slot[f]];
        fs->func = f, fs->calls = t->calls[f], fs->events = t->events[f];
        fs->total_s = t->total_s[f];
        fs->median_s = hm__trace_durations_median(t->d[f]);
    }
    return HM_OK;
}

/* The larger of a and b where b is a measurement (NaN: none). */
static double max_measured(double a, double b)
{
    return isnan(b) ? a : isnan(a) ? b : fmax(a, b);
}

/* refine's offsets: the fewest any rank took at each end. */
static void fewest_offsets(hm_trace_summary_t *s, const hm_trace_rank_info_t *in, int first)
{
    if (first) {
        s->offsets_init = in->offsets_init, s->offsets_end = in->offsets_end;
        s->offsets_asked = in->offsets_asked;
        return;
    }
    s->offsets_init = s->offsets_init < in->offsets_init ? s->offsets_init : in->offsets_init;
    s->offsets_end = s->offsets_end < in->offsets_end ? s->offsets_end : in->offsets_end;
}

/* What the checker and the ping-pongs at MPI_Init and MPI_Finalize saw
 * (rank 0's file has them), and whether the order of events on different
 * ranks can be trusted: only clocks that differ by less than the shortest
 * transmission time keep every receive after its send (Lamport 1978,
 * "Physical Clocks": the clock condition holds when the clocks' difference
 * stays below mu). The interpolated times take each model where it was
 * checked, the drift as constant in between, so between the two checks
 * their error is within the larger of the two. */
static void clock_accuracy(const hm__trace_rank_t *ranks, int nranks, hm_trace_summary_t *s)
{
    s->check_init_max_s = s->pair_error_s = s->latency_min_s = s->clock_cost_max_s = NAN;
    for (int r = 0, seen = 0; r < nranks; r++) {
        if (!ranks[r].has_model) continue;
        const hm_trace_rank_info_t *in = &ranks[r].model.info;
        s->check_init_max_s = max_measured(s->check_init_max_s, in->check_init_s);
        s->clock_cost_max_s = max_measured(s->clock_cost_max_s, in->clock_cost_s);
        fewest_offsets(s, in, !seen++);
        s->pair_error_s = max_measured(s->pair_error_s, in->pair_error_s);
        if (!isnan(in->latency_min_s))
            s->latency_min_s = isnan(s->latency_min_s) ? in->latency_min_s
                                                       : fmin(s->latency_min_s, in->latency_min_s);
    }
    s->order_doubtful = s->pair_error_s >= s->latency_min_s; /* false when either is NaN */
}
/* The flushes a rank did: its model says at MPI_Finalize; for a rank that
 * never got there, the whole chunks its file holds, one a flush that
 * reached the disk (its MPI_T_flush events undercount them: the event of
 * the last flush sat in the buffer that was lost). */
static uint64_t flushes_of(const hm__trace_rank_t *tr)
{
    return tr->has_model ? tr->model.info.flushes : (uint64_t)tr->chunks;
}

/* What the ranks' models and files say, with what the events gave. */
static void totals(const hm__trace_tally_t *t, const hm__trace_rank_t *ranks, int nranks,
                   hm_trace_summary_t *s)
{
    clock_accuracy(ranks, nranks, s);
    /* Not measured until a rank's checker says (a run that never reached
     * MPI_Finalize has no end model to check). */
    s->check_start_max_s = s->check_end_max_s = NAN;
    for (int r = 0; r < nranks; r++) {
        const hm__trace_rank_t *tr = &ranks[r];
        s->nranks += tr->n > 0 || tr->has_model;
        s->nfinished += tr->has_model && tr->model.info.has_end;
        s->torn_ranks += tr->torn;
        s->events += tr->n;
        s->flushes += flushes_of(tr);
        if (tr->has_model && tr->model.info.has_end) {
            s->check_start_max_s = max_measured(s->check_start_max_s, tr->model.info.check_start_s);
            s->check_end_max_s = max_measured(s->check_end_max_s, tr->model.info.check_end_s);
        }
    }
    s->drift_correction_max_s = t->drift_max;
    s->span_s = t->last >= t->first ? t->last - t->first : NAN; /* NaN: no event */
}

int hm__trace_tally_summary(hm__trace_tally_t *t, const hm__trace_rank_t *ranks, int nranks,
                            hm_trace_summary_t *s, int *slot)
{
    totals(t, ranks, nranks, s);
    return per_function(t, s, slot);
}

void hm__trace_tally_free(hm__trace_tally_t *t)
{
    if (!t) return;
    for (int f = 0; t->d && f < t->nf; f++) hm__trace_durations_free(t->d[f]);
    free(t->calls), free(t->events), free(t->total_s), free(t->d);
    free(t);
}
