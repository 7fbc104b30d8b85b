/* tools/harmonia/commands/overlap_report.h — table and files of `harmonia
 * overlap`: one row per cell (operation, communication target, computation
 * target), seconds in files, microseconds on screen. */
#ifndef HM_CLI_OVERLAP_REPORT_H
#define HM_CLI_OVERLAP_REPORT_H
#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

#include "options/config.h"

/* A calibrated target: the size or order kept, the reference time measured
 * there, how the calibration ended. */
typedef struct hm_overlap_target {
    double target_s;
    size_t size; /* bytes (communication) or matrix order (computation) */
    double ref_s;
    double local_s; /* communication: its local time (OSU's pure communication); else NAN */
    hm_overlap_outcome_t outcome;
    int probes; /* the calibration's */
} hm_overlap_target_t;

/* 1 when the cell can run with it: calibrated (converged) or given. */
static inline int hm_overlap_target_usable(const hm_overlap_target_t *t)
{
    return t->outcome == HM_OVERLAP_CONVERGED || t->outcome == HM_OVERLAP_FIXED;
}

typedef struct hm_overlap_report hm_overlap_report_t;

/* Collective: the report of ncells cells, its factors added to e's (the
 * progress configuration, what computes, the grid) and its files opened
 * (rank 0). */
int hm_overlap_report_open(const hm_cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                           size_t ncells, const char *progress, const char *compute,
                           hm_overlap_report_t **out);

/* Root: the cell at row index (the table's order), run order-th; r NULL for
 * a cell that was not run (a calibration failed). Appends its summary row
 * and raw rows to the files, kept for the table. */
int hm_overlap_report_add(hm_overlap_report_t *rep, size_t index, size_t order, const char *op,
                          const hm_overlap_target_t *comm, const hm_overlap_target_t *comp,
                          const hm_overlap_result_t *r);

/* Collective: print the table (rank 0) and release. */
void hm_overlap_report_close(hm_overlap_report_t *rep, MPI_Comm comm);
#endif
