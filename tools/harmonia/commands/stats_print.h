/* tools/harmonia/commands/stats_print.h — the tables of `harmonia stats` and `harmonia
 * campaign`: what the analysis layer computed, run-times in microseconds,
 * the ratios of overlap as they are. */
#ifndef HM_CLI_STATS_PRINT_H
#define HM_CLI_STATS_PRINT_H
#include <stdio.h>

#include <harmonia/analysis.h>

/* The progress configurations of the groups of a table of overlap, told
 * apart by a number where they differ: their words hold blanks, and a table
 * row is read by splitting at blanks. */
typedef struct cli_progresses {
    const char *names[32]; /* borrowed; the 33rd and later share "?" */
    size_t n;
} cli_progresses_t;

void cli_progresses_add(cli_progresses_t *p, const char *name);

/* "progress: basic" when all share one, else "progress: 1 = basic; 2 =
 * async (...)" (the column prog of the table gives the number). */
int cli_progresses_print(const cli_progresses_t *p, FILE *f);

/* The columns that name a cell of overlap: op, comm_us, size_B (with_size:
 * some cell was given its size, --sizes), comp_us, procs; and a cell's
 * values (a target that is not there: n/a for comm, "comm" for comp). */
int cli_cell_columns(hm_table_t *t, int with_size);
void cli_cell_cells(hm_table_t *t, const char *op, double comm_target_s, long long size_bytes,
                    double comp_target_s, long processes, int with_size);

/* One row per group: n, kept, quartiles, mean, the confidence intervals,
 * acf1 and the Shapiro-Wilk p-value (rows[k] of groups->g[k]); for groups
 * of overlap, preceded by the progress line. */
int cli_print_summaries(const hm_analysis_groups_t *groups, const hm_analysis_summary_t *rows,
                        FILE *f);

/* Per group of a per-mpirun dataset: the number of runs, the median, min
 * and max over runs and the reproducibility (largest / smallest; for a
 * ratio of overlap, largest - smallest), preceded by the lines saying what
 * the columns are. */
int cli_print_runs(const hm_analysis_repro_t *repro, FILE *f);

/* The reproducibility report (Fig. 29): one line per group, every run's
 * value over the smallest run's (a ratio of overlap: minus the smallest),
 * ascending, and the largest. */
int cli_print_normalized(const hm_analysis_repro_t *repro, FILE *f);
#endif
