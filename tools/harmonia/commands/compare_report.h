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
 * or per cell of overlap, sorted, at most one sync per (op, size,
 * processes): the per-run values of --statistic for a per-mpirun file, the
 * filtered valid repetitions for a raw file. */
typedef struct cli_compare_side {
    char name;              /* 'A' or 'B' */
    const char *operand;    /* as given on the command line */
    char path[4096];        /* the file read */
    hm_results_kind_t kind; /* raw or per-mpirun, of bench or overlap */
    char label[256];        /* its sync, progress or MPI library where they differ, or its name */
    char metric[16];        /* how the per-mpirun values were reduced ("" unknown) */
    char filter[16];
    char library[128];    /* the factor mpi_library up to its first comma ("" unknown) */
    hm_analysis_side_t s; /* s.path is path */
} cli_compare_side_t;

/* The lines that say what A, B and the columns are, then the table
 * (microseconds; the ratios of overlap as they are, told apart by B - A). */
int cli_compare_print(const cli_config_t *cfg, const cli_compare_side_t *a,
                      const cli_compare_side_t *b, const hm_analysis_comparison_t *rows, size_t n,
                      FILE *f);
#endif
