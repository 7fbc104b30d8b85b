/* tools/harmonia/commands/pattern_report.h — table and files of `harmonia
 * pattern`: one row per size, with nccl-tests' columns (time, algbw,
 * busbw, #wrong); seconds in files, microseconds and GB/s on screen. */
#ifndef HM_CLI_PATTERN_REPORT_H
#define HM_CLI_PATTERN_REPORT_H
#include <harmonia/experiment.h>
#include <harmonia/pattern.h>

#include "options/config.h"

/* What the rows share. */
typedef struct cli_pattern_shape {
    char pattern[32], direction[16], backend[64];
    int n, g, k;
} cli_pattern_shape_t;

/* One row: what it times (docs/pattern.md: "pattern", a striping step,
 * "sequence", "concurrent", a collective baseline), bytes per message (0: a
 * file's), the messages and bytes it moves, wrong bytes (-1: not
 * validated). */
typedef struct cli_pattern_cell {
    const char *measured;
    size_t size_bytes;
    long long messages;
    unsigned long long bytes;
    unsigned long long node_bytes; /* through the busiest node; 0: none, or a baseline */
    long long wrong;
} cli_pattern_cell_t;

typedef struct cli_pattern_report cli_pattern_report_t;

/* Collective: the factors of the shape added to e's, files opened. */
int cli_pattern_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                            const cli_pattern_shape_t *shape, size_t nrows,
                            cli_pattern_report_t **out);

/* Root: the row at index (table order: nrows of open), run order-th. */
int cli_pattern_report_add(cli_pattern_report_t *rep, size_t index, size_t order,
                           const cli_pattern_cell_t *cell, const hm_measure_result_t *r);

/* Collective: keep the pattern's matrix of bytes at size_bytes (printed
 * with the table when the ranks are few enough to read it). */
void cli_pattern_report_matrix(cli_pattern_report_t *rep, MPI_Comm comm, const hm_plan_t *plan,
                               size_t size_bytes);

/* Collective: print (rank 0), write --matrix (rank 0), release; the
 * agreed status of the writing. */
int cli_pattern_report_close(cli_pattern_report_t *rep, MPI_Comm comm);
#endif
