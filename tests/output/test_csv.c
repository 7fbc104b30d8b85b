/* tests/output/test_csv.c — CSV quoting and number formatting, checked by
 * reading the file back with an independent RFC 4180 reader and strtod. */
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "csv_read.h"
#include "testutil.h"

static const char *const strings[] = {
    "plain",  "with,comma", "with \"quotes\"", "line\nbreak", "cr\rhere", "#not a comment", " lead",
    "trail ", "",           "µs ünïcode",      "a,\"b\"\n,c",
};
enum { NSTRINGS = sizeof strings / sizeof strings[0], NRANDOM = 20000 };

/* Doubles worth checking by hand, then random bit patterns. */
static double special(int i)
{
    const double v[] = {0.1,      1e-6,        1.0 / 3, DBL_MAX,   DBL_MIN, 4.9406564584124654e-324,
                        -0.0,     123456789.0, 2.5e-9,  -7.25e300, NAN,     INFINITY,
                        -INFINITY};
    return v[i];
}
enum { NSPECIAL = 13 };

static double random_double(uint64_t *state)
{
    double d;
    do {
        *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
        memcpy(&d, state, sizeof d);
    } while (!isfinite(d));
    return d;
}

static double value_at(int i, uint64_t *state)
{
    return i < NSPECIAL ? special(i) : random_double(state);
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void write_file(const char *path)
{
    const char *cols[] = {"text", "value_s", "count", "odd,name"};
    hm_factors_t *f;
    hm_factors_create(&f);
    hm_factors_set(f, "note", "two\nlines, and \"quotes\"");
    hm_csv_t *csv;

    int st = hm_csv_open(path, f, cols, 4, &csv);
    HM_CHECK(st == HM_OK, "csv opened at %s (status %d, %s)", path, st, hm_last_error());
    uint64_t state = 88172645463325252u;
    int bad = 0;
    for (int i = 0; i < NSPECIAL + NRANDOM; i++) {
        bad |= hm_csv_put_string(csv, strings[i % NSTRINGS]) != HM_OK;
        bad |= hm_csv_put_double(csv, value_at(i, &state)) != HM_OK;
        bad |= hm_csv_put_int64(csv, i == 0   ? INT64_MIN
                                     : i == 1 ? INT64_MAX
                                              : -(int64_t)i) != HM_OK;
        bad |= hm_csv_put_string(csv, "x") != HM_OK;
        bad |= hm_csv_end_row(csv) != HM_OK;
    }
    HM_CHECK(!bad, "every cell and row accepted");
    st = hm_csv_close(csv);
    HM_CHECK(st == HM_OK, "csv closed (status %d, %s)", st, hm_last_error());
    hm_factors_free(f);
}

static size_t check_row(const csv_doc_t *doc, int i, uint64_t *state)
{
    char **c = doc->rows[i];
    double v = value_at(i, state);
    int64_t n = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : -(int64_t)i;
    size_t bad = doc->row_cells[i] != 4;
    if (bad) return 1;
    bad += strcmp(c[0], strings[i % NSTRINGS]) != 0;
    /* Values that are not finite are written as no value, an empty cell. */
    bad += isfinite(v) ? !same_double(strtod(c[1], NULL), v) : c[1][0] != '\0';
    bad += strtoll(c[2], NULL, 10) != n;
    if (bad) hm_test_note("row %d: \"%s\" %s %s", i, c[0], c[1], c[2]);
    return bad;
}

static void check_file(const char *path)
{
    csv_doc_t doc;
    char why[256] = "";
    int rc = csv_read(path, &doc, why, sizeof why);
    HM_CHECK(rc == 0, "file reads back as RFC 4180 (%s)", why);
    const char *note = csv_factor(&doc, "note");
    HM_CHECK(note && strcmp(note, "two lines, and \"quotes\"") == 0,
             "factor with a newline became one line: \"%s\"", note ? note : "(missing)");
    HM_CHECK(doc.ncolumns == 4 && strcmp(doc.header[3], "odd,name") == 0,
             "header has 4 columns, a quoted name read back (%zu)", doc.ncolumns);
    HM_CHECK(doc.nrows == NSPECIAL + NRANDOM, "%zu rows read back, %d written", doc.nrows,
             NSPECIAL + NRANDOM);
    uint64_t state = 88172645463325252u;
    size_t bad = 0;
    for (size_t i = 0; i < doc.nrows; i++) bad += check_row(&doc, (int)i, &state);
    HM_CHECK(bad == 0, "strings, doubles (strtod, bit-exact) and int64 round-trip; %zu mismatches",
             bad);
    if (doc.nrows > 10) {
        const char *expect[] = {"0.1", "1e-06", "0.3333333333333333", "1.7976931348623157e+308"};
        for (int i = 0; i < 4; i++)
            HM_CHECK(strcmp(doc.rows[i][1], expect[i]) == 0,
                     "shortest exact form of row %d: \"%s\" (expected \"%s\")", i, doc.rows[i][1],
                     expect[i]);
        /* "No value" is an empty cell (docs/results.md). */
        HM_CHECK(strcmp(doc.rows[10][1], "") == 0 && strcmp(doc.rows[11][1], "") == 0 &&
                     strcmp(doc.rows[12][1], "") == 0,
                 "non-finite values are empty cells: \"%s\" \"%s\" \"%s\"", doc.rows[10][1],
                 doc.rows[11][1], doc.rows[12][1]);
    }
    csv_doc_free(&doc);
}

/* The raw bytes of a few rows, as RFC 4180 spells them. */
static void check_raw_quoting(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int header_seen = 0, found = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!header_seen) header_seen = strncmp(line, "text,value_s,count,\"odd,name\"\n", 31) == 0;
        found |= strncmp(line, "\"with \"\"quotes\"\"\",", 18) == 0;
    }
    if (f) fclose(f);
    HM_CHECK(header_seen, "header row written as text,value_s,count,\"odd,name\"");
    HM_CHECK(found, "quotes doubled inside a quoted cell: \"with \"\"quotes\"\"\"");
}

static void check_misuse(const char *path)
{
    const char *cols[] = {"a", "b"};
    hm_csv_t *csv;

    hm_csv_open(path, NULL, cols, 2, &csv);
    hm_csv_put_int64(csv, 1);
    int st = hm_csv_end_row(csv);
    HM_CHECK(st == HM_EINVAL && strstr(hm_csv_error(csv), "1 cells"),
             "a short row is refused (%d): %s", st, hm_csv_error(csv));
    hm_csv_put_int64(csv, 1);
    hm_csv_put_int64(csv, 2);
    st = hm_csv_put_int64(csv, 3);
    HM_CHECK(st == HM_EINVAL, "a third cell under two columns is refused (%d): %s", st,
             hm_csv_error(csv));
    st = hm_csv_close(csv);
    HM_CHECK(st == HM_EINVAL && strstr(hm_last_error(), path),
             "close with a row in progress: %d, %s", st, hm_last_error());
    HM_CHECK(access(path, F_OK) != 0, "and nothing was published under %s", path);
}

/* The cell of row r of path, read back independently; "" when absent. */
static const char *cell_of(const csv_doc_t *doc, size_t r, size_t c)
{
    return r < doc->nrows && c < doc->row_cells[r] ? doc->rows[r][c] : "";
}

/* hm_csv_put_cells_text: a row's cells handed over as one text. It is
 * checked eight bytes a step, then byte by byte: every length up to 40
 * (each place in a step and in the tail), a comma every third byte (so the
 * number of cells is counted across steps), and each byte a quote, line
 * break, carriage return or '#' would need refused at every place. */
enum { CELLS_LEN_MAX = 40, CELLS_COLUMNS = CELLS_LEN_MAX / 3 + 1 };

static size_t cells_text(char *text, size_t len)
{
    size_t commas = 0;
    for (size_t i = 0; i < len; i++) {
        text[i] = i % 3 == 2 ? ',' : (char)('a' + i % 26);
        commas += text[i] == ',';
    }
    text[len] = '\0';
    return commas + 1;
}

static void check_cells_text(const char *path)
{
    const char *cols[CELLS_COLUMNS];
    char names[CELLS_COLUMNS][8];
    for (int c = 0; c < CELLS_COLUMNS; c++)
        snprintf(names[c], sizeof names[c], "c%d", c), cols[c] = names[c];
    hm_csv_t *csv;
    HM_CHECK(hm_csv_open(path, NULL, cols, CELLS_COLUMNS, &csv) == HM_OK, "open %s", path);
    int wrong = 0;
    for (size_t len = 1; len <= CELLS_LEN_MAX; len++) {
        char text[CELLS_LEN_MAX + 1];
        size_t cells = cells_text(text, len);
        wrong += hm_csv_put_cells_text(csv, text, len, cells + 1) != HM_EINVAL;
        for (size_t at = 0; at < len; at++)
            for (const char *bad = "\"\n\r#"; *bad; bad++) {
                char was = text[at];
                text[at] = *bad;
                wrong += hm_csv_put_cells_text(csv, text, len, cells - (was == ',')) != HM_EINVAL;
                text[at] = was;
            }
        wrong += hm_csv_put_cells_text(csv, text, len, cells) != HM_OK;
        for (size_t c = cells; c < CELLS_COLUMNS; c++) wrong += hm_csv_put_string(csv, "") != HM_OK;
        wrong += hm_csv_end_row(csv) != HM_OK;
    }
    HM_CHECK(wrong == 0, "%d of the cells' texts judged wrongly", wrong);
    HM_CHECK(hm_csv_close(csv) == HM_OK, "close: %s", hm_last_error());
    csv_doc_t doc;
    char why[128];
    int read = csv_read(path, &doc, why, sizeof why) == 0;
    int same = read && doc.nrows == CELLS_LEN_MAX;
    for (size_t r = 0; same && r < doc.nrows; r++) {
        char text[CELLS_LEN_MAX + 1], back[4 * CELLS_LEN_MAX] = "";
        size_t cells = cells_text(text, r + 1);
        for (size_t c = 0; c < cells; c++)
            snprintf(back + strlen(back), sizeof back - strlen(back), "%s%s", c ? "," : "",
                     cell_of(&doc, r, c));
        same = !strcmp(back, text) && doc.row_cells[r] == CELLS_COLUMNS;
    }
    HM_CHECK(same, "each row read back as its text, padded to the columns (%s)",
             read ? "read" : why);
    if (read) csv_doc_free(&doc);
    unlink(path);
}

/* hm_csv_put_marked / hm_csv_overwrite: a verdict known after its rows were
 * written (an overlap cell's recheck). A checkpoint publishes the rows as
 * they were then, the final file the verdict rewritten; nothing else moves
 * (the unmarked row, the quoted cell before the mark, the factor
 * "complete"). */
static void check_marked(const char *path)
{
    const char *cols[] = {"name", "cell_valid", "x"};
    hm_csv_t *csv = NULL;
    hm_factors_t *f = NULL;
    off_t at[3] = {-2, -2, -2};
    HM_CHECK(hm_factors_create(&f) == HM_OK && hm_factors_set(f, "k", "v") == HM_OK, "factors");
    HM_CHECK(hm_csv_open(path, f, cols, 3, &csv) == HM_OK, "open %s: %s", path, hm_last_error());
    const char *names[] = {"a,\"quoted\"", "plain", "µs"};
    for (int r = 0; r < 3; r++) {
        hm_csv_put_string(csv, names[r]);
        HM_CHECK(hm_csv_put_marked(csv, "1", &at[r]) == HM_OK, "row %d: a marked cell", r);
        hm_csv_put_int64(csv, r);
        hm_csv_end_row(csv);
    }
    HM_CHECK(at[0] > 0 && at[1] > at[0] && at[2] > at[1],
             "offsets known at the rows' ends: %lld %lld %lld", (long long)at[0], (long long)at[1],
             (long long)at[2]);
    HM_CHECK(hm_csv_put_marked(csv, "a,b", &at[0]) == HM_EINVAL, "a text needing quotes refused");
    HM_CHECK(hm_csv_checkpoint(csv) == HM_OK, "checkpoint");
    HM_CHECK(hm_csv_overwrite(csv, at[0], "0") == HM_OK &&
                 hm_csv_overwrite(csv, at[2], "0") == HM_OK,
             "rows 0 and 2 rewritten after the checkpoint: %s", hm_last_error());
    csv_doc_t doc;
    char why[128];
    HM_CHECK(
        csv_read(path, &doc, why, sizeof why) == 0 && doc.nrows == 3 &&
            !strcmp(cell_of(&doc, 0, 1), "1") && !strcmp(cell_of(&doc, 2, 1), "1") &&
            !strncmp(csv_factor(&doc, "complete") ? csv_factor(&doc, "complete") : "", "no", 2),
        "the checkpoint as it was: every row 1, complete no (%s)", why);
    csv_doc_free(&doc);
    HM_CHECK(hm_csv_close(csv) == HM_OK, "close: %s", hm_last_error());
    HM_CHECK(csv_read(path, &doc, why, sizeof why) == 0 && doc.nrows == 3, "final file reads (%s)",
             why);
    int same = 1;
    for (int r = 0; r < 3; r++) {
        char x[8];
        snprintf(x, sizeof x, "%d", r);
        same &= !strcmp(cell_of(&doc, (size_t)r, 0), names[r]) &&
                !strcmp(cell_of(&doc, (size_t)r, 2), x);
    }
    HM_CHECK(!strcmp(cell_of(&doc, 0, 1), "0") && !strcmp(cell_of(&doc, 1, 1), "1") &&
                 !strcmp(cell_of(&doc, 2, 1), "0") && same &&
                 !strcmp(csv_factor(&doc, "complete") ? csv_factor(&doc, "complete") : "", "yes"),
             "final file: rows 0 and 2 say 0, row 1 still 1, the other cells and complete: yes as "
             "written");
    csv_doc_free(&doc);
    hm_factors_free(f);
}

/* A user's locale with a decimal comma must not leak into result files.
 * Without one installed, de_DE.UTF-8 is compiled into dir with localedef
 * (Debian package locales, in scripts/install-deps) and found through
 * LOCPATH: the check always runs. */
static void check_locale(const char *path, const char *dir)
{
    const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8"};
    const char *used = NULL;
    for (int i = 0; i < 3 && !used; i++) used = setlocale(LC_NUMERIC, names[i]);
    char locdir[600], cmd[1400];
    snprintf(locdir, sizeof locdir, "%s/locales", dir);
    if (!used) {
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 -c %s/de_DE.UTF-8 >/dev/null 2>&1",
                 locdir);
        if (mkdir(locdir, 0700) == 0 && system(cmd) != -1 && setenv("LOCPATH", locdir, 1) == 0)
            used = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    }
    char shown[16], name[64]; /* setlocale's string changes with the next call */
    snprintf(shown, sizeof shown, "%.1f", 1.5);
    snprintf(name, sizeof name, "%s", used ? used : "none");
    HM_CHECK(used && strcmp(shown, "1,5") == 0,
             "a decimal-comma locale (installed, or built with localedef): %s prints 1.5 as %s",
             name, shown);
    snprintf(cmd, sizeof cmd, "rm -rf %s", locdir);
    if (!used) {
        if (system(cmd) != 0) hm_test_note("could not remove %s", locdir);
        return;
    }
    const char *cols[] = {"v"};
    hm_csv_t *csv;
    hm_csv_open(path, NULL, cols, 1, &csv);
    hm_csv_put_double(csv, 1.5);
    hm_csv_end_row(csv);
    hm_csv_close(csv);
    setlocale(LC_NUMERIC, "C");
    csv_doc_t doc;
    char why[128];
    csv_read(path, &doc, why, sizeof why);
    HM_CHECK(doc.nrows == 1 && strcmp(doc.rows[0][0], "1.5") == 0,
             "1.5 written as \"1.5\" under locale %s", name);
    csv_doc_free(&doc);
    if (system(cmd) != 0) hm_test_note("could not remove %s", locdir);
}

int main(void)
{
    char dir[] = "/tmp/hm_test_csv_XXXXXX", path[512], misuse[512], loc[512];
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    snprintf(path, sizeof path, "%s/numbers.csv", dir);
    snprintf(misuse, sizeof misuse, "%s/misuse.csv", dir);
    snprintf(loc, sizeof loc, "%s/locale.csv", dir);
    char marked[512];
    snprintf(marked, sizeof marked, "%s/marked.csv", dir);
    check_marked(marked);
    unlink(marked);
    check_cells_text(marked);
    write_file(path);
    check_file(path);
    check_raw_quoting(path);
    check_misuse(misuse);
    check_locale(loc, dir);
    unlink(path);
    unlink(loc);
    HM_CHECK(rmdir(dir) == 0, "no temporary file left in %s after close and abort", dir);
    char cmd[300]; /* what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
