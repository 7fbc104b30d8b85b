/* src/results/row.c — a row of a result file written by column id: the
 * writers name each value's column, the schema decides where it goes, so
 * that moving or adding a column cannot shift the values of a file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include <harmonia/results.h>

typedef enum cell_type {
    CELL_UNSET,
    CELL_DOUBLE,
    CELL_INT64,
    CELL_STRING,
    CELL_MARKED
} cell_type_t;

typedef struct cell {
    cell_type_t type;
    double d;
    int64_t i;
    char *text; /* kept between rows, grown as needed */
    size_t cap;
    off_t *at; /* CELL_MARKED: where hm_csv_put_marked says the text went */
} cell_t;

struct hm_results_row {
    const hm_results_schema_t *schema;
    cell_t *cells; /* one per column, in file order */
};

int hm_results_row_create(hm_results_kind_t kind, hm_results_row_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    const hm_results_schema_t *schema = hm_results_schema(kind);
    if (!schema) return hm__error_set(HM_EINVAL, "a row of an unknown kind of result file");
    hm_results_row_t *row = calloc(1, sizeof *row);
    if (row) row->cells = calloc(schema->ncolumns, sizeof *row->cells);
    if (!row || !row->cells) {
        free(row);
        return hm__error_set(HM_ENOMEM, "out of memory for a row of %s", schema->what);
    }
    row->schema = schema;
    *out = row;
    return HM_OK;
}

void hm_results_row_free(hm_results_row_t *row)
{
    if (!row) return;
    for (size_t c = 0; c < row->schema->ncolumns; c++) free(row->cells[c].text);
    free(row->cells);
    free(row);
}

/* The cell of column, or NULL with the sentence set: an id outside the
 * schema is a writer that names a column of another kind. */
static cell_t *cell_of(hm_results_row_t *row, int column)
{
    if (column >= 0 && (size_t)column < row->schema->ncolumns) return &row->cells[column];
    hm__error_set(HM_EINVAL, "column %d is not a column of %s (%zu columns)", column,
                  row->schema->what, row->schema->ncolumns);
    return NULL;
}

/* A number's cell: the type says which of d and i is written. */
static int set_number(hm_results_row_t *row, int column, cell_type_t type, double d, int64_t i)
{
    cell_t *cell = cell_of(row, column);
    if (!cell) return HM_EINVAL; /* sentence: set by cell_of */
    cell->type = type;
    cell->d = d;
    cell->i = i;
    return HM_OK;
}

int hm_results_row_set_double(hm_results_row_t *row, int column, double value)
{
    if (!row) return hm__error_null(__func__, "row");
    return set_number(row, column, CELL_DOUBLE, value, 0);
}

int hm_results_row_set_int64(hm_results_row_t *row, int column, int64_t value)
{
    if (!row) return hm__error_null(__func__, "row");
    return set_number(row, column, CELL_INT64, 0, value);
}

int hm_results_row_set_string(hm_results_row_t *row, int column, const char *text)
{
    if (!row) return hm__error_null(__func__, "row");
    cell_t *cell = cell_of(row, column);
    if (!cell) return HM_EINVAL; /* sentence: set by cell_of */
    if (!text) text = "";
    size_t len = strlen(text) + 1;
    if (len > cell->cap) {
        char *grown = realloc(cell->text, len);
        if (!grown)
            return hm__error_set(HM_ENOMEM, "out of memory for column \"%s\" of %s",
                                 row->schema->columns[column].name, row->schema->what);
        cell->text = grown;
        cell->cap = len;
    }
    memcpy(cell->text, text, len);
    cell->type = CELL_STRING;
    return HM_OK;
}

int hm_results_row_set_marked(hm_results_row_t *row, int column, const char *text, off_t *at)
{
    if (!row) return hm__error_null(__func__, "row");
    if (!at) return hm__error_null(__func__, "at");
    int rc = hm_results_row_set_string(row, column, text);
    if (rc != HM_OK) return rc;
    row->cells[column].type = CELL_MARKED;
    row->cells[column].at = at;
    return HM_OK;
}

static int put_cell(hm_csv_t *csv, const cell_t *cell)
{
    switch (cell->type) {
    case CELL_MARKED:
        return hm_csv_put_marked(csv, cell->text, cell->at);
    case CELL_DOUBLE:
        return hm_csv_put_double(csv, cell->d);
    case CELL_INT64:
        return hm_csv_put_int64(csv, cell->i);
    default:
        return hm_csv_put_string(csv, cell->text);
    }
}

static void clear(hm_results_row_t *row)
{
    for (size_t c = 0; c < row->schema->ncolumns; c++) row->cells[c].type = CELL_UNSET;
}

/* End the row after a cell failed with rc: the writer drops the short row,
 * and the sentence stays that of the cell, not of the short row. */
static int end_failed_row(hm_csv_t *csv, int rc)
{
    char first[HM_ERROR_MAX];
    snprintf(first, sizeof first, "%s", hm_last_error());
    hm_csv_end_row(csv);
    return hm__error_set(rc, "%s", first);
}

int hm_results_row_put(hm_results_row_t *row, hm_csv_t *csv)
{
    if (!row) return hm__error_null(__func__, "row");
    if (!csv) return hm__error_null(__func__, "csv");
    const hm_results_schema_t *schema = row->schema;
    /* Checked before the first cell: a refused row leaves nothing behind. */
    for (size_t c = 0; c < schema->ncolumns; c++)
        if (row->cells[c].type == CELL_UNSET) {
            clear(row);
            return hm__error_set(HM_EINVAL, "%s: column \"%s\" is not set", schema->what,
                                 schema->columns[c].name);
        }
    int rc = HM_OK;
    for (size_t c = 0; c < schema->ncolumns && rc == HM_OK; c++) rc = put_cell(csv, &row->cells[c]);
    /* Ended even after a failed cell: the writer drops a short row. */
    rc = rc != HM_OK ? end_failed_row(csv, rc) : hm_csv_end_row(csv);
    clear(row);
    return rc;
}
