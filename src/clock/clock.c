/* src/clock/clock.c — building clocks (identity, models over a base),
 * reference counting and accessors. */
#include <math.h>
#include <stdlib.h>

#include "clock/clock_impl.h"
#include "common/error_set.h"

hm_clock_t *hm__clock_alloc(int depth)
{
    hm_clock_t *c = malloc(sizeof *c + (size_t)depth * sizeof(hm_lm_t));
    if (!c) return NULL;
    atomic_init(&c->refs, 1);
    c->kind = HM_CLOCK_IDENTITY;
    c->lm = (hm_lm_t){0, 0};
    c->base = NULL;
    c->timer = NULL;
    c->depth = depth;
    return c;
}

int hm_clock_identity(hm_timer_t *timer, hm_clock_t **out)
{
    if (!timer) return hm__error_null(__func__, "timer");
    if (!out) return hm__error_null(__func__, "out");
    hm_clock_t *c = hm__clock_alloc(0);
    if (!c) return hm__error_set(HM_ENOMEM, "cannot allocate a clock");
    c->timer = timer;
    *out = c;
    return HM_OK;
}

int hm_clock_model(hm_clock_t *base, hm_clock_kind_t kind, hm_lm_t lm, hm_clock_t **out)
{
    if (!base) return hm__error_null(__func__, "base");
    if (!out) return hm__error_null(__func__, "out");
    if (kind != HM_CLOCK_OFFSET && kind != HM_CLOCK_LINEAR)
        return hm__error_set(HM_EINVAL, "%s: kind %d is not a model (offset or linear)", __func__,
                             (int)kind);
    if (kind == HM_CLOCK_OFFSET) lm.slope = 0;
    /* A non-finite model would turn every later reading into NaN, far from
     * where the mistake was made. */
    if (!isfinite(lm.slope) || !isfinite(lm.intercept))
        return hm__error_set(HM_EINVAL, "%s: model slope %g, intercept %g is not finite", __func__,
                             lm.slope, lm.intercept);
    hm_clock_t *c = hm__clock_alloc(base->depth + 1);
    if (!c) return hm__error_set(HM_ENOMEM, "cannot allocate a clock");
    c->kind = kind;
    c->lm = lm;
    c->timer = base->timer;
    for (int i = 0; i < base->depth; i++) c->chain[i] = base->chain[i];
    c->chain[base->depth] = lm;
    hm_clock_retain(base);
    c->base = base;
    *out = c;
    return HM_OK;
}

void hm_clock_retain(hm_clock_t *clock)
{
    if (clock) atomic_fetch_add_explicit(&clock->refs, 1, memory_order_relaxed);
}

void hm_clock_free(hm_clock_t *clock)
{
    /* Iterative, so that releasing a deep chain cannot exhaust the stack. */
    while (clock && atomic_fetch_sub_explicit(&clock->refs, 1, memory_order_acq_rel) == 1) {
        hm_clock_t *base = clock->base;
        free(clock);
        clock = base;
    }
}

hm_timer_t *hm_clock_timer(const hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return NULL;
    }
    return clock->timer;
}

hm_clock_kind_t hm_clock_kind(const hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return HM_CLOCK_IDENTITY;
    }
    return clock->kind;
}

hm_lm_t hm_clock_lm(const hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return (hm_lm_t){0, 0};
    }
    return clock->lm;
}

hm_clock_t *hm_clock_base(const hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return NULL;
    }
    return clock->base;
}

int hm_clock_depth(const hm_clock_t *clock)
{
    if (!clock) {
        hm__error_null(__func__, "clock");
        return 0;
    }
    return clock->depth;
}
