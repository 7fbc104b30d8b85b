/* tools/harmonia/commands/overlap_report.h — table and files of `harmonia
 * overlap`: one row per cell (operation, communication target, computation
 * target), seconds in files, microseconds on screen. */
#ifndef HM_CLI_OVERLAP_REPORT_H
#define HM_CLI_OVERLAP_REPORT_H
#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

#include "options/config.h"

typedef struct cli_overlap_report cli_overlap_report_t;

/* Collective: the report of ncells cells, its factors added to e's (the
 * progress configuration, what computes, the grid) and its files opened
 * (rank 0). */
int cli_overlap_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                            size_t ncells, const char *progress, const char *compute,
                            cli_overlap_report_t **out);

/* The grid whose references the rows read (every rank; before the first
 * cli_overlap_report_add). */
void cli_overlap_report_grid(cli_overlap_report_t *rep, const hm_overlap_grid_t *grid);

/* Root: the cell at row index (the table's order), run order-th, of op
 * (named name) x communication column x computation target; r NULL for a
 * cell that was not run (a calibration failed). Its ratios are computed
 * against the grid's references and its raw rows appended to --raw now;
 * its summary row waits for cli_overlap_report_close, when the references
 * have been measured again after the grid (hm_overlap_grid_recheck) and
 * the cell's verdict is known. */
int cli_overlap_report_add(cli_overlap_report_t *rep, size_t index, size_t order, const char *name,
                           int op, int comm, int comp, const hm_overlap_result_t *r);

/* Collective: each cell's verdict from the grid's references as they are
 * now, the summary rows written (rank 0, table order), the table printed
 * (rank 0), and release. */
void cli_overlap_report_close(cli_overlap_report_t *rep, MPI_Comm comm);
#endif
