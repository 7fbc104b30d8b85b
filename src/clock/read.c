/* src/clock/read.c — reading a clock: the hot path of every measurement. */
#include <math.h>

#include "clock/clock_impl.h"
#include "common/error_set.h"

double hm_clock_from_local(const hm_clock_t *clock, double local_s)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return NAN;
    }
    double t = local_s;
    for (int i = 0; i < clock->depth; i++) t = hm__clock_apply_lm(clock->chain[i], t);
    return t;
}

double hm_clock_now(hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return NAN;
    }
    return hm_clock_from_local(clock, hm_timer_now(clock->timer));
}

double hm_clock_now_truth(hm_clock_t *clock, double *truth_s)
{
    if (!clock || !truth_s) {
        hm__error_null(__func__, clock ? "truth_s" : "clock");
        return NAN;
    }
    return hm_clock_from_local(clock, hm_timer_now_truth(clock->timer, truth_s));
}
