/* src/clock/clock.c — building clocks (identity, models over a base),
 * reference counting and accessors. */
#include <math.h>
#include <stdlib.h>

#include "clock/clock_impl.h"

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
    if (!timer || !out) return HM_EINVAL;
    hm_clock_t *c = hm__clock_alloc(0);
    if (!c) return HM_ENOMEM;
    c->timer = timer;
    *out = c;
    return HM_OK;
}

int hm_clock_model(hm_clock_t *base, hm_clock_kind_t kind, hm_lm_t lm, hm_clock_t **out)
{
    if (!base || !out) return HM_EINVAL;
    if (kind != HM_CLOCK_OFFSET && kind != HM_CLOCK_LINEAR) return HM_EINVAL;
    if (kind == HM_CLOCK_OFFSET) lm.slope = 0;
    /* A non-finite model would turn every later reading into NaN, far from
     * where the mistake was made. */
    if (!isfinite(lm.slope) || !isfinite(lm.intercept)) return HM_EINVAL;
    hm_clock_t *c = hm__clock_alloc(base->depth + 1);
    if (!c) return HM_ENOMEM;
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
    return clock ? clock->timer : NULL;
}

hm_clock_kind_t hm_clock_kind(const hm_clock_t *clock)
{
    return clock ? clock->kind : HM_CLOCK_IDENTITY;
}

hm_lm_t hm_clock_lm(const hm_clock_t *clock)
{
    return clock ? clock->lm : (hm_lm_t){0, 0};
}

hm_clock_t *hm_clock_base(const hm_clock_t *clock)
{
    return clock ? clock->base : NULL;
}

int hm_clock_depth(const hm_clock_t *clock)
{
    return clock ? clock->depth : 0;
}
