/* include/harmonia/experiment.h — the set-up of a measurement from one
 * parameter struct: a time source, the global clock synchronized over a
 * communicator, a process synchronization, the experimental factors and the
 * result files. What `harmonia bench` and `harmonia skew` start from, and
 * what another code calls to measure on the same footing:
 *
 *     hm_experiment_params_t p;
 *     hm_experiment_params_default(&p);
 *     p.summary_path = "lat.csv";
 *     hm_experiment_t *e;
 *     if (hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL) != HM_OK) ... hm_last_error()
 *     hm_experiment_files_open(e, summary_columns, nsummary, NULL, 0);
 *     ... hm_measure_run(comm, hm_experiment_procsync(e), ...) and rows on rank 0 ...
 *     hm_experiment_close(e);
 *
 * Every function here but the accessors is collective over the
 * communicator given to hm_experiment_open, and returns the same status on
 * every rank with the same last error (error.h). */
#ifndef HARMONIA_EXPERIMENT_H
#define HARMONIA_EXPERIMENT_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>
#include <harmonia/measure.h>
#include <harmonia/output.h>
#include <harmonia/procsync.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>
#include <harmonia/topo.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_experiment hm_experiment_t;

typedef struct hm_experiment_params {
    const char *timer;                /* time source (timer.h names) */
    hm_timer_options_t timer_options; /* tsc frequency, synthetic clocks and their seed;
                                       * domain and rank are set per rank: the ranks of a
                                       * node share one clock, as the cores of a real
                                       * node do (hm_topo_clock_domain with
                                       * sync.ranks_per_node) */
    const char *clock_sync;           /* specification of the synchronization (sync.h) */
    hm_sync_params_t sync;            /* its parameters */
    const char *procsync;             /* process synchronization (procsync.h names);
                                       * NULL: none is created */
    hm_procsync_params_t procsync_params;
    int late_given; /* procsync_params.late_s is the caller's: kept; otherwise, with more
                     * ranks than processors or a busy machine, hm_procsync_fit derives it */
    double interference_probe_s; /* hm_interference_measure's probe at the start (topo.h;
                                  * default HM_INTERFERENCE_PROBE_S; 0: none) */
    int argc;                    /* the command line, recorded in the factors */
    const char *const *argv;
    uint64_t seed;            /* recorded in the factors */
    const char *summary_path; /* result files written by rank 0; NULL or "": none */
    const char *raw_path;
} hm_experiment_params_t;

/* What failed, for a caller that names its own option in a message. */
typedef enum hm_experiment_stage {
    HM_EXPERIMENT_OK = 0,
    HM_EXPERIMENT_TIMER,    /* the time source was refused */
    HM_EXPERIMENT_CLOCK,    /* the clock synchronization failed or was refused */
    HM_EXPERIMENT_PROCSYNC, /* the process synchronization could not be created */
    HM_EXPERIMENT_FACTORS,  /* the factors could not be collected */
    HM_EXPERIMENT_FILES     /* a result file could not be opened or written */
} hm_experiment_stage_t;

/* Defaults: timer "monotonic", clock_sync "hca3" with hm_sync_params_default,
 * procsync "harmonize" with hm_procsync_params_default (its re-synchronizations
 * use the same clock_sync and sync), no files, seed 1. */
HM_EXPORT void hm_experiment_params_default(hm_experiment_params_t *params);

/* Collective over comm: measure the interference from other work
 * (hm_interference_measure, interference_probe_s), open the time source
 * (every rank adopting rank 0's origin), synchronize the clocks, fit the
 * process synchronization's parameters to the machine (hm_procsync_fit: with
 * more ranks than processors or a busy machine the late-start tolerance is
 * measured unless late_given; on dedicated, quiet cores nothing changes),
 * create the process synchronization over comm, and collect the factors
 * (hm_factors_collect with the interference, then the clock
 * synchronization, the process synchronization's parameters and the fit:
 * hm_experiment_fit_factors). Nothing
 * is written yet. On success *out is the experiment (release with
 * hm_experiment_close). On failure *out is NULL, the same status and last
 * error on every rank, and *failed (may be NULL) tells the stage.
 * params and the strings it points to need to live only during the call. */
HM_EXPORT int hm_experiment_open(MPI_Comm comm, const hm_experiment_params_t *params,
                                 hm_experiment_t **out, hm_experiment_stage_t *failed);

/* Set the factors that describe a clock synchronization (clock_sync,
 * fitpoints, exchanges, offset, drift, recompute_intercept, synthetic_clock,
 * ranks_per_node, ranks_per_socket), as hm_experiment_open records them:
 * for a program that synchronizes clocks without an experiment. Local. */
HM_EXPORT int hm_experiment_clock_factors(hm_factors_t *factors, const char *clock_sync,
                                          const hm_sync_params_t *sync, int synthetic);

/* Set the factors that say how the late-start tolerance was chosen, as
 * hm_experiment_open records them: late_us (in effect), late_us_source
 * ("default", "given", or "derived (3 x p99 of the slowest rank's start
 * lateness 60 us over 200 deadlines; plus 1 x the repetition's run-time)"),
 * and oversubscribed ("yes (4 ranks, 2 processors)" or "no (...)"), from
 * fit and the fitted params. Local. */
HM_EXPORT int hm_experiment_fit_factors(hm_factors_t *factors, const hm_procsync_fit_t *fit,
                                        const hm_procsync_params_t *params);

/* Set the factors of the process synchronization: sync (methods, a
 * comma-separated list of procsync.h names, or "none" for NULL) and, of
 * check_every, window_us, slice_s, roundtime_bcast_factor,
 * roundtime_min_lead_us and resync_s, only those that some method of the
 * list reads (hm_procsync_reads): a value no method reads was not in
 * effect, and a file that records it (resync_s under barrier) claims a
 * factor of the run that was not one. hm_experiment_open records its
 * params->procsync this way; a caller that runs several methods over one
 * experiment (harmonia skew) records its list. Local. */
HM_EXPORT int hm_experiment_procsync_factors(hm_factors_t *factors, const char *methods,
                                             const hm_procsync_params_t *params);

/* Borrowed parts, valid until hm_experiment_close. Local. The factors may be
 * extended (hm_factors_set) before hm_experiment_files_open; the procsync is
 * NULL when params->procsync was NULL. */
HM_EXPORT hm_timer_t *hm_experiment_timer(const hm_experiment_t *e);
HM_EXPORT hm_clock_t *hm_experiment_global_clock(const hm_experiment_t *e);
HM_EXPORT hm_procsync_t *hm_experiment_procsync(const hm_experiment_t *e);
/* What hm_procsync_fit detected and chose, and the fitted parameters (for
 * more process synchronizations over the same communicator). */
HM_EXPORT const hm_procsync_fit_t *hm_experiment_fit(const hm_experiment_t *e);
/* What hm_interference_measure saw at the start. */
HM_EXPORT const hm_interference_t *hm_experiment_interference(const hm_experiment_t *e);

/* hm_measure_params_default fitted to what the start found: on a busy or
 * oversubscribed machine (hm_experiment_fit: busy or oversubscribed) the
 * attempts get a budget (budget_factor HM_MEASURE_BUDGET_FACTOR), so that an
 * experiment whose attempts keep failing ends in bounded time with what it
 * measured; on a quiet one nothing changes. Local. */
HM_EXPORT void hm_experiment_measure_params(const hm_experiment_t *e, hm_measure_params_t *params);
HM_EXPORT const hm_procsync_params_t *hm_experiment_procsync_params(const hm_experiment_t *e);
HM_EXPORT const hm_sync_report_t *hm_experiment_sync_report(const hm_experiment_t *e);
HM_EXPORT hm_factors_t *hm_experiment_factors(hm_experiment_t *e);

/* Collective: rank 0 opens the summary and raw files named in the params
 * (hm_csv_open, with the factors) with these columns (a file with no
 * columns given is not opened). Both are written through atomic files:
 * nothing appears under the final names before a checkpoint or
 * hm_experiment_close. */
HM_EXPORT int hm_experiment_files_open(hm_experiment_t *e, const char *const *summary_columns,
                                       size_t nsummary, const char *const *raw_columns,
                                       size_t nraw);

/* Rank 0's open files, NULL elsewhere and when not asked for. Local. */
HM_EXPORT hm_csv_t *hm_experiment_summary(const hm_experiment_t *e);
HM_EXPORT hm_csv_t *hm_experiment_raw(const hm_experiment_t *e);

/* Collective: publish the files (the raw file is dropped when the summary
 * could not be written), free everything. HM_EIO with the last error
 * naming the file when publishing failed. NULL is accepted (HM_OK). */
HM_EXPORT int hm_experiment_close(hm_experiment_t *e);

#ifdef __cplusplus
}
#endif
#endif
