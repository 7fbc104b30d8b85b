/* src/results/bench_raw.c — the reader of the raw files of `harmonia bench
 * --raw` (columns op, size_bytes, valid and the metric's run-time; factors
 * processes and sync): the one reader stats, compare, campaign and plot
 * share, so that a raw file means the same to all of them and is refused
 * with the same words. */
#include <math.h>

#include <harmonia/results.h>

#include "common/error_set.h"
#include "results/raw_rows.h"

enum { C_OP, C_SIZE, C_VALID, C_METRIC, NCOLS };

struct hm_results_bench_raw {
    hm__raw_rows_t rows; /* factors: sync */
};

int hm_results_bench_raw_open(const char *path, hm_metric_t metric, hm_results_bench_raw_t **out)
{
    const int cols[NCOLS] = {
        HM_COL_BENCH_RAW_OP, HM_COL_BENCH_RAW_SIZE_BYTES, HM_COL_BENCH_RAW_VALID,
        metric == HM_METRIC_LOCAL ? HM_COL_BENCH_RAW_LOCAL_S : HM_COL_BENCH_RAW_GLOBAL_S};
    static const char *const keys[] = {"sync"};
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    int rc = hm__raw_rows_check_metric(path, metric, HM_RESULTS_BENCH_RAW, "bench");
    if (rc != HM_OK) return rc;
    return hm__raw_rows_open(sizeof **out, path, HM_RESULTS_BENCH_RAW, cols, NCOLS, C_VALID, keys,
                             1, (void **)out);
}

long hm_results_bench_raw_processes(const hm_results_bench_raw_t *raw)
{
    return hm__raw_rows_processes(raw ? &raw->rows : NULL, __func__);
}

const char *hm_results_bench_raw_sync(const hm_results_bench_raw_t *raw)
{
    return hm__raw_rows_factor(raw ? &raw->rows : NULL, 0, __func__);
}

/* The cells of a valid row: a size that is a byte count, a finite run-time. */
static int parse_row(hm__raw_rows_t *rows, hm_results_bench_raw_row_t *row)
{
    double size, x;
    int rc = hm_csv_reader_double(rows->r, rows->idx[C_SIZE], &size);
    if (rc == HM_OK) rc = hm_csv_reader_double(rows->r, rows->idx[C_METRIC], &x);
    if (rc != HM_OK) return hm__error_set(rc, "%s", hm_csv_reader_error(rows->r));
    if ((rc = hm__raw_rows_bytes(rows, C_SIZE, size, &row->size_bytes)) != HM_OK) return rc;
    if (!(isfinite(x) && x >= 0))
        return hm__raw_rows_bad_cell(rows, C_METRIC, "a run-time (finite, at least 0)");
    row->op = hm_csv_reader_cell(rows->r, rows->idx[C_OP]);
    row->x_s = x;
    return HM_OK;
}

int hm_results_bench_raw_next(hm_results_bench_raw_t *raw, hm_results_bench_raw_row_t *row,
                              int *more)
{
    if (!raw) return hm__error_null(__func__, "raw");
    if (!row) return hm__error_null(__func__, "row");
    if (!more) return hm__error_null(__func__, "more");
    int rc = hm__raw_rows_next_valid(&raw->rows, more);
    if (rc != HM_OK || !*more) return rc;
    if ((rc = parse_row(&raw->rows, row)) != HM_OK) *more = 0;
    return rc;
}

void hm_results_bench_raw_close(hm_results_bench_raw_t *raw)
{
    hm__raw_rows_close(raw ? &raw->rows : NULL);
}
