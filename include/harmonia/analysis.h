/* include/harmonia/analysis.h — what harmonia makes of its result files:
 * groups of run-times, outlier filters, the per-mpirun dataset of a campaign
 * [Hunold & Carpen-Amarie 2016, Alg. 6], its reproducibility (Fig. 29),
 * summaries of groups, and the Wilcoxon comparison of two alternatives on
 * per-mpirun values (Sec. 6.2).
 *
 * The samples are the run-times of bench, grouped by (op, size_bytes,
 * processes, sync), or one metric of overlap [Denis et al. 2022] (its
 * ratios or measured time), grouped by cell (op, comm_target_s, or
 * size_bytes under --sizes, comp_target_s) and processes, sync, progress;
 * the metric (harmonia/results.h) tells which.
 *
 * Computation only: no MPI, no printing; the files are read and written
 * through harmonia/results.h. Every function is local. Each choice is an
 * enum; its names (the spellings of the command line and of result files)
 * come from one table per choice, through the _name, _find and _names
 * functions. Errors are HM_OK or a negative HM_E* code, the sentence as the
 * thread's last error (hm_last_error). */
#ifndef HARMONIA_ANALYSIS_H
#define HARMONIA_ANALYSIS_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <harmonia/error.h>
#include <harmonia/output.h>
#include <harmonia/results.h>
#include <harmonia/stats.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Choices --------------------------------------------------------------- */

/* Outliers dropped before a group is reduced (Sec. 3.5). */
typedef enum hm_filter {
    HM_FILTER_TUKEY = 0, /* keep [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (hm_stats_tukey) */
    HM_FILTER_NONE = 1
} hm_filter_t;

/* What represents one mpirun (Alg. 6 computes both). */
typedef enum hm_statistic { HM_STATISTIC_MEDIAN = 0, HM_STATISTIC_MEAN = 1 } hm_statistic_t;

/* For each choice: its name ("tukey"; NULL for a value outside the enum);
 * lookup by name (HM_ENOENT, with the last error 'unknown filter "x"
 * (known: tukey, none)'); the list "tukey, none" for help and error texts.
 * The alternative is hm_alternative_t of harmonia/stats.h: "two-sided",
 * "less", "greater". */
HM_EXPORT const char *hm_analysis_filter_name(hm_filter_t filter);
HM_EXPORT int hm_analysis_filter_find(const char *name, hm_filter_t *filter);
HM_EXPORT void hm_analysis_filter_names(char *buf, size_t len);
HM_EXPORT const char *hm_analysis_statistic_name(hm_statistic_t statistic);
HM_EXPORT int hm_analysis_statistic_find(const char *name, hm_statistic_t *statistic);
HM_EXPORT void hm_analysis_statistic_names(char *buf, size_t len);
HM_EXPORT const char *hm_analysis_alternative_name(hm_alternative_t alternative);
HM_EXPORT int hm_analysis_alternative_find(const char *name, hm_alternative_t *alternative);
HM_EXPORT void hm_analysis_alternative_names(char *buf, size_t len);

/* Alg. 6 line 9: keep the values of x[0..n) that filter retains, in place
 * and in their input order; *kept is their number. HM_EINVAL for a filter
 * outside the enum; HM_ENOMEM. */
HM_EXPORT int hm_analysis_filter(hm_filter_t filter, double *x, size_t n, size_t *kept);

/* ---- Groups ---------------------------------------------------------------- */

/* The samples of one (op, size_bytes, processes, sync) of bench, or of one
 * cell of overlap with its processes, sync and progress, in the order they
 * were added. Strings and x_s belong to the groups. */
typedef struct hm_analysis_group {
    char *op;
    long long size_bytes; /* overlap: -1 where comm_target_s names the cell */
    long processes;
    char *sync;
    double *x_s; /* seconds, or the ratio of an overlap metric */
    size_t n;
    size_t cap;                          /* room in x_s */
    hm_metric_t metric;                  /* what the samples are (global: {0}) */
    double comm_target_s, comp_target_s; /* overlap, NaN where none; bench: 0 */
    char *progress;                      /* overlap: the progress factor; bench: NULL */
    size_t n_invalid_cell;               /* overlap: samples added from a cell whose references
                                          * did not stand (cell_valid 0), before any filter: its
                                          * ratios are not what they claim */
} hm_analysis_group_t;

/* Where a sample goes: its metric and group. A metric of overlap makes the
 * key a cell of overlap (comm_target_s, comp_target_s, progress); bench
 * leaves those 0 and NULL. */
typedef struct hm_analysis_key {
    hm_metric_t metric;
    const char *op;
    long long size_bytes;
    double comm_target_s, comp_target_s;
    long processes;
    const char *sync;
    const char *progress;
    int cell_invalid; /* the sample's cell is invalid: counted, not a key (n_invalid_cell) */
} hm_analysis_key_t;

/* 1 when the samples of g are of a metric of overlap. */
HM_EXPORT int hm_analysis_group_is_overlap(const hm_analysis_group_t *g);

/* Groups g[0..n-1]. Start from {0}; release with hm_analysis_groups_free. */
typedef struct hm_analysis_groups {
    hm_analysis_group_t *g;
    size_t n, cap;
} hm_analysis_groups_t;

/* Append x_s to its group of bench (metric global), created at the end when
 * new. HM_ENOMEM. */
HM_EXPORT int hm_analysis_groups_add(hm_analysis_groups_t *groups, const char *op,
                                     long long size_bytes, long processes, const char *sync,
                                     double x_s);

/* Append x to the group of key, created at the end when new. HM_EINVAL
 * when the groups hold samples of another metric (they would pool two
 * things); HM_ENOMEM. */
HM_EXPORT int hm_analysis_groups_add_key(hm_analysis_groups_t *groups, const hm_analysis_key_t *key,
                                         double x);

/* Append the valid repetitions of the raw file at path, its column of
 * metric, each to its group: a raw file of `bench --raw` for global or
 * local (processes and sync from the file's factors), of `overlap --raw`
 * for a metric of overlap (and progress). A file without valid repetitions
 * adds nothing. Errors as hm_results_bench_raw_open (overlap_raw_open) and
 * _next, and as hm_analysis_groups_add_key. */
HM_EXPORT int hm_analysis_groups_read_raw(hm_analysis_groups_t *groups, const char *path,
                                          hm_metric_t metric);

/* Append every row's value of statistic to its group (the metric of ds):
 * the per-mpirun samples of Sec. 6.2, one per run. HM_EINVAL, HM_ENOMEM as
 * hm_analysis_groups_add_key. */
HM_EXPORT int hm_analysis_groups_from_permpirun(hm_analysis_groups_t *groups,
                                                const hm_results_permpirun_t *ds,
                                                hm_statistic_t statistic);

/* Filter every group in place (hm_analysis_filter). */
HM_EXPORT int hm_analysis_groups_filter(hm_analysis_groups_t *groups, hm_filter_t filter);

/* Order the groups by op, size_bytes, processes, sync (overlap: op,
 * comm_target_s, size_bytes, comp_target_s, processes, sync, progress;
 * "no target" first). */
HM_EXPORT void hm_analysis_groups_sort(hm_analysis_groups_t *groups);

/* Release everything; groups is {0} again. */
HM_EXPORT void hm_analysis_groups_free(hm_analysis_groups_t *groups);

/* ---- Summaries of groups (`harmonia stats`) ------------------------------- */

/* The statistics of one group; NaN where one is not defined for the data. */
typedef struct hm_analysis_summary {
    size_t n, kept;                  /* samples, and kept by the filter */
    hm_stats_summary_t s;            /* of the kept samples */
    double median_lo_s, median_hi_s; /* 95% interval of the median (order statistics) */
    double mean_lo_s, mean_hi_s;     /* 95% Student t interval of the mean */
    double acf1;      /* lag-1 autocorrelation of the kept samples, in order (n >= 3) */
    double shapiro_p; /* Shapiro-Wilk p-value (3 <= n <= 5000, not constant) */
} hm_analysis_summary_t;

/* Filter a copy of g's samples and compute its summary. HM_ENOMEM. */
HM_EXPORT int hm_analysis_summarize(const hm_analysis_group_t *g, hm_filter_t filter,
                                    hm_analysis_summary_t *out);

/* One row of an HM_RESULTS_STATS file (hm_results_csv_open), or of an
 * HM_RESULTS_STATS_OVERLAP file for a group of overlap. */
HM_EXPORT int hm_analysis_summary_write_row(hm_csv_t *csv, const hm_analysis_group_t *g,
                                            const hm_analysis_summary_t *summary);

/* ---- The per-mpirun dataset (Alg. 6) ------------------------------------- */

/* Alg. 6 on one run: the valid repetitions of the raw file at path (its
 * metric column) by (op, size_bytes), or by cell of overlap, filtered and
 * reduced to their median and mean, appended to ds as one row per group,
 * tagged with run and seed, in (op, size) or cell order. The first run sets
 * ds->metric; a run is added whole or not at all. HM_EINVAL with
 * "path[:line]: reason" (a missing or unreadable file included: it is bad
 * input to the caller, as a bad cell; no valid repetitions; a name too long
 * for the row; a metric other than ds's); HM_ENOMEM. */
HM_EXPORT int hm_analysis_permpirun_add_run(hm_results_permpirun_t *ds, const char *path, long run,
                                            uint64_t seed, hm_metric_t metric, hm_filter_t filter);

/* The row's value of statistic: median_s or mean_s. */
HM_EXPORT double hm_analysis_permpirun_value(const hm_results_permpirun_row_t *row,
                                             hm_statistic_t statistic);

/* ---- Reproducibility (Fig. 29) -------------------------------------------- */

typedef struct hm_analysis_repro_run {
    long run;
    double value_s;    /* the run's value of the statistic */
    double normalized; /* value_s / the group's smallest; NaN unless that is > 0 */
    double difference; /* value_s - the group's smallest */
    int cell_invalid;  /* overlap: the run's cell had references that did not stand */
} hm_analysis_repro_run_t;

/* One (op, size_bytes, processes, sync), or cell of overlap, over the runs
 * of a dataset. A ratio of overlap may be 0 or below: its spread is told
 * by max_difference, the quotient being undefined there. */
typedef struct hm_analysis_repro_group {
    const hm_results_permpirun_row_t *key; /* its first run: op, size, processes, sync */
    const hm_analysis_repro_run_t *runs;   /* nruns, ascending run */
    size_t nruns;
    double median_s, min_s, max_s; /* of the runs' values (median: type 7) */
    double max_normalized;         /* max_s / min_s; NaN unless min_s > 0 */
    double max_difference;         /* max_s - min_s */
    size_t ninvalid_cell;          /* overlap: runs whose cell's references did not stand */
    size_t nshort;                 /* runs with fewer valid repetitions than their nrep */
} hm_analysis_repro_group_t;

typedef struct hm_analysis_repro hm_analysis_repro_t;

/* The reproducibility of ds for statistic: its groups in (op, size,
 * processes, sync) order. *out is the caller's (hm_analysis_repro_free)
 * and holds its own copy of the rows. HM_EINVAL for a statistic outside the
 * enum; HM_ENOMEM. */
HM_EXPORT int hm_analysis_repro_create(const hm_results_permpirun_t *ds, hm_statistic_t statistic,
                                       hm_analysis_repro_t **out);

/* The statistic and the metric repro is of (-1 for a NULL repro); the
 * number of groups, and group i (NULL past the end; owned by repro). */
HM_EXPORT hm_statistic_t hm_analysis_repro_statistic(const hm_analysis_repro_t *repro);
HM_EXPORT hm_metric_t hm_analysis_repro_metric(const hm_analysis_repro_t *repro);
HM_EXPORT size_t hm_analysis_repro_count(const hm_analysis_repro_t *repro);
HM_EXPORT const hm_analysis_repro_group_t *hm_analysis_repro_group(const hm_analysis_repro_t *repro,
                                                                   size_t i);

/* The reproducibility report atomically at path: one row per group and run
 * (HM_RESULTS_REPRO, or HM_RESULTS_REPRO_OVERLAP for a metric of overlap,
 * its value column named after the statistic), the factors (may be NULL)
 * plus "statistic". HM_EIO (the last error names the path); HM_ENOMEM. */
HM_EXPORT int hm_analysis_repro_write(const hm_analysis_repro_t *repro, const char *path,
                                      const hm_factors_t *factors);

/* Release repro (NULL is accepted). */
HM_EXPORT void hm_analysis_repro_free(hm_analysis_repro_t *repro);

/* ---- Comparing A with B (Sec. 6.2) ---------------------------------------- */

/* Significance level of the verdicts (the paper's 5%). */
#define HM_ANALYSIS_LEVEL 0.05

/* The reading of one test at HM_ANALYSIS_LEVEL. "no evidence" is not
 * evidence of no difference. */
typedef enum hm_verdict {
    HM_VERDICT_NO_EVIDENCE = 0, /* the test does not reject */
    HM_VERDICT_B_FASTER,        /* two-sided, B's median below A's */
    HM_VERDICT_B_SLOWER,        /* two-sided, B's median above A's */
    HM_VERDICT_A_SMALLER,       /* alternative less */
    HM_VERDICT_A_LARGER,        /* alternative greater */
    HM_VERDICT_B_SMALLER,       /* two-sided, a ratio of overlap: B's median below A's */
    HM_VERDICT_B_LARGER,        /* two-sided, a ratio of overlap: B's median above A's */
    HM_VERDICT_INVALID_CELL     /* overlap: a side holds samples of a cell whose references
                                 * did not stand; the test is computed, but neither side's
                                 * ratios are what they claim */
} hm_verdict_t;

/* "no evidence", "B faster", "B slower", "A smaller", "A larger", "B
 * smaller", "B larger", "invalid cell"; NULL for another value. */
HM_EXPORT const char *hm_analysis_verdict_name(hm_verdict_t verdict);

/* One side: its samples per group, the per-run values of a per-mpirun
 * dataset (hm_analysis_groups_from_permpirun) or the filtered repetitions of
 * one raw file. */
typedef struct hm_analysis_side {
    const char *path; /* the file read, for messages */
    int raw;          /* 1: repetitions within one mpirun, not per-mpirun values */
    hm_analysis_groups_t groups;
} hm_analysis_side_t;

/* Sort the side's groups and check that each (op, size, processes), or
 * cell of overlap and processes, has one sync (and progress): two would
 * pool two experiments into one sample. HM_EINVAL with "path holds OP SIZE
 * B at P processes under more than one sync (...)". */
HM_EXPORT int hm_analysis_side_check(hm_analysis_side_t *side);

/* Both checked sides hold the same (op, size, processes), or cells of
 * overlap and processes, of the same metric, so that group k of A is
 * compared with group k of B. HM_EINVAL with "A and B hold different groups
 * (op, size, processes): only in A (path): ...; only in B (path): ..." (up
 * to 4 named per side), or naming the two metrics. */
HM_EXPORT int hm_analysis_compare_check(const hm_analysis_side_t *a, const hm_analysis_side_t *b);

/* Group k of A against group k of B. Times are told apart by the ratio of
 * their medians, the ratios of overlap (overhead may be 0 or below) by the
 * difference. */
typedef struct hm_analysis_comparison {
    const hm_analysis_group_t *a, *b;     /* owned by the sides */
    double median_a_s, median_b_s, ratio; /* ratio: median_b_s / median_a_s (NaN for A's <= 0) */
    double difference;                    /* median_b_s - median_a_s */
    hm_wilcoxon_t test;                   /* x = A's samples, y = B's */
    double repro_a, repro_b; /* largest per-run value / smallest; NaN for a raw side or min <= 0 */
    double range_a, range_b; /* largest per-run value - smallest; NaN for a raw side */
    hm_verdict_t verdict;
} hm_analysis_comparison_t;

/* The Wilcoxon rank-sum test of group k of a against group k of b for
 * alternative (hm_stats_wilcoxon) and its verdict: two-sided rejections are
 * told by the medians (B faster or slower for a time, B smaller or larger
 * for a ratio of overlap), equal medians by the direction of W. HM_EINVAL
 * for k past the end or an empty group; HM_ENOMEM. */
HM_EXPORT int hm_analysis_compare(const hm_analysis_side_t *a, const hm_analysis_side_t *b,
                                  size_t k, hm_alternative_t alternative,
                                  hm_analysis_comparison_t *out);

/* One row of an HM_RESULTS_COMPARE file (hm_results_csv_open), or of an
 * HM_RESULTS_COMPARE_OVERLAP file for groups of overlap. */
HM_EXPORT int hm_analysis_comparison_write_row(hm_csv_t *csv, const hm_analysis_comparison_t *c);

/* ---- Scaling with the process count (scale/run, docs/scale.md) ---- */

/* The two shapes a synchronization's cost takes: a tree's rounds grow as
 * log2 p, a root talking to every rank in turn as p. */
typedef enum hm_scaling_shape {
    HM_SCALING_LOG = 0,    /* y = a + b log2 p */
    HM_SCALING_LINEAR = 1, /* y = a + b p */
} hm_scaling_shape_t;

/* A least-squares fit of y against the shape's x(p). */
typedef struct hm_scaling_fit {
    hm_scaling_shape_t shape;
    double a, b; /* y = a + b x(p) */
    double r2;   /* coefficient of determination: 1 - residual / total sum of squares */
} hm_scaling_fit_t;

/* Fit y[i] measured at p[i] processes (n >= 3 points, p >= 1, at least
 * two distinct p, all finite) to shape. Local. HM_EINVAL naming the point
 * or the reason. */
HM_EXPORT int hm_analysis_fit_scaling(const double *p, const double *y, size_t n,
                                      hm_scaling_shape_t shape, hm_scaling_fit_t *fit);

/* The fitted value at p processes. */
HM_EXPORT double hm_analysis_scaling_at(const hm_scaling_fit_t *fit, double p);

/* The crossover of two fits: the smallest p in [lo_p, hi_p] (lo_p >= 1)
 * from which `second` stays above `first` (within 1e-6 relative), e.g. a
 * linear algorithm's duration overtaking a tree's. HM_ENOENT when second is
 * above first from lo_p on, or never above it up to hi_p. */
HM_EXPORT int hm_analysis_scaling_crossover(const hm_scaling_fit_t *first,
                                            const hm_scaling_fit_t *second, double lo_p,
                                            double hi_p, double *p);

#ifdef __cplusplus
}
#endif
#endif
