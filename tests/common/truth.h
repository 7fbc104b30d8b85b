/* tests/common/truth.h — synthetic clocks with a known truth, shared by the
 * clock-synchronization tests (offset, sync_flat, sync_hca, sync_hier,
 * sync_drift).
 *
 * Every rank reads "monotonic" through a synthetic clock whose offset (within
 * +-offset_s), drift (within +-drift) and Gaussian jitter per read (jitter_s)
 * come from a seed and a clock domain: the rank (every process its own clock,
 * HM_TRUTH_OWN_CLOCK) or, say, its virtual node (the ranks of a node share one
 * clock, as the cores of a real node do). All ranks share the origin, so the
 * true time T (the underlying monotonic reading) is the same instant
 * everywhere, and rank r's clock reads T (1 + d_r) + o_r at T without jitter.
 * Rank 0's clock is the reference of every synchronization. */
#ifndef HM_TEST_TRUTH_H
#define HM_TEST_TRUTH_H
#include <stdint.h>

#include <harmonia/clock.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

/* The seed of the timer tests, also taken by most synchronization tests. */
#define HM_TRUTH_SEED 7

/* Domain argument of hm_truth_open: every rank its own clock (domain = its
 * rank in comm). */
#define HM_TRUTH_OWN_CLOCK (-1)

typedef struct hm_truth {
    MPI_Comm comm;              /* that of hm_truth_open (not duplicated) */
    int rank, size;             /* in comm */
    hm_timer_t *timer;          /* this rank's synthetic timer, origin agreed */
    hm_clock_t *base;           /* identity over timer: the base of the synchronization */
    double *offsets_s, *drifts; /* every rank's draw, by rank in comm */
} hm_truth_t;

/* Collective over comm: synthetic "monotonic" with offsets within
 * +-spec.offset_s, drifts within +-spec.drift, jitter spec.jitter_s, drawn
 * from seed for clock domain domain (HM_TRUTH_OWN_CLOCK: the rank). Every
 * rank learns every rank's draw. Returns HM_OK or the failing status, the
 * same on every rank (a timer that cannot be created is reported on
 * stderr). */
int hm_truth_open(hm_truth_t *t, MPI_Comm comm, hm_synthetic_spec_t spec, uint64_t seed,
                  int domain);
void hm_truth_close(hm_truth_t *t);

/* Rank's drawn offset and drift (rank 0's: the reference's). */
double hm_truth_offset(const hm_truth_t *t, int rank);
double hm_truth_drift(const hm_truth_t *t, int rank);

/* What rank's synthetic timer reads at true time true_s (without jitter). */
double hm_truth_reading(const hm_truth_t *t, int rank, double true_s);

/* The slope of the model t - (s t + i) that maps client's clock exactly
 * onto ref's: x_c = T (1 + d_c) + o_c, x_r = T (1 + d_r) + o_r give
 * x_r = x_c (1 + d_r) / (1 + d_c) + const, so s = (d_c - d_r) / (1 + d_c). */
double hm_truth_slope(const hm_truth_t *t, int ref, int client);

/* Collective: "monotonic" with rank 0's origin on every rank. All ranks of
 * one machine read the same CLOCK_MONOTONIC, so the identity clock over it
 * (*global) is already a global clock, and its readings are true time.
 * HM_OK or the failing status, the same on every rank. */
int hm_truth_shared_clock(MPI_Comm comm, hm_timer_t **timer, hm_clock_t **global);

/* The true error of global now: its reading minus rank 0's clock at the same
 * true instant; *truth_s (may be NULL) receives that instant. Local. */
double hm_truth_error(const hm_truth_t *t, hm_clock_t *global, double *truth_s);

/* Collective over t->comm: the largest |true error| of any rank, on every
 * rank; *worst_rank (may be NULL) receives that rank. */
double hm_truth_max_error(const hm_truth_t *t, hm_clock_t *global, int *worst_rank);

/* hm_sync_params_default with these fitpoints and exchanges (0: keep the
 * default). */
void hm_truth_params_default(hm_sync_params_t *p, int fitpoints, int exchanges);

/* Only these fitpoints and exchanges, SKaMPI offsets, drift auto with 3
 * sigmas, intercepts re-measured; every other field 0. */
hm_sync_params_t hm_truth_params_skampi(int fitpoints, int exchanges);
#endif
