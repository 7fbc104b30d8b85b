/* include/harmonia/overlap_grid.h — an overlap study of many targets
 * [Denis et al. 2022, §4.3, §5.1], on the primitives of <harmonia/overlap.h>
 * (which includes this header):
 *   - hm_overlap_grid_*: the grid of targets, its references judged against
 *     their targets and measured again after the cells, the cells' verdicts.
 *     Collective (hm_overlap_ref_judge, hm_overlap_verdict: local);
 *   - hm_overlap_write_*: a cell as the rows of the result files. Local;
 *   - hm_overlap_study: the grid, its cells and the recheck in one call.
 *     Collective;
 *   - hm_overlap_impact: the MPI impact ratio (eq. 2) through
 *     harmonia-compute. Collective. */
#ifndef HARMONIA_OVERLAP_GRID_H
#define HARMONIA_OVERLAP_GRID_H

#include <harmonia/overlap.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The grid and its references [Denis et al. 2022, §4.3, §5.1] ---- */

/* Whether a reference of the grid may stand for its target. The method
 * assumes that t_comp_ref and t_comm_ref are the times of the targets and
 * hold for the whole grid: a cell whose reference is not is invalid. */
typedef enum hm_overlap_ref_state {
    HM_OVERLAP_REF_OK = 0,       /* within the tolerance of its target, and held */
    HM_OVERLAP_REF_UNCALIBRATED, /* the calibration did not converge (its outcome says why) */
    HM_OVERLAP_REF_OFF_TARGET,   /* the reference of the ratios is outside the tolerance */
    HM_OVERLAP_REF_MOVED         /* measured again after the grid, it moved by more than
                                  * the tolerance */
} hm_overlap_ref_state_t;

/* One target of the grid: what the calibration kept and the reference the
 * ratios divide by. Times in seconds. */
typedef struct hm_overlap_ref {
    double target_s;              /* aimed at; NAN when the size was given (--sizes) */
    size_t size;                  /* message bytes, or matrix order */
    hm_overlap_outcome_t outcome; /* the calibration's (HM_OVERLAP_FIXED: given) */
    int probes;                   /* the calibration's */
    double achieved_s;            /* the time the calibration reached at size (its own
                                   * measure: comm, the probe's median global time; comp,
                                   * the slowest thread's median dgemm) */
    double ref_s;                 /* the reference of the ratios: comm, t_comm_ref (global,
                                   * = achieved_s); comp, t_comp_ref (hm_overlap_comp_ref) */
    double local_s;               /* comm: t_comm_ref on eq. 4's local basis; comp: NAN */
    double error;                 /* (ref_s - target_s) / target_s; NAN without a target */
    double end_s;                 /* ref_s measured again after the grid; NAN before */
    double moved;                 /* (end_s - ref_s) / ref_s; NAN before */
    hm_overlap_ref_state_t state;
} hm_overlap_ref_t;

/* Local: r->error, r->moved and r->state from r's times and outcome: not
 * converged (and not given) is UNCALIBRATED; |error| above tolerance
 * OFF_TARGET; |moved| above tolerance MOVED; else OK. */
HM_EXPORT void hm_overlap_ref_judge(hm_overlap_ref_t *r, double tolerance);

/* A cell's verdict: valid when both references are OK; otherwise the side
 * that invalidates it (the communication's first) and its state. */
typedef struct hm_overlap_verdict {
    int valid;
    int comp_side; /* 0: the communication's reference, 1: the computation's */
    hm_overlap_ref_state_t state;
    double deviation; /* OFF_TARGET: error; MOVED: moved; else NAN */
} hm_overlap_verdict_t;

HM_EXPORT void hm_overlap_verdict(const hm_overlap_ref_t *comm, const hm_overlap_ref_t *comp,
                                  hm_overlap_verdict_t *out);

/* ---- A cell as rows of the result files ---- */

/* What a row of HM_RESULTS_OVERLAP says of one cell: its references as
 * the grid has them (hm_overlap_grid_comm, hm_overlap_grid_comp), their
 * verdict, and the cell's summary (nvalid 0 and NAN estimates for a cell
 * not run). */
typedef struct hm_overlap_cell_row {
    const char *op;              /* the operation's name */
    hm_overlap_ref_t comm, comp; /* the cell's references */
    hm_overlap_verdict_t verdict;
    hm_overlap_summary_t s;
    long discarded;       /* attempts not valid (the file's invalid) */
    int partial;          /* fewer valid repetitions than asked */
    size_t order;         /* its place in the run order */
    const char *procsync; /* the process synchronization's state after it */
} hm_overlap_cell_row_t;

/* 1 when more than HM_MEASURE_CONDITIONAL_SHARE of the cell's attempts were
 * discarded: its figures hold for the undisturbed starts only. */
HM_EXPORT int hm_overlap_cell_conditional(const hm_overlap_cell_row_t *row);

/* The verdict in words, the file's column cell: "ok" (", partial",
 * ", conditional"), or "INVALID (...)" with every side that fails, the
 * communication's first, and a failed calibration's two outcomes. */
HM_EXPORT void hm_overlap_cell_words(const hm_overlap_cell_row_t *row, char *buf, size_t len);

/* Local: row as one row of csv (HM_RESULTS_OVERLAP, hm_results_csv_open).
 * The status of the row writer. */
HM_EXPORT int hm_overlap_write_summary_row(hm_csv_t *csv, const hm_overlap_cell_row_t *row);

/* Local: the repetitions of r, the cell's run, as rows of csv
 * (HM_RESULTS_OVERLAP_RAW), their ratios against row's references, with
 * the verdict known now in cell_valid. Where it is valid, *cell_valid_at
 * is set to r->n offsets of those cells (the caller frees it), so that
 * hm_overlap_unmark_raw_rows can say 0 there if the recheck after the grid
 * finds a reference moved; NULL otherwise. HM_ENOMEM, or the writer's. */
HM_EXPORT int hm_overlap_write_raw_rows(hm_csv_t *csv, const hm_overlap_cell_row_t *row,
                                        const hm_overlap_result_t *r, off_t **cell_valid_at);

/* Local: where row's verdict is now invalid, the n cell_valid of its raw
 * rows (hm_overlap_write_raw_rows) rewritten 0; nothing for a NULL
 * cell_valid_at. */
HM_EXPORT int hm_overlap_unmark_raw_rows(hm_csv_t *csv, const hm_overlap_cell_row_t *row,
                                         const off_t *cell_valid_at, long n);

typedef struct hm_overlap_grid_params {
    int nops;
    const hm_op_t *const *ops;    /* nonblocking collectives */
    hm_op_params_t op_params;     /* root, peer */
    int ncomm;                    /* communication columns of an op with a size */
    const double *comm_targets_s; /* ncomm times to calibrate, or */
    const size_t *sizes;          /* ncomm sizes given (NULL: calibrate) */
    int ncomp;                    /* computation targets (ignored under comp_is_comm) */
    const double *comp_targets_s;
    int comp_is_comm; /* one computation per communication column, aimed at
                       * its t_comm_ref (OSU's and IMB's configuration) */
    double tolerance; /* |error| and |moved| accepted, in (0, 1) */
    int comp_runs;    /* runs of each t_comp_ref (hm_overlap_comp_ref), at the start and
                       * again after the cells; the reference is the median of the slowest
                       * rank's. Default 5: each run is a whole computation target long */
} hm_overlap_grid_params_t;

/* Defaults: no ops, no targets, op_params root 0 peer 1, tolerance 0.1
 * (§5.1), comp_runs 5. */
HM_EXPORT void hm_overlap_grid_params_default(hm_overlap_grid_params_t *params);

typedef struct hm_overlap_grid hm_overlap_grid_t;

/* Collective over comm (that of ps): the grid's references. Every
 * communication column of every op is calibrated (each search starting
 * from the last size kept), or measured at its size given; ops without a
 * size (ibarrier) have one column, measured at 0. Every computation target
 * is calibrated on every rank (hm_compute_calibrate_agreed) and its
 * t_comp_ref measured at the order kept; a t_comp_ref outside the
 * tolerance is calibrated again (up to twice), aimed so that the reference
 * itself, not the calibration's measure of it, reaches the target. Each
 * reference is judged (hm_overlap_ref_judge). A target no size or order
 * reaches is kept with its outcome, never an error. *out is the caller's
 * (hm_overlap_grid_free); every rank returns the same status: HM_EINVAL
 * for bad params, or the failures of the calibrations (HM_ENOMEM,
 * HM_ENOTSUP, HM_EMPI, ...). compute is left at the last order. */
HM_EXPORT int hm_overlap_grid_calibrate(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                                        const hm_overlap_grid_params_t *params,
                                        hm_overlap_grid_t **out);

/* Local: the communication columns of op (1 for an op without a size),
 * and the references of a column and of a cell's computation (comp is
 * ignored under comp_is_comm, where the computation is the column's). */
HM_EXPORT int hm_overlap_grid_columns(const hm_overlap_grid_t *g, int op);
HM_EXPORT const hm_overlap_ref_t *hm_overlap_grid_comm(const hm_overlap_grid_t *g, int op,
                                                       int column);
HM_EXPORT const hm_overlap_ref_t *hm_overlap_grid_comp(const hm_overlap_grid_t *g, int op,
                                                       int column, int comp);

/* Collective: one cell, op x column x comp, params->nrep repetitions of
 * the overlap run (hm_overlap_run) at the sizes kept. A cell runs when both
 * references were measured at a size kept: given, calibrated, or the
 * nearest probe of a search that ended in a gap or out of probes (its
 * verdict then says the cell is invalid). A target beyond every size
 * (below-min, above-max) leaves its cells not run: *ran = 0, HM_OK. Otherwise as hm_overlap_run
 * (*ran = 1; the caller frees the result on HM_OK and HM_EAGAIN). */
HM_EXPORT int hm_overlap_grid_run_cell(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                                       const hm_overlap_grid_t *g, int op, int column, int comp,
                                       const hm_measure_params_t *params,
                                       hm_overlap_result_t *result, int *ran);

/* Collective, after the cells: every usable reference measured again the
 * way it was first (t_comm_ref at its size, t_comp_ref at its order), into
 * end_s and moved, and judged again: one that moved by more than the
 * tolerance is MOVED, and so are the verdicts of its cells. */
HM_EXPORT int hm_overlap_grid_recheck(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                                      hm_overlap_grid_t *g);

HM_EXPORT void hm_overlap_grid_free(hm_overlap_grid_t *g);

/* The cells of a grid with these params: per op, its communication columns
 * (1 for an op without a size) x the computation targets (1 under
 * comp_is_comm). Local. */
HM_EXPORT size_t hm_overlap_grid_ncells(const hm_overlap_grid_params_t *params);

/* ---- A whole overlap study, one call ---- */

typedef struct hm_overlap_study_params {
    hm_overlap_grid_params_t grid; /* the operations, the targets, the references */
    hm_measure_params_t cell;      /* each cell's overlap run (hm_overlap_run) */
    uint64_t seed;                 /* the cells run in an order shuffled with it
                                    * (hm_measure_shuffle), so that a machine that drifts
                                    * while the grid runs does not follow one of its axes */
} hm_overlap_study_params_t;

/* Defaults: hm_overlap_grid_params_default; cell hm_measure_params_default
 * but nrep 20 and warmup 1 (repetitions of milliseconds to a second, far
 * fewer than a latency benchmark's); seed 1. */
HM_EXPORT void hm_overlap_study_params_default(hm_overlap_study_params_t *params);

/* One cell as it ends. index is its row in table order (per op, its
 * communication columns x the computation targets), order its place in the
 * run order (0 first); result NULL for a cell not run (a reference not
 * usable: its verdict says why), otherwise valid during the call only. */
typedef struct hm_overlap_cell {
    size_t index, order, ncells;
    int op, column, comp; /* as hm_overlap_grid_run_cell takes them */
    const hm_overlap_result_t *result;
} hm_overlap_cell_t;

/* What the caller sees while a study runs, on every rank (NULL: nothing):
 * the grid once calibrated, before the first cell, and each cell as it
 * ends. A callback makes no collective call. */
typedef struct hm_overlap_study_hooks {
    void (*calibrated)(void *arg, const hm_overlap_grid_t *grid);
    void (*cell)(void *arg, const hm_overlap_cell_t *cell);
    void *arg;
} hm_overlap_study_hooks_t;

/* Where a study failed, for a caller that names its own option. */
typedef enum hm_overlap_stage {
    HM_OVERLAP_STAGE_OK = 0,
    HM_OVERLAP_STAGE_PARAMS,    /* a parameter: param says which */
    HM_OVERLAP_STAGE_CALIBRATE, /* hm_overlap_grid_calibrate */
    HM_OVERLAP_STAGE_CELL,      /* a cell's run: op says whose */
    HM_OVERLAP_STAGE_RECHECK    /* hm_overlap_grid_recheck */
} hm_overlap_stage_t;

typedef enum hm_overlap_param {
    HM_OVERLAP_PARAM_NONE = 0,
    HM_OVERLAP_PARAM_OPS,          /* grid.nops, grid.ops */
    HM_OVERLAP_PARAM_COMM_TARGETS, /* grid.ncomm, grid.comm_targets_s, grid.sizes */
    HM_OVERLAP_PARAM_COMP_TARGETS, /* grid.ncomp, grid.comp_targets_s */
    HM_OVERLAP_PARAM_TOLERANCE,    /* grid.tolerance */
    HM_OVERLAP_PARAM_COMP_RUNS,    /* grid.comp_runs */
    HM_OVERLAP_PARAM_NREP          /* cell.nrep */
} hm_overlap_param_t;

typedef struct hm_overlap_failure {
    hm_overlap_stage_t stage;
    hm_overlap_param_t param; /* HM_OVERLAP_STAGE_PARAMS */
    int op;                   /* HM_OVERLAP_STAGE_CELL: index into grid.ops; else -1 */
} hm_overlap_failure_t;

/* Collective over comm (that of ps): the overlap study of `harmonia
 * overlap` [Denis et al. 2022, §4.3, §5.1]: the grid calibrated
 * (hm_overlap_grid_calibrate), every cell run once in the shuffled order
 * (hm_overlap_grid_run_cell with params->cell; a cell with too few valid
 * repetitions is a result, HM_EAGAIN there is not a failure), and the
 * references measured again (hm_overlap_grid_recheck), so that the grid's
 * verdicts hold for the whole study. *grid (not NULL) is set once
 * calibrated, also when a later stage fails; the caller frees it
 * (hm_overlap_grid_free). Every rank returns the same status and last
 * error: HM_EINVAL for bad params, or a failure of a stage; *failed (may
 * be NULL) says where. */
HM_EXPORT int hm_overlap_study(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                               const hm_overlap_study_params_t *params,
                               const hm_overlap_study_hooks_t *hooks, hm_overlap_grid_t **grid,
                               hm_overlap_failure_t *failed);

/* ---- The MPI impact ratio [Denis et al. 2022, §3.2.1, eq. 2] ---- */

/* One compute thread of one rank. */
typedef struct hm_overlap_impact_row {
    int rank;             /* in comm */
    int thread;           /* compute thread of the rank, 0 to hm_compute_threads - 1 */
    int core;             /* hwloc's logical index of its core (hm_compute_core), the same
                           * in both processes */
    double without_mpi_s; /* its median time in the program that never loads MPI */
    double with_mpi_s;    /* its median time in the MPI process */
    double impact;        /* eq. 2: with_mpi_s / without_mpi_s; 1 is no impact */
} hm_overlap_impact_row_t;

typedef struct hm_overlap_impact {
    double target_s;              /* the computation time aimed at */
    long reps;                    /* kernel runs on each side; their median is kept */
    int order;                    /* the matrix order every rank ran: the largest calibrated */
    hm_overlap_outcome_t outcome; /* the worst rank's calibration: converged, or out of
                                   * probes (the nearest order is kept) */
    double calibrated_s;          /* the slowest rank's calibrated time at its own order */
    size_t nrows;
    hm_overlap_impact_row_t *rows; /* root: every rank's threads, by rank then thread;
                                    * other ranks: their own threads */
} hm_overlap_impact_t;

/* Root: r's rows (every rank's threads) as rows of csv (HM_RESULTS_IMPACT,
 * hm_results_csv_open). The status of the row writer. */
HM_EXPORT int hm_overlap_impact_write_rows(hm_csv_t *csv, const hm_overlap_impact_t *r);

/* Kernel runs on each side of the impact ratio when the caller has no
 * reason for another number: each run is a whole target long, and the
 * median of 5 ignores two runs slowed by a neighbour's process. */
enum { HM_OVERLAP_IMPACT_REPS = 5 };

/* Collective over comm: the MPI impact ratio of compute at target_s.
 * Every rank calibrates its kernel to target_s (hm_compute_calibrate) and
 * all take the largest order; then, started together, every rank runs
 * compute_program (NULL or "": "harmonia-compute", looked up in PATH when it
 * holds no '/') with --size ORDER --threads hm_compute_threads --reps reps
 * --csv, the same kernel in a process that never loads MPI, on the
 * processors of the calling thread, and reads each thread's times; then,
 * started together again, runs its own kernel reps times. Each thread's
 * medians over the reps runs give its ratio. reps 1 to 1000000.
 *
 * On HM_OK *out holds the rows (free them with hm_overlap_impact_free).
 * Every rank returns the same status and last error: HM_EINVAL for a bad
 * argument (target not above 0, reps); HM_ERANGE when no order reaches the
 * target (hm_compute_calibrate: below what n = 1 takes, beyond the largest
 * order memory allows, or a gap); HM_EIO when the program cannot be run,
 * fails, or prints other rows than asked (the last error names it);
 * HM_EINTERNAL when its thread t ran on another core than the kernel's;
 * HM_ENOMEM, HM_ENOTSUP (the kernel's failures), HM_EMPI. On error *out
 * holds no rows. compute is the caller's, left at the calibrated order. */
HM_EXPORT int hm_overlap_impact(MPI_Comm comm, hm_compute_t *compute, const char *compute_program,
                                double target_s, long reps, hm_overlap_impact_t *out);

/* Release the rows of r (NULL accepted). Local. */
HM_EXPORT void hm_overlap_impact_free(hm_overlap_impact_t *r);

#ifdef __cplusplus
}
#endif
#endif
