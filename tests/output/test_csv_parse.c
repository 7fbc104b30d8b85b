/* tests/output/test_csv_parse.c — the CSV reader: factors, header, quoted
 * cells as hm_csv writes them (read back from a file written by the writer),
 * blank lines, and errors that name the file and the 1-based line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "testutil.h"

static const char *const texts[] = {
    "plain", "with,comma", "with \"quotes\"", "line\nbreak", "#hash", " lead", ""};
enum { NTEXTS = sizeof texts / sizeof texts[0] };

static void write_file(const char *path, const char *content)
{
    FILE *f = fopen(path, "w");
    fputs(content, f);
    fclose(f);
}

/* Round trip through the writer: every text cell and number comes back. */
static void check_round_trip(const char *path)
{
    static const char *const cols[] = {"name", "x_s"};
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    hm_csv_reader_t *r = NULL;
    hm_factors_create(&f);
    hm_factors_set(f, "processes", "4");
    hm_factors_set(f, "command_line", "harmonia bench --raw 'a b.csv'");
    int st = hm_csv_open(path, f, cols, 2, &csv);
    for (int i = 0; st == HM_OK && i < NTEXTS; i++) {
        hm_csv_put_string(csv, texts[i]);
        hm_csv_put_double(csv, i == 2 ? 1.0 / 3 : 1e-6 * i);
        hm_csv_end_row(csv);
    }
    HM_CHECK(st == HM_OK && hm_csv_close(csv) == HM_OK, "written: %s", hm_last_error());
    hm_factors_free(f);

    st = hm_csv_reader_open(path, &r);
    HM_CHECK(st == HM_OK, "reader opens the file: %s", hm_last_error());
    if (st != HM_OK) return;
    const hm_factors_t *rf = hm_csv_reader_factors(r);
    const char *v = NULL;
    HM_CHECK(hm_factors_count(rf) == 3, "2 factors + complete (got %zu)", hm_factors_count(rf));
    HM_CHECK(hm_factors_get(rf, "complete", &v) == HM_OK && !strcmp(v, "yes"),
             "a closed file is complete (%s)", v ? v : "none");
    int got = hm_factors_get(rf, "processes", &v) == HM_OK && !strcmp(v, "4");
    HM_CHECK(got, "factor processes = 4 (got %s)", v ? v : "none");
    v = NULL;
    got = hm_factors_get(rf, "command_line", &v) == HM_OK &&
          !strcmp(v, "harmonia bench --raw 'a b.csv'");
    HM_CHECK(got, "factor command_line with its quotes (got %s)", v ? v : "none");
    size_t idx = 9;
    HM_CHECK(hm_csv_reader_columns(r) == 2 && !strcmp(hm_csv_reader_column(r, 0), "name") &&
                 hm_csv_reader_find(r, "x_s", &idx) == HM_OK && idx == 1,
             "header name,x_s (x_s at %zu)", idx);
    HM_CHECK(hm_csv_reader_find(r, "nope", &idx) == HM_ENOENT, "unknown column: HM_ENOENT");
    int more, row = 0, line_ok = 1;
    while (hm_csv_reader_next(r, &more) == HM_OK && more && row < NTEXTS) {
        double x = NAN;
        const char *cell = hm_csv_reader_cell(r, 0);
        int num = hm_csv_reader_double(r, 1, &x);
        double want = row == 2 ? 1.0 / 3 : 1e-6 * row;
        HM_CHECK(!strcmp(cell, texts[row]) && num == HM_OK && x == want,
                 "row %d: cell \"%s\" and %.17g read back exactly", row, cell, x);
        /* 3 factor lines and the header first; "line\nbreak" takes two lines. */
        size_t want_line = 4 + 1 + (size_t)row + (row > 3);
        if (hm_csv_reader_line(r) != want_line) line_ok = 0;
        row++;
    }
    HM_CHECK(row == NTEXTS && !more, "%d rows, then the end (%d)", row, NTEXTS);
    HM_CHECK(line_ok, "each row's line number counts the line break inside a quoted cell");
    hm_csv_reader_close(r);
}

/* A hand-written file: CRLF, a blank line, a comment, a bad number. */
static void check_bad_number(const char *path)
{
    hm_csv_reader_t *r = NULL;
    int more = 0, st, rows = 0;
    double x;
    write_file(path, "# sync: barrier\n# a comment\nop,global_s\r\nbcast,1e-6\r\n\n"
                     "\"re,duce\",2.5e-6\nallreduce,abc\n");
    st = hm_csv_reader_open(path, &r);
    HM_CHECK(st == HM_OK, "hand-written file opens: %s", hm_last_error());
    if (st != HM_OK) return;
    const char *v = NULL;
    HM_CHECK(hm_factors_get(hm_csv_reader_factors(r), "sync", &v) == HM_OK && !strcmp(v, "barrier"),
             "factor sync = barrier; \"# a comment\" is not a factor");
    HM_CHECK(hm_csv_reader_columns(r) == 2 && !strcmp(hm_csv_reader_column(r, 1), "global_s"),
             "CRLF header: last column \"global_s\" without \\r");
    while ((st = hm_csv_reader_next(r, &more)) == HM_OK && more) {
        if (hm_csv_reader_double(r, 1, &x) != HM_OK) break;
        rows++;
    }
    HM_CHECK(rows == 2, "2 good rows before the bad one, blank line skipped (got %d)", rows);
    char want[600];
    snprintf(want, sizeof want, "%s:7: \"abc\" is not a number (column global_s)", path);
    HM_CHECK(!strcmp(hm_csv_reader_error(r), want), "error \"%s\" (want \"%s\")",
             hm_csv_reader_error(r), want);
    hm_csv_reader_close(r);

    write_file(path, "a,b\n1,2\n3\n");
    hm_csv_reader_open(path, &r);
    hm_csv_reader_next(r, &more);
    st = hm_csv_reader_next(r, &more);
    snprintf(want, sizeof want, "%s:3: 1 cells, but the header has 2 columns", path);
    HM_CHECK(st == HM_EINVAL && !more && !strcmp(hm_csv_reader_error(r), want), "short row: \"%s\"",
             hm_csv_reader_error(r));
    hm_csv_reader_close(r);

    write_file(path, "a,b\n1,\"open\n");
    hm_csv_reader_open(path, &r);
    st = hm_csv_reader_next(r, &more);
    snprintf(want, sizeof want, "%s:2: a quoted cell never closes", path);
    HM_CHECK(st == HM_EINVAL && !strcmp(hm_csv_reader_error(r), want), "unclosed quote: \"%s\"",
             hm_csv_reader_error(r));
    hm_csv_reader_close(r);

    write_file(path, "# only: factors\n");
    st = hm_csv_reader_open(path, &r);
    snprintf(want, sizeof want, "%s: no header row", path);
    HM_CHECK(st == HM_EINVAL && r == NULL && !strcmp(hm_last_error(), want), "no header: \"%s\"",
             hm_last_error());
}

/* Encodings (issue 31, class 3): a UTF-8 byte-order mark that starts the
 * file, before the factors or before the header, is skipped, with CRLF
 * line ends; one inside the file (files joined with cat) is refused,
 * naming the file, the line and the mark. */
static void check_bom(const char *path)
{
    hm_csv_reader_t *r = NULL;
    const char *v = NULL;
    write_file(path, "\xEF\xBB\xBF# sync: barrier\r\nop,global_s\r\nbcast,1e-6\r\n");
    int st = hm_csv_reader_open(path, &r);
    HM_CHECK(st == HM_OK && hm_factors_get(hm_csv_reader_factors(r), "sync", &v) == HM_OK &&
                 !strcmp(v, "barrier"),
             "a BOM before the factors, CRLF: factor sync = barrier (%d %s)", st, hm_last_error());
    hm_csv_reader_close(r);
    write_file(path, "\xEF\xBB\xBFop,global_s\r\nbcast,1e-6\r\n");
    st = hm_csv_reader_open(path, &r);
    size_t at = 99;
    HM_CHECK(st == HM_OK && hm_csv_reader_find(r, "op", &at) == HM_OK && at == 0,
             "a BOM before the header: the first column is \"op\" (%d %s)", st, hm_last_error());
    hm_csv_reader_close(r);
    write_file(path, "op,global_s\nbcast,1e-6\n\xEF\xBB\xBFop,global_s\nbcast,2e-6\n");
    int more = 0;
    st = hm_csv_reader_open(path, &r);
    if (st == HM_OK) hm_csv_reader_next(r, &more);
    if (st == HM_OK) st = hm_csv_reader_next(r, &more);
    char want[1024];
    snprintf(want, sizeof want,
             "%s:3: a UTF-8 byte-order mark (bytes EF BB BF) starts line 3, inside the file (were "
             "files joined?)",
             path);
    HM_CHECK(st == HM_EINVAL && r && !strcmp(hm_csv_reader_error(r), want),
             "a BOM inside the file: \"%s\"", r ? hm_csv_reader_error(r) : hm_last_error());
    if (r) hm_csv_reader_close(r);
}

int main(void)
{
    char dir[] = "/tmp/hm_test_csv_parse_XXXXXX", path[512];
    hm_csv_reader_t *r = NULL;
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/rt.csv", dir);
    check_round_trip(path);
    unlink(path);
    snprintf(path, sizeof path, "%s/bad.csv", dir);
    check_bad_number(path);
    check_bom(path);
    unlink(path);
    snprintf(path, sizeof path, "%s/missing.csv", dir);
    int st = hm_csv_reader_open(path, &r);
    HM_CHECK(st == HM_ENOENT && strstr(hm_last_error(), path) == hm_last_error(),
             "missing file: HM_ENOENT, \"%s\"", hm_last_error());
    rmdir(dir);
    return hm_test_finish();
}
