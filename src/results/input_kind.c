/* src/results/input_kind.c — which of the files the analysis commands read
 * a file is, by the columns of its header, so that a command can refuse to
 * pool bench results with overlap results before reading either. */
#include <harmonia/results.h>

#include "common/error_set.h"

static int has(const hm_csv_reader_t *r, hm_results_kind_t kind, int column)
{
    size_t i;
    return hm_csv_reader_find(r, hm_results_column_name(kind, column), &i) == HM_OK;
}

int hm_results_input_kind(const char *path, hm_results_kind_t *kind)
{
    hm_csv_reader_t *r = NULL;
    if (!path) return hm__error_null(__func__, "path");
    if (!kind) return hm__error_null(__func__, "kind");
    int rc = hm_csv_reader_open(path, &r);
    if (rc != HM_OK) return rc;
    int run = has(r, HM_RESULTS_PERMPIRUN, HM_COL_PERMPIRUN_RUN);
    int valid = has(r, HM_RESULTS_BENCH_RAW, HM_COL_BENCH_RAW_VALID);
    int overlap = has(r, HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_COMM_TARGET_S);
    hm_csv_reader_close(r);
    if (run)
        *kind = overlap ? HM_RESULTS_PERMPIRUN_OVERLAP : HM_RESULTS_PERMPIRUN;
    else if (valid)
        *kind = overlap ? HM_RESULTS_OVERLAP_RAW : HM_RESULTS_BENCH_RAW;
    else
        return hm__error_set(HM_EINVAL,
                             "%s: neither a per-mpirun.csv of 'harmonia campaign' (a column run) "
                             "nor a raw file of 'harmonia bench --raw' or 'harmonia overlap --raw' "
                             "(a column valid)",
                             path);
    return HM_OK;
}
