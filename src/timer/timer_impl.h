/* src/timer/timer_impl.h — the shape of a time source and of a timer. */
#ifndef HM_TIMER_IMPL_H
#define HM_TIMER_IMPL_H
#include <harmonia/timer.h>

#include <harmonia/rng.h>

#include "common/error_set.h"

/* A registered time source. open() prepares the timer (frequency, checks);
 * read() returns seconds since timer->origin; origin_now() returns the
 * integer origin for "now" in the source's own unit (whole seconds, or TSC
 * ticks); nominal_resolution() what the source claims. */
typedef struct hm__timer_source {
    const char *name;
    int monotonic;
    int per_process; /* each process has its own origin (wtime) */
    int (*open)(hm_timer_t *timer, const hm_timer_options_t *opts); /* sets the last error */
    double (*read)(const hm_timer_t *timer);
    int64_t (*origin_now)(const hm_timer_t *timer);
    double (*nominal_resolution)(const hm_timer_t *timer);
} hm__timer_source_t;

struct hm_timer {
    const hm__timer_source_t *source;
    int64_t origin;          /* integer origin in the source's unit */
    double seconds_per_tick; /* tsc */
    char detail[96];         /* tsc: frequency and where it came from */
    int synthetic;
    hm_synthetic_spec_t spec; /* bounds of the draw */
    double offset_s, drift;   /* this domain's draw */
    int domain;
    hm_rng_t jitter_rng;
};

extern const hm__timer_source_t hm__timer_source_wtime;
extern const hm__timer_source_t hm__timer_source_monotonic;
extern const hm__timer_source_t hm__timer_source_monotonic_raw;
extern const hm__timer_source_t hm__timer_source_realtime;
extern const hm__timer_source_t hm__timer_source_gettimeofday;
extern const hm__timer_source_t hm__timer_source_tsc;

/* Lookup in the registry; NULL when unknown. */
const hm__timer_source_t *hm__timer_find_source(const char *name);

/* Synthetic reading on top of a true reading (synthetic.c). */
double hm__timer_synthetic_apply(hm_timer_t *timer, double truth_s);
void hm__timer_synthetic_init(hm_timer_t *timer, const hm_timer_options_t *opts);

#endif
