/* tools/harmonia/commands/permpirun.c — the per-mpirun dataset (Hunold and Carpen-Amarie
 * 2016, Alg. 6): built from the raw files of a campaign's runs, written and
 * read back as CSV (seconds), summarized as a table (microseconds) and as the
 * reproducibility report of Fig. 29. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <harmonia/stats.h>

#include "commands/permpirun.h"
#include "commands/raw_input.h"
#include "commands/stats_report.h"

enum { C_RUN, C_SEED, C_OP, C_SIZE, C_PROCS, C_SYNC, C_N, C_KEPT, C_MEDIAN, C_MEAN, NCOLS };
static const char *const columns[NCOLS] = {"run",  "seed", "op",   "size_bytes", "processes",
                                           "sync", "n",    "kept", "median_s",   "mean_s"};

static int push(hm_permpirun_t *ds, const hm_permpirun_row_t *row)
{
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? 2 * ds->cap : 64;
        hm_permpirun_row_t *p = realloc(ds->rows, cap * sizeof *p);
        if (!p) return HM_ENOMEM;
        ds->rows = p, ds->cap = cap;
    }
    ds->rows[ds->n++] = *row;
    return HM_OK;
}

/* Names are fixed-size fields of the row: a longer one is refused rather
 * than cut, since a cut name could merge two groups. */
static int copy_name(char *dst, size_t cap, const char *src)
{
    if (strlen(src) >= cap) return HM_EINVAL;
    strcpy(dst, src);
    return HM_OK;
}

void hm_permpirun_free(hm_permpirun_t *ds)
{
    free(ds->rows);
    *ds = (hm_permpirun_t){0};
}

int hm_permpirun_filter(const char *filter, double *x, size_t n, size_t *kept)
{
    if (strcmp(filter, "tukey") == 0) return hm_stats_tukey(x, n, x, kept, NULL, NULL);
    if (strcmp(filter, "none") != 0) return HM_EINVAL;
    *kept = n;
    return HM_OK;
}

static int compare_rows(const void *a, const void *b)
{
    const hm_permpirun_row_t *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    if (x->processes != y->processes) return x->processes < y->processes ? -1 : 1;
    if ((c = strcmp(x->sync, y->sync))) return c;
    return (x->run > y->run) - (x->run < y->run);
}

void hm_permpirun_sort(hm_permpirun_t *ds)
{
    if (ds->n > 1) qsort(ds->rows, ds->n, sizeof *ds->rows, compare_rows);
}

double hm_permpirun_value(const hm_permpirun_row_t *row, const char *statistic)
{
    return strcmp(statistic, "mean") == 0 ? row->mean_s : row->median_s;
}

/* ---- Alg. 6 on one run's raw file ---------------------------------------- */

/* Lines 8-10 for one (op, size): filter the group's values in place, then the
 * median (type 7) and mean of what is kept. */
static int reduce_group(hm_stats_group_t *g, const char *filter, hm_permpirun_row_t *row)
{
    hm_stats_summary_t s;
    int rc = hm_permpirun_filter(filter, g->x_s, g->n, &row->kept);
    if (rc == HM_OK) rc = hm_stats_summarize(g->x_s, row->kept, &s);
    if (rc != HM_OK) return rc;
    row->n = g->n;
    row->size_bytes = g->size_bytes;
    row->processes = g->processes;
    row->median_s = s.median;
    row->mean_s = s.mean;
    if (copy_name(row->op, sizeof row->op, g->op) != HM_OK ||
        copy_name(row->sync, sizeof row->sync, g->sync) != HM_OK)
        return HM_ERANGE;
    return HM_OK;
}

static int check_filter(const char *path, const char *filter, char *why, size_t len)
{
    if (strcmp(filter, "tukey") == 0 || strcmp(filter, "none") == 0) return HM_OK;
    snprintf(why, len, "%s: unknown filter \"%s\" (known: tukey, none)", path, filter);
    return HM_EINVAL;
}

int hm_permpirun_add_raw(hm_permpirun_t *ds, const char *path, long run, uint64_t seed,
                         const char *metric_col, const char *filter, char *why, size_t why_len)
{
    hm_stats_groups_t groups = {0};
    size_t before = ds->n;
    int rc = check_filter(path, filter, why, why_len);
    if (rc == HM_OK) rc = hm_raw_read(path, metric_col, &groups, why, why_len);
    if (rc == HM_OK && groups.n == 0) {
        snprintf(why, why_len, "%s: no valid repetitions (valid = 1)", path);
        rc = HM_EINVAL;
    }
    hm_stats_groups_sort(&groups);
    for (size_t k = 0; rc == HM_OK && k < groups.n; k++) {
        hm_permpirun_row_t row = {.run = run, .seed = seed};
        rc = reduce_group(&groups.g[k], filter, &row);
        if (rc == HM_ERANGE) {
            snprintf(why, why_len, "%s: operation \"%s\" or sync \"%s\" is too long a name", path,
                     groups.g[k].op, groups.g[k].sync);
            rc = HM_EINVAL;
        }
        if (rc == HM_OK) rc = push(ds, &row);
    }
    /* A missing or unreadable file is bad input to the caller, as a bad cell;
     * a run is added whole or not at all. */
    if (rc != HM_OK && rc != HM_ENOMEM) rc = HM_EINVAL;
    if (rc != HM_OK) ds->n = before;
    hm_stats_groups_free(&groups);
    return rc;
}

/* ---- The CSV file -------------------------------------------------------- */

static int put_row(hm_csv_t *csv, const hm_permpirun_row_t *r)
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

int hm_permpirun_write(const hm_permpirun_t *ds, const char *path, const hm_factors_t *factors,
                       char *why, size_t why_len)
{
    hm_csv_t *csv = NULL;
    int rc = hm_csv_open(path, factors, columns, NCOLS, &csv);
    for (size_t i = 0; rc == HM_OK && i < ds->n; i++) rc = put_row(csv, &ds->rows[i]);
    if (rc != HM_OK) {
        snprintf(why, why_len, "%s", csv ? hm_csv_error(csv) : hm_last_error());
        hm_csv_abort(csv);
        return HM_EIO;
    }
    if (hm_csv_close(csv) == HM_OK) return HM_OK;
    snprintf(why, why_len, "%s", hm_last_error());
    return HM_EIO;
}

static int find_columns(hm_csv_reader_t *r, const char *path, size_t *idx, char *why, size_t len)
{
    char expected[128];
    snprintf(expected, sizeof expected, "the %s of 'harmonia campaign'", HM_PERMPIRUN_FILE);
    return hm_cli_find_columns(r, path, columns, NCOLS, idx, expected, why, len);
}

/* One data row being parsed, and where to say what is wrong with it. */
typedef struct reading {
    hm_csv_reader_t *r;
    const char *path;
    size_t idx[NCOLS];
    char *why;
    size_t len;
} reading_t;

static int bad_cell(const reading_t *rd, int c, const char *what)
{
    size_t i = rd->idx[c];
    snprintf(rd->why, rd->len, "%s:%zu: \"%s\" is not %s (column %s)", rd->path,
             hm_csv_reader_line(rd->r), hm_csv_reader_cell(rd->r, i), what, columns[c]);
    return HM_EINVAL;
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
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[C_SEED]);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(cell, &end, 10);
    /* strtoull accepts "-1" as 2^64 - 1: only digits are a seed. */
    if (!*cell || *end || errno == ERANGE || strspn(cell, "0123456789") != strlen(cell))
        return bad_cell(rd, C_SEED, "a seed (an unsigned 64-bit integer)");
    *out = x;
    return HM_OK;
}

static int cell_time(const reading_t *rd, int c, double *out)
{
    if (hm_csv_reader_double(rd->r, rd->idx[c], out) != HM_OK) {
        snprintf(rd->why, rd->len, "%s", hm_csv_reader_error(rd->r));
        return HM_EINVAL;
    }
    return isfinite(*out) ? HM_OK : bad_cell(rd, c, "a finite run-time");
}

static int cell_name(const reading_t *rd, int c, char *dst, size_t cap)
{
    const char *cell = hm_csv_reader_cell(rd->r, rd->idx[c]);
    if (*cell && copy_name(dst, cap, cell) == HM_OK) return HM_OK;
    char what[64];
    snprintf(what, sizeof what, "a name of 1 to %zu characters", cap - 1);
    return bad_cell(rd, c, what);
}

static int parse_row(const reading_t *rd, hm_permpirun_row_t *row)
{
    long long run, size, procs, n, kept;
    int rc = cell_integer(rd, C_RUN, 1, &run);
    if (rc == HM_OK) rc = cell_seed(rd, &row->seed);
    if (rc == HM_OK) rc = cell_name(rd, C_OP, row->op, sizeof row->op);
    if (rc == HM_OK) rc = cell_integer(rd, C_SIZE, 0, &size);
    if (rc == HM_OK) rc = cell_integer(rd, C_PROCS, 1, &procs);
    if (rc == HM_OK) rc = cell_name(rd, C_SYNC, row->sync, sizeof row->sync);
    if (rc == HM_OK) rc = cell_integer(rd, C_N, 1, &n);
    if (rc == HM_OK) rc = cell_integer(rd, C_KEPT, 1, &kept);
    if (rc == HM_OK && kept > n) rc = bad_cell(rd, C_KEPT, "at most n");
    if (rc == HM_OK) rc = cell_time(rd, C_MEDIAN, &row->median_s);
    if (rc == HM_OK) rc = cell_time(rd, C_MEAN, &row->mean_s);
    if (rc != HM_OK) return rc;
    row->run = (long)run, row->size_bytes = size, row->processes = (long)procs;
    row->n = (size_t)n, row->kept = (size_t)kept;
    return HM_OK;
}

static int read_rows(reading_t *rd, hm_permpirun_t *ds)
{
    int more, rc;
    while ((rc = hm_csv_reader_next(rd->r, &more)) == HM_OK && more) {
        hm_permpirun_row_t row = {0};
        if ((rc = parse_row(rd, &row)) != HM_OK || (rc = push(ds, &row)) != HM_OK) return rc;
    }
    if (rc != HM_OK && rc != HM_ENOMEM) {
        snprintf(rd->why, rd->len, "%s", hm_csv_reader_error(rd->r));
        rc = HM_EINVAL;
    }
    return rc;
}

static int check_unique_runs(const hm_permpirun_t *ds, const char *path, char *why, size_t len);

int hm_permpirun_read(const char *path, hm_permpirun_t *ds, char *why, size_t why_len)
{
    reading_t rd = {.path = path, .why = why, .len = why_len};
    int rc = hm_csv_reader_open(path, &rd.r);
    if (rc != HM_OK) snprintf(why, why_len, "%s", hm_last_error());
    if (rc == HM_OK) rc = find_columns(rd.r, path, rd.idx, why, why_len);
    if (rc == HM_OK) rc = read_rows(&rd, ds);
    hm_csv_reader_close(rd.r);
    if (rc == HM_OK) rc = check_unique_runs(ds, path, why, why_len);
    return rc == HM_OK || rc == HM_ENOMEM ? rc : HM_EINVAL;
}

/* ---- Summaries over runs --------------------------------------------------- */

static int same_group(const hm_permpirun_row_t *a, const hm_permpirun_row_t *b)
{
    return a->size_bytes == b->size_bytes && a->processes == b->processes &&
           !strcmp(a->op, b->op) && !strcmp(a->sync, b->sync);
}

/* A sorted copy, so that each group's runs are consecutive: [i, group_end). */
static int sorted_copy(const hm_permpirun_t *ds, hm_permpirun_t *copy)
{
    copy->rows = malloc((ds->n ? ds->n : 1) * sizeof *copy->rows);
    if (!copy->rows) return HM_ENOMEM;
    memcpy(copy->rows, ds->rows, ds->n * sizeof *ds->rows);
    copy->n = copy->cap = ds->n;
    hm_permpirun_sort(copy);
    return HM_OK;
}

static size_t group_end(const hm_permpirun_t *ds, size_t i)
{
    size_t j = i + 1;
    while (j < ds->n && same_group(&ds->rows[i], &ds->rows[j])) j++;
    return j;
}

/* A run twice in one group (two files pasted together) would pool samples
 * that are not independent mpiruns. */
static int check_unique_runs(const hm_permpirun_t *ds, const char *path, char *why, size_t len)
{
    hm_permpirun_t copy = {0};
    if (sorted_copy(ds, &copy) != HM_OK) return HM_ENOMEM;
    int rc = HM_OK;
    for (size_t i = 1; rc == HM_OK && i < copy.n; i++) {
        const hm_permpirun_row_t *x = &copy.rows[i - 1], *y = &copy.rows[i];
        if (!same_group(x, y) || x->run != y->run) continue;
        snprintf(why, len, "%s: run %ld appears twice for %s %lld B, %ld processes, sync %s", path,
                 x->run, x->op, x->size_bytes, x->processes, x->sync);
        rc = HM_EINVAL;
    }
    free(copy.rows);
    return rc;
}

/* Fig. 29's normalization divides by the smallest run: undefined unless it
 * is positive. */
static double ratio_to(double x, double min)
{
    return min > 0 ? x / min : NAN;
}

static int check_statistic(const char *statistic)
{
    return strcmp(statistic, "median") == 0 || strcmp(statistic, "mean") == 0 ? HM_OK : HM_EINVAL;
}

/* One table row: the group's runs rows[i, j). */
static int summary_row(hm_table_t *t, const hm_permpirun_t *ds, size_t i, size_t j,
                       const char *statistic, double *work)
{
    hm_stats_summary_t s;
    for (size_t k = i; k < j; k++) work[k - i] = hm_permpirun_value(&ds->rows[k], statistic);
    int rc = hm_stats_summarize(work, j - i, &s);
    if (rc != HM_OK) return rc;
    const hm_permpirun_row_t *r = &ds->rows[i];
    hm_table_add_cell(t, r->op);
    hm_table_add_cellf(t, "%lld", r->size_bytes);
    hm_table_add_cellf(t, "%ld", r->processes);
    hm_table_add_cell(t, r->sync);
    hm_table_add_cellf(t, "%zu", j - i);
    hm_table_add_cellf(t, "%.2f", s.median * 1e6);
    hm_table_add_cellf(t, "%.2f", s.min * 1e6);
    hm_table_add_cellf(t, "%.2f", s.max * 1e6);
    double repro = ratio_to(s.max, s.min);
    return isnan(repro) ? hm_table_add_cell(t, "n/a") : hm_table_add_cellf(t, "%.3f", repro);
}

static int summary_table(const hm_permpirun_t *ds, const char *statistic, hm_table_t *t)
{
    static const char *const cols[] = {"op",     "size_B", "procs",  "sync", "runs",
                                       "med_us", "min_us", "max_us", "repro"};
    double *work = malloc((ds->n ? ds->n : 1) * sizeof *work);
    int rc = work ? HM_OK : HM_ENOMEM;
    for (size_t c = 0; rc == HM_OK && c < sizeof cols / sizeof cols[0]; c++)
        rc = hm_table_add_column(t, cols[c], c == 0 || c == 3 ? HM_ALIGN_LEFT : HM_ALIGN_RIGHT);
    for (size_t i = 0, j; rc == HM_OK && i < ds->n; i = j)
        rc = summary_row(t, ds, i, j = group_end(ds, i), statistic, work);
    free(work);
    return rc;
}

int hm_permpirun_print_summary(const hm_permpirun_t *ds, const char *statistic, FILE *f)
{
    hm_permpirun_t sorted = {0};
    hm_table_t *t = NULL;
    if (check_statistic(statistic) != HM_OK) return HM_EINVAL;
    int rc = sorted_copy(ds, &sorted);
    if (rc == HM_OK) rc = hm_table_create(&t);
    if (rc == HM_OK) rc = summary_table(&sorted, statistic, t);
    if (rc == HM_OK &&
        fprintf(f,
                "per-mpirun %ss (Alg. 6: each run's valid repetitions, filtered, reduced to "
                "their %s) over the runs: med/min/max in microseconds; repro = largest run's "
                "value / smallest (Fig. 29)\n",
                statistic, statistic) < 0)
        rc = HM_EIO;
    if (rc == HM_OK) rc = hm_table_print(t, f);
    hm_table_free(t);
    hm_permpirun_free(&sorted);
    return rc;
}

/* ---- The reproducibility report (Fig. 29) --------------------------------- */

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One line per group: the runs' values over the smallest, ascending (the
 * distribution Fig. 29 draws), the largest at the end. */
static int normalized_line(const hm_permpirun_t *ds, size_t i, size_t j, const char *statistic,
                           double *work, FILE *f)
{
    const hm_permpirun_row_t *g = &ds->rows[i];
    for (size_t k = i; k < j; k++) work[k - i] = hm_permpirun_value(&ds->rows[k], statistic);
    qsort(work, j - i, sizeof *work, compare_doubles);
    if (fprintf(f, "%s %lld B, %ld processes, %s, %zu runs:", g->op, g->size_bytes, g->processes,
                g->sync, j - i) < 0)
        return HM_EIO;
    for (size_t k = 0; k < j - i; k++) fprintf(f, " %.3f", work[0] > 0 ? work[k] / work[0] : NAN);
    return fprintf(f, "  (max %.3f)\n", work[0] > 0 ? work[j - i - 1] / work[0] : NAN) < 0 ? HM_EIO
                                                                                           : HM_OK;
}

int hm_permpirun_print_normalized(const hm_permpirun_t *ds, const char *statistic, FILE *f)
{
    hm_permpirun_t sorted = {0};
    if (check_statistic(statistic) != HM_OK) return HM_EINVAL;
    int rc = sorted_copy(ds, &sorted);
    double *work = rc == HM_OK ? malloc((ds->n ? ds->n : 1) * sizeof *work) : NULL;
    if (rc == HM_OK && !work) rc = HM_ENOMEM;
    if (rc == HM_OK &&
        fprintf(f, "reproducibility (Fig. 29): each run's %s / the smallest run's, ascending\n",
                statistic) < 0)
        rc = HM_EIO;
    for (size_t i = 0, j; rc == HM_OK && i < sorted.n; i = j)
        rc = normalized_line(&sorted, i, j = group_end(&sorted, i), statistic, work, f);
    free(work);
    hm_permpirun_free(&sorted);
    return rc;
}

/* The caller's factors and the statistic the values are of. */
static int repro_factors(const hm_factors_t *factors, const char *statistic, hm_factors_t **out)
{
    const char *key, *value;
    int rc = hm_factors_create(out);
    for (size_t i = 0; rc == HM_OK && factors && i < hm_factors_count(factors); i++)
        if ((rc = hm_factors_at(factors, i, &key, &value)) == HM_OK)
            rc = hm_factors_set(*out, key, "%s", value);
    if (rc == HM_OK) rc = hm_factors_set(*out, "statistic", "%s", statistic);
    return rc;
}

static int repro_rows(hm_csv_t *csv, const hm_permpirun_t *ds, const char *statistic)
{
    int rc = HM_OK;
    for (size_t i = 0, j; rc == HM_OK && i < ds->n; i = j) {
        double min = INFINITY, max = -INFINITY;
        j = group_end(ds, i);
        for (size_t k = i; k < j; k++) {
            double x = hm_permpirun_value(&ds->rows[k], statistic);
            min = fmin(min, x), max = fmax(max, x);
        }
        for (size_t k = i; rc == HM_OK && k < j; k++) {
            const hm_permpirun_row_t *r = &ds->rows[k];
            double x = hm_permpirun_value(r, statistic);
            hm_csv_put_string(csv, r->op);
            hm_csv_put_int64(csv, r->size_bytes);
            hm_csv_put_int64(csv, r->processes);
            hm_csv_put_string(csv, r->sync);
            hm_csv_put_int64(csv, r->run);
            hm_csv_put_double(csv, x);
            hm_csv_put_double(csv, ratio_to(x, min));
            hm_csv_put_double(csv, ratio_to(max, min));
            rc = hm_csv_end_row(csv);
        }
    }
    return rc;
}

static int write_repro(const hm_permpirun_t *ds, const char *statistic, const char *path,
                       const hm_factors_t *factors, char *why, size_t len)
{
    char value_col[16];
    const char *cols[] = {"op",  "size_bytes", "processes",  "sync",
                          "run", value_col,    "normalized", "max_normalized"};
    hm_csv_t *csv = NULL;
    snprintf(value_col, sizeof value_col, "%s_s", statistic);
    int rc = hm_csv_open(path, factors, cols, sizeof cols / sizeof cols[0], &csv);
    if (rc == HM_OK && (rc = repro_rows(csv, ds, statistic)) != HM_OK) {
        snprintf(why, len, "%s", hm_csv_error(csv));
        hm_csv_abort(csv);
        return HM_EIO;
    }
    if (rc == HM_OK) rc = hm_csv_close(csv);
    if (rc != HM_OK) snprintf(why, len, "%s", hm_last_error());
    return rc == HM_OK ? HM_OK : HM_EIO;
}

int hm_permpirun_write_reproducibility(const hm_permpirun_t *ds, const char *statistic,
                                       const char *path, const hm_factors_t *factors, char *why,
                                       size_t why_len)
{
    hm_permpirun_t sorted = {0};
    hm_factors_t *f = NULL;
    if (check_statistic(statistic) != HM_OK) {
        snprintf(why, why_len, "%s: unknown statistic \"%s\" (known: median, mean)", path,
                 statistic);
        return HM_EINVAL;
    }
    int rc = sorted_copy(ds, &sorted);
    if (rc == HM_OK) rc = repro_factors(factors, statistic, &f);
    if (rc == HM_OK)
        rc = write_repro(&sorted, statistic, path, f, why, why_len);
    else
        snprintf(why, why_len, "%s: %s", path, hm_strerror(rc));
    hm_factors_free(f);
    hm_permpirun_free(&sorted);
    return rc;
}

int hm_permpirun_resolve(const char *operand, char *path, size_t len)
{
    struct stat st;
    int dir = stat(operand, &st) == 0 && S_ISDIR(st.st_mode);
    int n = dir ? snprintf(path, len, "%s/%s", operand, HM_PERMPIRUN_FILE)
                : snprintf(path, len, "%s", operand);
    return n < 0 || (size_t)n >= len ? -1 : dir;
}
