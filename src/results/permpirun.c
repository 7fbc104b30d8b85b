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
#include "results/raw_rows.h"

enum {
    NCOLS = HM_COL_PERMPIRUN_NREP + 1,
    NCOLS_OVERLAP = HM_COL_PERMPIRUN_OVERLAP_NREP + 1,
    MAX_COLS = NCOLS_OVERLAP
};

static int is_overlap(hm_metric_t metric)
{
    return hm_results_metric_kind(metric) == HM_RESULTS_OVERLAP_RAW;
}

int hm_results_permpirun_append(hm_results_permpirun_t *ds, const hm_results_permpirun_row_t *row)
{
    if (!ds) return hm__error_null(__func__, "ds");
    if (!row) return hm__error_null(__func__, "row");
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? 2 * ds->cap : 64;
        hm_results_permpirun_row_t *p = realloc(ds->rows, cap * sizeof *p);
        if (!p) return hm__error_set(HM_ENOMEM, "per-mpirun dataset: out of memory");
        ds->rows = p, ds->cap = cap;
    }
    ds->rows[ds->n++] = *row;
    return HM_OK;
}

void hm_results_permpirun_free(hm_results_permpirun_t *ds)
{
    if (!ds) {
        hm__error_null(__func__, "ds");
        return;
    }
    free(ds->rows);
    *ds = (hm_results_permpirun_t){0};
}

/* Targets in order, "no target" (NaN) first and equal to itself. */
static int cmp_target(double a, double b)
{
    int na = isnan(a) != 0, nb = isnan(b) != 0;
    if (na || nb) return nb - na;
    return (a > b) - (a < b);
}

/* Bench rows hold 0 and "" in the fields of overlap: they order as before. */
int hm_results_permpirun_group_cmp(const hm_results_permpirun_row_t *x,
                                   const hm_results_permpirun_row_t *y)
{
    if (!x || !y) {
        hm__error_null(__func__, x ? "b" : "a");
        return 0;
    }
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if ((c = cmp_target(x->comm_target_s, y->comm_target_s))) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if ((c = cmp_target(x->comp_target_s, y->comp_target_s))) return c;
    if (x->processes != y->processes) return x->processes < y->processes ? -1 : 1;
    if ((c = strcmp(x->sync, y->sync))) return c;
    return strcmp(x->progress, y->progress);
}

static int compare_rows(const void *a, const void *b)
{
    const hm_results_permpirun_row_t *x = a, *y = b;
    int c = hm_results_permpirun_group_cmp(x, y);
    return c ? c : (x->run > y->run) - (x->run < y->run);
}

void hm_results_permpirun_sort(hm_results_permpirun_t *ds)
{
    if (!ds) {
        hm__error_null(__func__, "ds");
        return;
    }
    if (ds->n > 1) qsort(ds->rows, ds->n, sizeof *ds->rows, compare_rows);
}

int hm_results_permpirun_path(const char *operand, char *path, size_t len, int *is_dir)
{
    struct stat st;
    if (!operand) return hm__error_null(__func__, "operand");
    if (!path) return hm__error_null(__func__, "path");
    int dir = stat(operand, &st) == 0 && S_ISDIR(st.st_mode);
    int n = dir ? snprintf(path, len, "%s/%s", operand, HM_RESULTS_PERMPIRUN_FILE)
                : snprintf(path, len, "%s", operand);
    if (is_dir) *is_dir = dir;
    if (n < 0 || (size_t)n >= len) return hm__error_set(HM_ERANGE, "%s: path too long", operand);
    return HM_OK;
}

/* ---- Writing ------------------------------------------------------------- */

/* Unknown (0: a raw file without the factor) is no value: an empty cell. */
static void put_nrep(hm_csv_t *csv, const hm_results_permpirun_row_t *r)
{
    if (r->nrep > 0)
        hm_csv_put_int64(csv, r->nrep);
    else
        hm_csv_put_double(csv, NAN);
}

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
    put_nrep(csv, r);
    return hm_csv_end_row(csv);
}

/* A size that is not part of the cell (-1) is no value: an empty cell. */
static int put_row_overlap(hm_csv_t *csv, const hm_results_permpirun_row_t *r, hm_metric_t metric)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    hm_csv_put_int64(csv, r->run);
    hm_csv_put_string(csv, seed);
    hm_csv_put_string(csv, r->op);
    hm_csv_put_double(csv, r->comm_target_s);
    if (r->size_bytes >= 0)
        hm_csv_put_int64(csv, r->size_bytes);
    else
        hm_csv_put_double(csv, NAN);
    hm_csv_put_double(csv, r->comp_target_s);
    hm_csv_put_int64(csv, r->processes);
    hm_csv_put_string(csv, r->sync);
    hm_csv_put_string(csv, r->progress);
    hm_csv_put_string(csv, hm_results_metric_name(metric));
    hm_csv_put_int64(csv, (int64_t)r->n);
    hm_csv_put_int64(csv, (int64_t)r->kept);
    hm_csv_put_double(csv, r->median_s);
    hm_csv_put_double(csv, r->mean_s);
    hm_csv_put_int64(csv, !r->cell_invalid);
    put_nrep(csv, r);
    return hm_csv_end_row(csv);
}

int hm_results_permpirun_write(const hm_results_permpirun_t *ds, const char *path,
                               const hm_factors_t *factors)
{
    hm_csv_t *csv = NULL;
    if (!ds) return hm__error_null(__func__, "ds");
    if (!path) return hm__error_null(__func__, "path");
    int overlap = is_overlap(ds->metric);
    int rc = hm_results_csv_open(
        path, factors, overlap ? HM_RESULTS_PERMPIRUN_OVERLAP : HM_RESULTS_PERMPIRUN, &csv);
    if (rc != HM_OK) return hm__error_set(HM_EIO, "%s", hm_last_error());
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++)
        rc = overlap ? put_row_overlap(csv, &ds->rows[i], ds->metric) : put_row(csv, &ds->rows[i]);
    if (rc != HM_OK) {
        hm_csv_abort(csv);
        return hm__error_set(HM_EIO, "%s", hm_last_error());
    }
    rc = hm_csv_close(csv);
    return rc == HM_OK ? HM_OK : hm__error_set(HM_EIO, "%s", hm_last_error());
}

/* ---- Reading ------------------------------------------------------------- */

/* The fields of a row, and their columns in each kind: bench's ten, then
 * what overlap adds. */
enum {
    F_RUN,
    F_SEED,
    F_OP,
    F_SIZE,
    F_PROCS,
    F_SYNC,
    F_N,
    F_KEPT,
    F_MEDIAN,
    F_MEAN,
    NFIELDS_BENCH,
    F_COMM = NFIELDS_BENCH,
    F_COMP,
    F_PROGRESS,
    F_METRIC,
    NFIELDS
};
static const int bench_cols[NFIELDS_BENCH] = {
    HM_COL_PERMPIRUN_RUN,        HM_COL_PERMPIRUN_SEED,      HM_COL_PERMPIRUN_OP,
    HM_COL_PERMPIRUN_SIZE_BYTES, HM_COL_PERMPIRUN_PROCESSES, HM_COL_PERMPIRUN_SYNC,
    HM_COL_PERMPIRUN_N,          HM_COL_PERMPIRUN_KEPT,      HM_COL_PERMPIRUN_MEDIAN_S,
    HM_COL_PERMPIRUN_MEAN_S};
static const int overlap_cols[NFIELDS] = {HM_COL_PERMPIRUN_OVERLAP_RUN,
                                          HM_COL_PERMPIRUN_OVERLAP_SEED,
                                          HM_COL_PERMPIRUN_OVERLAP_OP,
                                          HM_COL_PERMPIRUN_OVERLAP_SIZE_BYTES,
                                          HM_COL_PERMPIRUN_OVERLAP_PROCESSES,
                                          HM_COL_PERMPIRUN_OVERLAP_SYNC,
                                          HM_COL_PERMPIRUN_OVERLAP_N,
                                          HM_COL_PERMPIRUN_OVERLAP_KEPT,
                                          HM_COL_PERMPIRUN_OVERLAP_MEDIAN,
                                          HM_COL_PERMPIRUN_OVERLAP_MEAN,
                                          HM_COL_PERMPIRUN_OVERLAP_COMM_TARGET_S,
                                          HM_COL_PERMPIRUN_OVERLAP_COMP_TARGET_S,
                                          HM_COL_PERMPIRUN_OVERLAP_PROGRESS,
                                          HM_COL_PERMPIRUN_OVERLAP_METRIC};

/* One data row being parsed, and where to say what is wrong with it. */
typedef struct reading {
    hm_csv_reader_t *r;
    const char *path;
    hm_results_kind_t kind; /* HM_RESULTS_PERMPIRUN or _PERMPIRUN_OVERLAP */
    const int *cols;        /* the column of each field in kind */
    size_t nfields;
    size_t idx[NFIELDS];
    hm_metric_t metric; /* overlap: of the rows read so far */
    int have_metric;
    int has_cell_valid; /* overlap: a dataset written before it has no such column */
    size_t cell_valid;
    int has_nrep; /* a dataset written before it has no such column */
    size_t nrep;
} reading_t;

static int bad_cell(const reading_t *rd, int f, const char *what)
{
    return hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", rd->path,
                         hm_csv_reader_line(rd->r), hm_csv_reader_cell(rd->r, rd->idx[f]), what,
                         hm_results_column_name(rd->kind, rd->cols[f]));
}

static int cell_integer(const reading_t *rd, int f, long long min, long long *out)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[f]);
    char *end, what[64];
    errno = 0;
    long long x = strtoll(cell, &end, 10);
    snprintf(what, sizeof what, "an integer >= %lld", min);
    if (!*cell || *end || errno == ERANGE || x < min) return bad_cell(rd, f, what);
    *out = x;
    return HM_OK;
}

static int cell_seed(const reading_t *rd, uint64_t *out)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[F_SEED]);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(cell, &end, 10);
    /* strtoull accepts "-1" as 2^64 - 1: only digits are a seed. */
    if (!*cell || *end || errno == ERANGE || strspn(cell, "0123456789") != strlen(cell))
        return bad_cell(rd, F_SEED, "a seed (an unsigned 64-bit integer)");
    *out = x;
    return HM_OK;
}

/* A run-time, or a value of an overlap metric: overhead alone may be
 * below 0. */
static int cell_value(const reading_t *rd, int f, double *out)
{
    if (hm_csv_reader_double(rd->r, rd->idx[f], out) != HM_OK)
        return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(rd->r));
    if (rd->kind == HM_RESULTS_PERMPIRUN)
        return isfinite(*out) && *out >= 0 ? HM_OK
                                           : bad_cell(rd, f, "a run-time (finite, at least 0)");
    if (rd->metric == HM_METRIC_OVERHEAD)
        return isfinite(*out) ? HM_OK : bad_cell(rd, f, "a finite number");
    return isfinite(*out) && *out >= 0 ? HM_OK : bad_cell(rd, f, "a finite number, at least 0");
}

/* Names are fixed-size fields of the row: a longer one is refused rather
 * than cut, since a cut name could merge two groups. */
static int cell_name(const reading_t *rd, int f, char *dst, size_t cap)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[f]);
    if (*cell && strlen(cell) < cap) {
        strcpy(dst, cell);
        return HM_OK;
    }
    char what[64];
    snprintf(what, sizeof what, "a name of 1 to %zu characters", cap - 1);
    return bad_cell(rd, f, what);
}

/* A target of overlap: a time above 0, or none (an empty cell). */
static int cell_target(const reading_t *rd, int f, double *out)
{
    if (hm_csv_reader_double(rd->r, rd->idx[f], out) != HM_OK)
        return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(rd->r));
    return isnan(*out) || (isfinite(*out) && *out > 0) ? HM_OK : bad_cell(rd, f, "a time above 0");
}

/* Every row of a dataset is of one metric of overlap. */
static int cell_metric(reading_t *rd)
{
    hm_metric_t m;
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[F_METRIC]);
    char known[128], what[160];
    hm_results_metric_names_of(HM_RESULTS_OVERLAP_RAW, known, sizeof known);
    snprintf(what, sizeof what, "a metric of overlap (%s)", known);
    if (hm_results_metric_find(cell, &m) != HM_OK ||
        hm_results_metric_kind(m) != HM_RESULTS_OVERLAP_RAW)
        return bad_cell(rd, F_METRIC, what);
    if (rd->have_metric && m != rd->metric) {
        snprintf(what, sizeof what, "%s, the metric of the rows before",
                 hm_results_metric_name(rd->metric));
        return bad_cell(rd, F_METRIC, what);
    }
    rd->metric = m, rd->have_metric = 1;
    return HM_OK;
}

/* nrep: empty (unknown, 0) or a count of at least 1; 0 where the file has
 * no such column. */
static int cell_nrep(const reading_t *rd, long *nrep)
{
    double v = NAN;
    *nrep = 0;
    if (!rd->has_nrep) return HM_OK;
    if (hm_csv_reader_double(rd->r, rd->nrep, &v) != HM_OK ||
        !(isnan(v) || (v >= 1 && v <= 1e15 && v == floor(v))))
        return hm__error_set(HM_EINVAL,
                             "%s:%zu: \"%s\" is not a count of repetitions (column nrep)", rd->path,
                             hm_csv_reader_line(rd->r), hm_csv_reader_cell(rd->r, rd->nrep));
    *nrep = isnan(v) ? 0 : (long)v;
    return HM_OK;
}

/* cell_valid: 0 or 1; 1 where the file has no such column. */
static int cell_validity(const reading_t *rd, int *invalid)
{
    int valid;
    int rc = hm__raw_rows_flag(rd->r, rd->path, rd->has_cell_valid, rd->cell_valid, "cell_valid",
                               &valid);
    *invalid = rc == HM_OK && !valid;
    return rc;
}

static int parse_overlap(reading_t *rd, hm_results_permpirun_row_t *row, long long *size)
{
    int rc = cell_metric(rd);
    if (rc == HM_OK) rc = cell_target(rd, F_COMM, &row->comm_target_s);
    if (rc == HM_OK) rc = cell_target(rd, F_COMP, &row->comp_target_s);
    if (rc == HM_OK) rc = cell_name(rd, F_PROGRESS, row->progress, sizeof row->progress);
    if (rc == HM_OK) rc = cell_validity(rd, &row->cell_invalid);
    if (rc != HM_OK) return rc;
    /* The size is the cell only where no communication time names it. */
    if (!isnan(row->comm_target_s)) *size = -1;
    return isnan(row->comm_target_s) ? cell_integer(rd, F_SIZE, 0, size) : HM_OK;
}

static int parse_row(reading_t *rd, hm_results_permpirun_row_t *row)
{
    long long run, size = 0, procs, n, kept;
    int overlap = rd->kind == HM_RESULTS_PERMPIRUN_OVERLAP;
    int rc = overlap ? parse_overlap(rd, row, &size) : HM_OK;
    if (rc == HM_OK) rc = cell_integer(rd, F_RUN, 1, &run);
    if (rc == HM_OK) rc = cell_seed(rd, &row->seed);
    if (rc == HM_OK) rc = cell_name(rd, F_OP, row->op, sizeof row->op);
    if (rc == HM_OK && !overlap) rc = cell_integer(rd, F_SIZE, 0, &size);
    if (rc == HM_OK) rc = cell_integer(rd, F_PROCS, 1, &procs);
    if (rc == HM_OK) rc = cell_name(rd, F_SYNC, row->sync, sizeof row->sync);
    if (rc == HM_OK) rc = cell_integer(rd, F_N, 1, &n);
    if (rc == HM_OK) rc = cell_integer(rd, F_KEPT, 1, &kept);
    if (rc == HM_OK && kept > n) rc = bad_cell(rd, F_KEPT, "at most n");
    if (rc == HM_OK) rc = cell_value(rd, F_MEDIAN, &row->median_s);
    if (rc == HM_OK) rc = cell_value(rd, F_MEAN, &row->mean_s);
    if (rc == HM_OK) rc = cell_nrep(rd, &row->nrep);
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
    if (rc == HM_ENOMEM) return hm__error_set(rc, "%s: out of memory", rd->path);
    return rc == HM_OK ? rc : hm__error_set(rc, "%s", hm_csv_reader_error(rd->r));
}

/* A run twice in one group (two files pasted together) would pool samples
 * that are not independent mpiruns. */
static int check_unique_runs(const hm_results_permpirun_t *ds, const char *path)
{
    hm_results_permpirun_t copy = {0};
    if (ds->n < 2) return HM_OK;
    if (!(copy.rows = malloc(ds->n * sizeof *copy.rows)))
        return hm__error_set(HM_ENOMEM, "%s: out of memory", path);
    memcpy(copy.rows, ds->rows, ds->n * sizeof *ds->rows);
    copy.n = copy.cap = ds->n;
    hm_results_permpirun_sort(&copy);
    int rc = HM_OK;
    for (size_t i = 1; rc == HM_OK && i < copy.n; i++) {
        const hm_results_permpirun_row_t *x = &copy.rows[i - 1], *y = &copy.rows[i];
        char cell[160];
        if (hm_results_permpirun_group_cmp(x, y) != 0 || x->run != y->run) continue;
        hm_results_cell_name(x->op, x->size_bytes, x->comm_target_s, x->comp_target_s,
                             is_overlap(ds->metric), cell, sizeof cell);
        rc = hm__error_set(HM_EINVAL, "%s: run %ld appears twice for %s, %ld processes, sync %s",
                           path, x->run, cell, x->processes, x->sync);
    }
    free(copy.rows);
    return rc;
}

/* Rows of bench and of overlap, or of two metrics of overlap, are not one
 * dataset: their values are not of one thing. A file of bench says its
 * metric in a factor, where it says it (campaign writes "# metric:"). */
static int check_metric(const reading_t *rd, hm_results_permpirun_t *ds, size_t before)
{
    int overlap = rd->kind == HM_RESULTS_PERMPIRUN_OVERLAP;
    hm_metric_t metric = overlap ? HM_METRIC_OVERHEAD : HM_METRIC_GLOBAL;
    const char *factor;
    if (overlap && rd->have_metric) metric = rd->metric;
    if (!overlap && hm_factors_get(hm_csv_reader_factors(rd->r), "metric", &factor) == HM_OK &&
        (hm_results_metric_find(factor, &metric) != HM_OK || is_overlap(metric)))
        metric = HM_METRIC_GLOBAL;
    if (before == 0) {
        ds->metric = metric;
        return HM_OK;
    }
    if (overlap != is_overlap(ds->metric))
        return hm__error_set(HM_EINVAL, "%s: a per-mpirun dataset of %s runs after one of %s runs",
                             rd->path, overlap ? "overlap" : "bench",
                             overlap ? "bench" : "overlap");
    if (overlap && rd->have_metric && metric != ds->metric)
        return hm__error_set(HM_EINVAL, "%s: rows of metric %s after rows of metric %s", rd->path,
                             hm_results_metric_name(metric), hm_results_metric_name(ds->metric));
    return HM_OK;
}

int hm_results_permpirun_read(const char *path, hm_results_permpirun_t *ds)
{
    int cols[MAX_COLS];
    if (!path) return hm__error_null(__func__, "path");
    if (!ds) return hm__error_null(__func__, "ds");
    size_t i, before = ds->n;
    reading_t rd = {
        .path = path, .kind = HM_RESULTS_PERMPIRUN, .cols = bench_cols, .nfields = NFIELDS_BENCH};
    int rc = hm_csv_reader_open(path, &rd.r);
    if (rc == HM_OK &&
        hm_csv_reader_find(rd.r,
                           hm_results_column_name(HM_RESULTS_PERMPIRUN_OVERLAP,
                                                  HM_COL_PERMPIRUN_OVERLAP_COMM_TARGET_S),
                           &i) == HM_OK)
        rd.kind = HM_RESULTS_PERMPIRUN_OVERLAP, rd.cols = overlap_cols, rd.nfields = NFIELDS;
    if (rc == HM_OK) rd.has_nrep = hm_csv_reader_find(rd.r, "nrep", &rd.nrep) == HM_OK;
    if (rc == HM_OK && rd.kind == HM_RESULTS_PERMPIRUN_OVERLAP)
        rd.has_cell_valid =
            hm_csv_reader_find(rd.r,
                               hm_results_column_name(HM_RESULTS_PERMPIRUN_OVERLAP,
                                                      HM_COL_PERMPIRUN_OVERLAP_CELL_VALID),
                               &rd.cell_valid) == HM_OK;
    for (size_t f = 0; f < rd.nfields; f++) cols[f] = rd.cols[f];
    if (rc == HM_OK) rc = hm_results_find_columns(rd.r, path, rd.kind, cols, rd.nfields, rd.idx);
    if (rc == HM_OK) rc = read_rows(&rd, ds);
    if (rc == HM_OK) rc = check_metric(&rd, ds, before);
    hm_csv_reader_close(rd.r);
    if (rc == HM_OK) rc = check_unique_runs(ds, path);
    if (rc != HM_OK) ds->n = before;
    return rc;
}
