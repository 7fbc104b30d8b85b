/* src/clock/clock_impl.h — the shape of a clock, shared by the files of the
 * clock layer. */
#ifndef HM_CLOCK_IMPL_H
#define HM_CLOCK_IMPL_H
#include <stdatomic.h>

#include <harmonia/clock.h>

/* A clock is immutable once built, except for its reference count. Each
 * clock keeps a copy of the models of its whole chain, innermost first, so
 * that hm_clock_now is one timer read and a loop over an array: no pointer
 * chasing, no allocation, no lock on the hot path. */
struct hm_clock {
    atomic_int refs;
    hm_clock_kind_t kind;
    hm_lm_t lm;        /* this layer ({0, 0} for identity, slope 0 for offset) */
    hm_clock_t *base;  /* NULL for identity; holds a reference */
    hm_timer_t *timer; /* bottom of the chain, not owned */
    int depth;         /* model layers above the identity */
    hm_lm_t chain[];   /* depth models, innermost (chain[0]) first */
};

/* t - (slope * t + intercept): the one formula every reading goes through,
 * inlined here so that a chain reads at the cost of a multiply-add per layer.
 * The serialized copy of a chain applies the same operations in the same
 * order, hence reads bit-identically. */
static inline double hm__clock_apply_lm(hm_lm_t lm, double t)
{
    return t - (lm.slope * t + lm.intercept);
}

/* Allocate a clock of the given depth with one reference (chain left for the
 * caller to fill); NULL when out of memory. */
hm_clock_t *hm__clock_alloc(int depth);
#endif
