/* src/results/raw_rows.c — what the readers of raw files share: one place
 * for the words a raw file is refused with, whichever command wrote it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "results/raw_rows.h"

int hm__raw_rows_check_metric(const char *path, hm_metric_t metric, hm_results_kind_t kind,
                              const char *what)
{
    if (hm_results_metric_kind(metric) == kind) return HM_OK;
    char known[128];
    hm_results_metric_names_of(kind, known, sizeof known);
    return hm__error_set(HM_EINVAL, "%s: metric %s is not one of %s raw files (%s)", path,
                         hm_results_metric_name(metric) ? hm_results_metric_name(metric) : "?",
                         what, known);
}

static int missing_factor(const hm__raw_rows_t *rows, const char *key)
{
    return hm__error_set(HM_EINVAL, "%s: missing factor \"# %s: ...\" (expected %s)", rows->path,
                         key, hm_results_schema(rows->kind)->what);
}

/* The factors come from the "# key: value" lines the writing command
 * puts first; processes is read as a number once all are known present. */
static int file_factors(hm__raw_rows_t *rows, const char *const *keys, size_t nkeys)
{
    const hm_factors_t *f = hm_csv_reader_factors(rows->r);
    const char *p = NULL;
    char *end;
    if (hm_factors_get(f, "processes", &p) != HM_OK) return missing_factor(rows, "processes");
    for (size_t k = 0; k < nkeys; k++)
        if (hm_factors_get(f, keys[k], &rows->factors[k]) != HM_OK)
            return missing_factor(rows, keys[k]);
    rows->processes = strtol(p, &end, 10);
    if (!*p || *end || rows->processes < 1)
        return hm__error_set(HM_EINVAL, "%s: factor processes: \"%s\" is not a number of processes",
                             rows->path, p);
    return HM_OK;
}

int hm__raw_rows_open(size_t size, const char *path, hm_results_kind_t kind, const int *cols,
                      size_t n, size_t valid, const char *const *keys, size_t nkeys, void **out)
{
    *out = NULL;
    if (n > HM_RAW_ROWS_MAX_COLUMNS || nkeys > HM_RAW_ROWS_MAX_FACTORS ||
        size < sizeof(hm__raw_rows_t))
        return hm__error_set(HM_EINTERNAL, "%s: a raw reader asked for too much", path);
    hm__raw_rows_t *rows = calloc(1, size);
    if (!rows || !(rows->path = strdup(path))) {
        free(rows);
        return hm__error_set(HM_ENOMEM, "%s: out of memory", path);
    }
    rows->kind = kind;
    rows->valid = valid;
    int rc = hm_csv_reader_open(path, &rows->r);
    if (rc == HM_OK) rc = hm_results_find_columns(rows->r, path, kind, cols, n, rows->idx);
    if (rc == HM_OK) rc = file_factors(rows, keys, nkeys);
    if (rc != HM_OK) {
        hm__raw_rows_close(rows);
        return rc;
    }
    *out = rows;
    return HM_OK;
}

int hm__raw_rows_bad_cell(const hm__raw_rows_t *rows, size_t c, const char *what)
{
    return hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", rows->path,
                         hm_csv_reader_line(rows->r), hm_csv_reader_cell(rows->r, rows->idx[c]),
                         what, hm_csv_reader_column(rows->r, rows->idx[c]));
}

int hm__raw_rows_bytes(const hm__raw_rows_t *rows, size_t c, double size, long long *bytes)
{
    if (!(size >= 0 && size <= 9e15) || size != floor(size))
        return hm__raw_rows_bad_cell(rows, c, "a size in bytes");
    *bytes = (long long)size;
    return HM_OK;
}

int hm__raw_rows_next_valid(hm__raw_rows_t *rows, int *more)
{
    double valid;
    int rc;
    while ((rc = hm_csv_reader_next(rows->r, more)) == HM_OK && *more) {
        if ((rc = hm_csv_reader_double(rows->r, rows->idx[rows->valid], &valid)) != HM_OK) break;
        if (valid != 0 && valid != 1) {
            *more = 0;
            return hm__raw_rows_bad_cell(rows, rows->valid, "a validity, 0 or 1");
        }
        if (valid == 1) return HM_OK;
    }
    if (rc == HM_OK) return HM_OK;
    *more = 0;
    if (rc == HM_ENOMEM) return hm__error_set(rc, "%s: out of memory", rows->path);
    return hm__error_set(rc, "%s", hm_csv_reader_error(rows->r));
}

int hm__raw_rows_flag(hm_csv_reader_t *r, const char *path, int present, size_t idx,
                      const char *column, int *flag)
{
    double v = 1;
    *flag = 1;
    if (!present) return HM_OK;
    if (hm_csv_reader_double(r, idx, &v) != HM_OK || (v != 0 && v != 1))
        return hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not a validity, 0 or 1 (column %s)",
                             path, hm_csv_reader_line(r), hm_csv_reader_cell(r, idx), column);
    *flag = v == 1;
    return HM_OK;
}

long hm__raw_rows_processes(const hm__raw_rows_t *rows, const char *fn)
{
    if (!rows) {
        hm__error_null(fn, "raw");
        return 0;
    }
    return rows->processes;
}

const char *hm__raw_rows_factor(const hm__raw_rows_t *rows, size_t i, const char *fn)
{
    if (!rows) {
        hm__error_null(fn, "raw");
        return NULL;
    }
    return rows->factors[i];
}

void hm__raw_rows_close(hm__raw_rows_t *rows)
{
    if (!rows) return;
    hm_csv_reader_close(rows->r);
    free(rows->path);
    free(rows);
}
