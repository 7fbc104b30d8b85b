/* src/trace/calls.c — the collective calls of a loaded trace, gathered from
 * every rank and sorted once: by communicator, then call number on it, then
 * global entry time. A call found on every member of its communicator is a
 * run of equal (key, seq) whose length is the communicator's size; the
 * summary and events.csv both read the runs. */
#include <stdlib.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

static int by_call(const void *a, const void *b)
{
    const hm__trace_member_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    if (x->enter_s != y->enter_s) return x->enter_s < y->enter_s ? -1 : 1;
    return x->rank - y->rank;
}

/* A call the tracer numbered on its communicator, window or file: one
 * every member makes (collectives, fences, collective I/O). */
static int is_matchable(const hm_trace_event_t *e)
{
    return e->seq > 0 && e->comm_key != HM_TRACE_NO_COMM;
}

int hm__trace_calls_collect(const hm__trace_rank_t *ranks, int nranks, hm__trace_calls_t *calls)
{
    size_t n = 0, at = 0;
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < ranks[r].n; i++) n += is_matchable(&ranks[r].events[i]);
    hm__trace_member_t *m = hm__trace_big_alloc((n ? n : 1) * sizeof *m);
    if (!m) return hm__error_set(HM_ENOMEM, "out of memory");
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < ranks[r].n; i++) {
            const hm_trace_event_t *e = &ranks[r].events[i];
            if (is_matchable(e))
                m[at++] = (hm__trace_member_t){e->comm_key, e->seq, r, i, ranks[r].glob[2 * i]};
        }
    qsort(m, n, sizeof *m, by_call);
    calls->m = m, calls->n = n;
    return HM_OK;
}

size_t hm__trace_calls_run_end(const hm__trace_calls_t *calls, size_t i)
{
    size_t j = i + 1;
    while (j < calls->n && calls->m[j].key == calls->m[i].key && calls->m[j].seq == calls->m[i].seq)
        j++;
    return j;
}

void hm__trace_calls_free(hm__trace_calls_t *calls)
{
    free(calls->m);
    calls->m = NULL, calls->n = 0;
}
