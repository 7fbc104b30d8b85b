/* include/harmonia/clock_study.h — what `harmonia clock` does for each
 * synchronization it compares, as one call: synchronize the clocks (fresh,
 * from the base clocks), then check the global clock right after and after
 * each wait (Check-Global-Clock, Hunold & Carpen-Amarie 2018, Alg. 6) on a
 * seeded sample of the ranks, every rank waking at the same global time:
 *
 *     double after[] = {0, 1, 5};
 *     hm_clock_study_params_t p = {.spec = "hca3", .check_after_s = after,
 *                                  .ncheck_after = 3, .exchanges = 100, .sample = 1};
 *     hm_sync_params_default(&p.sync);
 *     hm_clock_study(comm, base, &p, offsets_s, true_errors_s, on_check, ctx, NULL);
 *
 * Part of the measure layer (docs/architecture.md). */
#ifndef HARMONIA_CLOCK_STUDY_H
#define HARMONIA_CLOCK_STUDY_H
#include <harmonia/export.h>

#include <stdint.h>

#include <mpi.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/progress.h>
#include <harmonia/sync.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_clock_study_params {
    const char *spec;            /* one synchronization (sync.h), e.g. "hca3+prop" */
    hm_sync_params_t sync;       /* its parameters; sync.progress: the pair fits */
    const double *check_after_s; /* the waits after the synchronization, s, ascending */
    int ncheck_after;            /* 1 or more */
    int exchanges;               /* ping-pongs per checked offset */
    double sample;               /* fraction of ranks 1..p-1 checked, (0, 1], at least one */
    uint64_t seed;               /* which ranks (the same on every rank) */
    /* Rank 0, optional: before wait w (the seconds after the
     * synchronization it waits for), then the seconds waited of it, at
     * least once a second. */
    void (*waiting)(void *arg, int w, double after_s);
    hm_progress_t wait_progress;
    void *waiting_arg;
} hm_clock_study_params_t;

/* One check: the wait it followed, the synchronization's report, and what
 * hm_sync_check saw (on rank 0: the per-rank arrays given to
 * hm_clock_study are filled for it). */
typedef struct hm_clock_study_check {
    int w;
    double after_s;
    const hm_sync_report_t *report;
    const hm_sync_check_t *check;
    /* A refining synchronization ("refine"): the refinements made before
     * this check (on their schedule, while waiting for it) and their wall
     * time, added; 0 for the others. */
    long refinements;
    double refine_cost_s;
} hm_clock_study_check_t;

/* What failed: the synchronization (its parameters or its run), a check,
 * or the callback. */
typedef enum hm_clock_study_failed {
    HM_CLOCK_STUDY_FAILED_NONE = 0,
    HM_CLOCK_STUDY_FAILED_PARAMS, /* p itself: no spec, checks, exchanges or sample */
    HM_CLOCK_STUDY_FAILED_SYNC,   /* hm_sync_run */
    HM_CLOCK_STUDY_FAILED_CHECK,  /* hm_sync_check, or the sample's memory */
    HM_CLOCK_STUDY_FAILED_ROW     /* the callback's status */
} hm_clock_study_failed_t;

/* Called on rank 0 after each check; a status other than HM_OK is what
 * hm_clock_study returns, on every rank, after the run. */
typedef int (*hm_clock_study_fn)(void *ctx, const hm_clock_study_check_t *c);

/* Collective over comm. base is each rank's local clock (hm_sync_run's). On
 * rank 0, offsets_s and true_errors_s (NULL, or the size of comm) receive
 * each check's per-rank values (hm_sync_check). The sample is the first
 * ceil(sample x (p - 1)) ranks of 1..p-1 shuffled with the seed (at least
 * one). Returns HM_OK, hm_sync_run's failure with its sentence (HM_EINVAL
 * or HM_ENOENT: the spec or parameters refused), a check's failure ("clock
 * check failed: ..."), or the callback's status; the same status and
 * *failed (NULL allowed) on every rank. */
HM_EXPORT int hm_clock_study(MPI_Comm comm, hm_clock_t *base, const hm_clock_study_params_t *p,
                             double *offsets_s, double *true_errors_s, hm_clock_study_fn row,
                             void *ctx, hm_clock_study_failed_t *failed);

#ifdef __cplusplus
}
#endif
#endif
