/* src/trace/durations.h — a function's durations, for their median in
 * bounded memory (durations.c says how close). */
#ifndef HM_TRACE_DURATIONS_H
#define HM_TRACE_DURATIONS_H

#include <stdint.h>

/* Up to this many durations a function's median is exact. */
#define HM__TRACE_DURATIONS_EXACT 32768u

typedef struct hm__trace_durations hm__trace_durations_t;

int hm__trace_durations_open(hm__trace_durations_t **out);
int hm__trace_durations_add(hm__trace_durations_t *d, double v);
/* The median (NaN for none); reorders the kept durations. */
double hm__trace_durations_median(hm__trace_durations_t *d);
void hm__trace_durations_free(hm__trace_durations_t *d);

#endif
