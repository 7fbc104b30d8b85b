/* src/results/bench_raw.c — the reader of the raw files of `harmonia bench
 * --raw` (columns op, size_bytes, valid and the metric's run-time; factors
 * processes and sync): the one reader stats, compare, campaign and plot
 * share, so that a raw file means the same to all of them and is refused
 * with the same words. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/results.h>

#include "common/error_set.h"

enum { C_OP, C_SIZE, C_VALID, C_METRIC, NCOLS };

struct hm_results_bench_raw {
    hm_csv_reader_t *r;
    char *path;
    size_t idx[NCOLS];
    long processes;
    const char *sync; /* owned by r's factors */
};

/* processes and sync come from the "# key: value" lines bench writes. */
static int file_factors(hm_results_bench_raw_t *raw)
{
    const hm_factors_t *f = hm_csv_reader_factors(raw->r);
    const char *p = NULL;
    char *end;
    if (hm_factors_get(f, "processes", &p) != HM_OK ||
        hm_factors_get(f, "sync", &raw->sync) != HM_OK)
        return hm_error_set(HM_EINVAL, "%s: missing factor \"# %s: ...\" (expected %s)", raw->path,
                            p ? "sync" : "processes",
                            hm_results_schema(HM_RESULTS_BENCH_RAW)->what);
    raw->processes = strtol(p, &end, 10);
    if (!*p || *end || raw->processes < 1)
        return hm_error_set(HM_EINVAL, "%s: factor processes: \"%s\" is not a number of processes",
                            raw->path, p);
    return HM_OK;
}

int hm_results_bench_raw_open(const char *path, hm_metric_t metric, hm_results_bench_raw_t **out)
{
    const int cols[NCOLS] = {
        HM_COL_BENCH_RAW_OP, HM_COL_BENCH_RAW_SIZE_BYTES, HM_COL_BENCH_RAW_VALID,
        metric == HM_METRIC_LOCAL ? HM_COL_BENCH_RAW_LOCAL_S : HM_COL_BENCH_RAW_GLOBAL_S};
    *out = NULL;
    if (hm_results_metric_kind(metric) != HM_RESULTS_BENCH_RAW) {
        char known[64];
        hm_results_metric_names_of(HM_RESULTS_BENCH_RAW, known, sizeof known);
        return hm_error_set(HM_EINVAL, "%s: metric %s is not one of bench raw files (%s)", path,
                            hm_results_metric_name(metric) ? hm_results_metric_name(metric) : "?",
                            known);
    }
    hm_results_bench_raw_t *raw = calloc(1, sizeof *raw);
    if (!raw || !(raw->path = strdup(path))) {
        free(raw);
        return hm_error_set(HM_ENOMEM, "%s: out of memory", path);
    }
    int rc = hm_csv_reader_open(path, &raw->r);
    if (rc == HM_OK)
        rc = hm_results_find_columns(raw->r, path, HM_RESULTS_BENCH_RAW, cols, NCOLS, raw->idx);
    if (rc == HM_OK) rc = file_factors(raw);
    if (rc != HM_OK) {
        hm_results_bench_raw_close(raw);
        return rc;
    }
    *out = raw;
    return HM_OK;
}

long hm_results_bench_raw_processes(const hm_results_bench_raw_t *raw)
{
    return raw->processes;
}

const char *hm_results_bench_raw_sync(const hm_results_bench_raw_t *raw)
{
    return raw->sync;
}

/* The cells of a valid row: a size that is a byte count, a finite run-time. */
static int parse_row(hm_results_bench_raw_t *raw, hm_results_bench_raw_row_t *row)
{
    double size, x;
    int rc = hm_csv_reader_double(raw->r, raw->idx[C_SIZE], &size);
    if (rc == HM_OK) rc = hm_csv_reader_double(raw->r, raw->idx[C_METRIC], &x);
    if (rc != HM_OK) return hm_error_set(rc, "%s", hm_csv_reader_error(raw->r));
    int bad_size = !(size >= 0 && size <= 9e15) || size != floor(size);
    if (bad_size || !(isfinite(x) && x >= 0)) {
        size_t c = bad_size ? raw->idx[C_SIZE] : raw->idx[C_METRIC];
        return hm_error_set(HM_EINVAL, "%s:%zu: \"%s\" is not a %s (column %s)", raw->path,
                            hm_csv_reader_line(raw->r), hm_csv_reader_cell(raw->r, c),
                            bad_size ? "size in bytes" : "run-time (finite, at least 0)",
                            hm_csv_reader_column(raw->r, c));
    }
    row->op = hm_csv_reader_cell(raw->r, raw->idx[C_OP]);
    row->size_bytes = (long long)size;
    row->x_s = x;
    return HM_OK;
}

int hm_results_bench_raw_next(hm_results_bench_raw_t *raw, hm_results_bench_raw_row_t *row,
                              int *more)
{
    double valid;
    int rc;
    while ((rc = hm_csv_reader_next(raw->r, more)) == HM_OK && *more) {
        if ((rc = hm_csv_reader_double(raw->r, raw->idx[C_VALID], &valid)) != HM_OK) break;
        if (valid != 0 && valid != 1) {
            *more = 0;
            return hm_error_set(HM_EINVAL, "%s:%zu: \"%s\" is not a validity, 0 or 1 (column %s)",
                                raw->path, hm_csv_reader_line(raw->r),
                                hm_csv_reader_cell(raw->r, raw->idx[C_VALID]),
                                hm_csv_reader_column(raw->r, raw->idx[C_VALID]));
        }
        if (valid != 1) continue;
        if ((rc = parse_row(raw, row)) != HM_OK) *more = 0;
        return rc;
    }
    if (rc == HM_OK) return HM_OK;
    *more = 0;
    if (rc == HM_ENOMEM) return hm_error_set(rc, "%s: out of memory", raw->path);
    return hm_error_set(rc, "%s", hm_csv_reader_error(raw->r));
}

void hm_results_bench_raw_close(hm_results_bench_raw_t *raw)
{
    if (!raw) return;
    hm_csv_reader_close(raw->r);
    free(raw->path);
    free(raw);
}
