/* src/results/permpirun.c — the per-mpirun dataset of a campaign
 * [Hunold & Carpen-Amarie 2016, Alg. 6] as a file: one row per run and
 * (op, size, processes, sync), written atomically and read back bit for
 * bit, a bad cell refused with its file, line and column. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <harmonia/results.h>

#include "common/error_set.h"

enum { NCOLS = HM_COL_PERMPIRUN_MEAN_S + 1 };

int hm_results_permpirun_append(hm_results_permpirun_t *ds, const hm_results_permpirun_row_t *row)
{
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? 2 * ds->cap : 64;
        hm_results_permpirun_row_t *p = realloc(ds->rows, cap * sizeof *p);
        if (!p) return hm_error_set(HM_ENOMEM, "per-mpirun dataset: out of memory");
        ds->rows = p, ds->cap = cap;
    }
    ds->rows[ds->n++] = *row;
    return HM_OK;
}

void hm_results_permpirun_free(hm_results_permpirun_t *ds)
{
    free(ds->rows);
    *ds = (hm_results_permpirun_t){0};
}

static int compare_rows(const void *a, const void *b)
{
    const hm_results_permpirun_row_t *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if (x->processes != y->processes) return x->processes < y->processes ? -1 : 1;
    if ((c = strcmp(x->sync, y->sync))) return c;
    return (x->run > y->run) - (x->run < y->run);
}

void hm_results_permpirun_sort(hm_results_permpirun_t *ds)
{
    if (ds->n > 1) qsort(ds->rows, ds->n, sizeof *ds->rows, compare_rows);
}

int hm_results_permpirun_path(const char *operand, char *path, size_t len, int *is_dir)
{
    struct stat st;
    int dir = stat(operand, &st) == 0 && S_ISDIR(st.st_mode);
    int n = dir ? snprintf(path, len, "%s/%s", operand, HM_RESULTS_PERMPIRUN_FILE)
                : snprintf(path, len, "%s", operand);
    if (is_dir) *is_dir = dir;
    if (n < 0 || (size_t)n >= len) return hm_error_set(HM_ERANGE, "%s: path too long", operand);
    return HM_OK;
}

/* ---- Writing ------------------------------------------------------------- */

static int put_row(hm_csv_t *csv, const hm_results_permpirun_row_t *r)
{
    /* The seed is unsigned 64-bit: as text, so that seeds above INT64_MAX
     * keep their value. */
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    hm_csv_put_int64(csv, r->run);
    hm_csv_put_string(csv, seed);
    hm_csv_put_string(csv, r->op);
    hm_csv_put_int64(csv, r->size_bytes);
    hm_csv_put_int64(csv, r->processes);
    hm_csv_put_string(csv, r->sync);
    hm_csv_put_int64(csv, (int64_t)r->n);
    hm_csv_put_int64(csv, (int64_t)r->kept);
    hm_csv_put_double(csv, r->median_s);
    hm_csv_put_double(csv, r->mean_s);
    return hm_csv_end_row(csv);
}

int hm_results_permpirun_write(const hm_results_permpirun_t *ds, const char *path,
                               const hm_factors_t *factors)
{
    hm_csv_t *csv = NULL;
    int rc = hm_results_csv_open(path, factors, HM_RESULTS_PERMPIRUN, &csv);
    if (rc != HM_OK) return HM_EIO;
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++) rc = put_row(csv, &ds->rows[i]);
    if (rc != HM_OK) {
        hm_error_set(HM_EIO, "%s", hm_csv_error(csv));
        hm_csv_abort(csv);
        return HM_EIO;
    }
    return hm_csv_close(csv) == HM_OK ? HM_OK : HM_EIO;
}

/* ---- Reading ------------------------------------------------------------- */

/* One data row being parsed, and where to say what is wrong with it. */
typedef struct reading {
    hm_csv_reader_t *r;
    const char *path;
    size_t idx[NCOLS];
} reading_t;

static int bad_cell(const reading_t *rd, int c, const char *what)
{
    return hm_error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", rd->path,
                        hm_csv_reader_line(rd->r), hm_csv_reader_cell(rd->r, rd->idx[c]), what,
                        hm_results_column_name(HM_RESULTS_PERMPIRUN, c));
}

static int cell_integer(const reading_t *rd, int c, long long min, long long *out)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[c]);
    char *end, what[64];
    errno = 0;
    long long x = strtoll(cell, &end, 10);
    snprintf(what, sizeof what, "an integer >= %lld", min);
    if (!*cell || *end || errno == ERANGE || x < min) return bad_cell(rd, c, what);
    *out = x;
    return HM_OK;
}

static int cell_seed(const reading_t *rd, uint64_t *out)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[HM_COL_PERMPIRUN_SEED]);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(cell, &end, 10);
    /* strtoull accepts "-1" as 2^64 - 1: only digits are a seed. */
    if (!*cell || *end || errno == ERANGE || strspn(cell, "0123456789") != strlen(cell))
        return bad_cell(rd, HM_COL_PERMPIRUN_SEED, "a seed (an unsigned 64-bit integer)");
    *out = x;
    return HM_OK;
}

static int cell_time(const reading_t *rd, int c, double *out)
{
    if (hm_csv_reader_double(rd->r, rd->idx[c], out) != HM_OK)
        return hm_error_set(HM_EINVAL, "%s", hm_csv_reader_error(rd->r));
    return isfinite(*out) && *out >= 0 ? HM_OK : bad_cell(rd, c, "a run-time (finite, at least 0)");
}

/* Names are fixed-size fields of the row: a longer one is refused rather
 * than cut, since a cut name could merge two groups. */
static int cell_name(const reading_t *rd, int c, char *dst, size_t cap)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[c]);
    if (*cell && strlen(cell) < cap) {
        strcpy(dst, cell);
        return HM_OK;
    }
    char what[64];
    snprintf(what, sizeof what, "a name of 1 to %zu characters", cap - 1);
    return bad_cell(rd, c, what);
}

static int parse_row(const reading_t *rd, hm_results_permpirun_row_t *row)
{
    long long run, size, procs, n, kept;
    int rc = cell_integer(rd, HM_COL_PERMPIRUN_RUN, 1, &run);
    if (rc == HM_OK) rc = cell_seed(rd, &row->seed);
    if (rc == HM_OK) rc = cell_name(rd, HM_COL_PERMPIRUN_OP, row->op, sizeof row->op);
    if (rc == HM_OK) rc = cell_integer(rd, HM_COL_PERMPIRUN_SIZE_BYTES, 0, &size);
    if (rc == HM_OK) rc = cell_integer(rd, HM_COL_PERMPIRUN_PROCESSES, 1, &procs);
    if (rc == HM_OK) rc = cell_name(rd, HM_COL_PERMPIRUN_SYNC, row->sync, sizeof row->sync);
    if (rc == HM_OK) rc = cell_integer(rd, HM_COL_PERMPIRUN_N, 1, &n);
    if (rc == HM_OK) rc = cell_integer(rd, HM_COL_PERMPIRUN_KEPT, 1, &kept);
    if (rc == HM_OK && kept > n) rc = bad_cell(rd, HM_COL_PERMPIRUN_KEPT, "at most n");
    if (rc == HM_OK) rc = cell_time(rd, HM_COL_PERMPIRUN_MEDIAN_S, &row->median_s);
    if (rc == HM_OK) rc = cell_time(rd, HM_COL_PERMPIRUN_MEAN_S, &row->mean_s);
    if (rc != HM_OK) return rc;
    row->run = (long)run, row->size_bytes = size, row->processes = (long)procs;
    row->n = (size_t)n, row->kept = (size_t)kept;
    return HM_OK;
}

static int read_rows(reading_t *rd, hm_results_permpirun_t *ds)
{
    int more, rc;
    while ((rc = hm_csv_reader_next(rd->r, &more)) == HM_OK && more) {
        hm_results_permpirun_row_t row = {0};
        if ((rc = parse_row(rd, &row)) != HM_OK) return rc;
        if ((rc = hm_results_permpirun_append(ds, &row)) != HM_OK) return rc;
    }
    if (rc == HM_ENOMEM) return hm_error_set(rc, "%s: out of memory", rd->path);
    return rc == HM_OK ? rc : hm_error_set(rc, "%s", hm_csv_reader_error(rd->r));
}

static int same_group(const hm_results_permpirun_row_t *a, const hm_results_permpirun_row_t *b)
{
    return a->size_bytes == b->size_bytes && a->processes == b->processes &&
           !strcmp(a->op, b->op) && !strcmp(a->sync, b->sync);
}

/* A run twice in one group (two files pasted together) would pool samples
 * that are not independent mpiruns. */
static int check_unique_runs(const hm_results_permpirun_t *ds, const char *path)
{
    hm_results_permpirun_t copy = {0};
    if (ds->n < 2) return HM_OK;
    if (!(copy.rows = malloc(ds->n * sizeof *copy.rows)))
        return hm_error_set(HM_ENOMEM, "%s: out of memory", path);
    memcpy(copy.rows, ds->rows, ds->n * sizeof *ds->rows);
    copy.n = copy.cap = ds->n;
    hm_results_permpirun_sort(&copy);
    int rc = HM_OK;
    for (size_t i = 1; rc == HM_OK && i < copy.n; i++) {
        const hm_results_permpirun_row_t *x = &copy.rows[i - 1], *y = &copy.rows[i];
        if (same_group(x, y) && x->run == y->run)
            rc = hm_error_set(HM_EINVAL,
                              "%s: run %ld appears twice for %s %lld B, %ld processes, sync %s",
                              path, x->run, x->op, x->size_bytes, x->processes, x->sync);
    }
    free(copy.rows);
    return rc;
}

int hm_results_permpirun_read(const char *path, hm_results_permpirun_t *ds)
{
    int cols[NCOLS]; /* all of them, in file order */
    for (int c = 0; c < NCOLS; c++) cols[c] = c;
    reading_t rd = {.path = path};
    int rc = hm_csv_reader_open(path, &rd.r);
    if (rc == HM_OK)
        rc = hm_results_find_columns(rd.r, path, HM_RESULTS_PERMPIRUN, cols, NCOLS, rd.idx);
    if (rc == HM_OK) rc = read_rows(&rd, ds);
    hm_csv_reader_close(rd.r);
    if (rc == HM_OK) rc = check_unique_runs(ds, path);
    return rc;
}
