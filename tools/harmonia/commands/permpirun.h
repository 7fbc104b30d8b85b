/* tools/harmonia/commands/permpirun.h — the per-mpirun dataset of a campaign (Hunold and
 * Carpen-Amarie 2016, Alg. 6): per run and (op, size, processes, sync), the
 * valid repetitions of the run's raw file filtered and reduced to their median
 * and mean. campaign writes it, compare and plot read it, and the
 * reproducibility report (Fig. 29: each run's value over the smallest run's)
 * is computed from it. */
#ifndef HM_CLI_PERMPIRUN_H
#define HM_CLI_PERMPIRUN_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <harmonia/output.h>

/* The file's name inside a campaign directory, and its columns in order:
 * run, seed, op, size_bytes, processes, sync, n, kept, median_s, mean_s. */
#define HM_PERMPIRUN_FILE "per-mpirun.csv"
#define HM_REPRO_FILE     "reproducibility.csv"

/* A campaign directory stands for its per-mpirun.csv: path receives
 * "operand/per-mpirun.csv" when operand is a directory, else operand. 1 for a
 * directory, 0 otherwise, -1 when the path does not fit in len. */
int hm_permpirun_resolve(const char *operand, char *path, size_t len);

typedef struct hm_permpirun_row {
    long run;      /* 1-based run of the campaign */
    uint64_t seed; /* the seed that run was given */
    char op[32];
    long long size_bytes;
    long processes;
    char sync[64];
    size_t n;    /* valid repetitions in the run's raw file */
    size_t kept; /* after the filter */
    double median_s, mean_s;
} hm_permpirun_row_t;

typedef struct hm_permpirun {
    hm_permpirun_row_t *rows;
    size_t n, cap;
} hm_permpirun_t;

/* Alg. 6 on one run: read the raw file of 'harmonia bench --raw' at path,
 * group its valid repetitions (column metric_col, "global_s" or "local_s")
 * by (op, size_bytes) (processes and sync from the file's factors), filter
 * each group ("tukey" or "none") and append one row per group, tagged with run
 * and seed, in (op, size) order. HM_EINVAL with "path[:line]: reason" in why
 * (missing file or columns, a non-numeric cell, no valid repetitions);
 * HM_ENOMEM. */
int hm_permpirun_add_raw(hm_permpirun_t *ds, const char *path, long run, uint64_t seed,
                         const char *metric_col, const char *filter, char *why, size_t why_len);

/* Write ds atomically to path with the factor lines of factors (may be NULL).
 * HM_EIO with the reason in why. */
int hm_permpirun_write(const hm_permpirun_t *ds, const char *path, const hm_factors_t *factors,
                       char *why, size_t why_len);

/* Read a file written by hm_permpirun_write, appending to ds. HM_EINVAL with
 * "path[:line]: reason" in why when it is not one; HM_ENOMEM. */
int hm_permpirun_read(const char *path, hm_permpirun_t *ds, char *why, size_t why_len);

void hm_permpirun_free(hm_permpirun_t *ds);

/* Alg. 6 line 9: keep the values of x[0..n) that filter ("tukey" or "none")
 * retains, in place and in their input order; *kept is their number. Also
 * what compare applies to the repetitions of a raw file. HM_EINVAL for
 * another filter; HM_ENOMEM. */
int hm_permpirun_filter(const char *filter, double *x, size_t n, size_t *kept);

/* Order the rows by op, size_bytes, processes, sync, run (a stable order for
 * files and tables whatever order the runs finished in). */
void hm_permpirun_sort(hm_permpirun_t *ds);

/* The row's value of statistic: mean_s for "mean", else median_s. */
double hm_permpirun_value(const hm_permpirun_row_t *row, const char *statistic);

/* Per (op, size, processes, sync): the number of runs, the median, min and
 * max over runs of statistic ("median" or "mean") and the reproducibility
 * (largest per-run value / smallest), as a table on f (microseconds),
 * preceded by one line saying what the columns are. HM_EINVAL for another
 * statistic, HM_ENOMEM, HM_EIO when f cannot be written. */
int hm_permpirun_print_summary(const hm_permpirun_t *ds, const char *statistic, FILE *f);

/* The reproducibility report on f: per group, every run's value of
 * statistic divided by the smallest run's, ascending, and the largest. */
int hm_permpirun_print_normalized(const hm_permpirun_t *ds, const char *statistic, FILE *f);

/* The reproducibility report (Fig. 29) atomically at path: one row per run
 * and group with the value of statistic and value / min over the group's
 * runs, and the group's maximum of that ratio. HM_EIO with why. */
int hm_permpirun_write_reproducibility(const hm_permpirun_t *ds, const char *statistic,
                                       const char *path, const hm_factors_t *factors, char *why,
                                       size_t why_len);
#endif
