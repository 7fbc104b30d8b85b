/* src/results/overlap_raw.c — the reader of the raw files of `harmonia
 * overlap --raw` for the analysis commands: the valid repetitions of one
 * metric (a ratio of [Denis et al. 2022] or the measured time) with their
 * cell, and the factors processes, sync and progress that group them. */
#include <math.h>

#include <harmonia/results.h>

#include "common/error_set.h"
#include "results/raw_rows.h"

enum { C_OP, C_COMM, C_SIZE, C_COMP, C_VALID, C_METRIC, NCOLS };

struct hm_results_overlap_raw {
    hm__raw_rows_t rows; /* factors: sync, progress */
    hm_metric_t metric;
    int has_cell_valid; /* an older file has no verdict of its cells */
    size_t cell_valid;  /* its column */
};

int hm_results_overlap_raw_open(const char *path, hm_metric_t metric,
                                hm_results_overlap_raw_t **out)
{
    static const char *const keys[] = {"sync", "progress"};
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    int rc = hm__raw_rows_check_metric(path, metric, HM_RESULTS_OVERLAP_RAW, "overlap");
    if (rc != HM_OK) return rc;
    const int cols[NCOLS] = {HM_COL_OVERLAP_RAW_OP,         HM_COL_OVERLAP_RAW_COMM_TARGET_S,
                             HM_COL_OVERLAP_RAW_SIZE_BYTES, HM_COL_OVERLAP_RAW_COMP_TARGET_S,
                             HM_COL_OVERLAP_RAW_VALID,      hm_results_metric_column(metric)};
    rc = hm__raw_rows_open(sizeof **out, path, HM_RESULTS_OVERLAP_RAW, cols, NCOLS, C_VALID, keys,
                           2, (void **)out);
    if (rc == HM_OK) {
        (*out)->metric = metric;
        (*out)->has_cell_valid =
            hm_csv_reader_find(
                (*out)->rows.r,
                hm_results_column_name(HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_CELL_VALID),
                &(*out)->cell_valid) == HM_OK;
    }
    return rc;
}

long hm_results_overlap_raw_processes(const hm_results_overlap_raw_t *raw)
{
    return hm__raw_rows_processes(raw ? &raw->rows : NULL, __func__);
}

const char *hm_results_overlap_raw_sync(const hm_results_overlap_raw_t *raw)
{
    return hm__raw_rows_factor(raw ? &raw->rows : NULL, 0, __func__);
}

const char *hm_results_overlap_raw_progress(const hm_results_overlap_raw_t *raw)
{
    return hm__raw_rows_factor(raw ? &raw->rows : NULL, 1, __func__);
}

/* A target: a positive time, or no value (empty: --sizes, --comp-us comm). */
static int parse_target(hm__raw_rows_t *rows, int c, double *t)
{
    if (hm_csv_reader_double(rows->r, rows->idx[c], t) != HM_OK)
        return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(rows->r));
    return isnan(*t) || (isfinite(*t) && *t > 0) ? HM_OK
                                                 : hm__raw_rows_bad_cell(rows, c, "a time above 0");
}

/* The cell's verdict: 0 or 1, 1 where the file has no such column. */
static int parse_cell_valid(hm_results_overlap_raw_t *raw, hm_results_overlap_raw_row_t *row)
{
    return hm__raw_rows_flag(raw->rows.r, raw->rows.path, raw->has_cell_valid, raw->cell_valid,
                             "cell_valid", &row->cell_valid);
}

/* The cells of a valid row: targets, a size that is a byte count, a finite
 * value of the metric (at least 0, but for overhead). */
static int parse_row(hm_results_overlap_raw_t *raw, hm_results_overlap_raw_row_t *row)
{
    hm__raw_rows_t *rows = &raw->rows;
    double size, x;
    int rc = parse_target(rows, C_COMM, &row->comm_target_s);
    if (rc == HM_OK) rc = parse_target(rows, C_COMP, &row->comp_target_s);
    if (rc != HM_OK) return rc;
    if (hm_csv_reader_double(rows->r, rows->idx[C_SIZE], &size) != HM_OK ||
        hm_csv_reader_double(rows->r, rows->idx[C_METRIC], &x) != HM_OK)
        return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(rows->r));
    if ((rc = hm__raw_rows_bytes(rows, C_SIZE, size, &row->size_bytes)) != HM_OK) return rc;
    int signed_ok = raw->metric == HM_METRIC_OVERHEAD;
    if (!isfinite(x) || (!signed_ok && x < 0))
        return hm__raw_rows_bad_cell(rows, C_METRIC,
                                     signed_ok ? "a finite number" : "a finite number, at least 0");
    row->op = hm_csv_reader_cell(rows->r, rows->idx[C_OP]);
    row->x = x;
    return parse_cell_valid(raw, row);
}

int hm_results_overlap_raw_next(hm_results_overlap_raw_t *raw, hm_results_overlap_raw_row_t *row,
                                int *more)
{
    if (!raw) return hm__error_null(__func__, "raw");
    if (!row) return hm__error_null(__func__, "row");
    if (!more) return hm__error_null(__func__, "more");
    int rc = hm__raw_rows_next_valid(&raw->rows, more);
    if (rc != HM_OK || !*more) return rc;
    if ((rc = parse_row(raw, row)) != HM_OK) *more = 0;
    return rc;
}

void hm_results_overlap_raw_close(hm_results_overlap_raw_t *raw)
{
    hm__raw_rows_close(raw ? &raw->rows : NULL);
}
