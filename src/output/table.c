/* src/output/table.c — aligned tables for the rank-0 summary on stdout. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "output/output_impl.h"

typedef struct hm_table_column {
    char *header;
    hm_align_t align;
} hm_table_column_t;

struct hm_table {
    hm_table_column_t *columns;
    size_t ncolumns;
    char **cells; /* row-major, ncolumns per row */
    size_t ncells, cells_cap;
};

int hm_table_create(hm_table_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = calloc(1, sizeof **out);
    return *out ? HM_OK : hm__error_set(HM_ENOMEM, "%s: out of memory", __func__);
}

void hm_table_free(hm_table_t *table)
{
    if (!table) return;
    for (size_t i = 0; i < table->ncolumns; i++) free(table->columns[i].header);
    for (size_t i = 0; i < table->ncells; i++) free(table->cells[i]);
    free(table->columns);
    free(table->cells);
    free(table);
}

/* A cell or header is printed on one line whatever it holds: a stray newline
 * would break the alignment of every row below it. */
static char *one_line_copy(const char *text)
{
    char *copy = strdup(text ? text : "");
    if (copy) hm__output_flatten(copy);
    return copy;
}

int hm_table_add_column(hm_table_t *table, const char *header, hm_align_t align)
{
    if (!table) return hm__error_null(__func__, "table");
    if (!header) return hm__error_null(__func__, "header");
    if (table->ncells > 0)
        return hm__error_set(HM_EINVAL, "%s: column \"%s\" added after the first cell", __func__,
                             header);
    if (align != HM_ALIGN_LEFT && align != HM_ALIGN_RIGHT)
        return hm__error_set(HM_EINVAL, "%s: alignment %d is not HM_ALIGN_LEFT or HM_ALIGN_RIGHT",
                             __func__, (int)align);
    hm_table_column_t *grown =
        realloc(table->columns, (table->ncolumns + 1) * sizeof *table->columns);
    if (!grown) return hm__error_nomem(__func__);
    table->columns = grown;
    char *copy = one_line_copy(header);
    if (!copy) return hm__error_nomem(__func__);
    table->columns[table->ncolumns++] = (hm_table_column_t){copy, align};
    return HM_OK;
}

int hm_table_add_cell(hm_table_t *table, const char *text)
{
    if (!table) return hm__error_null(__func__, "table");
    if (!text) return hm__error_null(__func__, "text");
    if (table->ncolumns == 0)
        return hm__error_set(HM_EINVAL, "%s: a cell before any column", __func__);
    if (table->ncells == table->cells_cap) {
        size_t cap = table->cells_cap ? 2 * table->cells_cap : 4 * table->ncolumns;
        char **grown = realloc(table->cells, cap * sizeof *grown);
        if (!grown) return hm__error_nomem(__func__);
        table->cells = grown;
        table->cells_cap = cap;
    }
    char *copy = one_line_copy(text);
    if (!copy) return hm__error_nomem(__func__);
    table->cells[table->ncells++] = copy;
    return HM_OK;
}

int hm_table_add_cellf(hm_table_t *table, const char *fmt, ...)
{
    if (!table) return hm__error_null(__func__, "table");
    if (!fmt) return hm__error_null(__func__, "fmt");
    va_list ap;
    va_start(ap, fmt);
    char *text = hm__output_vformat(fmt, ap);
    va_end(ap);
    if (!text) return hm__error_nomem(__func__);
    int st = hm_table_add_cell(table, text);
    free(text);
    return st;
}

int hm_table_add_number(hm_table_t *table, const char *fmt, double value)
{
    if (!table) return hm__error_null(__func__, "table");
    if (!fmt) return hm__error_null(__func__, "fmt");
    if (!isfinite(value)) return hm_table_add_cell(table, "n/a");
    return hm_table_add_cellf(table, fmt, value);
}

size_t hm_table_rows(const hm_table_t *table)
{
    if (!table) {
        hm__error_null(__func__, "table");
        return 0;
    }
    if (table->ncolumns == 0) return 0;
    return (table->ncells + table->ncolumns - 1) / table->ncolumns;
}

/* Width on a terminal: one column per UTF-8 character, so that headers such
 * as "latency_µs" line up (continuation bytes 10xxxxxx are not counted). */
static size_t display_width(const char *text)
{
    size_t width = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p & 0xC0) != 0x80) width++;
    return width;
}

static const char *cell_at(const hm_table_t *table, size_t row, size_t col)
{
    size_t i = row * table->ncolumns + col;
    return i < table->ncells ? table->cells[i] : "";
}

static void column_widths(const hm_table_t *table, size_t *widths)
{
    size_t nrows = hm_table_rows(table);
    for (size_t c = 0; c < table->ncolumns; c++) {
        widths[c] = display_width(table->columns[c].header);
        for (size_t r = 0; r < nrows; r++) {
            size_t w = display_width(cell_at(table, r, c));
            if (w > widths[c]) widths[c] = w;
        }
    }
}

/* Writing the table to its stream failed: HM_EIO with the system's reason
 * (errno 0: the stream's error flag, set by an earlier write). */
static int write_failed(void)
{
    int err = errno;
    hm__error_set(HM_EIO, "hm_table_print: cannot write the table: %s",
                  err ? strerror(err) : "the stream reports an earlier write error");
    errno = err;
    return HM_EIO;
}

static int put_spaces(FILE *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (putc(' ', f) == EOF) return -1;
    return 0;
}

/* One line; cells come from text(table, row, col). Padding after the last
 * non-empty text is never written, so lines carry no trailing blanks. */
static int print_line(const hm_table_t *table, const size_t *widths,
                      const char *(*text)(const hm_table_t *, size_t, size_t), size_t row, FILE *f)
{
    size_t pending = 0; /* blanks owed before the next visible character */
    for (size_t c = 0; c < table->ncolumns; c++) {
        const char *t = text(table, row, c);
        size_t pad = widths[c] - display_width(t);
        if (c > 0) pending += 2;
        if (table->columns[c].align == HM_ALIGN_RIGHT) pending += pad;
        if (*t) {
            if (put_spaces(f, pending) || fputs(t, f) == EOF) return write_failed();
            pending = 0;
        }
        if (table->columns[c].align == HM_ALIGN_LEFT) pending += pad;
    }
    return putc('\n', f) == EOF ? write_failed() : HM_OK;
}

static const char *header_at(const hm_table_t *table, size_t row, size_t col)
{
    (void)row;
    return table->columns[col].header;
}

int hm_table_print(const hm_table_t *table, FILE *f)
{
    if (!table) return hm__error_null(__func__, "table");
    if (!f) return hm__error_null(__func__, "f");
    if (table->ncolumns == 0) return HM_OK;
    size_t *widths = malloc(table->ncolumns * sizeof *widths);
    if (!widths) return hm__error_nomem(__func__);
    column_widths(table, widths);
    int st = print_line(table, widths, header_at, 0, f);
    size_t nrows = hm_table_rows(table);
    for (size_t r = 0; r < nrows && st == HM_OK; r++) st = print_line(table, widths, cell_at, r, f);
    free(widths);
    if (st == HM_OK) {
        errno = 0;
        if (fflush(f) == EOF || ferror(f)) st = write_failed();
    }
    return st;
}
