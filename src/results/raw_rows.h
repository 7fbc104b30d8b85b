/* src/results/raw_rows.h — what the readers of raw files (bench_raw.c,
 * overlap_raw.c) share: the file, its columns, the factor processes, and
 * the walk over the rows that keeps the valid repetitions. Internal. */
#ifndef HM_RESULTS_RAW_ROWS_H
#define HM_RESULTS_RAW_ROWS_H
#include <stddef.h>

#include <harmonia/results.h>

enum { HM_RAW_ROWS_MAX_COLUMNS = 8, HM_RAW_ROWS_MAX_FACTORS = 4 };

/* The first member of each reader's struct, so that one function opens and
 * releases them all. */
typedef struct hm__raw_rows {
    hm_csv_reader_t *r;
    char *path;
    hm_results_kind_t kind;
    size_t idx[HM_RAW_ROWS_MAX_COLUMNS]; /* header index of each asked column */
    size_t valid;                        /* which of idx is the validity column */
    long processes;
    const char *factors[HM_RAW_ROWS_MAX_FACTORS]; /* owned by the reader's factors */
} hm__raw_rows_t;

/* HM_EINVAL, naming the metrics of kind, when metric is not one of its
 * columns; what names the command that writes the files ("bench"). */
int hm__raw_rows_check_metric(const char *path, hm_metric_t metric, hm_results_kind_t kind,
                              const char *what);

/* A reader of size bytes (zeroed; its first member the hm__raw_rows_t) of
 * path as a raw file of kind: the columns cols[0..n-1] (HM_COL_* of kind;
 * cols[valid] the validity) into idx, the factor processes (a positive
 * number) and the factors keys[0..nkeys-1] into factors, refused in that
 * order with the sentence as the last error. On error nothing is left and
 * *out is NULL. */
int hm__raw_rows_open(size_t size, const char *path, hm_results_kind_t kind, const int *cols,
                      size_t n, size_t valid, const char *const *keys, size_t nkeys, void **out);

/* Move to the next row whose validity is 1 (rows of 0 are skipped): HM_OK
 * with *more = 1 there, or *more = 0 at the end of the file or on error
 * (a validity that is neither 0 nor 1, a row that does not read). */
int hm__raw_rows_next_valid(hm__raw_rows_t *rows, int *more);

/* HM_EINVAL and "path:line: "CELL" is not WHAT (column NAME)" for cell
 * rows->idx[c] of the current row. */
int hm__raw_rows_bad_cell(const hm__raw_rows_t *rows, size_t c, const char *what);

/* size, read from cell rows->idx[c] of the current row, as a byte count
 * into *bytes; HM_EINVAL naming the cell when it is not one. */
int hm__raw_rows_bytes(const hm__raw_rows_t *rows, size_t c, double size, long long *bytes);

/* The factor processes of the reader that rows begins; 0 and fn's
 * sentence "FN: raw is NULL" when rows is NULL. */
long hm__raw_rows_processes(const hm__raw_rows_t *rows, const char *fn);

/* Factor keys[i] of hm__raw_rows_open; NULL and fn's sentence when rows is
 * NULL. */
const char *hm__raw_rows_factor(const hm__raw_rows_t *rows, size_t i, const char *fn);

/* Release the reader, including the struct rows begins (NULL accepted). */
void hm__raw_rows_close(hm__raw_rows_t *rows);

/* An optional column of 0/1 (cell_valid): *flag 1 where the file has no
 * such column (present 0), else the cell of the current row, 0 or 1;
 * HM_EINVAL naming path, line and column otherwise. */
int hm__raw_rows_flag(hm_csv_reader_t *r, const char *path, int present, size_t idx,
                      const char *column, int *flag);
#endif
