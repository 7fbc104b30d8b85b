/* tools/harmonia/commands/cmd_compare.c — `harmonia compare A B`: the Wilcoxon comparison of
 * two campaigns (Hunold and Carpen-Amarie 2016, Sec. 6.2), per (op, size,
 * processes) of bench or per cell of overlap (op, comm and comp targets) and
 * processes. Offline: no MPI. Every problem with the input is a usage error
 * (exit 2) naming the operand, the file and the line where there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/analysis.h>

#include "commands/analysis_inputs.h"
#include "commands/commands.h"
#include "commands/compare_report.h"
#include "commands/result_files.h"

/* ---- Reading one side ------------------------------------------------------ */

/* A campaign that ran (its manifest is there) but finished no run: what
 * its manifest says, and how to go on. HM_OK when there is none. */
static int unfinished_campaign(const char *dir)
{
    char path[4200];
    hm_results_manifest_t m = {0};
    int found = 0;
    snprintf(path, sizeof path, "%s/%s", dir, HM_RESULTS_MANIFEST_FILE);
    if (hm_results_manifest_read(path, &m, &found) != HM_OK || !found) return HM_OK;
    long done = 0, failed = 0;
    for (long i = 0; i < m.nruns; i++)
        done += m.runs[i].state == HM_RUN_DONE, failed += m.runs[i].state == HM_RUN_FAILED;
    hm_error_set(HM_ENOENT,
                 "%s has no %s: its campaign finished %ld of %ld runs (%ld failed; their logs "
                 "are in %s); run the same harmonia campaign --dir %s -- ... again to resume it",
                 dir, HM_RESULTS_PERMPIRUN_FILE, done, m.nruns, failed, dir, dir);
    hm_results_manifest_free(&m);
    return HM_ENOENT;
}

/* A directory stands for the per-mpirun.csv that campaign writes into it. */
static int resolve(cli_compare_side_t *s)
{
    int dir = 0;
    if (hm_results_permpirun_path(s->operand, s->path, sizeof s->path, &dir) != HM_OK)
        return HM_EINVAL; /* its sentence */
    if (!dir || access(s->path, F_OK) == 0) return HM_OK;
    if (unfinished_campaign(s->operand) != HM_OK) return HM_ENOENT;
    return hm_error_set(HM_ENOENT,
                        "%s has no %s (run 'harmonia campaign --dir %s -- mpirun ... harmonia "
                        "bench ...' first)",
                        s->operand, HM_RESULTS_PERMPIRUN_FILE, s->operand);
}

/* What the file is, by its header (hm_results_input_kind), and what its
 * factors say of it: how campaign reduced a per-mpirun file ("" when it
 * does not say), and the MPI library, which may tell A from B. */
static int detect(cli_compare_side_t *s)
{
    hm_csv_reader_t *r = NULL;
    const char *v;
    int rc = hm_results_input_kind(s->path, &s->kind);
    if (rc == HM_OK) rc = hm_csv_reader_open(s->path, &r);
    if (rc != HM_OK) return rc; /* its sentence */
    const hm_factors_t *f = hm_csv_reader_factors(r);
    cli_warn_partial("compare", s->path, f, NULL, 0);
    if (hm_factors_get(f, "metric", &v) == HM_OK) snprintf(s->metric, sizeof s->metric, "%s", v);
    if (hm_factors_get(f, "filter", &v) == HM_OK) snprintf(s->filter, sizeof s->filter, "%s", v);
    if (hm_factors_get(f, "mpi_library", &v) == HM_OK)
        snprintf(s->library, sizeof s->library, "%.*s", (int)strcspn(v, ","), v);
    hm_csv_reader_close(r);
    s->s.raw = s->kind == HM_RESULTS_BENCH_RAW || s->kind == HM_RESULTS_OVERLAP_RAW;
    return HM_OK;
}

/* --metric or --filter given against a file reduced otherwise would be
 * silently ignored. */
static int check_reduction(const cli_config_t *cfg, const cli_compare_side_t *s)
{
    const char *opt = NULL, *want = NULL, *have = NULL;
    const char *metric = hm_results_metric_name(cfg->metric);
    const char *filter = hm_analysis_filter_name(cfg->filter);
    if ((cfg->given & HM_OPT_BIT(HM_OPT_METRIC)) && s->metric[0] && strcmp(s->metric, metric))
        opt = "metric", want = metric, have = s->metric;
    if ((cfg->given & HM_OPT_BIT(HM_OPT_FILTER)) && s->filter[0] && strcmp(s->filter, filter))
        opt = "filter", want = filter, have = s->filter;
    if (!opt) return HM_OK;
    return hm_error_set(HM_EINVAL,
                        "%s was reduced with --%s %s, not %s (run the campaign again with --%s %s "
                        "to recompute it)",
                        s->path, opt, have, want, opt, want);
}

/* Sec. 6.2: the samples are the per-run values of --statistic. */
static int load_permpirun(const cli_config_t *cfg, cli_compare_side_t *s)
{
    hm_results_permpirun_t ds = {0};
    int rc = check_reduction(cfg, s);
    if (rc != HM_OK) return rc;
    if ((rc = hm_results_permpirun_read(s->path, &ds)) != HM_OK)
        ; /* its sentence */
    else if (ds.n == 0)
        rc = hm_error_set(HM_EINVAL, "%s: no rows", s->path);
    else if ((rc = hm_analysis_groups_from_permpirun(&s->s.groups, &ds, cfg->statistic)) != HM_OK)
        hm_error_set(rc, "%s", hm_strerror(rc));
    hm_results_permpirun_free(&ds);
    return rc;
}

/* A raw file: its valid repetitions, filtered as campaign filters a run. */
static int load_raw(const cli_config_t *cfg, cli_compare_side_t *s)
{
    snprintf(s->metric, sizeof s->metric, "%s", hm_results_metric_name(cfg->metric));
    snprintf(s->filter, sizeof s->filter, "%s", hm_analysis_filter_name(cfg->filter));
    int rc = hm_analysis_groups_read_raw(&s->s.groups, s->path, cfg->metric);
    if (rc == HM_OK && s->s.groups.n == 0)
        rc = hm_error_set(HM_EINVAL, "%s: no valid repetitions (valid = 1)", s->path);
    else if (rc == HM_OK)
        rc = hm_analysis_groups_filter(&s->s.groups, cfg->filter);
    return rc; /* a failed call's sentence */
}

/* The sentence of a side's failure: "A: " and what failed. */
static int side_failed(const cli_compare_side_t *s, int rc)
{
    const char *said = hm_last_error();
    return hm_error_set(rc, "%c: %s", s->name, said[0] ? said : hm_strerror(rc));
}

/* The operand's file and its kind. */
static int open_side(cli_compare_side_t *s)
{
    s->s.path = s->path;
    hm_error_set(HM_OK, "%s", ""); /* a failure below says its own sentence or none */
    int rc = resolve(s);
    if (rc == HM_OK) rc = detect(s);
    return rc == HM_OK ? rc : side_failed(s, rc);
}

static int load_side(const cli_config_t *cfg, cli_compare_side_t *s)
{
    hm_error_set(HM_OK, "%s", "");
    int rc = s->s.raw ? load_raw(cfg, s) : load_permpirun(cfg, s);
    if (rc == HM_OK) rc = hm_analysis_side_check(&s->s);
    return rc == HM_OK ? rc : side_failed(s, rc);
}

/* Both sides of one command, and --metric one of theirs (or their
 * default: overhead for overlap). */
static int check_kinds(cli_config_t *cfg, const cli_compare_side_t *a, const cli_compare_side_t *b)
{
    char a_name[4200], b_name[4200];
    snprintf(a_name, sizeof a_name, "A (%s)", a->path);
    snprintf(b_name, sizeof b_name, "B (%s)", b->path);
    int rc = cli_same_family("compare", a_name, a->kind, b_name, b->kind);
    if (rc == HM_OK && (rc = cli_choose_metric(cfg, a->path, a->kind)) != HM_OK)
        hm_error_set(rc, "compare: %s", hm_last_error());
    return rc;
}

/* ---- The two sides together ------------------------------------------------ */

/* Medians of local run-times against medians of global ones, or of filtered
 * against unfiltered samples, differ by construction: no test needed. */
static int check_same_reduction(const cli_compare_side_t *a, const cli_compare_side_t *b)
{
    int metric = a->metric[0] && b->metric[0] && strcmp(a->metric, b->metric);
    int filter = a->filter[0] && b->filter[0] && strcmp(a->filter, b->filter);
    if (!metric && !filter) return HM_OK;
    return hm_error_set(HM_EINVAL,
                        "A and B were reduced differently: A (%s) with --metric %s --filter %s, B "
                        "(%s) with --metric %s --filter %s",
                        a->path, a->metric, a->filter, b->path, b->metric, b->filter);
}

/* The sync every group of s shares, or NULL. */
static const char *single_sync(const cli_compare_side_t *s)
{
    const hm_analysis_groups_t *gs = &s->s.groups;
    for (size_t k = 1; k < gs->n; k++)
        if (strcmp(gs->g[k].sync, gs->g[0].sync)) return NULL;
    return gs->n ? gs->g[0].sync : NULL;
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

/* The progress every group of s shares, or NULL. */
static const char *single_progress(const cli_compare_side_t *s)
{
    const hm_analysis_groups_t *gs = &s->s.groups;
    for (size_t k = 0; k < gs->n; k++)
        if (!gs->g[k].progress || strcmp(gs->g[k].progress, gs->g[0].progress)) return NULL;
    return gs->n ? gs->g[0].progress : NULL;
}

/* Barrier against harmonize is the typical comparison: the syncs name the
 * sides; then the progress configurations of overlap, then the MPI
 * libraries (Open MPI against MPICH); where none tells A from B, the
 * operands' names do. */
static void make_labels(cli_compare_side_t *a, cli_compare_side_t *b)
{
    const char *sa = single_sync(a), *sb = single_sync(b);
    const char *pa = single_progress(a), *pb = single_progress(b);
    if (!(sa && sb && strcmp(sa, sb)) && pa && pb && strcmp(pa, pb)) sa = pa, sb = pb;
    if (!(sa && sb && strcmp(sa, sb)) && a->library[0] && b->library[0] &&
        strcmp(a->library, b->library))
        sa = a->library, sb = b->library;
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

static int side_factor(hm_factors_t *f, const cli_compare_side_t *s)
{
    char key[2] = {s->name, '\0'};
    return hm_factors_set(f, key, "%s (%s, label %s, metric %s, filter %s)", s->path,
                          s->s.raw ? "raw" : "per-mpirun", s->label, s->metric[0] ? s->metric : "?",
                          s->filter[0] ? s->filter : "?");
}

static int open_output(const cli_config_t *cfg, const cli_compare_side_t *a,
                       const cli_compare_side_t *b, hm_csv_t **csv)
{
    hm_factors_t *f = NULL;
    int rc = cli_offline_factors(cfg, &f);
    if (rc == HM_OK) rc = hm_factors_set(f, "inputs", "%s,%s", a->path, b->path);
    if (rc == HM_OK) rc = side_factor(f, a);
    if (rc == HM_OK) rc = side_factor(f, b);
    if (rc == HM_OK)
        rc = hm_factors_set(f, "alternative", "%s", hm_analysis_alternative_name(cfg->alternative));
    if (rc == HM_OK)
        rc = hm_factors_set(f, "statistic", "%s", hm_analysis_statistic_name(cfg->statistic));
    if (rc == HM_OK) rc = hm_factors_set(f, "level", "%g", HM_ANALYSIS_LEVEL);
    hm_results_kind_t kind =
        cli_is_overlap(a->kind) ? HM_RESULTS_COMPARE_OVERLAP : HM_RESULTS_COMPARE;
    if (rc != HM_OK)
        cli_print_error("--output: %s", hm_strerror(rc));
    else if ((rc = hm_results_csv_open(cfg->output, f, kind, csv)) != HM_OK)
        cli_print_error("--output: %s", hm_last_error());
    hm_factors_free(f);
    return rc;
}

static int write_rows(hm_csv_t *csv, const hm_analysis_comparison_t *rows, size_t n)
{
    int rc = HM_OK;
    for (size_t k = 0; rc == HM_OK && k < n; k++)
        rc = hm_analysis_comparison_write_row(csv, &rows[k]);
    if (rc != HM_OK) {
        cli_print_error("%s", hm_csv_error(csv));
        hm_csv_abort(csv);
        return HM_EFAILED;
    }
    if (hm_csv_close(csv) == HM_OK) return HM_OK;
    cli_print_error("%s", hm_last_error());
    return HM_EFAILED;
}

static int report(const cli_config_t *cfg, const cli_compare_side_t *a, const cli_compare_side_t *b)
{
    hm_csv_t *csv = NULL;
    size_t n = a->s.groups.n;
    hm_analysis_comparison_t *rows = calloc(n ? n : 1, sizeof *rows);
    int rc = rows ? HM_OK : HM_ENOMEM;
    for (size_t k = 0; rc == HM_OK && k < n; k++)
        rc = hm_analysis_compare(&a->s, &b->s, k, cfg->alternative, &rows[k]);
    if (rc != HM_OK) {
        free(rows);
        cli_print_error("compare: %s", hm_strerror(rc));
        return HM_EFAILED;
    }
    if (cfg->output[0] && open_output(cfg, a, b, &csv) != HM_OK) {
        free(rows);
        return HM_EINVAL;
    }
    cli_compare_print(cfg, a, b, rows, n, stdout);
    fflush(stdout);
    int status = csv ? write_rows(csv, rows, n) : HM_OK;
    free(rows);
    return status;
}

int cli_cmd_compare(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    if (cfg->nfiles != 2) {
        cli_print_error("compare: expected 2 operands A and B, got %d (usage: harmonia compare "
                        "[options] A B)",
                        cfg->nfiles);
        return HM_EINVAL;
    }
    if (cli_check_outputs(cfg, MPI_COMM_NULL) != HM_OK) return HM_EINVAL;
    cli_compare_side_t a = {.name = 'A', .operand = cfg->files[0]};
    cli_compare_side_t b = {.name = 'B', .operand = cfg->files[1]};
    int rc = open_side(&a);
    if (rc == HM_OK) rc = open_side(&b);
    if (rc == HM_OK) rc = check_kinds(cfg, &a, &b);
    if (rc == HM_OK) rc = load_side(cfg, &a);
    if (rc == HM_OK) rc = load_side(cfg, &b);
    if (rc == HM_OK) rc = check_same_reduction(&a, &b);
    if (rc == HM_OK) rc = hm_analysis_compare_check(&a.s, &b.s);
    int status = HM_OK;
    if (rc == HM_ENOMEM) {
        cli_print_error("compare: %s", hm_strerror(rc));
        status = HM_EFAILED;
    } else if (rc != HM_OK) {
        cli_print_error("%s", hm_last_error());
        status = HM_EINVAL;
    } else {
        make_labels(&a, &b);
        status = report(cfg, &a, &b);
    }
    hm_analysis_groups_free(&a.s.groups);
    hm_analysis_groups_free(&b.s.groups);
    return status;
}
