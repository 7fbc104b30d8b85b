/* include/harmonia/clock.h — clock models.
 *
 * A clock maps the time of its base to reference (global) time. The bottom
 * of every chain is an identity clock over a timer; above it sit models, each
 * over the clock below it ("nesting": HCA3 timestamps with the clock it has
 * learned so far, and a hierarchical synchronization puts the intra-node
 * model over the inter-node one). Hunold & Carpen-Amarie 2018, §IV-B, Hunold & Carpen-Amarie 2016,
 * §4.3-4.4.
 *
 * The models are those of the papers: a base reading t becomes
 *     t - (slope * t + intercept)
 * where (slope, intercept) were fitted to the offsets (local - reference)
 * measured at local times t. An offset model is the case slope = 0.
 *
 * Clocks are reference counted: a model holds a reference on its base, so a
 * chain lives as long as its top; hm_clock_free releases one reference. */
#ifndef HARMONIA_CLOCK_H
#define HARMONIA_CLOCK_H
#include <harmonia/export.h>

#include <stddef.h>

#include <harmonia/error.h>
#include <harmonia/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_clock hm_clock_t;

typedef enum hm_clock_kind {
    HM_CLOCK_IDENTITY = 0, /* the timer itself */
    HM_CLOCK_OFFSET = 1,   /* t - intercept */
    HM_CLOCK_LINEAR = 2    /* t - (slope * t + intercept) */
} hm_clock_kind_t;

/* A linear model of a clock against a reference (slope 0: an offset). */
typedef struct hm_lm {
    double slope;
    double intercept;
} hm_lm_t;

/* t - (lm.slope * t + lm.intercept). */
HM_EXPORT double hm_lm_apply(hm_lm_t lm, double t);

/* Merge_LMs of Hunold & Carpen-Amarie 2016 (Alg. 4, line 33): from lm_ab, the model of clock b
 * in the time of a, and lm_bc, the model of clock c in the time of b, the
 * model of c in the time of a, so that
 *     hm_lm_apply(merged, t) == hm_lm_apply(lm_ab, hm_lm_apply(lm_bc, t)).
 * slope = s_ab + s_bc - s_ab * s_bc, intercept = i_ab + i_bc - i_bc * s_ab. */
HM_EXPORT hm_lm_t hm_lm_merge(hm_lm_t lm_ab, hm_lm_t lm_bc);

/* A clock that reads timer directly. The clock does not own the timer, which
 * must outlive it. */
HM_EXPORT int hm_clock_identity(hm_timer_t *timer, hm_clock_t **out);

/* A model of the given kind over base (which gains a reference). For
 * HM_CLOCK_OFFSET the slope of lm is ignored (taken as 0); HM_CLOCK_IDENTITY
 * is HM_EINVAL here. */
HM_EXPORT int hm_clock_model(hm_clock_t *base, hm_clock_kind_t kind, hm_lm_t lm, hm_clock_t **out);

/* Take one more reference; release one (the last frees the clock and
 * releases its base). NULL is accepted by both. */
HM_EXPORT void hm_clock_retain(hm_clock_t *clock);
HM_EXPORT void hm_clock_free(hm_clock_t *clock);

/* Reference time now: read the timer and apply every model of the chain,
 * innermost first. */
HM_EXPORT double hm_clock_now(hm_clock_t *clock);

/* Like hm_clock_now; *truth_s receives the true time of the same timer read
 * (see hm_timer_now_truth). */
HM_EXPORT double hm_clock_now_truth(hm_clock_t *clock, double *truth_s);

/* Reference time of a reading local_s taken earlier from the clock's timer
 * (measurements record raw timer readings and convert them after the timed
 * loop). hm_clock_now(c) == hm_clock_from_local(c, hm_timer_now(timer)). */
HM_EXPORT double hm_clock_from_local(const hm_clock_t *clock, double local_s);

/* The timer at the bottom of the chain. */
HM_EXPORT hm_timer_t *hm_clock_timer(const hm_clock_t *clock);

/* This layer: its kind, its model (0, 0 for identity) and its base (NULL for
 * identity); the number of model layers above the identity (0 for identity). */
HM_EXPORT hm_clock_kind_t hm_clock_kind(const hm_clock_t *clock);
HM_EXPORT hm_lm_t hm_clock_lm(const hm_clock_t *clock);
HM_EXPORT hm_clock_t *hm_clock_base(const hm_clock_t *clock);
HM_EXPORT int hm_clock_depth(const hm_clock_t *clock);

/* Flatten the chain of models into buf (FLATTEN_CLOCK of Hunold & Carpen-Amarie 2018, Alg. 3),
 * so that it can be sent to processes that read the same time source. *len
 * receives the size needed; HM_ERANGE when cap is smaller (call with cap 0
 * to ask for the size). The timer itself is not serialized. */
HM_EXPORT int hm_clock_serialize(const hm_clock_t *clock, void *buf, size_t cap, size_t *len);

/* Rebuild a serialized chain over the receiver's timer (UNFLATTEN_CLOCK).
 * HM_EINVAL on a malformed buffer. The result reads exactly like the sender's
 * clock for the same timer reading. */
HM_EXPORT int hm_clock_deserialize(const void *buf, size_t len, hm_timer_t *timer,
                                   hm_clock_t **out);

/* One line: "linear(s=1.2e-07,i=3.4e-06) <- offset(i=...) <- monotonic". */
HM_EXPORT void hm_clock_describe(const hm_clock_t *clock, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
