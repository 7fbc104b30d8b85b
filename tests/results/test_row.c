/* tests/results/test_row.c — rows written by column id (hm_results_row_*)
 * against the schemas: values set in any order land under their column's
 * name in the header, every kind's row has one cell per column, and a row
 * with a column unset or a column outside its schema is refused with the
 * column named and nothing written. The per-repetition rows of bench and
 * pattern (hm_measure_write_raw) are checked the same way, under the
 * header's names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/measure.h>
#include <harmonia/results.h>

#include "testutil.h"

enum { LINE_MAX_CHARS = 4096, MAX_LINES = 8 };

/* The header and data lines of path (factor lines skipped), '\n' cut. */
static int read_lines(const char *path, char lines[][LINE_MAX_CHARS])
{
    FILE *f = fopen(path, "r");
    int n = 0;
    char line[LINE_MAX_CHARS];
    while (f && n < MAX_LINES && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(lines[n++], LINE_MAX_CHARS, "%s", line);
    }
    if (f) fclose(f);
    return n;
}

/* The cell of the data line under the header's name. */
static const char *cell_under(const char *header, const char *data, const char *name)
{
    static char cell[256];
    char h[LINE_MAX_CHARS], d[LINE_MAX_CHARS], *hs = h, *ds = d;
    snprintf(h, sizeof h, "%s", header);
    snprintf(d, sizeof d, "%s", data);
    /* strsep keeps empty cells (NaN is written as one). */
    for (char *hn, *dn; (hn = strsep(&hs, ",")) && (dn = strsep(&ds, ","));)
        if (!strcmp(hn, name)) return snprintf(cell, sizeof cell, "%s", dn), cell;
    return "(none)";
}

/* Bench's raw columns set last to first: the file reads in schema order. */
static void check_any_order(const char *path)
{
    hm_results_row_t *row = NULL;
    hm_csv_t *csv = NULL;
    HM_CHECK(hm_results_row_create(HM_RESULTS_BENCH_RAW, &row) == HM_OK, "row of bench raw");
    HM_CHECK(hm_results_csv_open(path, NULL, HM_RESULTS_BENCH_RAW, &csv) == HM_OK, "open");
    hm_results_row_set_double(row, HM_COL_BENCH_RAW_LATE_TOLERANCE_S, NAN);
    hm_results_row_set_double(row, HM_COL_BENCH_RAW_START_S, 4.5);
    hm_results_row_set_double(row, HM_COL_BENCH_RAW_START_SPREAD_S, 1e-6);
    hm_results_row_set_double(row, HM_COL_BENCH_RAW_LOCAL_S, 0.25);
    hm_results_row_set_double(row, HM_COL_BENCH_RAW_GLOBAL_S, NAN);
    hm_results_row_set_int64(row, HM_COL_BENCH_RAW_VALID, 7); /* replaced below */
    hm_results_row_set_int64(row, HM_COL_BENCH_RAW_VALID, 1);
    hm_results_row_set_int64(row, HM_COL_BENCH_RAW_ATTEMPT, 3);
    hm_results_row_set_int64(row, HM_COL_BENCH_RAW_SIZE_BYTES, 1048576);
    hm_results_row_set_string(row, HM_COL_BENCH_RAW_OP, "a,b");
    HM_CHECK(hm_results_row_put(row, csv) == HM_OK, "a full row is written: %s", hm_last_error());
    HM_CHECK(hm_results_row_put(row, csv) == HM_EINVAL, "a put leaves the row empty");
    HM_CHECK(hm_csv_close(csv) == HM_OK, "close");
    hm_results_row_free(row);
    char lines[MAX_LINES][LINE_MAX_CHARS];
    int n = read_lines(path, lines);
    HM_CHECK(n == 2, "a header and one row (%d lines)", n);
    HM_CHECK(n == 2 && !strcmp(lines[1], "\"a,b\",1048576,3,1,,0.25,1e-06,4.5,"),
             "the cells in schema order, the last value of a column set twice (%s)",
             n == 2 ? lines[1] : "");
}

/* Every kind: a row of "" in every column has one cell per column. */
static void check_kind(hm_results_kind_t kind, const char *path)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    hm_results_row_t *row = NULL;
    hm_csv_t *csv = NULL;
    int rc = hm_results_row_create(kind, &row);
    if (rc == HM_OK) rc = hm_results_csv_open(path, NULL, kind, &csv);
    for (size_t c = 0; rc == HM_OK && c < s->ncolumns; c++)
        rc = hm_results_row_set_string(row, (int)c, "");
    if (rc == HM_OK) rc = hm_results_row_put(row, csv);
    if (rc == HM_OK) rc = hm_csv_close(csv);
    hm_results_row_free(row);
    char lines[MAX_LINES][LINE_MAX_CHARS], expect[LINE_MAX_CHARS] = "\"\"";
    for (size_t c = 1; c < s->ncolumns; c++) strcat(expect, ",\"\"");
    int n = rc == HM_OK ? read_lines(path, lines) : 0;
    HM_CHECK(n == 2 && !strcmp(lines[1], expect), "%s: one cell per column (%s)", s->what,
             n == 2 ? lines[1] : hm_last_error());
}

/* The sentence of a refusal names what was wrong. */
static void check_error(int rc, const char *words, const char *what)
{
    HM_CHECK(rc == HM_EINVAL, "%s: HM_EINVAL (%d)", what, rc);
    HM_CHECK(strstr(hm_last_error(), words) != NULL, "%s: \"%s\" in \"%s\"", what, words,
             hm_last_error());
}

static void check_refusals(const char *path)
{
    hm_results_row_t *row = NULL;
    hm_csv_t *csv = NULL;
    hm_results_row_create(HM_RESULTS_CLOCK_RAW, &row);
    hm_results_csv_open(path, NULL, HM_RESULTS_CLOCK_RAW, &csv);
    check_error(hm_results_row_set_double(row, HM_COL_CLOCK_RAW_TRUE_ERROR_S + 1, 1.0),
                "column 5 is not a column of", "a column past the schema");
    check_error(hm_results_row_set_int64(row, -1, 1), "column -1 is not a column of",
                "a negative column");
    check_error(hm_results_row_set_string(row, 99, "x"), "(5 columns)", "a column of no kind");
    hm_results_row_set_string(row, HM_COL_CLOCK_RAW_CLOCK_SYNC, "hca3");
    hm_results_row_set_double(row, HM_COL_CLOCK_RAW_AFTER_S, 0);
    hm_results_row_set_double(row, HM_COL_CLOCK_RAW_OFFSET_S, 0);
    hm_results_row_set_double(row, HM_COL_CLOCK_RAW_TRUE_ERROR_S, 0);
    check_error(hm_results_row_put(row, csv), "column \"rank\" is not set", "an unset column");
    HM_CHECK(hm_csv_rows(csv) == 0, "a refused row writes nothing (%zu rows)", hm_csv_rows(csv));
    HM_CHECK(hm_csv_close(csv) == HM_OK, "the file closes after a refused row: %s",
             hm_last_error());
    hm_results_row_free(row);
    hm_results_row_t *none = NULL;
    check_error(hm_results_row_create(HM_RESULTS_NKINDS, &none), "unknown kind", "unknown kind");
    HM_CHECK(none == NULL, "no row of an unknown kind");
}

/* hm_measure_write_raw: each attempt's values under the header's names,
 * for bench (no device time) and pattern (NaN without one, an empty
 * cell). */
static void check_measure_raw(const char *path, hm_results_kind_t kind, const char *device)
{
    double g[] = {1.5, 2.5}, l[] = {0.5, 0.75}, sp[] = {1e-6, 2e-6}, st[] = {10, 11};
    unsigned char v[] = {0, 1};
    hm_measure_result_t r = {
        .n = 2, .global_s = g, .local_s = l, .start_spread_s = sp, .start_s = st, .valid = v};
    hm_csv_t *csv = NULL;
    int rc = hm_results_csv_open(path, NULL, kind, &csv);
    if (rc == HM_OK) rc = hm_measure_write_raw(csv, kind, "bcast", 64, &r);
    if (rc == HM_OK) rc = hm_csv_close(csv);
    char lines[MAX_LINES][LINE_MAX_CHARS];
    int n = rc == HM_OK ? read_lines(path, lines) : 0;
    HM_CHECK(n == 3, "%d: a header and two attempts (%d lines; %s)", kind, n, hm_last_error());
    if (n != 3) return;
    const char *const names[] = {"op",       "size_bytes", "attempt",        "valid",
                                 "global_s", "local_s",    "start_spread_s", "start_s"};
    const char *const want[] = {"bcast", "64", "1", "1", "2.5", "0.75", "2e-06", "11"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        HM_CHECK(!strcmp(cell_under(lines[0], lines[2], names[k]), want[k]), "%d: %s = %s (%s)",
                 kind, names[k], want[k], cell_under(lines[0], lines[2], names[k]));
    HM_CHECK(!strcmp(cell_under(lines[0], lines[2], "device_s"), device), "%d: device_s %s", kind,
             device);
    HM_CHECK(hm_measure_write_raw(NULL, HM_RESULTS_BENCH, "x", 0, &r) == HM_EINVAL,
             "a summary kind has no per-repetition rows");
}

int main(void)
{
    char path[] = "/tmp/hm_row_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    check_any_order(path);
    for (int k = 0; k < HM_RESULTS_NKINDS; k++) check_kind((hm_results_kind_t)k, path);
    check_refusals(path);
    check_measure_raw(path, HM_RESULTS_BENCH_RAW, "(none)");
    check_measure_raw(path, HM_RESULTS_PATTERN_RAW, "");
    unlink(path);
    return hm_test_finish();
}
