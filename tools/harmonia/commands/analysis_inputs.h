/* tools/harmonia/commands/analysis_inputs.h — what stats, compare and campaign read: the kind
 * of each input (bench or overlap, raw or per-mpirun), the refusal to pool
 * the two commands' results, and the metric analysed. */
#ifndef HM_CLI_ANALYSIS_INPUTS_H
#define HM_CLI_ANALYSIS_INPUTS_H
#include <stddef.h>

#include <harmonia/output.h>
#include <harmonia/results.h>

#include "options/config.h"

/* 1 for a file of overlap (raw or per-mpirun), 0 for one of bench. */
int cli_is_overlap(hm_results_kind_t kind);

/* Two inputs of one command must hold results of one kind of command:
 * HM_OK when kind_a and kind_b are both of bench or both of overlap, else
 * HM_EINVAL with the last error "PREFIX: A is WHAT_A and B WHAT_B: ...". */
int cli_same_family(const char *prefix, const char *path_a, hm_results_kind_t kind_a,
                    const char *path_b, hm_results_kind_t kind_b);

/* The metric for files of kind: --metric as given, when it is one of the
 * kind's (else HM_EINVAL with the last error naming the option, path and
 * the metrics that apply), or the kind's default (global for bench,
 * overhead for overlap), set in cfg->metric. */
int cli_choose_metric(cli_config_t *cfg, const char *path, hm_results_kind_t kind);

/* Say on stderr, once per file however often it is named or read, that the
 * input at path is partial (hm_results_partial of factors): "harmonia:
 * warning: COMMAND: PATH is partial (complete: no (2 of 21 experiments)):
 * what its run did not finish is missing from this analysis". Returns 1 for
 * a partial file, with its factor's value in what (len bytes; may be NULL),
 * 0 otherwise. */
int cli_warn_partial(const char *command, const char *path, const hm_factors_t *factors, char *what,
                     size_t len);

/* The warning itself, once per file, with the factor's value complete. */
void cli_warn_partial_once(const char *command, const char *path, const char *complete);

/* The same for a file not yet open: its factor lines are read. A file that
 * cannot be read is left to its reader, which says what is wrong. */
int cli_warn_partial_path(const char *command, const char *path);

/* A value of metric for tables: microseconds ("%.2f") for a time, the
 * ratio itself ("%.3f") otherwise; n/a for NaN. */
void cli_metric_cell(hm_table_t *t, hm_metric_t metric, double x);

/* A column name for a value of metric: base + "_us" for a time. */
void cli_metric_column(hm_metric_t metric, const char *base, char *buf, size_t len);
#endif
