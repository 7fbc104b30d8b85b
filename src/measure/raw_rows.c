/* src/measure/raw_rows.c — the per-repetition rows of a measurement, one
 * writer for the raw files of bench and pattern: both keep the same
 * columns of an hm_measure_result_t, under the ids of their own schema. */
#include <math.h>

#include "common/error_set.h"
#include <harmonia/measure.h>

/* A kind's ids of the columns a measurement fills; -1: not in that kind. */
typedef struct raw_columns {
    hm_results_kind_t kind;
    int op, size_bytes, attempt, valid, global_s, local_s, start_spread_s, start_s, device_s,
        call_s, late_tolerance_s;
} raw_columns_t;

static const raw_columns_t kinds[] = {
    {HM_RESULTS_BENCH_RAW, HM_COL_BENCH_RAW_OP, HM_COL_BENCH_RAW_SIZE_BYTES,
     HM_COL_BENCH_RAW_ATTEMPT, HM_COL_BENCH_RAW_VALID, HM_COL_BENCH_RAW_GLOBAL_S,
     HM_COL_BENCH_RAW_LOCAL_S, HM_COL_BENCH_RAW_START_SPREAD_S, HM_COL_BENCH_RAW_START_S, -1, -1,
     HM_COL_BENCH_RAW_LATE_TOLERANCE_S},
    {HM_RESULTS_PATTERN_RAW, HM_COL_PATTERN_RAW_OP, HM_COL_PATTERN_RAW_SIZE_BYTES,
     HM_COL_PATTERN_RAW_ATTEMPT, HM_COL_PATTERN_RAW_VALID, HM_COL_PATTERN_RAW_GLOBAL_S,
     HM_COL_PATTERN_RAW_LOCAL_S, HM_COL_PATTERN_RAW_START_SPREAD_S, HM_COL_PATTERN_RAW_START_S,
     HM_COL_PATTERN_RAW_DEVICE_S, HM_COL_PATTERN_RAW_START_CALL_S,
     HM_COL_PATTERN_RAW_LATE_TOLERANCE_S},
};

static const raw_columns_t *columns_of(hm_results_kind_t kind)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].kind == kind) return &kinds[k];
    return NULL;
}

/* Attempt i of r into row; the first failing setter's status. */
static int fill(hm_results_row_t *row, const raw_columns_t *c, const hm_measure_result_t *r, long i)
{
    int rc = hm_results_row_set_int64(row, c->attempt, i);
    if (rc == HM_OK) rc = hm_results_row_set_int64(row, c->valid, r->valid[i]);
    if (rc == HM_OK) rc = hm_results_row_set_double(row, c->global_s, r->global_s[i]);
    if (rc == HM_OK) rc = hm_results_row_set_double(row, c->local_s, r->local_s[i]);
    if (rc == HM_OK) rc = hm_results_row_set_double(row, c->start_spread_s, r->start_spread_s[i]);
    if (rc == HM_OK) rc = hm_results_row_set_double(row, c->start_s, r->start_s[i]);
    if (rc == HM_OK)
        rc = hm_results_row_set_double(row, c->late_tolerance_s,
                                       r->late_tolerance_s ? r->late_tolerance_s[i] : NAN);
    if (rc == HM_OK && c->device_s >= 0)
        rc = hm_results_row_set_double(row, c->device_s, r->device_s ? r->device_s[i] : NAN);
    if (rc == HM_OK && c->call_s >= 0)
        rc = hm_results_row_set_double(row, c->call_s, r->call_s ? r->call_s[i] : NAN);
    return rc;
}

int hm_measure_write_raw(hm_csv_t *raw, hm_results_kind_t kind, const char *op, size_t size_bytes,
                         const hm_measure_result_t *result)
{
    const char *null = !raw ? "raw" : !op ? "op" : !result ? "result" : NULL;
    if (null) return hm__error_null(__func__, null);
    const raw_columns_t *c = columns_of(kind);
    if (!c)
        return hm__error_set(HM_EINVAL,
                             "per-repetition rows are for raw files of bench or pattern");
    if (result->n > 0 && !result->global_s)
        return hm__error_set(HM_EINVAL, "per-repetition rows need the root's arrays");
    hm_results_row_t *row = NULL;
    int rc = hm_results_row_create(kind, &row);
    for (long i = 0; rc == HM_OK && i < result->n; i++) {
        /* Set again for every row: a put leaves the row empty. */
        rc = hm_results_row_set_string(row, c->op, op);
        if (rc == HM_OK) rc = hm_results_row_set_int64(row, c->size_bytes, (int64_t)size_bytes);
        if (rc == HM_OK) rc = fill(row, c, result, i);
        if (rc == HM_OK) rc = hm_results_row_put(row, raw);
    }
    hm_results_row_free(row);
    return rc;
}
