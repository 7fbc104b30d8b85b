/* tools/harmonia/commands/stats_report.h — the groups of `harmonia stats`, their statistics,
 * the table and the CSV file. */
#ifndef HM_CLI_STATS_REPORT_H
#define HM_CLI_STATS_REPORT_H
#include <stddef.h>

#include <harmonia/output.h>
#include <harmonia/stats.h>

/* The valid run-times of one (op, size, processes, sync), in file order. */
typedef struct hm_stats_group {
    char *op;
    long long size_bytes;
    long processes;
    char *sync;
    double *x_s;
    size_t n, cap;
} hm_stats_group_t;

typedef struct hm_stats_groups {
    hm_stats_group_t *g;
    size_t n, cap;
} hm_stats_groups_t;

/* Append x_s to its group, created at the end when new. HM_ENOMEM. */
int hm_stats_groups_add(hm_stats_groups_t *groups, const char *op, long long size_bytes,
                        long processes, const char *sync, double x_s);

/* Order by op, size, processes, sync. */
void hm_stats_groups_sort(hm_stats_groups_t *groups);

void hm_stats_groups_free(hm_stats_groups_t *groups);

/* Statistics of one group; NaN marks n/a. */
typedef struct hm_stats_row {
    size_t n, kept;
    hm_stats_summary_t s; /* of the kept values */
    double median_lo_s, median_hi_s, mean_lo_s, mean_hi_s;
    double acf1, shapiro_p;
} hm_stats_row_t;

/* Filter ("tukey" or "none") the values of g and compute its row. */
int hm_stats_row_compute(const hm_stats_group_t *g, const char *filter, hm_stats_row_t *row);

/* The table on stdout (microseconds). */
void hm_stats_print_table(const hm_stats_groups_t *groups, const hm_stats_row_t *rows, FILE *f);

/* The CSV columns (seconds) and one row of the file. */
extern const char *const hm_stats_columns[];
extern const size_t hm_stats_ncolumns;
int hm_stats_write_row(hm_csv_t *csv, const hm_stats_group_t *g, const hm_stats_row_t *row);
#endif
