/* tools/harmonia/commands/cmd_compare.c — `harmonia compare A B`: the Wilcoxon comparison of
 * two campaigns (Hunold and Carpen-Amarie 2016, Sec. 6.2), per (op, size,
 * processes). Offline: no MPI. Every problem with the input is a usage error
 * (exit 2) naming the operand, the file and the line where there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>
#include <harmonia/version.h>

#include "commands/commands.h"
#include "commands/result_files.h"
#include "commands/compare_report.h"
#include "commands/permpirun.h"
#include "commands/raw_input.h"

/* ---- Reading one side ------------------------------------------------------ */

/* A directory stands for the per-mpirun.csv that campaign writes into it. */
static int resolve(hm_compare_side_t *s, char *why, size_t len)
{
    int dir = hm_permpirun_resolve(s->operand, s->path, sizeof s->path);
    if (dir < 0) {
        snprintf(why, len, "%s: path too long", s->operand);
        return HM_EINVAL;
    }
    if (!dir || access(s->path, F_OK) == 0) return HM_OK;
    snprintf(why, len,
             "%s has no %s (run 'harmonia campaign --dir %s -- mpirun ... harmonia bench ...' "
             "first)",
             s->operand, HM_PERMPIRUN_FILE, s->operand);
    return HM_ENOENT;
}

/* What the file is, by its header: a per-mpirun file has a column run, a raw
 * file a column valid. */
static int detect(const hm_cli_config_t *cfg, hm_compare_side_t *s, char *why, size_t len)
{
    hm_csv_reader_t *r = NULL;
    size_t i;
    const char *v;
    int rc = hm_csv_reader_open(s->path, &r);
    if (rc != HM_OK) {
        snprintf(why, len, "%s", hm_last_error());
        return rc;
    }
    int run = hm_csv_reader_find(r, "run", &i) == HM_OK;
    int valid = hm_csv_reader_find(r, "valid", &i) == HM_OK;
    /* How campaign reduced a per-mpirun file ("" when it does not say). */
    const hm_factors_t *f = hm_csv_reader_factors(r);
    if (hm_factors_get(f, "metric", &v) == HM_OK) snprintf(s->metric, sizeof s->metric, "%s", v);
    if (hm_factors_get(f, "filter", &v) == HM_OK) snprintf(s->filter, sizeof s->filter, "%s", v);
    hm_csv_reader_close(r);
    s->raw = !run && valid;
    if (run || valid) return HM_OK;
    snprintf(why, len,
             "%s: neither a %s of 'harmonia campaign' (columns run, seed, op, size_bytes, "
             "processes, sync, n, kept, median_s, mean_s) nor a raw file of 'harmonia bench "
             "--raw' (columns op, size_bytes, valid, %s_s)",
             s->path, HM_PERMPIRUN_FILE, cfg->metric);
    return HM_EINVAL;
}

/* --metric or --filter given against a file reduced otherwise would be
 * silently ignored. */
static int check_reduction(const hm_cli_config_t *cfg, const hm_compare_side_t *s, char *why,
                           size_t len)
{
    const char *opt = NULL, *want = NULL, *have = NULL;
    if ((cfg->given & HM_OPT_BIT(HM_OPT_METRIC)) && s->metric[0] && strcmp(s->metric, cfg->metric))
        opt = "metric", want = cfg->metric, have = s->metric;
    if ((cfg->given & HM_OPT_BIT(HM_OPT_FILTER)) && s->filter[0] && strcmp(s->filter, cfg->filter))
        opt = "filter", want = cfg->filter, have = s->filter;
    if (!opt) return HM_OK;
    snprintf(why, len,
             "%s was reduced with --%s %s, not %s (run the campaign again with --%s %s to "
             "recompute it)",
             s->path, opt, have, want, opt, want);
    return HM_EINVAL;
}

/* Sec. 6.2: the samples are the per-run values of --statistic. */
static int load_permpirun(const hm_cli_config_t *cfg, hm_compare_side_t *s, char *why, size_t len)
{
    hm_permpirun_t ds = {0};
    int rc = check_reduction(cfg, s, why, len);
    if (rc == HM_OK) rc = hm_permpirun_read(s->path, &ds, why, len);
    if (rc == HM_OK && ds.n == 0) {
        snprintf(why, len, "%s: no rows", s->path);
        rc = HM_EINVAL;
    }
    for (size_t i = 0; rc == HM_OK && i < ds.n; i++) {
        const hm_permpirun_row_t *r = &ds.rows[i];
        rc = hm_stats_groups_add(&s->groups, r->op, r->size_bytes, r->processes, r->sync,
                                 hm_permpirun_value(r, cfg->statistic));
    }
    hm_permpirun_free(&ds);
    return rc;
}

/* A raw file: its valid repetitions, filtered as campaign filters a run. */
static int load_raw(const hm_cli_config_t *cfg, hm_compare_side_t *s, char *why, size_t len)
{
    char metric_col[16];
    snprintf(s->metric, sizeof s->metric, "%s", cfg->metric);
    snprintf(s->filter, sizeof s->filter, "%s", cfg->filter);
    snprintf(metric_col, sizeof metric_col, "%s_s", cfg->metric);
    int rc = hm_raw_read(s->path, metric_col, &s->groups, why, len);
    if (rc == HM_OK && s->groups.n == 0) {
        snprintf(why, len, "%s: no valid repetitions (valid = 1)", s->path);
        rc = HM_EINVAL;
    }
    for (size_t k = 0; rc == HM_OK && k < s->groups.n; k++) {
        hm_stats_group_t *g = &s->groups.g[k];
        rc = hm_permpirun_filter(cfg->filter, g->x_s, g->n, &g->n);
    }
    return rc;
}

static int same_key(const hm_stats_group_t *x, const hm_stats_group_t *y)
{
    return x->size_bytes == y->size_bytes && x->processes == y->processes && !strcmp(x->op, y->op);
}

/* Two syncs under one key would be two experiments pooled into one sample. */
static int check_one_sync(const hm_compare_side_t *s, char *why, size_t len)
{
    for (size_t k = 1; k < s->groups.n; k++) {
        const hm_stats_group_t *x = &s->groups.g[k - 1], *y = &s->groups.g[k];
        if (!same_key(x, y)) continue;
        snprintf(why, len,
                 "%s holds %s %lld B at %ld processes under more than one sync (%s, %s); give "
                 "compare one sync per side",
                 s->path, x->op, x->size_bytes, x->processes, x->sync, y->sync);
        return HM_EINVAL;
    }
    return HM_OK;
}

static int load_side(const hm_cli_config_t *cfg, hm_compare_side_t *s, char *why, size_t len)
{
    char inner[8192] = "";
    int rc = resolve(s, inner, sizeof inner);
    if (rc == HM_OK) rc = detect(cfg, s, inner, sizeof inner);
    if (rc == HM_OK)
        rc = s->raw ? load_raw(cfg, s, inner, sizeof inner)
                    : load_permpirun(cfg, s, inner, sizeof inner);
    hm_stats_groups_sort(&s->groups);
    if (rc == HM_OK) rc = check_one_sync(s, inner, sizeof inner);
    if (rc != HM_OK) snprintf(why, len, "%c: %s", s->name, inner[0] ? inner : hm_strerror(rc));
    return rc;
}

/* ---- The two sides together ------------------------------------------------ */

static int key_order(const hm_stats_group_t *x, const hm_stats_group_t *y)
{
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    return (x->processes > y->processes) - (x->processes < y->processes);
}

/* Append a group to a list of at most 4 shown, counting the rest. */
static void list_key(char *buf, size_t len, size_t *count, const hm_stats_group_t *g)
{
    if ((*count)++ >= 4) return;
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s %lld B at %ld processes", used ? ", " : "", g->op,
             g->size_bytes, g->processes);
}

static void list_end(char *buf, size_t len, size_t count)
{
    size_t used = strlen(buf);
    if (count == 0) snprintf(buf, len, "none");
    if (count > 4) snprintf(buf + used, len - used, " and %zu more", count - 4);
}

/* Medians of local run-times against medians of global ones, or of filtered
 * against unfiltered samples, differ by construction: no test needed. */
static int check_same_reduction(const hm_compare_side_t *a, const hm_compare_side_t *b, char *why,
                                size_t len)
{
    int metric = a->metric[0] && b->metric[0] && strcmp(a->metric, b->metric);
    int filter = a->filter[0] && b->filter[0] && strcmp(a->filter, b->filter);
    if (!metric && !filter) return HM_OK;
    snprintf(why, len,
             "A and B were reduced differently: A (%s) with --metric %s --filter %s, B (%s) with "
             "--metric %s --filter %s",
             a->path, a->metric, a->filter, b->path, b->metric, b->filter);
    return HM_EINVAL;
}

/* Both groups lists are sorted by key: one merge finds what only one has. */
static int check_same_groups(const hm_compare_side_t *a, const hm_compare_side_t *b, char *why,
                             size_t len)
{
    char only_a[512] = "", only_b[512] = "";
    size_t na = 0, nb = 0, i = 0, j = 0;
    while (i < a->groups.n || j < b->groups.n) {
        int c = i == a->groups.n   ? 1
                : j == b->groups.n ? -1
                                   : key_order(&a->groups.g[i], &b->groups.g[j]);
        if (c < 0) list_key(only_a, sizeof only_a, &na, &a->groups.g[i++]);
        if (c > 0) list_key(only_b, sizeof only_b, &nb, &b->groups.g[j++]);
        if (c == 0) i++, j++;
    }
    if (na == 0 && nb == 0) return HM_OK;
    list_end(only_a, sizeof only_a, na);
    list_end(only_b, sizeof only_b, nb);
    snprintf(why, len,
             "A and B hold different groups (op, size, processes): only in A (%s): %s; only in B "
             "(%s): %s",
             a->path, only_a, b->path, only_b);
    return HM_EINVAL;
}

/* The sync every group of s shares, or NULL. */
static const char *single_sync(const hm_compare_side_t *s)
{
    for (size_t k = 1; k < s->groups.n; k++)
        if (strcmp(s->groups.g[k].sync, s->groups.g[0].sync)) return NULL;
    return s->groups.n ? s->groups.g[0].sync : NULL;
}

/* The last component of the operand ("runs/barrier/" gives "barrier"). */
static void base_name(const char *operand, char *out, size_t len)
{
    size_t end = strlen(operand);
    while (end > 1 && operand[end - 1] == '/') end--;
    size_t start = end;
    while (start > 0 && operand[start - 1] != '/') start--;
    snprintf(out, len, "%.*s", (int)(end - start), operand + start);
}

/* Barrier against harmonize is the typical comparison: the syncs name the
 * sides; where they do not tell A from B, the operands' names do. */
static void make_labels(hm_compare_side_t *a, hm_compare_side_t *b)
{
    const char *sa = single_sync(a), *sb = single_sync(b);
    if (sa && sb && strcmp(sa, sb)) {
        snprintf(a->label, sizeof a->label, "%s", sa);
        snprintf(b->label, sizeof b->label, "%s", sb);
        return;
    }
    base_name(a->operand, a->label, sizeof a->label);
    base_name(b->operand, b->label, sizeof b->label);
    if (strcmp(a->label, b->label) == 0) strcpy(a->label, "A"), strcpy(b->label, "B");
}

/* ---- The report ------------------------------------------------------------ */

static int side_factor(hm_factors_t *f, const hm_compare_side_t *s)
{
    char key[2] = {s->name, '\0'};
    return hm_factors_set(f, key, "%s (%s, label %s, metric %s, filter %s)", s->path,
                          s->raw ? "raw" : "per-mpirun", s->label, s->metric[0] ? s->metric : "?",
                          s->filter[0] ? s->filter : "?");
}

static int open_output(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                       const hm_compare_side_t *b, hm_csv_t **csv, char *why, size_t len)
{
    hm_factors_t *f = NULL;
    int rc = hm_cli_offline_factors(cfg, &f);
    if (rc == HM_OK) rc = hm_factors_set(f, "inputs", "%s,%s", a->path, b->path);
    if (rc == HM_OK) rc = side_factor(f, a);
    if (rc == HM_OK) rc = side_factor(f, b);
    if (rc == HM_OK) rc = hm_factors_set(f, "alternative", "%s", cfg->alternative);
    if (rc == HM_OK) rc = hm_factors_set(f, "statistic", "%s", cfg->statistic);
    if (rc == HM_OK) rc = hm_factors_set(f, "level", "%g", HM_COMPARE_LEVEL);
    if (rc == HM_OK) rc = hm_csv_open(cfg->output, f, hm_compare_columns, hm_compare_ncolumns, csv);
    if (rc != HM_OK)
        snprintf(why, len, "--output: %s", hm_last_error()[0] ? hm_last_error() : hm_strerror(rc));
    hm_factors_free(f);
    return rc;
}

static int write_rows(hm_csv_t *csv, const hm_compare_row_t *rows, size_t n)
{
    char why[2048] = "";
    int rc = HM_OK;
    for (size_t k = 0; rc == HM_OK && k < n; k++) rc = hm_compare_write_row(csv, &rows[k]);
    if (rc != HM_OK) {
        snprintf(why, sizeof why, "%s", hm_csv_error(csv));
        hm_csv_abort(csv);
    } else {
        rc = hm_csv_close(csv);
        if (rc != HM_OK) snprintf(why, sizeof why, "%s", hm_last_error());
    }
    if (rc == HM_OK) return HM_EXIT_OK;
    hm_cli_print_error("%s", why[0] ? why : hm_strerror(rc));
    return HM_EXIT_FAILURE;
}

static int report(const hm_cli_config_t *cfg, const hm_compare_side_t *a,
                  const hm_compare_side_t *b)
{
    char why[2048] = "";
    hm_csv_t *csv = NULL;
    size_t n = a->groups.n;
    hm_compare_row_t *rows = calloc(n ? n : 1, sizeof *rows);
    hm_alternative_t alt = hm_compare_alternative(cfg->alternative);
    int rc = rows ? HM_OK : HM_ENOMEM;
    for (size_t k = 0; rc == HM_OK && k < n; k++)
        rc = hm_compare_row_compute(a, b, k, alt, &rows[k]);
    if (rc != HM_OK) {
        free(rows);
        hm_cli_print_error("compare: %s", hm_strerror(rc));
        return HM_EXIT_FAILURE;
    }
    if (cfg->output[0] && open_output(cfg, a, b, &csv, why, sizeof why) != HM_OK) {
        free(rows);
        hm_cli_print_error("%s", why);
        return HM_EXIT_USAGE;
    }
    hm_compare_print(cfg, a, b, rows, n, stdout);
    fflush(stdout);
    int status = csv ? write_rows(csv, rows, n) : HM_EXIT_OK;
    free(rows);
    return status;
}

int hm_cmd_compare(hm_cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    char why[16384] = "";
    if (cfg->nfiles != 2) {
        hm_cli_print_error("compare: expected 2 operands A and B, got %d (usage: harmonia compare "
                           "[options] A B)",
                           cfg->nfiles);
        return HM_EXIT_USAGE;
    }
    hm_compare_side_t a = {.name = 'A', .operand = cfg->files[0]};
    hm_compare_side_t b = {.name = 'B', .operand = cfg->files[1]};
    int rc = load_side(cfg, &a, why, sizeof why);
    if (rc == HM_OK) rc = load_side(cfg, &b, why, sizeof why);
    if (rc == HM_OK) rc = check_same_reduction(&a, &b, why, sizeof why);
    if (rc == HM_OK) rc = check_same_groups(&a, &b, why, sizeof why);
    int status = HM_EXIT_OK;
    if (rc == HM_ENOMEM) {
        hm_cli_print_error("compare: %s", hm_strerror(rc));
        status = HM_EXIT_FAILURE;
    } else if (rc != HM_OK) {
        hm_cli_print_error("%s", why);
        status = HM_EXIT_USAGE;
    } else {
        make_labels(&a, &b);
        status = report(cfg, &a, &b);
    }
    hm_stats_groups_free(&a.groups);
    hm_stats_groups_free(&b.groups);
    return status;
}
