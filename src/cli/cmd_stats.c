/* src/cli/cmd_stats.c — `harmonia stats FILE...`: summaries of the raw files
 * of `harmonia bench --raw`. Offline: no MPI. Every problem with the input is
 * a usage error (exit 2) naming the file, and the line where there is one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/version.h>

#include "cli/commands.h"
#include "cli/stats_report.h"

enum { COL_OP, COL_SIZE, COL_VALID, COL_METRIC, NCOLS };

/* The raw file's columns that stats reads; a file lacking any is named with
 * all that are missing. */
static int find_columns(hm_csv_reader_t *r, const char *path, const char *metric_col, size_t *idx,
                        char *why, size_t len)
{
    const char *names[NCOLS] = {"op", "size_bytes", "valid", metric_col};
    char missing[256] = "";
    for (int c = 0; c < NCOLS; c++)
        if (hm_csv_reader_find(r, names[c], &idx[c]) != HM_OK)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", names[c]);
    if (!missing[0]) return HM_OK;
    snprintf(why, len, "%s: missing columns: %s (expected a raw file of 'harmonia bench --raw')",
             path, missing);
    return HM_EINVAL;
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

static int read_file(const char *path, const char *metric_col, hm_stats_groups_t *groups, char *why,
                     size_t len)
{
    hm_csv_reader_t *r = NULL;
    size_t idx[NCOLS];
    long processes = 0;
    const char *sync = NULL;
    int rc = hm_csv_reader_open(path, &r, why, len);
    if (rc == HM_OK) rc = find_columns(r, path, metric_col, idx, why, len);
    if (rc == HM_OK) rc = file_factors(r, path, &processes, &sync, why, len);
    if (rc == HM_OK) rc = read_rows(r, path, idx, processes, sync, groups, why, len);
    hm_csv_reader_close(r);
    return rc;
}

static void append(char *buf, size_t len, size_t *used, const char *text)
{
    int n = snprintf(buf + *used, len - *used, "%s", text);
    *used += n >= 0 && (size_t)n < len - *used ? (size_t)n : len - 1 - *used;
}

/* The command line, each word in single quotes where the shell needs them. */
static void command_line(const hm_cli_config_t *cfg, char *buf, size_t len)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "-_./=:,+@%";
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < cfg->argc; i++) {
        const char *a = cfg->argv[i];
        append(buf, len, &used, i ? " " : "");
        if (*a && strspn(a, safe) == strlen(a)) {
            append(buf, len, &used, a);
            continue;
        }
        append(buf, len, &used, "'");
        for (const char *p = a; *p; p++) {
            char one[2] = {*p, '\0'};
            append(buf, len, &used, *p == '\'' ? "'\\''" : one);
        }
        append(buf, len, &used, "'");
    }
}

static int open_output(const hm_cli_config_t *cfg, hm_csv_t **csv, char *why, size_t len)
{
    hm_factors_t *f = NULL;
    char line[8192], inputs[8192] = "", reason[1024] = "";
    int rc = hm_factors_create(&f);
    command_line(cfg, line, sizeof line);
    for (int i = 0; i < cfg->nfiles; i++)
        snprintf(inputs + strlen(inputs), sizeof inputs - strlen(inputs), "%s%s", i ? "," : "",
                 cfg->files[i]);
    if (rc == HM_OK) rc = hm_factors_set(f, "harmonia_version", "%s", hm_version());
    if (rc == HM_OK) rc = hm_factors_set(f, "command_line", "%s", line);
    if (rc == HM_OK) rc = hm_factors_set(f, "filter", "%s", cfg->filter);
    if (rc == HM_OK) rc = hm_factors_set(f, "metric", "%s", cfg->metric);
    if (rc == HM_OK) rc = hm_factors_set(f, "inputs", "%s", inputs);
    if (rc == HM_OK)
        rc = hm_csv_open(cfg->output, f, hm_stats_columns, hm_stats_ncolumns, csv, reason,
                         sizeof reason);
    if (rc != HM_OK) snprintf(why, len, "--output: %s", reason[0] ? reason : hm_strerror(rc));
    hm_factors_free(f);
    return rc;
}

static int report(const hm_cli_config_t *cfg, hm_stats_groups_t *groups)
{
    char why[2048] = "";
    hm_csv_t *csv = NULL;
    hm_stats_row_t *rows = calloc(groups->n ? groups->n : 1, sizeof *rows);
    int rc = rows ? HM_OK : HM_ENOMEM;
    hm_stats_groups_sort(groups);
    for (size_t k = 0; rc == HM_OK && k < groups->n; k++)
        rc = hm_stats_row_compute(&groups->g[k], cfg->filter, &rows[k]);
    if (rc != HM_OK) {
        free(rows);
        hm_cli_print_error("stats: %s", hm_strerror(rc));
        return HM_EXIT_FAILURE;
    }
    if (cfg->output[0] && open_output(cfg, &csv, why, sizeof why) != HM_OK) {
        free(rows);
        hm_cli_print_error("%s", why);
        return HM_EXIT_USAGE;
    }
    printf("%s run-time (%s) of the valid repetitions in %d file%s, filter %s; 95%% confidence "
           "intervals; acf1 = lag-1 autocorrelation, sw_p = Shapiro-Wilk p-value\n",
           cfg->metric,
           strcmp(cfg->metric, "global") ? "max over ranks of end - start"
                                         : "max end - min start on the global clock",
           cfg->nfiles, cfg->nfiles == 1 ? "" : "s", cfg->filter);
    hm_stats_print_table(groups, rows, stdout);
    fflush(stdout);
    for (size_t k = 0; csv && k < groups->n; k++) hm_stats_write_row(csv, &groups->g[k], &rows[k]);
    free(rows);
    if (csv && hm_csv_close(csv, why, sizeof why) != HM_OK) {
        hm_cli_print_error("%s", why);
        return HM_EXIT_FAILURE;
    }
    return HM_EXIT_OK;
}

int hm_cmd_stats(hm_cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    char why[2048] = "", metric_col[16];
    hm_stats_groups_t groups = {0};
    int rc = HM_OK;
    if (cfg->nfiles == 0) {
        hm_cli_print_error("stats: no input files (usage: harmonia stats [options] FILE...)");
        return HM_EXIT_USAGE;
    }
    snprintf(metric_col, sizeof metric_col, "%s_s", cfg->metric);
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++)
        rc = read_file(cfg->files[i], metric_col, &groups, why, sizeof why);
    if (rc == HM_OK && groups.n == 0) {
        snprintf(why, sizeof why, "stats: no valid repetitions (valid = 1) in the input files");
        rc = HM_EINVAL;
    }
    int status = HM_EXIT_OK;
    if (rc == HM_ENOMEM) {
        hm_cli_print_error("stats: %s", hm_strerror(rc));
        status = HM_EXIT_FAILURE;
    } else if (rc != HM_OK) {
        hm_cli_print_error("%s", why);
        status = HM_EXIT_USAGE;
    } else {
        status = report(cfg, &groups);
    }
    hm_stats_groups_free(&groups);
    return status;
}
