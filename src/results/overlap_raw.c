/* src/results/overlap_raw.c — the reader of the raw files of `harmonia
 * overlap --raw` for the analysis commands: the valid repetitions of one
 * metric (a ratio of [Denis et al. 2022] or the measured time) with their
 * cell, and the factors processes, sync and progress that group them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/results.h>

#include "common/error_set.h"

enum { C_OP, C_COMM, C_SIZE, C_COMP, C_VALID, C_METRIC, NCOLS };

struct hm_results_overlap_raw {
    hm_csv_reader_t *r;
    char *path;
    hm_metric_t metric;
    size_t idx[NCOLS];
    long processes;
    const char *sync, *progress; /* owned by r's factors */
};

static int missing_factor(const hm_results_overlap_raw_t *raw, const char *key)
{
    return hm_error_set(HM_EINVAL, "%s: missing factor \"# %s: ...\" (expected %s)", raw->path, key,
                        hm_results_schema(HM_RESULTS_OVERLAP_RAW)->what);
}

/* processes, sync and progress come from the "# key: value" lines overlap
 * writes. */
static int file_factors(hm_results_overlap_raw_t *raw)
{
    const hm_factors_t *f = hm_csv_reader_factors(raw->r);
    const char *p = NULL;
    char *end;
    if (hm_factors_get(f, "processes", &p) != HM_OK) return missing_factor(raw, "processes");
    if (hm_factors_get(f, "sync", &raw->sync) != HM_OK) return missing_factor(raw, "sync");
    if (hm_factors_get(f, "progress", &raw->progress) != HM_OK)
        return missing_factor(raw, "progress");
    raw->processes = strtol(p, &end, 10);
    if (!*p || *end || raw->processes < 1)
        return hm_error_set(HM_EINVAL, "%s: factor processes: \"%s\" is not a number of processes",
                            raw->path, p);
    return HM_OK;
}

int hm_results_overlap_raw_open(const char *path, hm_metric_t metric,
                                hm_results_overlap_raw_t **out)
{
    *out = NULL;
    if (hm_results_metric_kind(metric) != HM_RESULTS_OVERLAP_RAW) {
        char known[128];
        hm_results_metric_names_of(HM_RESULTS_OVERLAP_RAW, known, sizeof known);
        return hm_error_set(HM_EINVAL, "%s: metric %s is not one of overlap raw files (%s)", path,
                            hm_results_metric_name(metric) ? hm_results_metric_name(metric) : "?",
                            known);
    }
    const int cols[NCOLS] = {HM_COL_OVERLAP_RAW_OP,         HM_COL_OVERLAP_RAW_COMM_TARGET_S,
                             HM_COL_OVERLAP_RAW_SIZE_BYTES, HM_COL_OVERLAP_RAW_COMP_TARGET_S,
                             HM_COL_OVERLAP_RAW_VALID,      hm_results_metric_column(metric)};
    hm_results_overlap_raw_t *raw = calloc(1, sizeof *raw);
    if (!raw || !(raw->path = strdup(path))) {
        free(raw);
        return hm_error_set(HM_ENOMEM, "%s: out of memory", path);
    }
    raw->metric = metric;
    int rc = hm_csv_reader_open(path, &raw->r);
    if (rc == HM_OK)
        rc = hm_results_find_columns(raw->r, path, HM_RESULTS_OVERLAP_RAW, cols, NCOLS, raw->idx);
    if (rc == HM_OK) rc = file_factors(raw);
    if (rc != HM_OK) {
        hm_results_overlap_raw_close(raw);
        return rc;
    }
    *out = raw;
    return HM_OK;
}

long hm_results_overlap_raw_processes(const hm_results_overlap_raw_t *raw)
{
    return raw->processes;
}

const char *hm_results_overlap_raw_sync(const hm_results_overlap_raw_t *raw)
{
    return raw->sync;
}

const char *hm_results_overlap_raw_progress(const hm_results_overlap_raw_t *raw)
{
    return raw->progress;
}

static int bad_cell(const hm_results_overlap_raw_t *raw, int c, const char *what)
{
    return hm_error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", raw->path,
                        hm_csv_reader_line(raw->r), hm_csv_reader_cell(raw->r, raw->idx[c]), what,
                        hm_csv_reader_column(raw->r, raw->idx[c]));
}

/* A target: a positive time, or no value (empty: --sizes, --comp-us comm). */
static int parse_target(hm_results_overlap_raw_t *raw, int c, double *t)
{
    if (hm_csv_reader_double(raw->r, raw->idx[c], t) != HM_OK)
        return hm_error_set(HM_EINVAL, "%s", hm_csv_reader_error(raw->r));
    return isnan(*t) || (isfinite(*t) && *t > 0) ? HM_OK : bad_cell(raw, c, "a time above 0");
}

/* The cells of a valid row: targets, a size that is a byte count, a finite
 * value of the metric (at least 0, but for overhead). */
static int parse_row(hm_results_overlap_raw_t *raw, hm_results_overlap_raw_row_t *row)
{
    double size, x;
    int rc = parse_target(raw, C_COMM, &row->comm_target_s);
    if (rc == HM_OK) rc = parse_target(raw, C_COMP, &row->comp_target_s);
    if (rc != HM_OK) return rc;
    if (hm_csv_reader_double(raw->r, raw->idx[C_SIZE], &size) != HM_OK ||
        hm_csv_reader_double(raw->r, raw->idx[C_METRIC], &x) != HM_OK)
        return hm_error_set(HM_EINVAL, "%s", hm_csv_reader_error(raw->r));
    if (!(size >= 0 && size <= 9e15) || size != floor(size))
        return bad_cell(raw, C_SIZE, "a size in bytes");
    int signed_ok = raw->metric == HM_METRIC_OVERHEAD;
    if (!isfinite(x) || (!signed_ok && x < 0))
        return bad_cell(raw, C_METRIC,
                        signed_ok ? "a finite number" : "a finite number, at least 0");
    row->op = hm_csv_reader_cell(raw->r, raw->idx[C_OP]);
    row->size_bytes = (long long)size;
    row->x = x;
    return HM_OK;
}

int hm_results_overlap_raw_next(hm_results_overlap_raw_t *raw, hm_results_overlap_raw_row_t *row,
                                int *more)
{
    double valid;
    int rc;
    while ((rc = hm_csv_reader_next(raw->r, more)) == HM_OK && *more) {
        if ((rc = hm_csv_reader_double(raw->r, raw->idx[C_VALID], &valid)) != HM_OK) break;
        if (valid != 0 && valid != 1) {
            *more = 0;
            return bad_cell(raw, C_VALID, "a validity, 0 or 1");
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

void hm_results_overlap_raw_close(hm_results_overlap_raw_t *raw)
{
    if (!raw) return;
    hm_csv_reader_close(raw->r);
    free(raw->path);
    free(raw);
}
