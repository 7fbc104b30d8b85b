/* src/figure/plot_input.c — telling the kinds of input of the figures
 * apart by their columns, and what every reader needs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "figure/plot_input.h"

enum { MAX_COLS = 10 };

/* A kind of input: the columns its reader takes (HM_COL_* of its schema, in
 * the reader's order; the last one replaced by local_col under --metric
 * local, where the metric applies) and its reader. */
typedef struct input_kind {
    const char *what; /* for messages: "a raw file of 'harmonia bench --raw'" */
    hm_results_kind_t schema;
    int cols[MAX_COLS];
    int ncols;
    int local_col; /* -1: none */
    int (*read)(hm__plot_read_t *c);
} input_kind_t;

#define COLS(...) {__VA_ARGS__}, sizeof((int[]){__VA_ARGS__}) / sizeof(int)

static const input_kind_t kinds[] = {
    {"a raw file of 'harmonia bench --raw'", HM_RESULTS_BENCH_RAW,
     COLS(HM_COL_BENCH_RAW_OP, HM_COL_BENCH_RAW_SIZE_BYTES, HM_COL_BENCH_RAW_VALID,
          HM_COL_BENCH_RAW_GLOBAL_S),
     HM_COL_BENCH_RAW_LOCAL_S, hm__plot_read_bench_raw},
    {"the summary of 'harmonia bench --output'", HM_RESULTS_BENCH,
     COLS(HM_COL_BENCH_OP, HM_COL_BENCH_SIZE_BYTES, HM_COL_BENCH_SYNC, HM_COL_BENCH_MEDIAN_S),
     HM_COL_BENCH_LOCAL_MEDIAN_S, hm__plot_read_bench_summary},
    {"a campaign's per-mpirun.csv", HM_RESULTS_PERMPIRUN,
     COLS(HM_COL_PERMPIRUN_RUN, HM_COL_PERMPIRUN_OP, HM_COL_PERMPIRUN_SIZE_BYTES,
          HM_COL_PERMPIRUN_PROCESSES, HM_COL_PERMPIRUN_SYNC, HM_COL_PERMPIRUN_MEDIAN_S),
     -1, hm__plot_read_permpirun},
    {"a campaign's per-mpirun.csv of overlap", HM_RESULTS_PERMPIRUN_OVERLAP,
     COLS(HM_COL_PERMPIRUN_OVERLAP_RUN, HM_COL_PERMPIRUN_OVERLAP_OP,
          HM_COL_PERMPIRUN_OVERLAP_COMM_TARGET_S, HM_COL_PERMPIRUN_OVERLAP_COMP_TARGET_S,
          HM_COL_PERMPIRUN_OVERLAP_METRIC, HM_COL_PERMPIRUN_OVERLAP_MEDIAN),
     -1, hm__plot_read_permpirun},
    {"the summary of 'harmonia clock --output'", HM_RESULTS_CLOCK,
     COLS(HM_COL_CLOCK_CLOCK_SYNC, HM_COL_CLOCK_AFTER_S, HM_COL_CLOCK_OFFSET_MAX_S,
          HM_COL_CLOCK_OFFSET_MEDIAN_S, HM_COL_CLOCK_TRUTH_KNOWN, HM_COL_CLOCK_TRUE_MAX_S),
     -1, hm__plot_read_clock_summary},
    {"a raw file of 'harmonia clock --raw'", HM_RESULTS_CLOCK_RAW,
     COLS(HM_COL_CLOCK_RAW_CLOCK_SYNC, HM_COL_CLOCK_RAW_AFTER_S, HM_COL_CLOCK_RAW_RANK,
          HM_COL_CLOCK_RAW_OFFSET_S, HM_COL_CLOCK_RAW_TRUE_ERROR_S),
     -1, hm__plot_read_clock_raw},
    {"a raw file of 'harmonia skew --raw'", HM_RESULTS_SKEW_RAW,
     COLS(HM_COL_SKEW_RAW_METHOD, HM_COL_SKEW_RAW_WHAT, HM_COL_SKEW_RAW_GLOBAL_S,
          HM_COL_SKEW_RAW_TRUE_S),
     -1, hm__plot_read_skew_raw},
    {"the summary of 'harmonia skew --output'", HM_RESULTS_SKEW,
     COLS(HM_COL_SKEW_METHOD, HM_COL_SKEW_SKEW_MEDIAN_S, HM_COL_SKEW_SKEW_P90_S,
          HM_COL_SKEW_SKEW_P99_S, HM_COL_SKEW_SKEW_MAX_S, HM_COL_SKEW_TRUE_SKEW_MEDIAN_S,
          HM_COL_SKEW_TRUE_SKEW_P90_S, HM_COL_SKEW_TRUE_SKEW_P99_S, HM_COL_SKEW_TRUE_SKEW_MAX_S),
     -1, hm__plot_read_skew_summary},
    {"the summary of 'harmonia overlap --output'", HM_RESULTS_OVERLAP,
     COLS(HM_COL_OVERLAP_OP, HM_COL_OVERLAP_COMM_TARGET_S, HM_COL_OVERLAP_COMP_TARGET_S,
          HM_COL_OVERLAP_CELL_VALID, HM_COL_OVERLAP_OVERHEAD, HM_COL_OVERLAP_COMM_RATIO,
          HM_COL_OVERLAP_COMP_SLOWDOWN, HM_COL_OVERLAP_COMM_REF_S, HM_COL_OVERLAP_COMP_REF_S),
     -1, hm__plot_read_overlap_summary},
    {"a raw file of 'harmonia overlap --raw'", HM_RESULTS_OVERLAP_RAW,
     COLS(HM_COL_OVERLAP_RAW_OP, HM_COL_OVERLAP_RAW_COMM_TARGET_S, HM_COL_OVERLAP_RAW_SIZE_BYTES,
          HM_COL_OVERLAP_RAW_COMP_TARGET_S, HM_COL_OVERLAP_RAW_VALID, HM_COL_OVERLAP_RAW_OVERHEAD,
          HM_COL_OVERLAP_RAW_CELL_VALID),
     -1, hm__plot_read_overlap_raw},
    {"the output of 'harmonia overlap impact --output'", HM_RESULTS_IMPACT,
     COLS(HM_COL_IMPACT_COMP_TARGET_S, HM_COL_IMPACT_RANK, HM_COL_IMPACT_THREAD,
          HM_COL_IMPACT_RATIO),
     -1, hm__plot_read_impact},
    {"the matrix of 'harmonia pattern --matrix' (or a pattern file)", HM_RESULTS_PATTERN_MATRIX,
     COLS(HM_COL_PATTERN_MATRIX_SRC, HM_COL_PATTERN_MATRIX_DST, HM_COL_PATTERN_MATRIX_BYTES), -1,
     hm__plot_read_pattern_matrix},
    {"the summary of 'harmonia pattern --output'", HM_RESULTS_PATTERN,
     COLS(HM_COL_PATTERN_PATTERN, HM_COL_PATTERN_DIRECTION, HM_COL_PATTERN_BACKEND,
          HM_COL_PATTERN_MEASURED, HM_COL_PATTERN_SIZE_BYTES, HM_COL_PATTERN_VALID,
          HM_COL_PATTERN_ALGBW_GBPS),
     -1, hm__plot_read_pattern_summary},
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

static const char *column_name(const input_kind_t *k, int i, int local)
{
    int col = i + 1 == k->ncols && local && k->local_col >= 0 ? k->local_col : k->cols[i];
    return hm_results_column_name(k->schema, col);
}

/* Columns of kind k present in the file (idx filled), and missing. */
static int count_columns(const hm_csv_reader_t *r, const input_kind_t *k, int local, size_t *idx,
                         int *missing)
{
    int present = 0;
    *missing = 0;
    for (int i = 0; i < k->ncols; i++) {
        if (hm_csv_reader_find(r, column_name(k, i, local), &idx[i]) == HM_OK)
            present++;
        else
            ++*missing;
    }
    return present;
}

/* The kind sharing most columns with the file, the fewest missing among
 * equals: a file that lost a column is still recognized, and the error names
 * what it lacks. A kind the file has every column of comes first (scale/run's
 * bench files have a processes column, as a campaign's per-mpirun.csv, but
 * they are bench summaries). */
static const input_kind_t *best_kind(const hm_csv_reader_t *r, int local, size_t *idx,
                                     int *best_missing)
{
    const input_kind_t *best = NULL;
    int best_present = 0;
    size_t tmp[MAX_COLS];
    for (int k = 0; k < NKINDS; k++) {
        int missing, present = count_columns(r, &kinds[k], local, tmp, &missing);
        int complete = !missing, best_complete = best && !*best_missing;
        if ((complete && !best_complete) ||
            (complete == best_complete &&
             (present > best_present ||
              (present == best_present && best && missing < *best_missing)))) {
            best = &kinds[k];
            best_present = present;
            *best_missing = missing;
            memcpy(idx, tmp, sizeof tmp);
        }
    }
    return best;
}

/* The sentence of a file that is no result file, or lacks columns of its
 * kind, as the last error. */
static int kind_error(const hm_csv_reader_t *r, const char *path, const input_kind_t *k, int local)
{
    char why[4096];
    size_t idx, used, len = sizeof why;
    if (!k) {
        used = (size_t)snprintf(why, len, "%s: not a result file of harmonia (columns:", path);
        for (size_t i = 0; i < hm_csv_reader_columns(r) && used < len; i++)
            used += (size_t)snprintf(why + used, len - used, " %s", hm_csv_reader_column(r, i));
        if (used < len)
            snprintf(why + used, len - used,
                     "; expected those of bench --raw/--output, a campaign's per-mpirun.csv, "
                     "clock or skew --raw/--output, overlap --output, overlap impact "
                     "--output, pattern --output or --matrix)");
        return hm__error_set(HM_EINVAL, "%s", why);
    }
    used = (size_t)snprintf(why, len, "%s: missing columns:", path);
    for (int i = 0; i < k->ncols && used < len; i++)
        if (hm_csv_reader_find(r, column_name(k, i, local), &idx) != HM_OK)
            used += (size_t)snprintf(why + used, len - used, " %s", column_name(k, i, local));
    if (used < len) snprintf(why + used, len - used, " (expected %s)", k->what);
    return hm__error_set(HM_EINVAL, "%s", why);
}

/* The name of directory dir as the shell would show it ("." is the current
 * directory's name); dir itself when it cannot be resolved. */
static void dir_name(const char *dir, char *name, size_t len)
{
    char *real = realpath(dir, NULL);
    const char *base = real ? strrchr(real, '/') + 1 : dir;
    snprintf(name, len, "%.200s", *base ? base : "root"); /* a usable file name */
    free(real);
}

/* The file to read and the stem naming its series: a campaign directory
 * stands for its per-mpirun.csv, and a per-mpirun.csv is named after its
 * directory ("runs/barrier" gives barrier-campaign.svg); any other file after
 * its name without ".csv". */
static void source_names(const char *operand, hm__plot_source_t *src)
{
    char dir[4096];
    const char *slash = strrchr(operand, '/'), *base = slash ? slash + 1 : operand;
    size_t n = strlen(base);
    int is_dir = 0;
    if (hm_results_permpirun_path(operand, src->file, sizeof src->file, &is_dir) == HM_OK &&
        is_dir) {
        dir_name(operand, src->stem, sizeof src->stem);
        return;
    }
    if (strcmp(base, HM_RESULTS_PERMPIRUN_FILE) == 0) {
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - operand) + 1 : 1,
                 slash ? operand : ".");
        dir_name(dir, src->stem, sizeof src->stem);
        return;
    }
    if (n > 4 && strcmp(base + n - 4, ".csv") == 0) n -= 4;
    snprintf(src->stem, sizeof src->stem, "%.*s", (int)n, base);
}

/* The MPI library up to its first comma: "Open MPI v4.1.4". */
static void source_library(const hm_csv_reader_t *r, hm__plot_source_t *src)
{
    const char *lib = NULL;
    if (hm_factors_get(hm_csv_reader_factors(r), "mpi_library", &lib) != HM_OK) lib = "";
    snprintf(src->library, sizeof src->library, "%.*s", (int)strcspn(lib, ","), lib);
}

static size_t samples(const hm__plot_data_t *fig)
{
    size_t n = 0;
    for (int f = 0; f < HM_NFIG; f++)
        for (size_t i = 0; i < fig[f].ng; i++) n += fig[f].g[i].n;
    return n;
}

/* "no (2 of 21 experiments)" becomes "2 of 21 experiments" in a legend. */
static void source_partial(const hm_csv_reader_t *r, hm__plot_source_t *src)
{
    const char *what = NULL;
    src->partial[0] = '\0';
    if (!hm_results_partial(hm_csv_reader_factors(r), &what)) return;
    if (src->partial_fn) src->partial_fn(src->file, what, src->ctx);
    const char *inner = strchr(what, '(');
    size_t n = inner ? strcspn(inner + 1, ")") : strlen(what);
    snprintf(src->partial, sizeof src->partial, "%.*s", (int)n, inner ? inner + 1 : what);
}

int hm__plot_read_file(const char *operand, hm__plot_source_t *src, hm_metric_t metric,
                       hm__plot_data_t *fig)
{
    size_t idx[MAX_COLS], before = samples(fig);
    hm_csv_reader_t *r = NULL;
    int local = metric == HM_METRIC_LOCAL;
    source_names(operand, src);
    src->path = operand;
    int rc = hm_csv_reader_open(src->file, &r);
    if (rc != HM_OK) {
        hm_csv_reader_close(r);
        return rc == HM_ENOMEM ? rc : HM_EINVAL; /* sentence: set by hm_csv_reader_open */
    }
    source_library(r, src);
    source_partial(r, src);
    int missing = 0;
    const input_kind_t *k = best_kind(r, local, idx, &missing);
    if (!k || missing) rc = kind_error(r, src->file, k, local);
    hm__plot_read_t c = {r, src, idx, fig, metric};
    if (rc == HM_OK) rc = k->read(&c);
    if (rc == HM_OK && samples(fig) == before) {
        rc = hm__error_set(HM_EINVAL, "%s: no rows to plot (%s)", src->file,
                           k->read == hm__plot_read_bench_raw ? "no valid repetitions, valid = 1"
                                                              : "empty");
    }
    hm_csv_reader_close(r);
    return rc;
}

int hm__plot_next(hm__plot_read_t *c, int *more)
{
    int rc = hm_csv_reader_next(c->r, more);
    if (rc != HM_OK && rc != HM_ENOMEM) {
        hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(c->r));
        rc = HM_EINVAL;
    }
    return rc;
}

int hm__plot_number(hm__plot_read_t *c, int k, double *v)
{
    if (hm_csv_reader_double(c->r, c->col[k], v) == HM_OK) return HM_OK;
    hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(c->r));
    return HM_EINVAL;
}

int hm__plot_check(hm__plot_read_t *c, int k, int ok, const char *what)
{
    if (ok) return HM_OK;
    hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", c->src->file,
                  hm_csv_reader_line(c->r), hm__plot_text(c, k), what,
                  hm_csv_reader_column(c->r, c->col[k]));
    return HM_EINVAL;
}

int hm__plot_size_cell(hm__plot_read_t *c, int k, double *size)
{
    int rc = hm__plot_number(c, k, size);
    if (rc != HM_OK) return rc;
    return hm__plot_check(c, k, *size >= 0 && *size <= 9e15 && *size == floor(*size),
                          "a size in bytes");
}

const char *hm__plot_text(const hm__plot_read_t *c, int k)
{
    const char *t = hm_csv_reader_cell(c->r, c->col[k]);
    return t ? t : "";
}

const char *hm__plot_factor(const hm__plot_read_t *c, const char *key)
{
    const char *v = NULL;
    return hm_factors_get(hm_csv_reader_factors(c->r), key, &v) == HM_OK ? v : "";
}

void hm__plot_ranks(char *buf, size_t len, const char *processes)
{
    if (!*processes)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%s rank%s", processes, strcmp(processes, "1") ? "s" : "");
}
