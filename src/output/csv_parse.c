/* src/output/csv_parse.c — reading CSV files: factors, header, rows. The
 * reader streams the file one record at a time, so a raw file of millions of
 * repetitions needs memory for one row only. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include "common/error_set.h"

struct hm_csv_reader {
    FILE *f;
    char *path;
    size_t line;     /* lines consumed so far */
    size_t row_line; /* line where the current record starts */
    hm_factors_t *factors;
    char **header;
    size_t ncolumns;
    char *buf; /* the current record, cells separated by '\0' */
    size_t len, cap;
    size_t *offs; /* start of each cell in buf */
    size_t ncells, offs_cap;
    char error[1024];
};

static int fail(hm_csv_reader_t *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(hm_csv_reader_t *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    return hm__error_set(status, "%s", r->error);
}

static int put_char(hm_csv_reader_t *r, char c)
{
    if (r->len == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        char *b = realloc(r->buf, cap);
        if (!b) return hm__error_nomem(__func__);
        r->buf = b, r->cap = cap;
    }
    r->buf[r->len++] = c;
    return HM_OK;
}

static int start_cell(hm_csv_reader_t *r)
{
    if (r->ncells == r->offs_cap) {
        size_t cap = r->offs_cap ? 2 * r->offs_cap : 16;
        size_t *o = realloc(r->offs, cap * sizeof *o);
        if (!o) return hm__error_nomem(__func__);
        r->offs = o, r->offs_cap = cap;
    }
    r->offs[r->ncells++] = r->len;
    return HM_OK;
}

/* Results are UTF-8 text: a cell of other bytes (Latin-1 from a spreadsheet,
 * a binary file) would become a group name that no run wrote, and reach the
 * terminal and the figures raw. The message quotes the cell; the program
 * escapes what cannot be printed. */
static int check_text(hm_csv_reader_t *r)
{
    /* One at the start of the file was skipped (hm_input_skip_bom). */
    if (!strncmp(r->buf, HM_INPUT_BOM, 3))
        return fail(r, HM_EINVAL,
                    "%s:%zu: a UTF-8 byte-order mark (bytes EF BB BF) starts line %zu, inside "
                    "the file (were files joined?)",
                    r->path, r->row_line, r->row_line);
    for (size_t c = 0; c < r->ncells; c++) {
        const unsigned char *cell = (const unsigned char *)r->buf + r->offs[c];
        for (const unsigned char *q = cell; *q;) {
            size_t n = hm_output_utf8_length((const char *)q);
            if (n == 0)
                return fail(r, HM_EINVAL, "%s:%zu: \"%.80s\" is not UTF-8 text (cell %zu)", r->path,
                            r->row_line, (const char *)cell, c + 1);
            q += n;
        }
    }
    return HM_OK;
}

/* One record (RFC 4180: a quoted cell may hold commas, "" and line breaks)
 * into buf/offs; *got = 0 at the end of the file. */
static int read_record(hm_csv_reader_t *r, int *got)
{
    int c = getc(r->f), quoted = 0, st;
    r->len = 0, r->ncells = 0, *got = 0;
    r->row_line = r->line + 1;
    if (c == EOF) return ferror(r->f) ? fail(r, HM_EIO, "%s: %s", r->path, strerror(errno)) : HM_OK;
    *got = 1;
    if ((st = start_cell(r)) != HM_OK) return st;
    for (;; c = getc(r->f)) {
        /* A NUL would end the cell early in C strings: "allre\0duce" would
         * read as a group "allre" that no run wrote. */
        if (c == '\0')
            return fail(r, HM_EINVAL, "%s:%zu: a NUL byte (not a text file?)", r->path,
                        r->row_line);
        if (quoted) {
            if (c == EOF)
                return fail(r, HM_EINVAL, "%s:%zu: a quoted cell never closes", r->path,
                            r->row_line);
            if (c == '"') {
                int next = getc(r->f);
                if (next != '"') {
                    quoted = 0;
                    if (next != EOF) ungetc(next, r->f);
                    continue;
                }
            } else if (c == '\n') {
                r->line++;
            }
            st = put_char(r, (char)c);
        } else if (c == '"' && r->len == r->offs[r->ncells - 1]) {
            quoted = 1;
            continue;
        } else if (c == ',') {
            st = put_char(r, '\0');
            if (st == HM_OK) st = start_cell(r);
        } else if (c == '\n' || c == EOF) {
            if (c == '\n') r->line++;
            if (r->len > 0 && r->buf[r->len - 1] == '\r' && r->len > r->offs[r->ncells - 1])
                r->len--; /* CRLF line end */
            st = put_char(r, '\0');
            return st == HM_OK ? check_text(r) : st;
        } else {
            st = put_char(r, (char)c);
        }
        if (st != HM_OK) return st;
    }
}

/* Leading "# key: value" lines. */
static int read_factors(hm_csv_reader_t *r)
{
    char *line = NULL;
    size_t cap = 0;
    int c, st = HM_OK;
    while (st == HM_OK && (c = getc(r->f)) == '#') {
        ssize_t n = getline(&line, &cap, r->f);
        if (n < 0) break;
        r->line++;
        line[strcspn(line, "\r\n")] = '\0';
        char *key = line + strspn(line, " "), *sep = strstr(key, ": ");
        if (!sep) continue; /* a plain comment */
        *sep = '\0';
        st = hm_factors_set(r->factors, key, "%s", sep + 2);
        if (st == HM_EINVAL) st = HM_OK; /* not a key: a comment with a colon */
    }
    if (c != EOF) ungetc(c, r->f);
    free(line);
    return st;
}

static int read_header(hm_csv_reader_t *r)
{
    int got, st = read_record(r, &got);
    if (st != HM_OK) return st;
    if (!got) return fail(r, HM_EINVAL, "%s: no header row", r->path);
    r->header = calloc(r->ncells, sizeof *r->header);
    if (!r->header) return hm__error_nomem(__func__);
    r->ncolumns = r->ncells;
    for (size_t i = 0; i < r->ncells; i++)
        if (!(r->header[i] = strdup(r->buf + r->offs[i]))) return hm__error_nomem(__func__);
    return HM_OK;
}

int hm_csv_reader_open(const char *path, hm_csv_reader_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    hm_csv_reader_t *r = calloc(1, sizeof *r);
    int st =
        r && (r->path = strdup(path)) ? hm_factors_create(&r->factors) : hm__error_nomem(__func__);
    if (st == HM_OK) {
        st = hm_input_open(path, "result file", HM_INPUT_MAX_RESULT_BYTES, &r->f);
        if (st != HM_OK)
            fail(r, st, "%s", hm_last_error());
        else if ((void)hm_input_skip_bom(r->f), (st = read_factors(r)) == HM_OK)
            st = read_header(r);
    }
    if (st == HM_OK) {
        *out = r;
        return HM_OK;
    }
    if (r && r->error[0]) hm__error_set(st, "%s", r->error);
    hm_csv_reader_close(r);
    return st;
}

void hm_csv_reader_close(hm_csv_reader_t *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    for (size_t i = 0; r->header && i < r->ncolumns; i++) free(r->header[i]);
    free(r->header);
    hm_factors_free(r->factors);
    free(r->path);
    free(r->buf);
    free(r->offs);
    free(r);
}

const hm_factors_t *hm_csv_reader_factors(const hm_csv_reader_t *r)
{
    if (!r) {
        hm__error_null(__func__, "reader");
        return NULL;
    }
    return r->factors;
}

size_t hm_csv_reader_columns(const hm_csv_reader_t *r)
{
    if (!r) {
        hm__error_null(__func__, "reader");
        return 0;
    }
    return r->ncolumns;
}

const char *hm_csv_reader_column(const hm_csv_reader_t *r, size_t i)
{
    if (!r) {
        hm__error_null(__func__, "reader");
        return NULL;
    }
    return i < r->ncolumns ? r->header[i] : NULL;
}

int hm_csv_reader_find(const hm_csv_reader_t *r, const char *name, size_t *index)
{
    if (!r) return hm__error_null(__func__, "reader");
    if (!name) return hm__error_null(__func__, "name");
    if (!index) return hm__error_null(__func__, "index");
    for (size_t i = 0; i < r->ncolumns; i++)
        if (strcmp(r->header[i], name) == 0) {
            *index = i;
            return HM_OK;
        }
    return hm__error_set(HM_ENOENT, "%s: no column \"%s\"", r->path, name);
}

int hm_csv_reader_next(hm_csv_reader_t *r, int *more)
{
    if (!r) return hm__error_null(__func__, "reader");
    if (!more) return hm__error_null(__func__, "more");
    int got, st;
    do {
        st = read_record(r, &got);
    } while (st == HM_OK && got && r->ncells == 1 && r->buf[0] == '\0'); /* blank line */
    *more = st == HM_OK && got;
    if (st != HM_OK || !got) return st;
    if (r->ncells != r->ncolumns) {
        *more = 0;
        return fail(r, HM_EINVAL, "%s:%zu: %zu cells, but the header has %zu columns", r->path,
                    r->row_line, r->ncells, r->ncolumns);
    }
    return HM_OK;
}

const char *hm_csv_reader_cell(const hm_csv_reader_t *r, size_t i)
{
    if (!r) {
        hm__error_null(__func__, "reader");
        return NULL;
    }
    return i < r->ncells ? r->buf + r->offs[i] : NULL;
}

size_t hm_csv_reader_line(const hm_csv_reader_t *r)
{
    if (!r) {
        hm__error_null(__func__, "reader");
        return 0;
    }
    return r->row_line;
}

int hm_csv_reader_double(hm_csv_reader_t *r, size_t i, double *value)
{
    if (!r) return hm__error_null(__func__, "reader");
    if (!value) return hm__error_null(__func__, "value");
    const char *cell = hm_csv_reader_cell(r, i);
    char *end;
    if (!cell) return fail(r, HM_EINVAL, "%s:%zu: no column %zu", r->path, r->row_line, i + 1);
    /* An empty cell is "no value" (NaN); so is "NaN", as files before the
     * empty cell wrote it. Infinities and overflows are refused. */
    if (!*cell || !strcmp(cell, "NaN")) {
        *value = NAN;
        return HM_OK;
    }
    errno = 0;
    double x = strtod(cell, &end);
    if (*end || !isfinite(x) || (errno == ERANGE && fabs(x) == HUGE_VAL))
        return fail(r, HM_EINVAL, "%s:%zu: \"%s\" is not a number (column %s)", r->path,
                    r->row_line, cell, r->header[i]);
    *value = x;
    return HM_OK;
}

const char *hm_csv_reader_error(const hm_csv_reader_t *r)
{
    if (!r) hm__error_null(__func__, "reader");
    return r ? r->error : "";
}
