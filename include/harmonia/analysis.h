/* include/harmonia/analysis.h — what harmonia makes of its result files:
 * groups of run-times, outlier filters, the per-mpirun dataset of a campaign
 * [Hunold & Carpen-Amarie 2016, Alg. 6], its reproducibility (Fig. 29),
 * summaries of groups, and the Wilcoxon comparison of two alternatives on
 * per-mpirun values (Sec. 6.2).
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

/* The samples of one (op, size_bytes, processes, sync), in the order they
 * were added. Strings and x_s belong to the groups. */
typedef struct hm_analysis_group {
    char *op;
    long long size_bytes;
    long processes;
    char *sync;
    double *x_s;
    size_t n;
    size_t cap; /* room in x_s */
} hm_analysis_group_t;

/* Groups g[0..n-1]. Start from {0}; release with hm_analysis_groups_free. */
typedef struct hm_analysis_groups {
    hm_analysis_group_t *g;
    size_t n, cap;
} hm_analysis_groups_t;

/* Append x_s to its group, created at the end when new. HM_ENOMEM. */
HM_EXPORT int hm_analysis_groups_add(hm_analysis_groups_t *groups, const char *op,
                                     long long size_bytes, long processes, const char *sync,
                                     double x_s);

/* Append the valid repetitions of the raw file of `bench --raw` at path
 * (its metric column), each to its group, processes and sync from the
 * file's factors. A file without valid repetitions adds nothing. Errors as
 * hm_results_bench_raw_open and _next. */
HM_EXPORT int hm_analysis_groups_read_raw(hm_analysis_groups_t *groups, const char *path,
                                          hm_metric_t metric);

/* Append every row's value of statistic to its group: the per-mpirun
 * samples of Sec. 6.2, one per run. HM_ENOMEM. */
HM_EXPORT int hm_analysis_groups_from_permpirun(hm_analysis_groups_t *groups,
                                                const hm_results_permpirun_t *ds,
                                                hm_statistic_t statistic);

/* Filter every group in place (hm_analysis_filter). */
HM_EXPORT int hm_analysis_groups_filter(hm_analysis_groups_t *groups, hm_filter_t filter);

/* Order the groups by op, size_bytes, processes, sync. */
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

/* One row of an HM_RESULTS_STATS file (hm_results_csv_open). */
HM_EXPORT int hm_analysis_summary_write_row(hm_csv_t *csv, const hm_analysis_group_t *g,
                                            const hm_analysis_summary_t *summary);

/* ---- The per-mpirun dataset (Alg. 6) ------------------------------------- */

/* Alg. 6 on one run: the valid repetitions of the raw file at path (its
 * metric column) by (op, size_bytes), filtered and reduced to their median
 * and mean, appended to ds as one row per group, tagged with run and seed,
 * in (op, size) order. A run is added whole or not at all. HM_EINVAL with
 * "path[:line]: reason" (a missing or unreadable file included: it is bad
 * input to the caller, as a bad cell; no valid repetitions; a name too long
 * for the row); HM_ENOMEM. */
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
} hm_analysis_repro_run_t;

/* One (op, size_bytes, processes, sync) over the runs of a dataset. */
typedef struct hm_analysis_repro_group {
    const hm_results_permpirun_row_t *key; /* its first run: op, size, processes, sync */
    const hm_analysis_repro_run_t *runs;   /* nruns, ascending run */
    size_t nruns;
    double median_s, min_s, max_s; /* of the runs' values (median: type 7) */
    double max_normalized;         /* max_s / min_s; NaN unless min_s > 0 */
} hm_analysis_repro_group_t;

typedef struct hm_analysis_repro hm_analysis_repro_t;

/* The reproducibility of ds for statistic: its groups in (op, size,
 * processes, sync) order. *out is the caller's (hm_analysis_repro_free)
 * and holds its own copy of the rows. HM_EINVAL for a statistic outside the
 * enum; HM_ENOMEM. */
HM_EXPORT int hm_analysis_repro_create(const hm_results_permpirun_t *ds, hm_statistic_t statistic,
                                       hm_analysis_repro_t **out);

/* The statistic repro is of; the number of groups, and group i (NULL past
 * the end; owned by repro). */
HM_EXPORT hm_statistic_t hm_analysis_repro_statistic(const hm_analysis_repro_t *repro);
HM_EXPORT size_t hm_analysis_repro_count(const hm_analysis_repro_t *repro);
HM_EXPORT const hm_analysis_repro_group_t *hm_analysis_repro_group(const hm_analysis_repro_t *repro,
                                                                   size_t i);

/* The reproducibility report atomically at path: one row per group and run
 * (HM_RESULTS_REPRO, its value column named after the statistic), the
 * factors (may be NULL) plus "statistic". HM_EIO (the last error names the
 * path); HM_ENOMEM. */
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
    HM_VERDICT_A_LARGER         /* alternative greater */
} hm_verdict_t;

/* "no evidence", "B faster", "B slower", "A smaller", "A larger"; NULL for
 * another value. */
HM_EXPORT const char *hm_analysis_verdict_name(hm_verdict_t verdict);

/* One side: its samples per group, the per-run values of a per-mpirun
 * dataset (hm_analysis_groups_from_permpirun) or the filtered repetitions of
 * one raw file. */
typedef struct hm_analysis_side {
    const char *path; /* the file read, for messages */
    int raw;          /* 1: repetitions within one mpirun, not per-mpirun values */
    hm_analysis_groups_t groups;
} hm_analysis_side_t;

/* Sort the side's groups and check that each (op, size, processes) has one
 * sync: two would pool two experiments into one sample. HM_EINVAL with
 * "path holds OP SIZE B at P processes under more than one sync (...)". */
HM_EXPORT int hm_analysis_side_check(hm_analysis_side_t *side);

/* Both checked sides hold the same (op, size, processes), so that group k of
 * A is compared with group k of B. HM_EINVAL with "A and B hold different
 * groups (op, size, processes): only in A (path): ...; only in B (path):
 * ..." (up to 4 named per side). */
HM_EXPORT int hm_analysis_compare_check(const hm_analysis_side_t *a, const hm_analysis_side_t *b);

/* Group k of A against group k of B. */
typedef struct hm_analysis_comparison {
    const hm_analysis_group_t *a, *b;     /* owned by the sides */
    double median_a_s, median_b_s, ratio; /* ratio: median_b_s / median_a_s (NaN for A's <= 0) */
    hm_wilcoxon_t test;                   /* x = A's samples, y = B's */
    double repro_a, repro_b;              /* largest per-run value / smallest; NaN for a raw side */
    hm_verdict_t verdict;
} hm_analysis_comparison_t;

/* The Wilcoxon rank-sum test of group k of a against group k of b for
 * alternative (hm_stats_wilcoxon) and its verdict: two-sided rejections are
 * told by the medians' ratio, equal medians by the direction of W. HM_EINVAL
 * for k past the end or an empty group; HM_ENOMEM. */
HM_EXPORT int hm_analysis_compare(const hm_analysis_side_t *a, const hm_analysis_side_t *b,
                                  size_t k, hm_alternative_t alternative,
                                  hm_analysis_comparison_t *out);

/* One row of an HM_RESULTS_COMPARE file (hm_results_csv_open). */
HM_EXPORT int hm_analysis_comparison_write_row(hm_csv_t *csv, const hm_analysis_comparison_t *c);

#ifdef __cplusplus
}
#endif
#endif
