/* tools/harmonia/commands/compare_report.h — `harmonia compare`: the two sides as the
 * command reads them, and the table of the comparison (Hunold and
 * Carpen-Amarie 2016, Sec. 6.2) that the analysis layer computes. */
#ifndef HM_CLI_COMPARE_REPORT_H
#define HM_CLI_COMPARE_REPORT_H
#include <stddef.h>
#include <stdio.h>

#include <harmonia/analysis.h>

#include "options/config.h"

/* One operand. s.groups holds its samples per (op, size, processes, sync),
 * sorted, at most one sync per (op, size, processes): the per-run values of
 * --statistic for a per-mpirun file, the filtered valid repetitions for a
 * raw file. */
typedef struct hm_compare_side {
    char name;           /* 'A' or 'B' */
    const char *operand; /* as given on the command line */
    char path[4096];     /* the file read */
    char label[128];     /* its sync, or its name when both sides share a sync */
    char metric[16];     /* how the per-mpirun values were reduced ("" unknown) */
    char filter[16];
    hm_analysis_side_t s; /* s.path is path */
} hm_compare_side_t;

/* The lines that say what A, B and the columns are, then the table
 * (microseconds). */
int hm_compare_print(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                     const hm_compare_side_t *b, const hm_analysis_comparison_t *rows, size_t n,
                     FILE *f);
#endif
