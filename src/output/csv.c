/* src/output/csv.c — result files: "# key: value" factor lines, a header
 * row and data rows, RFC 4180, written through an atomic file. A row is
 * assembled in memory and reaches the file only when it is complete, so a
 * checkpoint never publishes half a row. */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "output/output_impl.h"
#include "common/error_set.h"

enum { ERROR_LEN = 1024 };

/* The published value of the factor "complete" once the run is. */
#define COMPLETE_YES "yes"

struct hm_csv {
    hm_afile_t *af;
    size_t ncolumns;
    size_t cells; /* in the row being assembled */
    size_t rows;  /* data rows ended */
    char *row;
    size_t row_len, row_cap;
    locale_t c_locale; /* numbers read "1.5" whatever LC_NUMERIC says */
    char error[ERROR_LEN];
    int misused;        /* a row was malformed: the file would not read back */
    off_t complete_at;  /* where the value of the factor "complete" was written ("yes") */
    int progress_set;   /* hm_csv_progress was called */
    int incomplete;     /* hm_csv_incomplete was called: the factor says so for good */
    off_t *mark;        /* hm_csv_put_marked: where to say where its cell went, at the row's end */
    size_t mark_in_row; /* that cell's offset in row */
};

static int misuse(hm_csv_t *csv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int misuse(hm_csv_t *csv, const char *fmt, ...)
{
    int n = snprintf(csv->error, sizeof csv->error, "%s: ", hm_afile_path(csv->af));
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof csv->error)
        vsnprintf(csv->error + n, sizeof csv->error - (size_t)n, fmt, ap);
    va_end(ap);
    csv->misused = 1;
    return hm__error_set(HM_EINVAL, "%s", csv->error);
}

/* A write to the stream failed: "cannot write PATH: strerror(errno)" on the
 * handle and as the thread's last error; errno stays as the call left it. */
static int write_error(hm_csv_t *csv)
{
    int err = errno;
    hm__output_sys_error(csv->error, sizeof csv->error, err, "cannot write %s",
                         hm_afile_path(csv->af));
    hm__error_set(HM_EIO, "%s", csv->error);
    errno = err;
    return HM_EIO;
}

/* Keep the atomic file's sentence (it names the path and the system error). */
static int file_error(hm_csv_t *csv, int st)
{
    if (st == HM_EIO) snprintf(csv->error, sizeof csv->error, "%s", hm_afile_error(csv->af));
    return st;
}

static int append(hm_csv_t *csv, const char *text, size_t len)
{
    if (csv->row_len + len + 1 > csv->row_cap) {
        size_t cap = csv->row_cap ? csv->row_cap : 256;
        while (cap < csv->row_len + len + 1) cap *= 2;
        char *grown = realloc(csv->row, cap);
        if (!grown) return hm__error_nomem(__func__);
        csv->row = grown;
        csv->row_cap = cap;
    }
    memcpy(csv->row + csv->row_len, text, len);
    csv->row_len += len;
    csv->row[csv->row_len] = '\0';
    return HM_OK;
}

static int begin_cell(hm_csv_t *csv)
{
    if (csv->cells == csv->ncolumns)
        return misuse(csv, "row %zu has more cells than the %zu columns", csv->rows + 1,
                      csv->ncolumns);
    csv->cells++;
    return csv->cells > 1 ? append(csv, ",", 1) : HM_OK;
}

/* RFC 4180 requires quotes around commas, quotes and line breaks; '#' is
 * quoted too because readers told to skip comments ("#") would otherwise cut
 * the line there, and outer blanks because some readers strip them. */
static int needs_quotes(const char *text)
{
    size_t len = strlen(text);
    if (len == 0 || strpbrk(text, ",\"\r\n#")) return 1;
    return strchr(" \t", text[0]) || strchr(" \t", text[len - 1]);
}

static int append_quoted(hm_csv_t *csv, const char *text)
{
    int st = append(csv, "\"", 1);
    for (const char *p = text; st == HM_OK && *p; p++)
        st = *p == '"' ? append(csv, "\"\"", 2) : append(csv, p, 1);
    return st == HM_OK ? append(csv, "\"", 1) : st;
}

int hm_csv_put_string(hm_csv_t *csv, const char *text)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!text) return hm__error_null(__func__, "text");
    int st = begin_cell(csv);
    if (st != HM_OK) return st;
    return needs_quotes(text) ? append_quoted(csv, text) : append(csv, text, strlen(text));
}

int hm_csv_put_marked(hm_csv_t *csv, const char *text, off_t *at)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!text) return hm__error_null(__func__, "text");
    if (!at) return hm__error_null(__func__, "at");
    if (csv->mark)
        return hm__error_set(HM_EINVAL, "%s: a second marked cell in row %zu",
                             hm_afile_path(csv->af), csv->rows + 1);
    if (needs_quotes(text))
        return hm__error_set(HM_EINVAL, "%s: marked cell \"%s\" would need quotes",
                             hm_afile_path(csv->af), text);
    int st = begin_cell(csv);
    if (st != HM_OK) return st;
    *at = -1;
    csv->mark = at;
    csv->mark_in_row = csv->row_len;
    return append(csv, text, strlen(text));
}

int hm_csv_overwrite(hm_csv_t *csv, off_t at, const char *text)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!text) return hm__error_null(__func__, "text");
    if (at < 0 || needs_quotes(text))
        return hm__error_set(HM_EINVAL, "%s: cannot overwrite offset %lld with \"%s\"",
                             hm_afile_path(csv->af), (long long)at, text);
    return file_error(csv, hm__afile_overwrite(csv->af, at, text, strlen(text)));
}

/* The fewest of 15, 16, 17 significant digits that read back exactly: 17
 * always suffice for a double, fewer keep 0.1 from printing as
 * 0.10000000000000001. */
/* A value that is not finite is "no value", an empty cell: what pandas, R
 * and the library's reader (hm_csv_reader_double) read as missing. */
static void format_double(double value, char *buf, size_t len)
{
    if (!isfinite(value)) {
        snprintf(buf, len, "%s", "");
    } else {
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buf, len, "%.*g", digits, value);
            if (strtod(buf, NULL) == value) break;
        }
    }
}

int hm_csv_put_double(hm_csv_t *csv, double value)
{
    if (!csv) return hm__error_null(__func__, "csv");
    char text[64];
    locale_t previous = uselocale(csv->c_locale);
    format_double(value, text, sizeof text);
    uselocale(previous);
    int st = begin_cell(csv);
    return st == HM_OK ? append(csv, text, strlen(text)) : st;
}

/* 1 when text[0, len) holds only digits, signs, points and exponents: a
 * loop, since strspn's set-up was a tenth of writing a trace's CSV (10
 * numbers a row of millions). */
static int number_chars(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (!((unsigned)(c - '0') < 10u || c == '.' || c == '-' || c == '+' || c == 'e' ||
              c == 'E'))
            return 0;
    }
    return 1;
}

int hm_csv_put_number_text(hm_csv_t *csv, const char *text, size_t len)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!text) return hm__error_null(__func__, "text");
    /* Nothing that would need quotes, or turn the cell into a string. */
    if (!number_chars(text, len))
        return hm__error_set(HM_EINVAL, "hm_csv_put_number_text: \"%.*s\" is not a number",
                             (int)(len > 64 ? 64 : len), text);
    int st = begin_cell(csv);
    return st == HM_OK ? append(csv, text, len) : st;
}

/* The bytes of w equal to c: each one's high bit set, no other bit (exact:
 * no carry crosses a byte). */
static uint64_t bytes_equal(uint64_t w, unsigned char c)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t x = w ^ (0x0101010101010101ull * c);
    return ~(((x & low7) + low7) | x | low7);
}

/* How many high bits a bytes_equal mask has. */
static size_t bytes_counted(uint64_t mask)
{
    return (size_t)(((mask >> 7) * 0x0101010101010101ull) >> 56);
}

/* Bytes a cell written as it is must not hold: a quote, a line break, the
 * comment mark (needs_quotes says why), in w: their bytes_equal masks. */
static uint64_t refused_bytes(uint64_t w)
{
    return bytes_equal(w, '"') | bytes_equal(w, '\n') | bytes_equal(w, '\r') | bytes_equal(w, '#');
}

/* text holds none of refused_bytes, and ncells cells (ncells - 1 commas).
 * Eight bytes a step, the rest in a word padded with zero bytes (none of
 * those): byte by byte, this check was a sixth of writing a merged
 * trace.csv. */
static int plain_cells(const char *text, size_t len, size_t ncells)
{
    size_t commas = 0, i = 0;
    uint64_t bad = 0, w;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, text + i, 8); /* a fixed size: one load */
        commas += bytes_counted(bytes_equal(w, ','));
        bad |= refused_bytes(w);
    }
    if (i < len) {
        w = 0;
        memcpy(&w, text + i, len - i);
        commas += bytes_counted(bytes_equal(w, ','));
        bad |= refused_bytes(w);
    }
    return !bad && commas + 1 == ncells;
}

int hm_csv_put_cells_text(hm_csv_t *csv, const char *text, size_t len, size_t ncells)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!text) return hm__error_null(__func__, "text");
    if (!ncells || !plain_cells(text, len, ncells))
        return hm__error_set(HM_EINVAL,
                             "hm_csv_put_cells_text: \"%.*s\" is not %zu cells without quotes",
                             (int)(len > 64 ? 64 : len), text, ncells);
    if (csv->cells + ncells > csv->ncolumns)
        return misuse(csv, "row %zu has more cells than the %zu columns", csv->rows + 1,
                      csv->ncolumns);
    int st = csv->cells ? append(csv, ",", 1) : HM_OK;
    csv->cells += ncells;
    return st == HM_OK ? append(csv, text, len) : st;
}

int hm_csv_put_int64(hm_csv_t *csv, int64_t value)
{
    if (!csv) return hm__error_null(__func__, "csv");
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, value);
    int st = begin_cell(csv);
    return st == HM_OK ? append(csv, text, strlen(text)) : st;
}

/* Hand the assembled row to the file and start an empty one. */
static int write_row(hm_csv_t *csv)
{
    int st = append(csv, "\n", 1);
    FILE *f = hm_afile_stream(csv->af);
    if (csv->mark) {
        off_t at = ftello(f);
        *csv->mark = at < 0 ? -1 : at + (off_t)csv->mark_in_row;
        csv->mark = NULL;
    }
    if (st == HM_OK && fwrite(csv->row, 1, csv->row_len, f) != csv->row_len) st = write_error(csv);
    csv->row_len = 0;
    csv->cells = 0;
    return st;
}

int hm_csv_end_row(hm_csv_t *csv)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (csv->cells != csv->ncolumns) {
        size_t cells = csv->cells;
        csv->row_len = 0;
        csv->cells = 0;
        csv->mark = NULL;
        return misuse(csv, "row %zu has %zu cells, the header has %zu columns", csv->rows + 1,
                      cells, csv->ncolumns);
    }
    int st = write_row(csv);
    if (st == HM_OK) csv->rows++;
    return st;
}

int hm_csv_checkpoint(hm_csv_t *csv)
{
    if (!csv) return hm__error_null(__func__, "csv");
    return file_error(csv, hm_afile_checkpoint(csv->af));
}

/* The factor "complete": written "yes", published "no (...)" until the run
 * says it is (hm_csv_progress) or closes the file without saying. */
static int write_complete(hm_csv_t *csv, FILE *f)
{
    if (fputs("# complete: ", f) < 0 || (csv->complete_at = ftello(f)) < 0 ||
        fputs(COMPLETE_YES "\n", f) < 0)
        return write_error(csv);
    return hm__afile_patch(csv->af, csv->complete_at, strlen(COMPLETE_YES),
                           "no (a checkpoint of a run in progress)");
}

int hm_csv_incomplete(hm_csv_t *csv, const char *why)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!why) return hm__error_null(__func__, "why");
    char *text = hm__output_format("no (%s)", why);
    if (!text) return hm__error_nomem(__func__);
    hm__output_flatten(text);
    int rc = hm__afile_patch(csv->af, csv->complete_at, strlen(COMPLETE_YES), text);
    free(text);
    csv->incomplete = csv->progress_set = rc == HM_OK;
    return rc;
}

int hm_csv_progress(hm_csv_t *csv, long done, long total, const char *unit)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!unit) return hm__error_null(__func__, "unit");
    if (done < 0 || total < 0)
        return hm__error_set(HM_EINVAL, "%s: progress %ld of %ld is negative", __func__, done,
                             total);
    char text[160];
    snprintf(text, sizeof text, "no (%ld of %ld %s)", done, total, unit);
    csv->progress_set = 1;
    if (csv->incomplete) return HM_OK;
    return hm__afile_patch(csv->af, csv->complete_at, strlen(COMPLETE_YES),
                           done >= total ? NULL : text);
}

static int write_head(hm_csv_t *csv, const hm_factors_t *factors, const char *const *columns)
{
    const char *key, *value;
    FILE *f = hm_afile_stream(csv->af);
    size_t n = factors ? hm_factors_count(factors) : 0;
    for (size_t i = 0; i < n && hm_factors_at(factors, i, &key, &value) == HM_OK; i++)
        if (fprintf(f, "# %s: %s\n", key, value) < 0) return write_error(csv);
    int st = write_complete(csv, f);
    for (size_t c = 0; st == HM_OK && c < csv->ncolumns; c++)
        st = hm_csv_put_string(csv, columns[c]);
    return st == HM_OK ? write_row(csv) : st;
}

static void release(hm_csv_t *csv)
{
    if (csv->c_locale) freelocale(csv->c_locale);
    free(csv->row);
    free(csv);
}

static int check_columns(const char *const *columns, size_t ncolumns)
{
    if (!columns) return hm__error_null("hm_csv_open", "columns");
    if (ncolumns == 0) return hm__error_set(HM_EINVAL, "hm_csv_open: no columns");
    for (size_t c = 0; c < ncolumns; c++)
        if (!columns[c]) return hm__error_set(HM_EINVAL, "hm_csv_open: columns[%zu] is NULL", c);
    return HM_OK;
}

int hm_csv_open(const char *path, const hm_factors_t *factors, const char *const *columns,
                size_t ncolumns, hm_csv_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    int bad = check_columns(columns, ncolumns);
    if (bad != HM_OK) return bad;
    hm_csv_t *csv = calloc(1, sizeof *csv);
    if (!csv) return hm__error_nomem(__func__);
    csv->ncolumns = ncolumns;
    csv->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    int st = csv->c_locale ? hm_afile_open(path, &csv->af) : hm__error_nomem(__func__);
    if (st == HM_OK) st = write_head(csv, factors, columns);
    if (st != HM_OK) {
        if (csv->error[0]) hm__error_set(st, "%s", csv->error);
        hm_afile_abort(csv->af);
        release(csv);
        return st;
    }
    *out = csv;
    return HM_OK;
}

int hm_csv_close(hm_csv_t *csv)
{
    if (!csv) return hm__error_null(__func__, "csv");
    int st = HM_OK;
    if (csv->cells > 0 || csv->misused) {
        /* A malformed row is a programming error; it is reported rather than
         * published as a file whose rows do not match its header. */
        if (!csv->misused)
            misuse(csv, "closed before row %zu was ended (%zu of %zu cells)", csv->rows + 1,
                   csv->cells, csv->ncolumns);
        st = hm__error_set(HM_EINVAL, "%s", csv->error);
        hm_afile_abort(csv->af);
    } else {
        if (!csv->progress_set) hm__afile_patch(csv->af, csv->complete_at, 0, NULL);
        st = hm_afile_commit(csv->af);
    }
    release(csv);
    return st;
}

void hm_csv_abort(hm_csv_t *csv)
{
    if (!csv) return;
    hm_afile_abort(csv->af);
    release(csv);
}

int hm_csv_close_pair(hm_csv_t **summary, hm_csv_t **raw)
{
    if (!summary) return hm__error_null(__func__, "summary");
    if (!raw) return hm__error_null(__func__, "raw");
    int rc = *summary ? hm_csv_close(*summary) : HM_OK;
    if (*raw && rc == HM_OK)
        rc = hm_csv_close(*raw);
    else
        hm_csv_abort(*raw);
    *summary = *raw = NULL;
    return rc;
}

const char *hm_csv_error(const hm_csv_t *csv)
{
    if (!csv) hm__error_null(__func__, "csv");
    return csv ? csv->error : "";
}

size_t hm_csv_rows(const hm_csv_t *csv)
{
    if (!csv) hm__error_null(__func__, "csv");
    return csv ? csv->rows : 0;
}
