/* src/sync/sync_impl.h — the contract between hm_sync_run and the
 * algorithms, and the pairwise building block they share. */
#ifndef HM_SYNC_IMPL_H
#define HM_SYNC_IMPL_H
#include <harmonia/sync.h>

#include "common/error_set.h"

/* Fit points between progress reports: a ping-pong takes about a
 * microsecond on shared memory, so a report comes every few milliseconds,
 * often enough for a caller's rate limit and rare enough to cost nothing. */
enum { HM_SYNC_PROGRESS_POINTS = 4096 };

/* Which node each rank of the synchronized communicator is on (nodes.c):
 * the real topology (MPI_COMM_TYPE_SHARED; SMPI's simulated hosts) or the
 * virtual nodes of ranks_per_node. */
typedef struct hm__sync_nodes hm__sync_nodes_t;

/* Counters an algorithm fills for the report. */
typedef struct hm__sync_stats {
    int drift_models;  /* pairwise models this rank learned that kept a slope */
    int offset_models; /* ... that became offset models */
    /* The drift test of the models this rank learned (hm__sync_drift_record;
     * meaningful where the counts are positive, so a zeroed struct is empty). */
    int tested_offsets, tested_linears; /* fits judged that became offsets / kept a slope */
    double t_offset_max;                /* largest t of the first kind */
    double t_linear_min;                /* smallest t of the second */
    double t_critical;                  /* the critical value they were judged by */
    double resolution_max;              /* largest t_critical x se of the offset models */
    int fits_extended;                  /* fits learned beyond params->fitpoints */
    int fitpoints_max;                  /* most fit points of one fit */
    long pingpongs;                     /* ping-pongs this rank took part in */
    long internode_pingpongs;           /* ... with a rank of another node */
    const hm__sync_nodes_t *nodes;      /* set by hm_sync_run; NULL: nothing is counted across */
    hm_sync_refiner_t *refiner;         /* a refining algorithm's state, handed to the caller
                                         * of hm_sync_run_refining or freed */
} hm__sync_stats_t;

/* Collective over comm, before the synchronization is timed. */
int hm__sync_nodes_create(MPI_Comm comm, int ranks_per_node, hm__sync_nodes_t **out);
void hm__sync_nodes_free(hm__sync_nodes_t *nodes);

/* Add n ping-pongs with rank peer of comm (a communicator derived from the
 * synchronized one) to stats; local. */
void hm__sync_tally(hm__sync_stats_t *stats, MPI_Comm comm, int peer, long n);
/* The same for every ping-pong of pair. */
void hm__sync_tally_pair(hm__sync_stats_t *stats, const hm_offset_pair_t *pair);

/* One algorithm of one level. Collective over comm (a private duplicate;
 * rank 0 of comm is the reference). base is this rank's clock for the level
 * (for an inner level: the global clock of the outer levels). On success
 * *out is a new clock (a model over base, or base itself retained, e.g. on
 * the reference rank). Every rank must return the same status: an algorithm
 * that can fail on some ranks only agrees before returning. Correct for any
 * size of comm, 1 and non-powers of two included. A failure with a sentence
 * to give sets it as the last error (hm__error_set); the caller clears the
 * last error before, so that one without leaves none. */
typedef int (*hm_sync_fn)(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                          hm_clock_t **out, hm__sync_stats_t *stats);

typedef enum hm_sync_kind {
    HM_SYNC_OFFSET_ONLY, /* models offsets only, whatever --drift says */
    HM_SYNC_DRIFT,       /* learns linear models (subject to --drift) */
    HM_SYNC_PROPAGATE,   /* copies the leader's clock: needs a shared time source */
    HM_SYNC_REFINE       /* ready after offsets, refined later (refine.c): a spec of its own */
} hm__sync_kind_t;

typedef struct hm__sync_algorithm {
    const char *name;
    hm_sync_fn run;
    hm__sync_kind_t kind;
    unsigned reads; /* hm_sync_param_t bits (sync.h) */
} hm__sync_algorithm_t;

/* Registry (registry.c); NULL when unknown. */
const hm__sync_algorithm_t *hm__sync_find(const char *name);

/* The entry of an algorithm fn that measures offsets: base, params and out
 * given, params->exchanges >= 1 (and fitpoints >= min_fitpoints when that
 * is above 0), *me and *size of comm. HM_EINVAL or HM_EMPI with the
 * sentence, naming fn. */
int hm__sync_enter(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                   hm_clock_t **out, const char *fn, int min_fitpoints, int *me, int *size);

/* The algorithms (one file each). */
int hm__sync_skampi(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                    hm__sync_stats_t *);
int hm__sync_netgauge(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                      hm__sync_stats_t *);
int hm__sync_jk(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                hm__sync_stats_t *);
int hm__sync_hca(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                 hm__sync_stats_t *);
int hm__sync_hca2(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                  hm__sync_stats_t *);
int hm__sync_hca3(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                  hm__sync_stats_t *);
int hm__sync_prop(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                  hm__sync_stats_t *);
int hm__sync_refine(MPI_Comm, hm_clock_t *, const hm_sync_params_t *, hm_clock_t **,
                    hm__sync_stats_t *);

/* ---- The pairwise building block (learn.c) ------------------------------ */

/* A pairwise model learned by the client, with what the decision on drift
 * was based on. */
typedef struct hm__sync_pair_model {
    hm_lm_t lm;           /* client time -> reference time: t - (slope t + intercept) */
    hm_clock_kind_t kind; /* HM_CLOCK_LINEAR when the slope was kept, else HM_CLOCK_OFFSET */
    double slope_fit;     /* slope of the regression, before the drift decision */
    double slope_stderr;  /* its standard error (hm__sync_fit_pair: allowing for correlation) */
    double t;             /* the drift test's statistic |slope_fit| / slope_stderr */
    double t_critical;    /* the value t was compared with (whatever params->drift says) */
    int fitpoints;        /* points fitted (more than params->fitpoints when extended) */
} hm__sync_pair_model_t;

/* The drift test's level: two-sided, 0.05 %. The critical value is the
 * Student t quantile t(1 - alpha / 2) with the degrees of freedom of the
 * error estimate: 5.62 for the 10 batches (8 degrees of freedom) of a fit
 * of 50 points or more (docs/clocks.md, "Drift only where there is drift"). */
#define HM_SYNC_DRIFT_ALPHA 5e-4

/* LEARN_CLOCK_MODEL of Hunold & Carpen-Amarie 2018, Alg. 2 (and Learn_Model_HCA of Hunold &
 * Carpen-Amarie 2016 Alg. 4): params->fitpoints offset measurements between ranks ref and client of
 * comm, each with params->exchanges ping-pongs of params->offset, timestamped with clock (the
 * reference's reference clock, the client's clock to be modelled); a least-squares line through
 * (timestamp, offset) on the client (GSL), the drift decision of params->drift, and with
 * params->recompute_intercept a fresh offset measurement that sets the
 * intercept (COMPUTE_AND_SET_INTERCEPT). Called by both ranks; the model is
 * valid on the client only. Counts the model and the ping-pongs in stats. */
int hm__sync_learn_pair(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                        const hm_sync_params_t *params, hm__sync_pair_model_t *model,
                        hm__sync_stats_t *stats);

/* The drift decision alone (pure function, tested on its own): given the
 * fit (slope, its stderr with dof degrees of freedom, intercept) and the fit
 * points' mean y, the model to use: the line, or (HM_DRIFT_OFF, or AUTO with
 * t = |slope| / stderr below the critical value) the offset model through
 * the mean, intercept = mean_y. The critical value is params->drift_sigmas
 * when positive, else the t quantile of HM_SYNC_DRIFT_ALPHA with dof degrees
 * of freedom. */
hm__sync_pair_model_t hm__sync_decide_drift(const hm_sync_params_t *params, double slope,
                                            double slope_stderr, int dof, double intercept,
                                            double mean_y);

/* Degrees of freedom of the slope error of a fit of n points (learn.c):
 * batches - 2 with 3 batches or more, else n - 2 (0 below 3 points). */
int hm__sync_fit_dof(int n);

/* Count a client's model in stats: its kind and its drift test. */
void hm__sync_drift_record(hm__sync_stats_t *stats, const hm__sync_pair_model_t *model,
                           const hm_sync_params_t *params);

/* Drift auto's floor, s/s: params->drift_resolution_ppm, below which a
 * slope needs HM_SYNC_DRIFT_FLOOR_SIGMAS x the critical value (0: none,
 * outside auto or without a resolution). */
double hm__sync_drift_floor(const hm_sync_params_t *params);

/* The drift an offset model of this fit may hide: the smallest slope its
 * test would have kept, t_critical x se (infinite where se is not finite:
 * too few points to judge any slope). */
double hm__sync_fit_resolution(const hm__sync_pair_model_t *model);

/* Drift auto's extension of a learning (harmonia's, sync.h): how many more
 * fit points a fit of n points needs for its test to resolve
 * params->drift_resolution_ppm, 0 when it does, when the
 * drift mode is not auto, when se is not finite or at
 * HM_SYNC_FIT_EXTEND_MAX x params->fitpoints in all. */
int hm__sync_fit_more(const hm_sync_params_t *params, const hm__sync_pair_model_t *model, int n);

/* Room for n fit points in the timestamps *x and offsets *y (realloc; on
 * HM_ENOMEM both keep their contents). */
int hm__sync_grow_points(double **x, double **y, int n);

/* The client's fit of Alg. 2 line 13 over n fit points (timestamp x, offset
 * y) and the drift decision, with a slope error that allows for correlated
 * fit points (batch means; see learn.c). */
hm__sync_pair_model_t hm__sync_fit_pair(const hm_sync_params_t *params, const double *x,
                                        const double *y, int n);

/* One offset measurement between ref and client with the algorithm and
 * number of ping-pongs of params (pairs for repeated use are cheaper:
 * hm_offset_pair_create). Client gets *sample. Counts ping-pongs in stats. */
int hm__sync_measure_offset(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                            const hm_sync_params_t *params, hm_offset_sample_t *sample,
                            hm__sync_stats_t *stats);
#endif
