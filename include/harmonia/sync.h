/* include/harmonia/sync.h — clock synchronization over a communicator.
 *
 * hm_sync_run returns, on every rank, a global clock: the rank's base clock
 * seen through the models that map it to the clock of rank 0 of comm.
 *
 * Algorithms (names as on the command line and in result files; HCA16 and
 * HCA18 stand for [Hunold & Carpen-Amarie 2016] and [Hunold &
 * Carpen-Amarie 2018] of docs/references.md):
 *   skampi    offset of every rank to the root, O(p) rounds, no drift
 *             (HCA16 Alg. 7-8)
 *   netgauge  tree of offsets in O(log p) rounds, no drift (HCA16 Alg. 11-12)
 *   jk        Jones-Koenig: linear model of every rank against the root,
 *             O(p) (HCA16 Alg. 15-17)
 *   hca       tree of slopes, intercepts measured against the root, O(p)
 *             (HCA16 Alg. 2-4)
 *   hca2      tree of slopes and merged intercepts, scattered from the
 *             root, O(log p)
 *   hca3      top-down: clients learn against references already on the
 *             global clock (HCA18 Alg. 1-2)
 *   prop      the level leader broadcasts its serialized clock (HCA18
 *             Alg. 3); only for ranks that read one time source
 * A specification joins levels with '+', outermost first (HCA18 Alg. 4):
 * "hca3+prop" runs hca3 between the node leaders, then prop inside each
 * node; "hca3+hca3+prop" adds a socket level (node leaders, socket leaders
 * of a node, ranks of a socket). Levels come from the real topology or from
 * ranks_per_node / ranks_per_socket of the parameters (virtual levels,
 * topo.h).
 *
 * Beyond the papers, the drift parameter: a fitted slope smaller than its own noise adds
 * error instead of removing it. With HM_DRIFT_AUTO each learned pairwise model
 * keeps its slope only when a t test finds it significant: t = |slope| / se,
 * se the largest of the least-squares error, the error of the line through
 * 10 batch means and residual sd / span, against the two-sided 0.05 % Student
 * quantile (5.62 at 8 degrees of freedom); otherwise it becomes an offset
 * model (docs/clocks.md). A learning whose test could not have kept a slope
 * of drift_resolution_ppm (0.5 ppm by default: t_critical x se above it,
 * e.g. MPICH's offsets, ~30 ns noisier than Open MPI's on shared memory)
 * goes on for more fit points, sized by the 1 / span law of se, up to
 * HM_SYNC_FIT_EXTEND_MAX x fitpoints in all: a drift of twice the
 * resolution is then kept, and a kept slope is known to about
 * resolution / t_critical (one se). A slope below the resolution is kept
 * only at HM_SYNC_DRIFT_FLOOR_SIGMAS x the critical value: the offsets of
 * clocks without drift can wander by ~60 ns over a learning of 0.1 s,
 * which the test at its level takes for ~0.5 ppm (docs/clocks.md). The report says which model
 * each level chose, the statistic it was chosen by, the drift its offset
 * models may hide and the fits extended. */
#ifndef HARMONIA_SYNC_H
#define HARMONIA_SYNC_H
#include <harmonia/export.h>
#include <harmonia/progress.h>

#include <stddef.h>

#include <mpi.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/offset.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hm_drift { HM_DRIFT_AUTO = 0, HM_DRIFT_ON = 1, HM_DRIFT_OFF = 2 } hm_drift_t;

/* The drift modes' names ("auto", "on", "off"; NULL outside the enum), the
 * lookup by name (drift may be NULL; HM_ENOENT, last error 'unknown drift
 * mode "x" (known: auto, on, off)') and the list for help and errors. */
HM_EXPORT const char *hm_sync_drift_name(hm_drift_t drift);
HM_EXPORT int hm_sync_drift_find(const char *name, hm_drift_t *drift);
HM_EXPORT void hm_sync_drift_names(char *buf, size_t len);

#define HM_SYNC_MAX_LEVELS 3

/* A pairwise learning of drift auto is extended to at most this many times
 * params->fitpoints fit points (sync.h above, drift_resolution_ppm). */
#define HM_SYNC_FIT_EXTEND_MAX 4

/* Drift auto keeps a significant slope smaller than drift_resolution_ppm
 * only when its t is this many times the critical value (sync.h above). */
#define HM_SYNC_DRIFT_FLOOR_SIGMAS 3

typedef struct hm_sync_params {
    int fitpoints;               /* offsets per linear regression (jk, hca*) */
    int exchanges;               /* ping-pongs per offset measurement */
    hm_offset_kind_t offset;     /* offset algorithm of the drift-aware algorithms */
    hm_drift_t drift;            /* slope kept always (on), never (off), or when significant */
    double drift_sigmas;         /* auto: keep the slope when |slope| / stderr >= this; 0
                                    (default): the t quantile of the stated test (sync.h above) */
    double drift_resolution_ppm; /* auto: a pairwise learning whose test could not have kept
                                    a slope of this size (either model) goes on, up to
                                    HM_SYNC_FIT_EXTEND_MAX x fitpoints (below), and a smaller
                                    slope needs HM_SYNC_DRIFT_FLOOR_SIGMAS x the critical
                                    value; 0: never */
    int recompute_intercept;     /* hca3: re-measure the intercept after each fit (Hunold &
                                    Carpen-Amarie 2018, Alg. 2) */
    int ranks_per_node;          /* levels of a hierarchical spec: 0 = real topology */
    int ranks_per_socket;
    hm_progress_t progress; /* fit points of the pair being fitted, reported on both ranks
                               of the pair (jk: on the root); not compared across ranks */
} hm_sync_params_t;

/* What one synchronization did, identical on every rank except where noted. */
typedef struct hm_sync_report {
    double duration_s;                      /* max over ranks, communicators included */
    int nlevels;                            /* levels of the spec */
    char algorithm[HM_SYNC_MAX_LEVELS][16]; /* name of each level */
    int drift_models[HM_SYNC_MAX_LEVELS];   /* pairwise models of the level that kept a slope */
    int offset_models[HM_SYNC_MAX_LEVELS];  /* ... that fell back to an offset model */
    /* The drift test of the level's pairwise fits, t = |slope| / stderr
     * (computed whatever the drift mode): the largest t of the models that
     * became offsets, the smallest of those that kept a slope (NaN: no such
     * model), and the critical value they were compared with (NaN: the
     * level fits no line, e.g. skampi or prop). */
    double drift_t_offset_max[HM_SYNC_MAX_LEVELS];
    double drift_t_linear_min[HM_SYNC_MAX_LEVELS];
    double drift_t_critical[HM_SYNC_MAX_LEVELS];
    /* The largest drift an offset model of the level may hide: the smallest
     * slope its fit's test would have kept, t_critical x se, in ppm (NaN: no
     * offset model; infinite: a fit of too few points to judge a slope); the fits learned beyond
     * fitpoints to resolve drift_resolution_ppm, and the most fit points of one fit. */
    double drift_resolution_ppm[HM_SYNC_MAX_LEVELS];
    int fits_extended[HM_SYNC_MAX_LEVELS];
    int fitpoints_max[HM_SYNC_MAX_LEVELS];
    long pingpongs;           /* this rank: ping-pongs it took part in */
    long total_pingpongs;     /* ping-pongs of the whole synchronization (each counted once) */
    long internode_pingpongs; /* ... of them between ranks of different nodes (the real
                                 topology, or ranks_per_node's virtual nodes) */
} hm_sync_report_t;

/* The report's models in one line, local: per level, the pairwise models
 * that kept a slope (L) and those that fell back to an offset (O), the
 * drift test they were decided by, the drift the offsets may hide and the
 * fits extended, e.g.
 *   "hca3:0L/1O(t 0.84<5.62; hides < 0.3 ppm) prop:0L/0O"
 *   "hca3:1L/0O(t 12.3>=5.62)"              (the smallest t of the slopes)
 *   "jk:2L/1O(t 0.84<5.62, 12.3>=5.62; hides < 0.45 ppm; 1 extended to
 *    2300 points)"
 * Truncated to len - 1 characters; r NULL: "". */
HM_EXPORT void hm_sync_report_models(const hm_sync_report_t *r, char *buf, size_t len);

/* Defaults: fitpoints 1000, exchanges 100, skampi offsets, drift auto with
 * the t test's quantile (drift_sigmas 0) resolving 0.5 ppm
 * (drift_resolution_ppm), recompute_intercept on, real topology. */
HM_EXPORT void hm_sync_params_default(hm_sync_params_t *params);

/* The drift decision of params in one line, for the experimental factors
 * of result files (for params->fitpoints fit points), e.g. "auto: slope
 * kept when |slope| / se >= 5.617 (t test, two-sided 0.05 %, 8 dof); se =
 * max(least squares, line through batch means, residual sd / span)"; on
 * and off say that they keep the slope always or never and still report
 * the test. Local; params NULL or not valid: "". */
HM_EXPORT void hm_sync_drift_test_describe(const hm_sync_params_t *params, char *buf, size_t len);

/* Registered algorithms: count, i-th name, and the list for help and errors. */
HM_EXPORT size_t hm_sync_count(void);
HM_EXPORT const char *hm_sync_name_at(size_t i);
HM_EXPORT void hm_sync_names(char *buf, size_t len);

/* Check a specification without MPI: known names, 1 to HM_SYNC_MAX_LEVELS
 * levels, prop never the outermost level of a multi-level spec. HM_ENOENT
 * (an unknown name) or HM_EINVAL with the last error saying which, e.g.
 *   unknown algorithm "hca4" (known: skampi, netgauge, jk, hca, hca2, hca3, prop, refine) */
HM_EXPORT int hm_sync_check_spec(const char *spec);

/* Synchronize the clocks of all ranks of comm. Collective. base is each
 * rank's local clock (usually an identity clock over the chosen timer). On
 * success *out is the rank's global clock (release with hm_clock_free) and
 * report (may be NULL) describes the run. On error every rank returns the same
 * code and leaves the same last error: HM_ENOENT or HM_EINVAL for a spec
 * hm_sync_check_spec refuses, HM_EINVAL for parameters out of range or
 * different on some rank, or prop over ranks that do not share a time source
 * (the last error naming the value or the reason); HM_ENOMEM, HM_EMPI. */
HM_EXPORT int hm_sync_run(MPI_Comm comm, const char *spec, const hm_sync_params_t *params,
                          hm_clock_t *base, hm_clock_t **out, hm_sync_report_t *report);

/* Local, no MPI: the number of levels of a valid spec (1 to
 * HM_SYNC_MAX_LEVELS) and whether its innermost level copies its leader's
 * clock (prop), as a re-synchronization that keeps the hierarchy needs to
 * know. HM_ENOENT or HM_EINVAL, with the same last error, for a spec
 * hm_sync_check_spec refuses. */
HM_EXPORT int hm_sync_spec_levels(const char *spec, int *nlevels, int *innermost_propagates);

/* The parameters of hm_sync_params_t an algorithm reads, as bits: a
 * record of a run states only those (the others did not shape its clock). */
typedef enum hm_sync_param {
    HM_SYNC_PARAM_FITPOINTS = 1u << 0,           /* jk, hca, hca2, hca3 */
    HM_SYNC_PARAM_EXCHANGES = 1u << 1,           /* all but prop */
    HM_SYNC_PARAM_OFFSET = 1u << 2,              /* the offset algorithm: jk, hca* */
    HM_SYNC_PARAM_DRIFT = 1u << 3,               /* drift and its test: jk, hca* */
    HM_SYNC_PARAM_RECOMPUTE_INTERCEPT = 1u << 4, /* hca2, hca3 */
    HM_SYNC_PARAM_TOPOLOGY = 1u << 5             /* ranks_per_node and _socket: 2+ levels */
} hm_sync_param_t;

/* Local, no MPI: the union of the hm_sync_param_t bits the levels of spec
 * read (0 for a spec hm_sync_check_spec refuses). */
HM_EXPORT unsigned hm_sync_spec_reads(const char *spec);

/* Collective over comm, which the caller keeps private to this call: rank 0
 * passes its clock to every other rank (ClockPropSync,
 * [Hunold & Carpen-Amarie 2018, Alg. 3]); the others pass their base clock,
 * whose time source the copy is built over. *out is the new clock (release
 * with hm_clock_free; on rank 0 it is clock, retained). Every rank returns
 * the same status and leaves the same last error: HM_EINVAL when the ranks
 * do not read one time source, HM_ENOMEM, HM_EMPI. */
HM_EXPORT int hm_sync_propagate(MPI_Comm comm, hm_clock_t *clock, hm_clock_t **out);

/* ---- Checking a global clock (Hunold & Carpen-Amarie 2018, Alg. 6, Check-Global-Clock) ---- */

/* What one check saw. Offsets are measured by ping-pongs (SKaMPI-Offset)
 * between rank 0 and each sampled rank, both timestamping with their global
 * clock; the true error needs no message: every rank compares its global
 * clock with the reference's time at the same true instant, which is known
 * when every rank reads one real clock (same hm_timer_domain) or a synthetic
 * clock over one (rank 0's draw tells the reference). */
typedef struct hm_sync_check {
    int nsampled;           /* ranks whose offset was measured */
    double offset_max_s;    /* max |offset| over the sampled ranks */
    double offset_median_s; /* median |offset| */
    int truth_known;        /* the true errors below are meaningful */
    double true_max_s;      /* max |true error| over all ranks */
    double true_median_s;   /* median |true error| over all ranks but rank 0 */
} hm_sync_check_t;

/* Collective. sampled lists the ranks (not 0) to measure, the same on every
 * rank (NULL with nsampled = -1: all ranks). On rank 0, offsets_s and
 * true_errors_s (each may be NULL, else size of comm) receive per-rank values
 * (NaN where not measured or not known); offset = rank's global clock - rank
 * 0's global clock. *check is filled on rank 0 (the same on all ranks for
 * truth_known). */
HM_EXPORT int hm_sync_check(MPI_Comm comm, hm_clock_t *global, int exchanges, const int *sampled,
                            int nsampled, hm_sync_check_t *check, double *offsets_s,
                            double *true_errors_s);

/* ---- A clock ready at once, refined as the run goes on ------------------
 *
 * A one-shot synchronization pays for its drift estimate up front: a slope
 * fitted over a span T from n offsets of noise s is off by about
 * s sqrt(12 / n) / T, and its fit points are one round trip apart, so a
 * short span costs accuracy far faster than it saves time (docs/clocks.md).
 * A refiner is ready after one offset per rank (down HCA3's binomial tree,
 * each client against a reference that already holds the global clock:
 * Hunold & Carpen-Amarie 2018, Alg. 1's order) and then refines: each
 * refinement measures one offset per rank again, and the model is the
 * weighted least-squares line through all of a rank's offsets, so its drift
 * is estimated over the longest span there is. With refinements at spans
 * that double, the error at the next one stays about the noise of one
 * offset whatever the drift.
 *
 * An offset's weight is 1 / (rtt / 2)^2, its smallest round trip bounding
 * its error (SKaMPI-Offset's bounds), so an offset taken across a
 * preemption counts for little. */
typedef struct hm_sync_refiner hm_sync_refiner_t;

typedef struct hm_sync_refiner_stats {
    double ready_s;         /* the ready phase's wall time, max over ranks */
    long refinements;       /* refinements done */
    double refine_cost_s;   /* their wall time, added, max over ranks each */
    long pingpongs;         /* this rank's, ready phase and refinements, warm-up included */
    double first_s, last_s; /* global times of this rank's first and last offset (NaN on rank 0) */
    double uncertainty_s;   /* this rank's predicted error bound at its last offset's time from
                             * the fit (0 on rank 0, NaN before two offsets) */
} hm_sync_refiner_stats_t;

/* Collective over comm (duplicated inside): the ready phase, one offset per
 * rank (params->exchanges ping-pongs of params->offset) from base, *clock
 * an offset model over base (base itself, retained, on rank 0). The first
 * refinement is due first_gap_s later (> 0; 1 ms holds 100 ppm of drift to
 * 0.1 us until then), the next ones at spans from the ready phase that
 * double. Every rank returns the same status. */
HM_EXPORT int hm_sync_refiner_create(MPI_Comm comm, hm_clock_t *base,
                                     const hm_sync_params_t *params, double first_gap_s,
                                     hm_sync_refiner_t **out, hm_clock_t **clock);
HM_EXPORT void hm_sync_refiner_free(hm_sync_refiner_t *rf);

/* hm_sync_run, keeping the refiner of a refining spec ("refine"): *refiner
 * receives it on every rank (NULL for any other spec, whose clock is final,
 * and over one rank, which has nothing to refine; refiner may be NULL).
 * The clock is the refiner's first; the caller refines it and frees both. */
HM_EXPORT int hm_sync_run_refining(MPI_Comm comm, const char *spec, const hm_sync_params_t *params,
                                   hm_clock_t *base, hm_clock_t **out, hm_sync_report_t *rep,
                                   hm_sync_refiner_t **refiner);

/* 1 when spec is a refining synchronization ("refine"), else 0. */
HM_EXPORT int hm_sync_spec_refines(const char *spec);

/* The first gap of a refiner made by hm_sync_run ("refine"): 1 ms holds
 * 100 ppm of drift to 0.1 us until the first refinement. */
#define HM_SYNC_REFINE_FIRST_GAP_S 1e-3

/* Collective: one offset per rank again and the model refitted through all
 * of them; *clock a new clock (the caller frees the old one). */
HM_EXPORT int hm_sync_refiner_refine(hm_sync_refiner_t *rf, hm_clock_t **clock);

/* Local: whether a refinement is due at now_s, a time on the global clock:
 * the same on every rank to within the clocks' error, so a caller agrees on
 * it (rank 0 decides and broadcasts, as hm_harmonize does). */
HM_EXPORT int hm_sync_refiner_due(const hm_sync_refiner_t *rf, double now_s);
/* Local: the global time at which the next refinement is due, the same on
 * every rank: first_gap_s x 2^(k-1) after the ready phase for refinement k,
 * or the first such instant after the last refinement (a caller's late
 * occasion) when that is later, both from agreed times. Ranks that wait
 * for it on their global clocks meet there. */
HM_EXPORT double hm_sync_refiner_next_s(const hm_sync_refiner_t *rf);

/* Local: the refiner's current clock, as its last refinement (or the ready
 * phase) handed it out. Borrowed: valid until the next refinement. */
HM_EXPORT hm_clock_t *hm_sync_refiner_clock(const hm_sync_refiner_t *rf);

/* Local. */
HM_EXPORT void hm_sync_refiner_stats(const hm_sync_refiner_t *rf, hm_sync_refiner_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
