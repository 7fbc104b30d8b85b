/* tools/harmonia/plot/plot_input.c — telling the kinds of input of `harmonia plot`
 * apart by their columns, and what every reader needs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/permpirun.h"
#include "plot/plot_input.h"

enum { MAX_COLS = 10 };

/* A kind of input: the columns it must have (the last one replaced by
 * local_col under --metric local, where the metric applies) and its reader. */
typedef struct input_kind {
    const char *what; /* for messages: "a raw file of 'harmonia bench --raw'" */
    const char *cols[MAX_COLS];
    const char *local_col;
    int (*read)(hm_plot_read_t *c);
} input_kind_t;

static const input_kind_t kinds[] = {
    {"a raw file of 'harmonia bench --raw'",
     {"op", "size_bytes", "valid", "global_s"},
     "local_s",
     hm_plot_read_bench_raw},
    {"the summary of 'harmonia bench --output'",
     {"op", "size_bytes", "sync", "median_s"},
     "local_median_s",
     hm_plot_read_bench_summary},
    {"a campaign's per-mpirun.csv",
     {"run", "op", "size_bytes", "processes", "sync", "median_s"},
     NULL,
     hm_plot_read_permpirun},
    {"the summary of 'harmonia clock --output'",
     {"clock_sync", "after_s", "offset_max_s", "offset_median_s", "truth_known", "true_max_s"},
     NULL,
     hm_plot_read_clock_summary},
    {"a raw file of 'harmonia clock --raw'",
     {"clock_sync", "after_s", "rank", "offset_s", "true_error_s"},
     NULL,
     hm_plot_read_clock_raw},
    {"a raw file of 'harmonia skew --raw'",
     {"method", "what", "global_s", "true_s"},
     NULL,
     hm_plot_read_skew_raw},
    {"the summary of 'harmonia skew --output'",
     {"method", "skew_median_s", "skew_p90_s", "skew_p99_s", "skew_max_s", "true_skew_median_s",
      "true_skew_p90_s", "true_skew_p99_s", "true_skew_max_s"},
     NULL,
     hm_plot_read_skew_summary},
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

static const char *column_name(const input_kind_t *k, int i, int local)
{
    int last = i + 1 == MAX_COLS || !k->cols[i + 1];
    return last && local && k->local_col ? k->local_col : k->cols[i];
}

/* Columns of kind k present in the file (idx filled), and missing. */
static int count_columns(const hm_csv_reader_t *r, const input_kind_t *k, int local, size_t *idx,
                         int *missing)
{
    int present = 0;
    *missing = 0;
    for (int i = 0; i < MAX_COLS && k->cols[i]; i++) {
        if (hm_csv_reader_find(r, column_name(k, i, local), &idx[i]) == HM_OK)
            present++;
        else
            ++*missing;
    }
    return present;
}

/* The kind sharing most columns with the file, the fewest missing among
 * equals: a file that lost a column is still recognized, and the error names
 * what it lacks. */
static const input_kind_t *best_kind(const hm_csv_reader_t *r, int local, size_t *idx,
                                     int *best_missing)
{
    const input_kind_t *best = NULL;
    int best_present = 0;
    size_t tmp[MAX_COLS];
    for (int k = 0; k < NKINDS; k++) {
        int missing, present = count_columns(r, &kinds[k], local, tmp, &missing);
        if (present > best_present ||
            (present == best_present && best && missing < *best_missing)) {
            best = &kinds[k];
            best_present = present;
            *best_missing = missing;
            memcpy(idx, tmp, sizeof tmp);
        }
    }
    return best;
}

static int kind_error(const hm_csv_reader_t *r, const char *path, const input_kind_t *k, int local,
                      char *why, size_t len)
{
    size_t idx, used;
    if (!k) {
        used = (size_t)snprintf(why, len, "%s: not a result file of harmonia (columns:", path);
        for (size_t i = 0; i < hm_csv_reader_columns(r) && used < len; i++)
            used += (size_t)snprintf(why + used, len - used, " %s", hm_csv_reader_column(r, i));
        if (used < len)
            snprintf(why + used, len - used,
                     "; expected those of bench --raw/--output, a campaign's per-mpirun.csv, "
                     "clock or skew --raw/--output)");
        return HM_EINVAL;
    }
    used = (size_t)snprintf(why, len, "%s: missing columns:", path);
    for (int i = 0; i < MAX_COLS && k->cols[i] && used < len; i++)
        if (hm_csv_reader_find(r, column_name(k, i, local), &idx) != HM_OK)
            used += (size_t)snprintf(why + used, len - used, " %s", column_name(k, i, local));
    if (used < len) snprintf(why + used, len - used, " (expected %s)", k->what);
    return HM_EINVAL;
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
static void source_names(const char *operand, hm_plot_source_t *src)
{
    char dir[4096];
    const char *slash = strrchr(operand, '/'), *base = slash ? slash + 1 : operand;
    size_t n = strlen(base);
    if (hm_permpirun_resolve(operand, src->file, sizeof src->file) > 0) {
        dir_name(operand, src->stem, sizeof src->stem);
        return;
    }
    if (strcmp(base, HM_PERMPIRUN_FILE) == 0) {
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - operand) + 1 : 1,
                 slash ? operand : ".");
        dir_name(dir, src->stem, sizeof src->stem);
        return;
    }
    if (n > 4 && strcmp(base + n - 4, ".csv") == 0) n -= 4;
    snprintf(src->stem, sizeof src->stem, "%.*s", (int)n, base);
}

/* The MPI library up to its first comma: "Open MPI v4.1.4". */
static void source_library(const hm_csv_reader_t *r, hm_plot_source_t *src)
{
    const char *lib = NULL;
    if (hm_factors_get(hm_csv_reader_factors(r), "mpi_library", &lib) != HM_OK) lib = "";
    snprintf(src->library, sizeof src->library, "%.*s", (int)strcspn(lib, ","), lib);
}

static size_t samples(const hm_plot_data_t *fig)
{
    size_t n = 0;
    for (int f = 0; f < HM_NFIG; f++)
        for (size_t i = 0; i < fig[f].ng; i++) n += fig[f].g[i].n;
    return n;
}

int hm_plot_read_file(const char *operand, hm_plot_source_t *src, const char *metric,
                      hm_plot_data_t *fig, char *why, size_t len)
{
    size_t idx[MAX_COLS], before = samples(fig);
    hm_csv_reader_t *r = NULL;
    int local = strcmp(metric, "local") == 0;
    source_names(operand, src);
    src->path = operand;
    int rc = hm_csv_reader_open(src->file, &r);
    if (rc != HM_OK) {
        snprintf(why, len, "%s", hm_last_error());
        hm_csv_reader_close(r);
        return rc == HM_ENOMEM ? rc : HM_EINVAL;
    }
    source_library(r, src);
    int missing = 0;
    const input_kind_t *k = best_kind(r, local, idx, &missing);
    if (!k || missing) rc = kind_error(r, src->file, k, local, why, len);
    hm_plot_read_t c = {r, src, idx, fig, why, len};
    if (rc == HM_OK) rc = k->read(&c);
    if (rc == HM_OK && samples(fig) == before) {
        snprintf(why, len, "%s: no rows to plot (%s)", src->file,
                 k->read == hm_plot_read_bench_raw ? "no valid repetitions, valid = 1" : "empty");
        rc = HM_EINVAL;
    }
    hm_csv_reader_close(r);
    return rc;
}

int hm_plot_next(hm_plot_read_t *c, int *more)
{
    int rc = hm_csv_reader_next(c->r, more);
    if (rc != HM_OK && rc != HM_ENOMEM) {
        snprintf(c->why, c->len, "%s", hm_csv_reader_error(c->r));
        rc = HM_EINVAL;
    }
    return rc;
}

int hm_plot_number(hm_plot_read_t *c, int k, double *v)
{
    if (hm_csv_reader_double(c->r, c->col[k], v) == HM_OK) return HM_OK;
    snprintf(c->why, c->len, "%s", hm_csv_reader_error(c->r));
    return HM_EINVAL;
}

int hm_plot_check(hm_plot_read_t *c, int k, int ok, const char *what)
{
    if (ok) return HM_OK;
    snprintf(c->why, c->len, "%s:%zu: \"%s\" is not %s (column %s)", c->src->file,
             hm_csv_reader_line(c->r), hm_plot_text(c, k), what,
             hm_csv_reader_column(c->r, c->col[k]));
    return HM_EINVAL;
}

const char *hm_plot_text(const hm_plot_read_t *c, int k)
{
    const char *t = hm_csv_reader_cell(c->r, c->col[k]);
    return t ? t : "";
}

const char *hm_plot_factor(const hm_plot_read_t *c, const char *key)
{
    const char *v = NULL;
    return hm_factors_get(hm_csv_reader_factors(c->r), key, &v) == HM_OK ? v : "";
}

void hm_plot_ranks(char *buf, size_t len, const char *processes)
{
    if (!*processes)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%s rank%s", processes, strcmp(processes, "1") ? "s" : "");
}
