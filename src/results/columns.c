/* src/results/columns.c — result files opened with the header of their
 * schema, and read back by the names of the same schema. */
#include <stdio.h>
#include <string.h>

#include <harmonia/results.h>

#include "common/error_set.h"

enum { MAX_COLUMNS = 64 }; /* more than any schema has (overlap: 38) */

/* The header row of kind, column rename (if >= 0) called name instead. */
static int open_named(const char *path, const hm_factors_t *factors, hm_results_kind_t kind,
                      int rename, const char *name, hm_csv_t **out)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    const char *names[MAX_COLUMNS];
    *out = NULL;
    if (!s || s->ncolumns > MAX_COLUMNS)
        return hm__error_set(HM_EINVAL, "%s: unknown kind of result file (%d)", path, (int)kind);
    for (size_t i = 0; i < s->ncolumns; i++)
        names[i] = (int)i == rename ? name : s->columns[i].name;
    return hm_csv_open(path, factors, names, s->ncolumns, out);
}

int hm_results_csv_open(const char *path, const hm_factors_t *factors, hm_results_kind_t kind,
                        hm_csv_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    return open_named(path, factors, kind, -1, NULL, out);
}

int hm_results_repro_open(const char *path, const hm_factors_t *factors, int value_column,
                          hm_csv_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    if (value_column == HM_COL_PERMPIRUN_MEDIAN_S || value_column == HM_COL_PERMPIRUN_MEAN_S)
        return open_named(path, factors, HM_RESULTS_REPRO, HM_COL_REPRO_VALUE_S,
                          hm_results_column_name(HM_RESULTS_PERMPIRUN, value_column), out);
    if (value_column == HM_COL_PERMPIRUN_OVERLAP_MEDIAN ||
        value_column == HM_COL_PERMPIRUN_OVERLAP_MEAN)
        return open_named(path, factors, HM_RESULTS_REPRO_OVERLAP, HM_COL_REPRO_OVERLAP_VALUE,
                          hm_results_column_name(HM_RESULTS_PERMPIRUN_OVERLAP, value_column), out);
    return hm__error_set(HM_EINVAL,
                         "%s: the reproducibility report is of median_s or mean_s (overlap: median "
                         "or mean)",
                         path);
}

int hm_results_find_columns(const hm_csv_reader_t *r, const char *path, hm_results_kind_t kind,
                            const int *columns, size_t n, size_t *idx)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    char missing[256] = "";
    if (!r) return hm__error_null(__func__, "r");
    if (!path) return hm__error_null(__func__, "path");
    if (!columns) return hm__error_null(__func__, "columns");
    if (!idx) return hm__error_null(__func__, "idx");
    if (!s)
        return hm__error_set(HM_EINVAL, "%s: unknown kind of result file (%d)", path, (int)kind);
    for (size_t c = 0; c < n; c++) {
        const char *name = hm_results_column_name(kind, columns[c]);
        if (name && hm_csv_reader_find(r, name, &idx[c]) == HM_OK) continue;
        size_t used = strlen(missing);
        snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "",
                 name ? name : "?");
    }
    if (!missing[0]) return HM_OK;
    return hm__error_set(HM_EINVAL, "%s: missing columns: %s (expected %s)", path, missing,
                         s->what);
}
