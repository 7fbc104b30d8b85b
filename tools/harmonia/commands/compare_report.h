/* tools/harmonia/commands/compare_report.h — `harmonia compare`: the two sides, the test of
 * each group (Hunold and Carpen-Amarie 2016, Sec. 6.2), the table and the
 * CSV file. */
#ifndef HM_CLI_COMPARE_REPORT_H
#define HM_CLI_COMPARE_REPORT_H
#include <stddef.h>
#include <stdio.h>

#include <harmonia/output.h>
#include <harmonia/stats.h>

#include "options/config.h"
#include "commands/stats_report.h"

/* Significance level of the verdicts (the paper's 5 %). */
#define HM_COMPARE_LEVEL 0.05

/* One operand. groups holds its samples per (op, size, processes, sync),
 * sorted, at most one sync per (op, size, processes): the per-run values of
 * --statistic for a per-mpirun file, the filtered valid repetitions for a
 * raw file. */
typedef struct hm_compare_side {
    char name;           /* 'A' or 'B' */
    const char *operand; /* as given on the command line */
    char path[4096];     /* the file read */
    int raw;             /* 1: a raw file of one mpirun, not per-mpirun values */
    char label[128];     /* its sync, or its name when both sides share a sync */
    char metric[16];     /* how the per-mpirun values were reduced ("" unknown) */
    char filter[16];
    hm_stats_groups_t groups;
} hm_compare_side_t;

/* The comparison of group k of A with group k of B (the same op, size and
 * processes). */
typedef struct hm_compare_row {
    const hm_stats_group_t *a, *b;
    double median_a_s, median_b_s, ratio; /* ratio: median_b_s / median_a_s */
    hm_wilcoxon_t test;                   /* x = A's samples, y = B's */
    const char *stars, *verdict;
    double repro_a, repro_b; /* largest per-run value / smallest; NaN for a raw file */
} hm_compare_row_t;

/* "two-sided", "less", "greater" as the library's constant. */
hm_alternative_t hm_compare_alternative(const char *name);

/* Test group k of both sides. HM_ENOMEM, HM_EINVAL (an empty group). */
int hm_compare_row_compute(const hm_compare_side_t *a, const hm_compare_side_t *b, size_t k,
                           hm_alternative_t alternative, hm_compare_row_t *row);

/* The lines that say what A, B and the columns are, then the table
 * (microseconds). */
int hm_compare_print(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                     const hm_compare_side_t *b, const hm_compare_row_t *rows, size_t n, FILE *f);

/* The CSV columns (seconds) and one row of the file. */
extern const char *const hm_compare_columns[];
extern const size_t hm_compare_ncolumns;
int hm_compare_write_row(hm_csv_t *csv, const hm_compare_row_t *row);
#endif
