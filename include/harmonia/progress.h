/* include/harmonia/progress.h — progress of a long call, for a caller that
 * shows a sign of life (a `clock --fitpoints 100000000` runs for hours).
 * Reports are made outside timed regions, between measurements. */
#ifndef HARMONIA_PROGRESS_H
#define HARMONIA_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* done of total units (fit points, repetitions) of the current stage. May
 * be called often (every few thousand units): a caller that prints keeps its
 * own rate limit. */
typedef void (*hm_progress_fn)(void *arg, double done, double total);

typedef struct hm_progress {
    hm_progress_fn fn; /* NULL: no reports */
    void *arg;
} hm_progress_t;

#ifdef __cplusplus
}
#endif
#endif
