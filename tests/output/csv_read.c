/* tests/output/csv_read.c — RFC 4180 reader used by the output tests. */
#include "csv_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Room for element count of an array that doubles its capacity whenever
 * count reaches a power of two (so 20000 rows are not 20000 copies). */
static void *grow(void *array, size_t count, size_t elem)
{
    if (count & (count - 1)) return array;
    return realloc(array, (count ? 2 * count : 1) * elem);
}

/* Bytes from the opening quote of a cell to its closing quote (included),
 * or 0 if it never closes. */
static size_t quoted_span(const char *s, const char *end)
{
    for (const char *p = s + 1; p < end; p++) {
        if (*p == '"' && p + 1 < end && p[1] == '"')
            p++;
        else if (*p == '"')
            return (size_t)(p - s) + 1;
    }
    return 0;
}

/* One cell at s into a new string *cell; returns where it ends, NULL if a
 * quote never closes. */
static const char *read_cell(const char *s, const char *end, char **cell)
{
    if (s >= end || *s != '"') {
        size_t n = strcspn(s, ",\n");
        if (s + n > end) n = (size_t)(end - s);
        *cell = strndup(s, n);
        return s + n;
    }
    size_t span = quoted_span(s, end), n = 0;
    *cell = calloc(span + 1, 1);
    if (span == 0) return NULL;
    for (const char *p = s + 1; p < s + span - 1; p++) {
        (*cell)[n++] = *p;
        if (*p == '"') p++; /* "" stands for one quote */
    }
    return s + span;
}

/* One record starting at *p into *cells and *ncells. Returns 0, or -1 if the
 * record is cut (unclosed quote, no final '\n') or malformed. */
static int read_record(const char **p, const char *end, char ***cells, size_t *ncells)
{
    const char *s = *p;
    *cells = NULL;
    *ncells = 0;
    for (;;) {
        char *cell;
        s = read_cell(s, end, &cell);
        *cells = grow(*cells, *ncells, sizeof **cells);
        (*cells)[(*ncells)++] = cell;
        if (!s || s >= end) return -1;
        if (*s == '\n') break;
        if (*s != ',') return -1; /* text after a closing quote */
        s++;
    }
    *p = s + 1;
    return 0;
}

static int read_factors(const char **p, const char *end, csv_doc_t *doc, char *why, size_t len)
{
    while (*p < end && **p == '#') {
        const char *nl = memchr(*p, '\n', (size_t)(end - *p));
        if (!nl) return snprintf(why, len, "factor line without newline"), -1;
        const char *sep = strstr(*p, ": ");
        if (strncmp(*p, "# ", 2) != 0 || !sep || sep > nl)
            return snprintf(why, len, "factor line without \"# key: value\""), -1;
        doc->keys = grow(doc->keys, doc->nfactors, sizeof *doc->keys);
        doc->values = grow(doc->values, doc->nfactors, sizeof *doc->values);
        doc->keys[doc->nfactors] = strndup(*p + 2, (size_t)(sep - *p - 2));
        doc->values[doc->nfactors++] = strndup(sep + 2, (size_t)(nl - sep - 2));
        *p = nl + 1;
    }
    return 0;
}

static int read_rows(const char *p, const char *end, csv_doc_t *doc, char *why, size_t len)
{
    while (p < end) {
        char **cells;
        size_t ncells;
        int rc = read_record(&p, end, &cells, &ncells);
        doc->rows = grow(doc->rows, doc->nrows, sizeof *doc->rows);
        doc->row_cells = grow(doc->row_cells, doc->nrows, sizeof *doc->row_cells);
        doc->rows[doc->nrows] = cells;
        doc->row_cells[doc->nrows++] = ncells;
        if (rc != 0) return snprintf(why, len, "row %zu is cut", doc->nrows), -1;
    }
    return 0;
}

int csv_read(const char *path, csv_doc_t *doc, char *why, size_t why_len)
{
    size_t len;
    memset(doc, 0, sizeof *doc);
    char *text = slurp(path, &len);
    if (!text) return snprintf(why, why_len, "cannot read %s", path), -1;
    const char *p = text, *end = text + len;
    doc->ends_in_newline = len == 0 || text[len - 1] == '\n';
    int rc = read_factors(&p, end, doc, why, why_len);
    if (rc == 0 && (p >= end || read_record(&p, end, &doc->header, &doc->ncolumns) != 0)) {
        snprintf(why, why_len, "no complete header row");
        rc = -1;
    }
    if (rc == 0) rc = read_rows(p, end, doc, why, why_len);
    free(text);
    return rc;
}

const char *csv_factor(const csv_doc_t *doc, const char *key)
{
    for (size_t i = 0; i < doc->nfactors; i++)
        if (strcmp(doc->keys[i], key) == 0) return doc->values[i];
    return NULL;
}

static void free_cells(char **cells, size_t n)
{
    for (size_t i = 0; i < n; i++) free(cells[i]);
    free(cells);
}

void csv_doc_free(csv_doc_t *doc)
{
    free_cells(doc->keys, doc->nfactors);
    free_cells(doc->values, doc->nfactors);
    free_cells(doc->header, doc->ncolumns);
    for (size_t r = 0; r < doc->nrows; r++) free_cells(doc->rows[r], doc->row_cells[r]);
    free(doc->rows);
    free(doc->row_cells);
    memset(doc, 0, sizeof *doc);
}
