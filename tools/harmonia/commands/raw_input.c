/* tools/harmonia/commands/raw_input.c — the reader of raw files of `harmonia bench --raw`
 * (columns op, size_bytes, valid, <metric>_s; factors processes and sync). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "commands/raw_input.h"

enum { COL_OP, COL_SIZE, COL_VALID, COL_METRIC, NCOLS };

int hm_cli_find_columns(const hm_csv_reader_t *r, const char *path, const char *const *names, int n,
                        size_t *idx, const char *expected, char *why, size_t why_len)
{
    char missing[256] = "";
    for (int c = 0; c < n; c++)
        if (hm_csv_reader_find(r, names[c], &idx[c]) != HM_OK)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", names[c]);
    if (!missing[0]) return HM_OK;
    snprintf(why, why_len, "%s: missing columns: %s (expected %s)", path, missing, expected);
    return HM_EINVAL;
}

/* The raw file's columns that are read. */
static int find_columns(hm_csv_reader_t *r, const char *path, const char *metric_col, size_t *idx,
                        char *why, size_t len)
{
    const char *names[NCOLS] = {"op", "size_bytes", "valid", metric_col};
    return hm_cli_find_columns(r, path, names, NCOLS, idx, "a raw file of 'harmonia bench --raw'",
                               why, len);
}

/* processes and sync come from the "# key: value" lines bench writes. */
static int file_factors(hm_csv_reader_t *r, const char *path, long *processes, const char **sync,
                        char *why, size_t len)
{
    const hm_factors_t *f = hm_csv_reader_factors(r);
    const char *p = NULL;
    char *end;
    if (hm_factors_get(f, "processes", &p) != HM_OK || hm_factors_get(f, "sync", sync) != HM_OK) {
        snprintf(why, len,
                 "%s: missing factor \"# %s: ...\" (expected a raw file of 'harmonia bench "
                 "--raw')",
                 path, p ? "sync" : "processes");
        return HM_EINVAL;
    }
    *processes = strtol(p, &end, 10);
    if (!*p || *end || *processes < 1) {
        snprintf(why, len, "%s: factor processes: \"%s\" is not a number of processes", path, p);
        return HM_EINVAL;
    }
    return HM_OK;
}

static int read_rows(hm_csv_reader_t *r, const char *path, const size_t *idx, long processes,
                     const char *sync, hm_stats_groups_t *groups, char *why, size_t len)
{
    int more, rc;
    double valid, size, x;
    while ((rc = hm_csv_reader_next(r, &more)) == HM_OK && more) {
        if ((rc = hm_csv_reader_double(r, idx[COL_VALID], &valid)) != HM_OK) break;
        if (valid != 1) continue;
        if ((rc = hm_csv_reader_double(r, idx[COL_SIZE], &size)) != HM_OK) break;
        if ((rc = hm_csv_reader_double(r, idx[COL_METRIC], &x)) != HM_OK) break;
        int bad_size = !(size >= 0 && size <= 9e15) || size != floor(size);
        if (bad_size || !isfinite(x)) {
            size_t c = bad_size ? idx[COL_SIZE] : idx[COL_METRIC];
            snprintf(why, len, "%s:%zu: \"%s\" is not a %s (column %s)", path,
                     hm_csv_reader_line(r), hm_csv_reader_cell(r, c),
                     bad_size ? "size in bytes" : "finite run-time", hm_csv_reader_column(r, c));
            return HM_EINVAL;
        }
        rc = hm_stats_groups_add(groups, hm_csv_reader_cell(r, idx[COL_OP]), (long long)size,
                                 processes, sync, x);
        if (rc != HM_OK) return rc;
    }
    if (rc != HM_OK && rc != HM_ENOMEM) snprintf(why, len, "%s", hm_csv_reader_error(r));
    return rc;
}

int hm_raw_read(const char *path, const char *metric_col, hm_stats_groups_t *groups, char *why,
                size_t len)
{
    hm_csv_reader_t *r = NULL;
    size_t idx[NCOLS];
    long processes = 0;
    const char *sync = NULL;
    int rc = hm_csv_reader_open(path, &r);
    if (rc != HM_OK) snprintf(why, len, "%s", hm_last_error());
    if (rc == HM_OK) rc = find_columns(r, path, metric_col, idx, why, len);
    if (rc == HM_OK) rc = file_factors(r, path, &processes, &sync, why, len);
    if (rc == HM_OK) rc = read_rows(r, path, idx, processes, sync, groups, why, len);
    hm_csv_reader_close(r);
    return rc;
}
