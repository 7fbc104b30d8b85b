/* src/trace/summary.h — the summary of a merge, tallied event by event
 * (summary.c). */
#ifndef HM_TRACE_SUMMARY_H
#define HM_TRACE_SUMMARY_H

#include "trace/merge_impl.h"

typedef struct hm__trace_tally hm__trace_tally_t;

int hm__trace_tally_open(hm__trace_tally_t **out);
/* Every event of every rank, rank after rank, each rank's in file order. */
int hm__trace_tally_event(hm__trace_tally_t *t, const hm__trace_ev_t *ev);
/* The first entry and last exit of all ranks on the global clock (0, 0:
 * no event). */
void hm__trace_tally_span(const hm__trace_tally_t *t, double *first, double *last);
/* Into s (zeroed by the caller): the totals and the functions; slot[f]
 * f's place in s->funcs (-1: not seen). */
int hm__trace_tally_summary(hm__trace_tally_t *t, const hm__trace_rank_t *ranks, int nranks,
                            hm_trace_summary_t *s, int *slot);
void hm__trace_tally_free(hm__trace_tally_t *t);

#endif
