/* tests/output/csv_read.h — an independent reader for result files, so that
 * tests check what a pandas/R user would read, not what the writer meant. */
#ifndef HM_TEST_CSV_READ_H
#define HM_TEST_CSV_READ_H
#include <stddef.h>

typedef struct csv_doc {
    size_t nfactors;
    char **keys, **values; /* from the leading "# key: value" lines */
    size_t ncolumns;
    char **header;
    size_t nrows;
    char ***rows;        /* rows[r][c] */
    size_t *row_cells;   /* cells read in row r */
    int ends_in_newline; /* the file is empty or its last byte is '\n' */
} csv_doc_t;

/* Read path. Returns 0, or -1 with a reason in why: a leading '#' line
 * without ": ", a quoted cell that never closes, a last line without '\n'
 * (the file ends in the middle of a row), no header. */
int csv_read(const char *path, csv_doc_t *doc, char *why, size_t why_len);

/* Value of a factor, or NULL. */
const char *csv_factor(const csv_doc_t *doc, const char *key);

void csv_doc_free(csv_doc_t *doc);
#endif
