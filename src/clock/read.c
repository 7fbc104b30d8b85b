/* src/clock/read.c — reading a clock: the hot path of every measurement. */
#include "clock/clock_impl.h"

double hm_clock_from_local(const hm_clock_t *clock, double local_s)
{
    double t = local_s;
    for (int i = 0; i < clock->depth; i++) t = hm__clock_apply_lm(clock->chain[i], t);
    return t;
}

double hm_clock_now(hm_clock_t *clock)
{
    return hm_clock_from_local(clock, hm_timer_now(clock->timer));
}

double hm_clock_now_truth(hm_clock_t *clock, double *truth_s)
{
    return hm_clock_from_local(clock, hm_timer_now_truth(clock->timer, truth_s));
}
