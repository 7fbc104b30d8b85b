/* tools/harmonia/commands/stats_print.h — the tables of `harmonia stats` and `harmonia
 * campaign`: what the analysis layer computed, in microseconds. */
#ifndef HM_CLI_STATS_PRINT_H
#define HM_CLI_STATS_PRINT_H
#include <stdio.h>

#include <harmonia/analysis.h>

/* One row per group: n, kept, quartiles, mean, the confidence intervals,
 * acf1 and the Shapiro-Wilk p-value (rows[k] of groups->g[k]). */
int hm_cli_print_summaries(const hm_analysis_groups_t *groups, const hm_analysis_summary_t *rows,
                           FILE *f);

/* Per group of a per-mpirun dataset: the number of runs, the median, min
 * and max over runs and the reproducibility (largest / smallest), preceded
 * by one line saying what the columns are. */
int hm_cli_print_runs(const hm_analysis_repro_t *repro, FILE *f);

/* The reproducibility report (Fig. 29): one line per group, every run's
 * value over the smallest run's, ascending, and the largest. */
int hm_cli_print_normalized(const hm_analysis_repro_t *repro, FILE *f);
#endif
