/* include/harmonia/results.h — the result files of harmonia.
 *
 * One schema per kind of file: its columns in order, each with its name,
 * unit and meaning. The code that writes a file and the code that reads it
 * both take the names from here, so that a column is named in one place and
 * a file reads back as it was written. The readers (and writers) of the
 * files harmonia reads back are here too: the raw file of `bench --raw`, the
 * per-mpirun dataset of a campaign [Hunold & Carpen-Amarie 2016, Alg. 6]
 * and the campaign's manifest.
 *
 * Files are CSV in seconds after "# key: value" factor lines (output.h).
 * Every function is local (no MPI). Errors are HM_OK or a negative HM_E*
 * code; a failure's sentence, naming the file and the line where there is
 * one, is the thread's last error (hm_last_error). */
#ifndef HARMONIA_RESULTS_H
#define HARMONIA_RESULTS_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>

#include <harmonia/error.h>
#include <harmonia/output.h>
#include <harmonia/results_columns.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Schemas ------------------------------------------------------------- */

typedef enum hm_results_kind {
    HM_RESULTS_BENCH,       /* bench --output: one row per (op, size) */
    HM_RESULTS_BENCH_RAW,   /* bench --raw: one row per attempt */
    HM_RESULTS_PERMPIRUN,   /* campaign: per-mpirun.csv (Alg. 6) */
    HM_RESULTS_REPRO,       /* campaign, stats: reproducibility.csv (Fig. 29) */
    HM_RESULTS_STATS,       /* stats --output: one row per group */
    HM_RESULTS_COMPARE,     /* compare --output: one row per group */
    HM_RESULTS_CLOCK,       /* clock --output: one row per algorithm and check */
    HM_RESULTS_CLOCK_RAW,   /* clock --raw: one row per rank and check */
    HM_RESULTS_SKEW,        /* skew --output: one row per method */
    HM_RESULTS_SKEW_RAW,    /* skew --raw: repetitions and per-rank offsets */
    HM_RESULTS_TIMERS,      /* timers --output: one row per rank and source */
    HM_RESULTS_MANIFEST,    /* campaign: manifest.csv, one row per run */
    HM_RESULTS_OVERLAP,     /* overlap --output: one row per cell (op, comm, comp target) */
    HM_RESULTS_OVERLAP_RAW, /* overlap --raw: one row per attempt of a cell */
    HM_RESULTS_IMPACT,      /* overlap impact --output: one row per target, rank, thread */
    HM_RESULTS_PATTERN,     /* pattern --output: one row per message size */
    HM_RESULTS_PATTERN_RAW, /* pattern --raw: one row per attempt */

    /* stats, compare and campaign on the raw files of overlap */
    HM_RESULTS_PERMPIRUN_OVERLAP, /* campaign: per-mpirun.csv, per run and cell */
    HM_RESULTS_REPRO_OVERLAP,     /* campaign, stats: reproducibility.csv */
    HM_RESULTS_STATS_OVERLAP,     /* stats --output: one row per cell */
    HM_RESULTS_COMPARE_OVERLAP,   /* compare --output: one row per cell */
    HM_RESULTS_PATTERN_MATRIX,    /* pattern --matrix: one row per (sender, receiver) */
    HM_RESULTS_NKINDS
} hm_results_kind_t;

/* The columns of each kind, in file order: harmonia/results_columns.h. */

typedef struct hm_results_column {
    const char *name;    /* the header cell: "median_s" */
    const char *unit;    /* "s", "B", "" for counts, flags, ratios and text */
    const char *meaning; /* one line, for documentation and help */
} hm_results_column_t;

typedef struct hm_results_schema {
    hm_results_kind_t kind;
    const char *what;                   /* "a raw file of 'harmonia bench --raw'" */
    const hm_results_column_t *columns; /* in file order */
    size_t ncolumns;
} hm_results_schema_t;

/* The schema of kind, owned by the library (static); NULL for a kind that
 * is not one of hm_results_kind_t. */
HM_EXPORT const hm_results_schema_t *hm_results_schema(hm_results_kind_t kind);

/* The name of column (an HM_COL_* index) of kind; NULL past the end. */
HM_EXPORT const char *hm_results_column_name(hm_results_kind_t kind, int column);

/* hm_csv_open with the columns of kind as the header row. Local; *out is the
 * caller's (hm_csv_close or hm_csv_abort). HM_EINVAL for an unknown kind;
 * otherwise as hm_csv_open (the last error names the path). */
HM_EXPORT int hm_results_csv_open(const char *path, const hm_factors_t *factors,
                                  hm_results_kind_t kind, hm_csv_t **out);

/* ---- Writing a row by column ---------------------------------------------- */

/* One row of a file of kind, filled by column id (an HM_COL_* of kind) in
 * any order and written in the schema's order, so that a writer never
 * depends on where a column sits in the file. Every column must be set
 * before the row is put: a cell left empty on purpose is set to "" (a
 * number that does not apply), so that a column added to a schema and
 * forgotten by a writer is refused, not written empty. Local; one row is
 * reused for every row of a file (a put clears it). */
typedef struct hm_results_row hm_results_row_t;

/* A row of kind with no column set; *out is the caller's
 * (hm_results_row_free). HM_EINVAL for an unknown kind, HM_ENOMEM. */
HM_EXPORT int hm_results_row_create(hm_results_kind_t kind, hm_results_row_t **out);

/* Release the row (NULL is accepted). */
HM_EXPORT void hm_results_row_free(hm_results_row_t *row);

/* Set column (an HM_COL_* of the row's kind) to a number, an integer or a
 * copy of text (NULL reads ""); setting a column twice keeps the last
 * value. HM_EINVAL 'column 30 is not a column of WHAT (N columns)' when
 * column is outside the schema (ids are indices: a column of another kind
 * that happens to be in range cannot be told apart); HM_ENOMEM. */
HM_EXPORT int hm_results_row_set_double(hm_results_row_t *row, int column, double value);
HM_EXPORT int hm_results_row_set_int64(hm_results_row_t *row, int column, int64_t value);
HM_EXPORT int hm_results_row_set_string(hm_results_row_t *row, int column, const char *text);

/* As hm_results_row_set_string, for a cell to be rewritten once the row is
 * in the file (hm_csv_put_marked: text must need no quotes; *at becomes
 * its offset when the row is put, for hm_csv_overwrite). */
HM_EXPORT int hm_results_row_set_marked(hm_results_row_t *row, int column, const char *text,
                                        off_t *at);

/* Append the row to csv (opened with the row's kind, hm_results_csv_open)
 * in the schema's column order and end it (hm_csv_end_row); every column is
 * unset again afterwards, whatever the outcome. HM_EINVAL 'WHAT: column
 * "name" is not set' when a column is unset (nothing is written then, the
 * first such column named); otherwise the status of the CSV writer. */
HM_EXPORT int hm_results_row_put(hm_results_row_t *row, hm_csv_t *csv);

/* The reproducibility report [Hunold & Carpen-Amarie 2016, Fig. 29] of the
 * per-mpirun column value_column (HM_COL_PERMPIRUN_MEDIAN_S or _MEAN_S):
 * hm_results_csv_open of HM_RESULTS_REPRO, its value column named as that
 * one ("median_s" or "mean_s"). For a dataset of overlap runs, value_column
 * is HM_COL_PERMPIRUN_OVERLAP_MEDIAN or _MEAN and the kind
 * HM_RESULTS_REPRO_OVERLAP ("median" or "mean"). HM_EINVAL for another
 * column. */
HM_EXPORT int hm_results_repro_open(const char *path, const hm_factors_t *factors, int value_column,
                                    hm_csv_t **out);

/* The index in r's header of the columns[0..n-1] (HM_COL_* of kind) into
 * idx. When some are missing, HM_EINVAL and the last error
 * "path: missing columns: a, b (expected WHAT)", naming all of them. */
HM_EXPORT int hm_results_find_columns(const hm_csv_reader_t *r, const char *path,
                                      hm_results_kind_t kind, const int *columns, size_t n,
                                      size_t *idx);

/* The kind of a file that stats, compare and campaign read, told by its
 * header: a column run makes a per-mpirun dataset, else a column valid a
 * raw file, and a column comm_target_s makes either one of overlap:
 * HM_RESULTS_BENCH_RAW, HM_RESULTS_OVERLAP_RAW, HM_RESULTS_PERMPIRUN or
 * HM_RESULTS_PERMPIRUN_OVERLAP. Local. HM_ENOENT, HM_EIO as
 * hm_csv_reader_open; HM_EINVAL "path: neither ... nor ..." for a file that
 * has none of these columns. */
HM_EXPORT int hm_results_input_kind(const char *path, hm_results_kind_t *kind);

/* What a file's factor "complete" says (output.h, hm_csv_incomplete): 1
 * when the file holds only part of what its run set out to write, with
 * *what (may be NULL) pointing at the factor's value, e.g. "no (2 of 21
 * experiments)", owned by factors; 0 for "yes" and for files without the
 * factor (written before harmonia recorded it). Local. */
HM_EXPORT int hm_results_partial(const hm_factors_t *factors, const char **what);

/* The name of a group's cell for messages and tables' side lines: "bcast
 * 8 B" for bench (overlap = 0); for overlap "iallreduce comm 1000 us comp
 * 4000 us", the size in bytes where no communication time is given
 * (comm_target_s NaN: "iallreduce 65536 B comp 4000 us") and "comp = comm"
 * where no computation time is (--comp-us comm). Always terminated; cut
 * to len. */
HM_EXPORT void hm_results_cell_name(const char *op, long long size_bytes, double comm_target_s,
                                    double comp_target_s, int overlap, char *buf, size_t len);

/* ---- Metrics: what a raw file's values are (docs/measure.md, overlap.md) -- */

typedef enum hm_metric {
    HM_METRIC_GLOBAL = 0,   /* bench: max global end - min global start over ranks (global_s) */
    HM_METRIC_LOCAL = 1,    /* bench: max over ranks of local end - local start (local_s) */
    HM_METRIC_OVERHEAD = 2, /* overlap: eq. 1, a ratio that may be <= 0 (overhead) */
    HM_METRIC_MEASURED = 3, /* overlap: t_measured, max t4 - min t1 (measured_s) */
    HM_METRIC_COMP_SLOWDOWN = 4, /* overlap: eq. 3, t_comp / t_comp_ref (comp_slowdown) */
    HM_METRIC_COMM_RATIO = 5     /* overlap: eq. 4, (t_call + t_wait) / t_comm_ref (comm_ratio) */
} hm_metric_t;

/* Name of a metric ("global", "local", "overhead", "measured",
 * "comp_slowdown", "comm_ratio"; NULL for another value); lookup by name
 * (HM_ENOENT if unknown, with the last error 'unknown metric "x" (known:
 * global, local, ...)'); the list of all of them for help and errors. */
HM_EXPORT const char *hm_results_metric_name(hm_metric_t metric);
HM_EXPORT int hm_results_metric_find(const char *name, hm_metric_t *metric);
HM_EXPORT void hm_results_metric_names(char *buf, size_t len);

/* The raw kind whose column the metric is (HM_RESULTS_BENCH_RAW or
 * HM_RESULTS_OVERLAP_RAW; HM_RESULTS_NKINDS for another value), and that
 * column (an HM_COL_*_RAW_* index; -1 for another value). */
HM_EXPORT hm_results_kind_t hm_results_metric_kind(hm_metric_t metric);
HM_EXPORT int hm_results_metric_column(hm_metric_t metric);

/* 1 when the metric is a time in seconds (global, local, measured), 0 for a
 * ratio (overhead, comp_slowdown, comm_ratio): times are compared by their
 * quotient, ratios by their difference. */
HM_EXPORT int hm_results_metric_is_time(hm_metric_t metric);

/* The metric analysed when none is asked for: global for bench files (raw
 * or per-mpirun), overhead for overlap files, the paper's main ratio. */
HM_EXPORT hm_metric_t hm_results_metric_default(hm_results_kind_t kind);

/* The metrics of kind's family (bench or overlap, raw or per-mpirun) as a
 * list "global, local", for messages. */
HM_EXPORT void hm_results_metric_names_of(hm_results_kind_t kind, char *buf, size_t len);

/* ---- Raw files of `bench --raw` ------------------------------------------ */

/* A raw file open for reading its valid repetitions (valid = 1), one at a
 * time, in file order. */
typedef struct hm_results_bench_raw hm_results_bench_raw_t;

typedef struct hm_results_bench_raw_row {
    const char *op; /* owned by the reader, valid until the next row */
    long long size_bytes;
    double x_s; /* the run-time of the metric the file was opened with */
} hm_results_bench_raw_row_t;

/* Open the raw file at path for metric: its columns op, size_bytes, valid
 * and global_s (HM_METRIC_GLOBAL) or local_s must be there, and the factors
 * "# processes:" and "# sync:". Local; *out is the caller's
 * (hm_results_bench_raw_close). HM_ENOENT (no such file), HM_EIO
 * (unreadable), HM_EINVAL (missing columns or factors, processes not a
 * count), HM_ENOMEM. */
HM_EXPORT int hm_results_bench_raw_open(const char *path, hm_metric_t metric,
                                        hm_results_bench_raw_t **out);

/* The file's factors processes (>= 1) and sync (owned by the reader). */
HM_EXPORT long hm_results_bench_raw_processes(const hm_results_bench_raw_t *raw);
HM_EXPORT const char *hm_results_bench_raw_sync(const hm_results_bench_raw_t *raw);

/* The next valid repetition into *row and *more = 1, or *more = 0 at the
 * end. HM_EINVAL with "path:line: ..." for a cell that is not a number, a
 * size that is not a byte count or a run-time that is not finite; HM_EIO
 * on a read error. */
HM_EXPORT int hm_results_bench_raw_next(hm_results_bench_raw_t *raw,
                                        hm_results_bench_raw_row_t *row, int *more);

/* Close the file and release the reader (NULL is accepted). */
HM_EXPORT void hm_results_bench_raw_close(hm_results_bench_raw_t *raw);

/* ---- Raw files of `overlap --raw` ---------------------------------------- */

/* A raw file of overlap open for reading the valid repetitions (valid = 1)
 * of one metric, one at a time, in file order. */
typedef struct hm_results_overlap_raw hm_results_overlap_raw_t;

typedef struct hm_results_overlap_raw_row {
    const char *op;       /* owned by the reader, valid until the next row */
    double comm_target_s; /* NaN: the size was given (--sizes) */
    long long size_bytes; /* the cell's message size (calibrated, or given) */
    double comp_target_s; /* NaN: the cell's own t_comm_ref (--comp-us comm) */
    double x;             /* the metric: seconds (measured) or a ratio */
    int cell_valid;       /* 0: the cell's references did not stand (column cell_valid, written
                           * by overlap since it is known; 1 in a file without it) */
} hm_results_overlap_raw_row_t;

/* Open the raw file of `overlap --raw` at path for metric (one of the
 * overlap metrics): its columns op, comm_target_s, size_bytes,
 * comp_target_s, valid and the metric's must be there, and the factors
 * "# processes:", "# sync:" and "# progress:". Local; *out is the caller's
 * (hm_results_overlap_raw_close). HM_ENOENT, HM_EIO, HM_EINVAL (a metric
 * of bench, missing columns or factors), HM_ENOMEM. */
HM_EXPORT int hm_results_overlap_raw_open(const char *path, hm_metric_t metric,
                                          hm_results_overlap_raw_t **out);

/* The file's factors processes (>= 1), sync and progress (owned by the
 * reader). */
HM_EXPORT long hm_results_overlap_raw_processes(const hm_results_overlap_raw_t *raw);
HM_EXPORT const char *hm_results_overlap_raw_sync(const hm_results_overlap_raw_t *raw);
HM_EXPORT const char *hm_results_overlap_raw_progress(const hm_results_overlap_raw_t *raw);

/* The next valid repetition into *row and *more = 1, or *more = 0 at the
 * end. HM_EINVAL with "path:line: ..." for a cell that is not a number, a
 * target that is not a positive time, a size that is not a byte count, or
 * a value that is not finite (or negative, except for overhead, which is
 * below 0 where the overlap beat its references); HM_EIO on a read
 * error. */
HM_EXPORT int hm_results_overlap_raw_next(hm_results_overlap_raw_t *raw,
                                          hm_results_overlap_raw_row_t *row, int *more);

/* Close the file and release the reader (NULL is accepted). */
HM_EXPORT void hm_results_overlap_raw_close(hm_results_overlap_raw_t *raw);

/* ---- The per-mpirun dataset [Hunold & Carpen-Amarie 2016, Alg. 6] -------- */

/* The names of a campaign's dataset and reproducibility report inside its
 * directory. */
#define HM_RESULTS_PERMPIRUN_FILE "per-mpirun.csv"
#define HM_RESULTS_REPRO_FILE     "reproducibility.csv"

/* One run's reduction of one (op, size_bytes, processes, sync) of bench,
 * or of one cell (op, comm_target_s, comp_target_s, processes, sync,
 * progress) of overlap. */
typedef struct hm_results_permpirun_row {
    long run;      /* 1-based run of the campaign */
    uint64_t seed; /* the seed that run was given */
    char op[32];
    long long size_bytes; /* overlap: -1 where comm_target_s names the cell */
    long processes;
    char sync[64];
    double comm_target_s, comp_target_s; /* overlap; NaN where there is no target */
    char progress[192];                  /* overlap: the progress factor; "" for bench */
    size_t n;                            /* valid repetitions in the run's raw file */
    size_t kept;                         /* after the filter */
    double median_s, mean_s; /* of the kept values: seconds, or the ratio of the metric */
    int cell_invalid;        /* overlap: the run's cell had references that did not stand
                              * (its raw rows' cell_valid 0; column cell_valid) */
    long nrep;               /* the valid repetitions the run asked for (its raw file's
                              * factor nrep); 0 where it does not say. n below it: the
                              * run ended short (a busy machine's attempts ran out) */
} hm_results_permpirun_row_t;

/* A dataset: rows[0..n-1], all of one metric. Start from {0}; release with
 * hm_results_permpirun_free. A metric of overlap makes the rows cells of
 * overlap, written as HM_RESULTS_PERMPIRUN_OVERLAP. */
typedef struct hm_results_permpirun {
    hm_results_permpirun_row_t *rows;
    size_t n, cap;
    hm_metric_t metric; /* global (the {0} default) or local for bench */
} hm_results_permpirun_t;

/* Append a copy of row. HM_ENOMEM. */
HM_EXPORT int hm_results_permpirun_append(hm_results_permpirun_t *ds,
                                          const hm_results_permpirun_row_t *row);

/* Order the rows by op, size_bytes, processes, sync, run (overlap: op,
 * comm_target_s, size_bytes, comp_target_s, processes, sync, progress,
 * run): each group's runs consecutive, whatever order the runs finished
 * in. */
HM_EXPORT void hm_results_permpirun_sort(hm_results_permpirun_t *ds);

/* The order of the groups of two rows, their runs left out: < 0, 0 (the
 * same group: every field of the key equal, NaN equal to NaN) or > 0. */
HM_EXPORT int hm_results_permpirun_group_cmp(const hm_results_permpirun_row_t *a,
                                             const hm_results_permpirun_row_t *b);

/* Release the rows; ds is {0} again. */
HM_EXPORT void hm_results_permpirun_free(hm_results_permpirun_t *ds);

/* Write ds atomically to path (factors may be NULL): HM_RESULTS_PERMPIRUN,
 * or HM_RESULTS_PERMPIRUN_OVERLAP for a metric of overlap. HM_EIO (the last
 * error names the path). */
HM_EXPORT int hm_results_permpirun_write(const hm_results_permpirun_t *ds, const char *path,
                                         const hm_factors_t *factors);

/* Read a file written by hm_results_permpirun_write, appending its rows to
 * ds. A file of overlap sets ds->metric from its column metric; a file of
 * bench leaves it (its metric is a factor, "# metric:"). HM_ENOENT, HM_EIO,
 * HM_EINVAL ("path[:line]: reason": missing columns, a cell that is not
 * what its column holds, a run twice in one group, which would pool
 * samples that are not separate mpiruns, rows of bench and of overlap or of
 * two metrics in one dataset); HM_ENOMEM. */
HM_EXPORT int hm_results_permpirun_read(const char *path, hm_results_permpirun_t *ds);

/* A campaign directory stands for its per-mpirun.csv: path receives
 * "operand/per-mpirun.csv" and *is_dir 1 when operand is a directory, else
 * operand and 0. HM_ERANGE when it does not fit in len. */
HM_EXPORT int hm_results_permpirun_path(const char *operand, char *path, size_t len, int *is_dir);

/* ---- The manifest of a campaign ------------------------------------------- */

/* The record of a campaign inside its directory: one row per run (its seed,
 * state, times and exit status), rewritten atomically after every change so
 * that an interruption at any moment leaves a manifest that tells which runs
 * completed. */
#define HM_RESULTS_MANIFEST_FILE "manifest.csv"

/* A run's state: pending (never started), running (started; a manifest read
 * back with this state was left by a campaign that was killed), done (exit 0
 * and its raw file written), failed (non-zero exit or no raw file),
 * interrupted (stopped by a signal to the campaign). */
typedef enum hm_run_state {
    HM_RUN_PENDING,
    HM_RUN_RUNNING,
    HM_RUN_DONE,
    HM_RUN_FAILED,
    HM_RUN_INTERRUPTED
} hm_run_state_t;

typedef struct hm_results_manifest_run {
    long run; /* 1-based */
    uint64_t seed;
    hm_run_state_t state;
    int exit_status;    /* as a shell reports it: 128 + signal when killed; -1 unknown */
    char start_utc[32]; /* ISO 8601, "" before the start */
    char end_utc[32];
    double duration_s; /* NaN before the end */
    char raw[4096];    /* the run's raw CSV */
    char log[4096];    /* its stdout and stderr */
    char *command;     /* the command as run, shell-quoted (owned) */
} hm_results_manifest_run_t;

/* A manifest: runs[i].run == i + 1. Start from {0}; release with
 * hm_results_manifest_free. */
typedef struct hm_results_manifest {
    char *template_command; /* the command after "--", shell-quoted (owned) */
    uint64_t base_seed;
    long nruns;
    hm_results_manifest_run_t *runs;
} hm_results_manifest_t;

/* "pending", "running", "done", "failed", "interrupted"; NULL otherwise. */
HM_EXPORT const char *hm_results_run_state_name(hm_run_state_t state);

/* Run's seed in a campaign of base_seed (runs counted from 1): stream run
 * of the base seed (rng.h), its upper 32 bits, so that runs differ, a
 * campaign is reproducible from the base seed in its manifest, and a seed
 * is easy to retype. Local, no MPI. */
HM_EXPORT uint64_t hm_results_run_seed(uint64_t base_seed, long run);

/* Read path into *m (overwritten; release with hm_results_manifest_free).
 * *found = 0 and HM_OK when the file does not exist. HM_EIO when it cannot
 * be read; HM_EINVAL with "path[:line]: reason (not a campaign manifest?)"
 * when it is not a manifest; HM_ENOMEM. */
HM_EXPORT int hm_results_manifest_read(const char *path, hm_results_manifest_t *m, int *found);

/* Write m atomically to path with the factors harmonia_version,
 * campaign_command, base_seed and runs. HM_EIO, HM_ENOMEM (the last error
 * names the path). */
HM_EXPORT int hm_results_manifest_write(const hm_results_manifest_t *m, const char *path);

/* Grow m to nruns runs, the new ones pending. HM_ENOMEM. */
HM_EXPORT int hm_results_manifest_resize(hm_results_manifest_t *m, long nruns);

/* Release everything; m is {0} again. */
HM_EXPORT void hm_results_manifest_free(hm_results_manifest_t *m);

#ifdef __cplusplus
}
#endif
#endif
