/* include/harmonia/output.h — what harmonia shows and writes.
 *
 * Four pieces, each an opaque handle:
 *  - hm_table_t: an aligned table for the rank-0 summary on stdout;
 *  - hm_afile_t: a file written under a temporary name beside its target and
 *    renamed into place, so that the final name only ever holds a complete
 *    content, even if the process is killed (SIGKILL) at any instant;
 *  - hm_factors_t: the experimental factors of a run (ordered key/value
 *    pairs), collected over a communicator;
 *  - hm_csv_t: a result file: "# key: value" factor lines, one header row,
 *    data rows, written through an hm_afile_t.
 *
 * None of these functions is collective except hm_factors_collect. Errors are
 * HM_OK or a negative HM_E* code; file errors are HM_EIO with errno left as
 * the failing system call set it, and a sentence naming the path is kept in
 * the handle (hm_afile_error, hm_csv_error, hm_csv_reader_error) or, by the
 * functions that open and close files (no handle left to ask), as the
 * thread's last error (hm_last_error). */
#ifndef HARMONIA_OUTPUT_H
#define HARMONIA_OUTPUT_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <mpi.h>

#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Tables ------------------------------------------------------------ */

typedef struct hm_table hm_table_t;

typedef enum hm_align {
    HM_ALIGN_LEFT, /* text: names, operations */
    HM_ALIGN_RIGHT /* numbers */
} hm_align_t;

/* Create an empty table; release it with hm_table_free. */
HM_EXPORT int hm_table_create(hm_table_t **out);

/* Release a table (NULL is accepted). */
HM_EXPORT void hm_table_free(hm_table_t *table);

/* Append a column whose header is text, with units in the name
 * ("overhead_ns", "latency_us"). Columns must all be added before the first
 * cell (HM_EINVAL otherwise). */
HM_EXPORT int hm_table_add_column(hm_table_t *table, const char *header, hm_align_t align);

/* Append one cell. Cells fill rows left to right; a row is complete when it
 * has one cell per column and the next cell starts a new row. */
HM_EXPORT int hm_table_add_cell(hm_table_t *table, const char *text);

/* A number cell: value printed with fmt (one double conversion, e.g.
 * "%.3f"), or "n/a" when it is not finite: "no value" reads the same in
 * every table (docs/results.md). */
HM_EXPORT int hm_table_add_number(hm_table_t *table, const char *fmt, double value);

/* Like hm_table_add_cell with printf-style formatting. */
HM_EXPORT int hm_table_add_cellf(hm_table_t *table, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Number of rows started so far (a partly filled last row counts). */
HM_EXPORT size_t hm_table_rows(const hm_table_t *table);

/* Print the header line and the rows to f, every column as wide as its
 * widest entry (counted in UTF-8 characters), columns separated by two
 * spaces, no trailing blanks. Missing cells of a partial last row print
 * empty. Returns HM_EIO if writing to f fails. */
HM_EXPORT int hm_table_print(const hm_table_t *table, FILE *f);

/* ---- Inputs -------------------------------------------------------------- */

/* The largest input of each kind harmonia reads whole or line by line
 * (hm_input_open): far above what a run writes (a raw file of 10^8
 * repetitions is about 10 GB; a CommBench matrix of 4096 ranks 100 MB), far
 * below what would exhaust a node's memory or disk before a refusal. */
#define HM_INPUT_MAX_RESULT_BYTES   (64ULL << 30) /* CSV results, trace.csv */
#define HM_INPUT_MAX_PATTERN_BYTES  (1ULL << 30)  /* pattern files */
#define HM_INPUT_MAX_MANIFEST_BYTES (64ULL << 20) /* campaign manifests */
#define HM_INPUT_MAX_MODEL_BYTES    (1ULL << 20)  /* a trace's rank-N.model */

/* Open path for reading, an input of the kind what names ("pattern file",
 * "result file", ...): HM_OK with *out open for reading when it is a
 * regular file (or a link to one) of at most max_bytes (0: any size).
 * Otherwise *out is NULL, nothing stays open, and the last error names
 * path: HM_ENOENT when it does not exist ("PATH: No such file or
 * directory"); HM_EINVAL, naming what it is, for a
 * directory, a device, a FIFO or a socket (a FIFO is refused without
 * waiting for a writer, a device without reading from it), or a file
 * larger than max_bytes (both sizes given); HM_EIO with the system's
 * reason otherwise. Local. */
HM_EXPORT int hm_input_open(const char *path, const char *what, uint64_t max_bytes, FILE **out);

/* Skip a UTF-8 byte-order mark (the bytes EF BB BF) at the start of f, a
 * text input just opened with hm_input_open: spreadsheets write one before
 * a "CSV UTF-8" file, and it would stick to the first name or key. 1 when
 * one was skipped, 0 when the file does not start with one (nothing is
 * consumed then). Local. */
HM_EXPORT int hm_input_skip_bom(FILE *f);

/* The mark itself, for readers that refuse one found later in a file
 * (files joined with cat): "\xEF\xBB\xBF". */
#define HM_INPUT_BOM "\xEF\xBB\xBF"

/* ---- Atomic files ------------------------------------------------------ */

typedef struct hm_afile hm_afile_t;

/* Whether path may be written as a result (docs/output.md, "What an output
 * may name"). Local; HM_OK when it does not exist or is a regular file, or a
 * symbolic link to one (the file it points to is replaced), and its
 * directory exists and is writable. Otherwise the last error names path and
 * what it is: HM_EINVAL for a directory, a device, a FIFO, a socket, a
 * dangling link or a directory that is not writable, HM_ENOENT for a
 * directory that does not exist. Nothing is created. */
HM_EXPORT int hm_afile_check(const char *path);

/* Give the file open as fd the owner, group and mode of target, the file
 * it is about to replace, when target is a regular file (a new file keeps
 * the mode it was created with, under the umask). A chown that only root
 * may make is skipped for anyone else, as cp -p does. HM_OK, or HM_EIO
 * naming target and the system's reason. Local. */
HM_EXPORT int hm_afile_adopt(int fd, const char *target);

/* Create directory dir and its missing parents (mode 0755 less the umask,
 * as mkdir -p); one that exists is fine. HM_EIO naming the directory and
 * the system's reason (HM_EINVAL for a name too long). Local. */
HM_EXPORT int hm_afile_make_dirs(const char *dir);

/* 1 when a and b name one file: the same device and inode where both exist,
 * else the same name in the same directory; 0 otherwise. Local. */
HM_EXPORT int hm_afile_same(const char *a, const char *b);

/* Start writing the file path (refused as hm_afile_check refuses it; a
 * symbolic link is followed): creates a temporary file beside it, named
 * ".NAME.tmp.HOST.PID.XXXXXX" in the same directory (so that the rename that
 * publishes it never crosses file systems). Nothing appears under path
 * until hm_afile_checkpoint or hm_afile_commit. On HM_EIO the last error
 * names the path and the system error. */
HM_EXPORT int hm_afile_open(const char *path, hm_afile_t **out);

/* The stream to write the content to; owned by the handle. */
HM_EXPORT FILE *hm_afile_stream(hm_afile_t *af);

/* Publish everything written so far under the final name, atomically: the
 * content is copied into a second temporary file, synced and renamed over
 * the final name. Writing continues afterwards; call it after each finished
 * experiment so that an interruption loses at most the one in progress. */
HM_EXPORT int hm_afile_checkpoint(hm_afile_t *af);

/* Publish the complete content under the final name (flush, fsync, rename,
 * sync the directory) and release the handle, whatever the outcome. On
 * HM_EIO the last error names the path, and the temporary file is removed
 * (an earlier checkpoint stays published). */
HM_EXPORT int hm_afile_commit(hm_afile_t *af);

/* Remove the temporary file and release the handle; what an earlier
 * checkpoint published stays. NULL is accepted. */
HM_EXPORT void hm_afile_abort(hm_afile_t *af);

/* Remove the temporary files of every atomic file this process has open
 * (checkpoints already published stay). Async-signal-safe: for a SIGINT or
 * SIGTERM handler that then ends the process; the handles must not be used
 * afterwards. */
HM_EXPORT void hm_afile_remove_temporaries(void);

/* The final path given to hm_afile_open. */
HM_EXPORT const char *hm_afile_path(const hm_afile_t *af);

/* A sentence describing the last error (naming the path), or "" if none. */
HM_EXPORT const char *hm_afile_error(const hm_afile_t *af);

/* ---- Experimental factors ---------------------------------------------- */

typedef struct hm_factors hm_factors_t;

/* What hm_factors_collect cannot find out by itself. Every field is optional:
 * leave pointers NULL, resolution 0 and seed_set 0 to omit that factor. */
typedef struct hm_factors_context {
    int argc;                  /* the command line, argv[0] to argv[argc - 1], */
    const char *const *argv;   /* recorded shell-quoted */
    const char *timer;         /* hm_timer_describe text */
    double timer_resolution_s; /* measured here (hm_timer_measured_resolution), > 0; the
                                * factor is the coarsest over the ranks */
    int seed_set;              /* non-zero: record seed */
    uint64_t seed;
    const char *interference;          /* what other work took from the ranks during the run's
                                        * start-up (hm_interference_describe, topo.h); NULL:
                                        * recorded as "not measured" */
    double timer_nominal_resolution_s; /* what the source claims (clock_getres,
                                        * MPI_Wtick), > 0 */
} hm_factors_context_t;

/* Create an empty list; release it with hm_factors_free. */
HM_EXPORT int hm_factors_create(hm_factors_t **out);

/* Release a list (NULL is accepted). */
HM_EXPORT void hm_factors_free(hm_factors_t *factors);

/* Set key to the printf-formatted value. An existing key keeps its place
 * and gets the new value; a new key goes to the end. Keys are letters,
 * digits, '_', '.' and '-' (HM_EINVAL otherwise); control characters in the
 * value (newlines included) become spaces so that every factor is one line. */
HM_EXPORT int hm_factors_set(hm_factors_t *factors, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* *value receives the value of key, owned by the list and valid until the
 * key is set again or the list is freed. HM_ENOENT if there is no such key. */
HM_EXPORT int hm_factors_get(const hm_factors_t *factors, const char *key, const char **value);

/* Number of factors, and the i-th in insertion order (HM_ERANGE past the
 * end). Iterate with for (i = 0; i < hm_factors_count(f); i++). */
HM_EXPORT size_t hm_factors_count(const hm_factors_t *factors);
HM_EXPORT int hm_factors_at(const hm_factors_t *factors, size_t i, const char **key,
                            const char **value);

/* Collective over comm: set the factors that describe this run, identical on
 * every rank, in this order: harmonia_version, command_line, date (ISO 8601
 * UTC, root's clock), mpi_library, mpi_version, processes, nodes,
 * processes_per_node ("2", or "1-3" when uneven), hosts (sorted, comma
 * separated up to 8 distinct hosts, else "N hosts"), hosts_digest (FNV-1a 64
 * of the sorted distinct host names, each followed by '\n', 16 hex digits),
 * timer, timer_resolution_s (the largest of the ranks' measured
 * resolutions), timer_nominal_resolution_s, pinning ("unbound", or "RANK:CPUS ..." from
 * hwloc, or a count of distinct bindings when that would be long),
 * cpu_governor (distinct scaling governors on rank 0's node, or
 * "unreadable"), interference (ctx->interference, or "not measured"),
 * compiler, cflags, build_type, seed. Host names are those
 * of MPI_Get_processor_name. ctx may be NULL. Every rank returns the same
 * status; after an error factors may hold part of these keys. */
HM_EXPORT int hm_factors_collect(hm_factors_t *factors, MPI_Comm comm,
                                 const hm_factors_context_t *ctx);

/* ---- CSV result files --------------------------------------------------- */

typedef struct hm_csv hm_csv_t;

/* Start the result file path (through hm_afile_open): one "# key: value"
 * line per factor in order (factors may be NULL), then the header row of
 * the ncolumns names. Files are UTF-8 with '\n' line ends, quoted as in
 * RFC 4180 where a cell needs it. On error the last error names the
 * path. */
HM_EXPORT int hm_csv_open(const char *path, const hm_factors_t *factors, const char *const *columns,
                          size_t ncolumns, hm_csv_t **out);

/* Append a text cell to the current row. It is quoted ("a ""b""") when it
 * holds a comma, a quote, '#', a line break or leading/trailing blanks. */
HM_EXPORT int hm_csv_put_string(hm_csv_t *csv, const char *text);

/* A text cell that may be replaced once the row is written: as
 * hm_csv_put_string, but text must need no quotes (HM_EINVAL), and *at
 * becomes, when the row ends, the file offset of the cell (-1 if it could
 * not be known). One marked cell per row. hm_csv_overwrite then puts text
 * of the same length there: a verdict known only after its rows were
 * written (an overlap cell's references, measured again at the end of the
 * grid), in every later checkpoint and the final file. */
HM_EXPORT int hm_csv_put_marked(hm_csv_t *csv, const char *text, off_t *at);
HM_EXPORT int hm_csv_overwrite(hm_csv_t *csv, off_t at, const char *text);

/* Append a number cell. Doubles (seconds) get 15 significant digits, or 16
 * or 17 where fewer would not read back (strtod) to exactly the same value:
 * 1e-6 prints "1e-06", 0.1 "0.1", 1.0/3 "0.3333333333333333", and no bit is
 * lost. NaN and infinities are "no value": an empty cell, which pandas, R
 * and hm_csv_reader_double read as missing. */
HM_EXPORT int hm_csv_put_double(hm_csv_t *csv, double value);
HM_EXPORT int hm_csv_put_int64(hm_csv_t *csv, int64_t value);

/* Append a cell of number text the caller formatted (len bytes of digits,
 * sign, point, exponent; 0 bytes: no value), as it is: for writers of
 * millions of cells that format faster than hm_csv_put_double's shortest
 * round trip. HM_EINVAL for a byte that is not part of a number. */
HM_EXPORT int hm_csv_put_number_text(hm_csv_t *csv, const char *text, size_t len);

/* ncells cells at once: text their contents joined by commas, none that
 * would need quotes (no quote, line break or '#'; outer blanks are the
 * caller's to avoid), written as they are: for writers of millions of rows
 * that assemble a row themselves. HM_EINVAL when text is not that. */
HM_EXPORT int hm_csv_put_cells_text(hm_csv_t *csv, const char *text, size_t len, size_t ncells);

/* End the current row. It must have exactly one cell per column
 * (HM_EINVAL otherwise, and the row is dropped). */
HM_EXPORT int hm_csv_end_row(hm_csv_t *csv);

/* How far the run writing csv got: done of total units ("experiments").
 * The last factor line of every CSV file, "# complete: ...", says whether
 * the file holds all that its run set out to write: while done < total it
 * reads "no (43 of 54 experiments)" in checkpoints and after hm_csv_close;
 * "yes" once done == total. Without a call, checkpoints read "no (a
 * checkpoint of a run in progress)" and hm_csv_close "yes". */
HM_EXPORT int hm_csv_progress(hm_csv_t *csv, long done, long total, const char *unit);

/* From now on the factor "complete" of csv reads "no (why)", whatever the
 * progress: for a file whose rows are all there but fall short of what was
 * asked (e.g. "2 experiments ended with fewer valid repetitions than
 * --nrep 50"). */
HM_EXPORT int hm_csv_incomplete(hm_csv_t *csv, const char *why);

/* Publish the rows ended so far under the final name (hm_afile_checkpoint);
 * a row in progress is not part of it. */
HM_EXPORT int hm_csv_checkpoint(hm_csv_t *csv);

/* Write the last rows and publish the complete file, then release the
 * handle. A row in progress is HM_EINVAL (nothing more is published then). On
 * error the last error names the path; the temporary file is removed. */
HM_EXPORT int hm_csv_close(hm_csv_t *csv);

/* Discard what was not checkpointed and release the handle (NULL is
 * accepted). */
HM_EXPORT void hm_csv_abort(hm_csv_t *csv);

/* Publish a summary file and the raw file of its rows (either NULL): the
 * summary first, then the raw file only if the summary made it, since a raw
 * file without its summary would look like a finished run; otherwise the
 * raw file is discarded (hm_csv_abort). Both handles are released and set
 * to NULL. HM_OK, or the status of the hm_csv_close that failed, whose last
 * error names the path. */
HM_EXPORT int hm_csv_close_pair(hm_csv_t **summary, hm_csv_t **raw);

/* A sentence describing the last error of csv (naming the path), or "". */
HM_EXPORT const char *hm_csv_error(const hm_csv_t *csv);

/* Number of data rows ended so far. */
HM_EXPORT size_t hm_csv_rows(const hm_csv_t *csv);

/* ---- Reading CSV files -------------------------------------------------- */

/* A reader for the files hm_csv_open writes (and other RFC 4180 files): the
 * leading "# key: value" lines become factors, the first other line is the
 * header, then one row at a time. Quoted cells may hold commas, "" (one
 * quote) and line breaks; blank lines are skipped. Error sentences name the
 * file and, where there is one, the 1-based line: 'r.csv:17: "abc" is not a
 * number (column global_s)'. */
typedef struct hm_csv_reader hm_csv_reader_t;

/* Open path and read its factors and header. HM_ENOENT when the file does
 * not exist, HM_EIO when it cannot be read, HM_EINVAL when it has no header
 * row or a quote never closes; the last error gives the sentence. */
HM_EXPORT int hm_csv_reader_open(const char *path, hm_csv_reader_t **out);

/* Close the file and release the reader (NULL is accepted). */
HM_EXPORT void hm_csv_reader_close(hm_csv_reader_t *reader);

/* The factors of the leading "# key: value" lines, in file order, owned by
 * the reader. Lines whose key hm_factors_set refuses are skipped. */
HM_EXPORT const hm_factors_t *hm_csv_reader_factors(const hm_csv_reader_t *reader);

/* Number of header columns, the name of column i (NULL past the end), and
 * the index of the column called name (HM_ENOENT if none). */
HM_EXPORT size_t hm_csv_reader_columns(const hm_csv_reader_t *reader);
HM_EXPORT const char *hm_csv_reader_column(const hm_csv_reader_t *reader, size_t i);
HM_EXPORT int hm_csv_reader_find(const hm_csv_reader_t *reader, const char *name, size_t *index);

/* Read the next data row: *more = 1 and the cells available through
 * hm_csv_reader_cell, or *more = 0 at the end of the file. HM_EINVAL when
 * the row has not one cell per column or a quote never closes, HM_EIO on a
 * read error (see hm_csv_reader_error). */
HM_EXPORT int hm_csv_reader_next(hm_csv_reader_t *reader, int *more);

/* Cell i of the current row (valid until the next hm_csv_reader_next), NULL
 * past the end; the 1-based line where the current row starts. */
HM_EXPORT const char *hm_csv_reader_cell(const hm_csv_reader_t *reader, size_t i);
HM_EXPORT size_t hm_csv_reader_line(const hm_csv_reader_t *reader);

/* Cell i of the current row as a number (strtod, so "NaN" and "Inf" are
 * numbers). HM_EINVAL when it is not one, with the sentence naming the file,
 * the line and the column kept for hm_csv_reader_error. */
HM_EXPORT int hm_csv_reader_double(hm_csv_reader_t *reader, size_t i, double *value);

/* The sentence of the last error, or "". */
HM_EXPORT const char *hm_csv_reader_error(const hm_csv_reader_t *reader);

/* argv joined by spaces, each argument quoted for a POSIX shell only where
 * needed ('a b' -> "'a b'", control characters as $'\n'): a command line a
 * user can paste back, as recorded in result files. NULL when out of memory
 * or argv is NULL.
 * Release with free(). */
HM_EXPORT char *hm_output_shell_join(int argc, const char *const *argv);

/* The length in bytes (1 to 4) of the valid UTF-8 sequence that starts at
 * s, or 0 when the bytes there are not one (a stray continuation byte, an
 * overlong 2-byte form, a sequence cut short by the terminating zero).
 * Result files are UTF-8: readers refuse other bytes with it, and a program
 * can escape them before they reach a terminal. */
HM_EXPORT size_t hm_output_utf8_length(const char *s);

#ifdef __cplusplus
}
#endif
#endif
