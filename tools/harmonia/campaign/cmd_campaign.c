/* tools/harmonia/campaign/cmd_campaign.c — `harmonia campaign -n N [--dir DIR] -- COMMAND...`:
 * the command run N times as separate processes (Hunold and Carpen-Amarie
 * 2016, Alg. 5: each mpirun is a sample of the mpirun factor), each with its
 * own seed and raw file, recorded in a manifest so that the campaign can be
 * resumed; then Alg. 6 reduces every run to per-group medians and means:
 * run-times of bench, or a metric of overlap per cell. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/analysis.h>
#include <harmonia/version.h>

#include "campaign/campaign_run.h"
#include "commands/analysis_inputs.h"
#include "commands/commands.h"
#include "commands/result_files.h"
#include "commands/stats_print.h"
#include <harmonia/rng.h>

typedef struct campaign {
    const cli_config_t *cfg;
    const char *dir;
    int placeholders; /* the command has {raw} and {seed}: nothing is appended */
    hm_results_manifest_t m;
    char path[4200]; /* the manifest */
    long limit;      /* runs 1..limit are run and analyzed (-n) */
    double done_s;   /* duration of the completed runs */
    long done_n;
} campaign_t;

static int has_word(char **argv, int argc, const char *text)
{
    for (int i = 0; i < argc; i++)
        if (strstr(argv[i], text)) return 1;
    return 0;
}

/* The command must let harmonia choose each run's seed and raw file. */
static int check_command(const cli_config_t *cfg, int *placeholders)
{
    char **argv = cfg->command_argv;
    int argc = cfg->command_argc;
    if (!argv || argc == 0) {
        hm_error_set(HM_EINVAL, "campaign: no command after -- (e.g. harmonia campaign -n 10 -- "
                                "mpirun -n 2 harmonia bench)");
        return HM_EINVAL;
    }
    int raw = has_word(argv, argc, "{raw}"), seed = has_word(argv, argc, "{seed}");
    *placeholders = raw || seed;
    if (raw != seed) {
        hm_error_set(HM_EINVAL,
                     "campaign: the command has %s but not %s: each run needs its own "
                     "seed and its own raw file",
                     raw ? "{raw}" : "{seed}", raw ? "{seed}" : "{raw}");
        return HM_EINVAL;
    }
    for (int i = 0; !*placeholders && i < argc; i++)
        if (!strncmp(argv[i], "--raw", 5) || !strncmp(argv[i], "--seed", 6)) {
            hm_error_set(HM_EINVAL,
                         "campaign: the command sets %s itself; harmonia gives each run "
                         "its own (write --seed {seed} --raw {raw} to place them)",
                         argv[i]);
            return HM_EINVAL;
        }
    return HM_OK;
}

/* word with each {seed}, {raw}, {run}, {dir} replaced (one pass measures,
 * one writes); malloc'd. */
static char *substitute(const char *word, const char *const *vals)
{
    static const char *const keys[] = {"{seed}", "{raw}", "{run}", "{dir}"};
    char *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t n = 0;
        for (const char *p = word; *p;) {
            int hit = -1;
            for (int k = 0; k < 4 && hit < 0; k++)
                if (!strncmp(p, keys[k], strlen(keys[k]))) hit = k;
            const char *piece = hit < 0 ? p : vals[hit];
            size_t len = hit < 0 ? 1 : strlen(piece);
            if (out) memcpy(out + n, piece, len);
            n += len;
            p += hit < 0 ? 1 : strlen(keys[hit]);
        }
        if (out)
            out[n] = '\0';
        else if (!(out = malloc(n + 1)))
            return NULL;
    }
    return out;
}

static void free_words(char **words, int n)
{
    for (int i = 0; i < n; i++) free(words[i]);
    free(words);
}

/* The argv of run r: placeholders filled in, or --seed S --raw FILE
 * appended. NULL when out of memory; *n words. */
static char **run_argv(const campaign_t *c, const hm_results_manifest_run_t *r, int *n)
{
    const cli_config_t *cfg = c->cfg;
    char seed[32], run[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    snprintf(run, sizeof run, "%ld", r->run);
    const char *vals[] = {seed, r->raw, run, c->dir};
    int extra = c->placeholders ? 0 : 4;
    char **w = calloc((size_t)(cfg->command_argc + extra + 1), sizeof *w);
    if (!w) return NULL;
    *n = 0;
    for (int i = 0; i < cfg->command_argc; i++)
        if (!(w[(*n)++] = substitute(cfg->command_argv[i], vals))) break;
    const char *tail[] = {"--seed", seed, "--raw", r->raw};
    for (int i = 0; i < extra && *n == cfg->command_argc + i; i++)
        if (!(w[(*n)++] = strdup(tail[i]))) break;
    if (*n != cfg->command_argc + extra || !w[*n - 1]) {
        free_words(w, *n);
        return NULL;
    }
    return w;
}

static void utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int save(campaign_t *c)
{
    if (hm_results_manifest_write(&c->m, c->path) == HM_OK) return HM_OK;
    cli_print_error("campaign: cannot write the manifest: %s", hm_last_error());
    return HM_EFAILED;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* A line of the launcher's own banners ("-----", "mpirun detected that
 * one or more processes exited ..."), which say that a rank failed, not
 * why. */
static int banner(const char *line)
{
    return line[strspn(line, "- \t\r\n")] == '\0' || strstr(line, "mpirun") ||
           strstr(line, "Primary job") || strstr(line, "Process name:") ||
           strstr(line, "Exit code:") || strstr(line, "job to be terminated");
}

/* The line of the log that says why a run failed: the last line harmonia
 * printed as an error, else the last line that is not a launcher's banner
 * (Open MPI ends a failed run with a box of dashes). */
static void last_line(const char *path, char *buf, size_t len)
{
    FILE *f = NULL;
    char line[512], other[512] = "";
    hm_input_open(path, "run log", 0, &f); /* none: no line to quote */
    buf[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "harmonia: error:", 16))
            snprintf(buf, len, "%s", line);
        else if (!banner(line))
            snprintf(other, sizeof other, "%s", line);
    }
    if (f) fclose(f);
    if (!buf[0]) snprintf(buf, len, "%s", other);
    buf[strcspn(buf, "\r\n")] = '\0';
}

static double mean_run_s(const campaign_t *c)
{
    return c->done_n ? c->done_s / (double)c->done_n : NAN;
}

static void announce_end(const campaign_t *c, const hm_results_manifest_run_t *r, long left)
{
    char eta[32] = "";
    if (left > 0) {
        cli_campaign_format_duration(mean_run_s(c) * (double)left, eta, sizeof eta);
        fprintf(stderr, "campaign: run %ld/%ld done in %.1f s, ETA %s for %ld more\n", r->run,
                c->limit, r->duration_s, eta, left);
    } else {
        fprintf(stderr, "campaign: run %ld/%ld done in %.1f s\n", r->run, c->limit, r->duration_s);
    }
}

/* when: "during", "before" or "after" run. Exit status as a shell's. */
static int stopped(const campaign_t *c, const char *when, long run)
{
    cli_print_error("campaign: interrupted %s run %ld/%ld; the completed runs are kept in %s, "
                    "run the same command again to resume",
                    when, run, c->limit, c->path);
    return 128 + cli_campaign_stop_signal();
}

static void report_failure(const campaign_t *c, const hm_results_manifest_run_t *r)
{
    char tail[512];
    last_line(r->log, tail, sizeof tail);
    if (r->exit_status == 0 && c->placeholders)
        cli_print_error("campaign: run %ld exited 0 but wrote no \"%s\" (did the command "
                        "write its {raw}? see %s)",
                        r->run, r->raw, r->log);
    else if (r->exit_status == 0)
        cli_print_error("campaign: run %ld exited 0 but wrote no \"%s\" (does the command "
                        "accept --seed and --raw? see %s)",
                        r->run, r->raw, r->log);
    else
        cli_print_error("campaign: run %ld failed (exit status %d); see %s%s%s", r->run,
                        r->exit_status, r->log, tail[0] ? ": " : "", tail);
}

/* What a finished child means for its run: done when it exited 0 and wrote
 * its raw file, even if a stop arrived meanwhile (a finished run is never
 * thrown away); a stop only prevents the next run. */
static int conclude(campaign_t *c, hm_results_manifest_run_t *r, long left)
{
    utc_now(r->end_utc, sizeof r->end_utc);
    int stop = cli_campaign_stop_signal() != 0;
    r->state = r->exit_status == 0 && file_exists(r->raw) ? HM_RUN_DONE
               : stop                                     ? HM_RUN_INTERRUPTED
                                                          : HM_RUN_FAILED;
    int rc = save(c);
    if (rc != HM_OK) return rc;
    if (r->state == HM_RUN_DONE) {
        c->done_s += r->duration_s, c->done_n++;
        announce_end(c, r, left);
        return stop ? stopped(c, "after", r->run) : HM_OK;
    }
    if (stop) return stopped(c, "during", r->run);
    report_failure(c, r);
    return HM_EFAILED;
}

static int run_one(campaign_t *c, hm_results_manifest_run_t *r, long left)
{
    int n = 0;
    char **argv = run_argv(c, r, &n);
    if (!argv) {
        cli_print_error("campaign: out of memory");
        return HM_EFAILED;
    }
    free(r->command);
    r->command = hm_output_shell_join(n, (const char *const *)argv);
    r->state = HM_RUN_RUNNING;
    r->exit_status = -1;
    r->duration_s = NAN;
    r->end_utc[0] = '\0';
    utc_now(r->start_utc, sizeof r->start_utc);
    remove(r->raw); /* a killed run may have left a partial (checkpointed) file */
    int rc = save(c);
    cli_campaign_progress_t p = {stderr, isatty(STDERR_FILENO), r->run, c->limit,
                                 left,   mean_run_s(c)};
    if (!p.terminal)
        fprintf(stderr, "campaign: run %ld/%ld (seed %llu): %s\n", r->run, c->limit,
                (unsigned long long)r->seed, r->command ? r->command : "");
    if (rc == HM_OK &&
        cli_campaign_run_child(argv, r->log, &p, &r->exit_status, &r->duration_s) != 0) {
        cli_print_error("campaign: run %ld: %s", r->run, hm_last_error());
        rc = HM_EFAILED;
    }
    free_words(argv, n);
    return rc == HM_OK ? conclude(c, r, left) : rc;
}

/* A run the manifest records as started must be the run this campaign
 * would make: its seed the one the base seed gives, its command the one
 * the template gives. An edited manifest would otherwise mix runs of two
 * experiments under one label (issue 31). HM_EINVAL, printed. */
static int check_record(const campaign_t *c, hm_results_manifest_run_t *r)
{
    uint64_t seed = hm_results_run_seed(c->m.base_seed, r->run);
    if (r->state == HM_RUN_PENDING) return HM_OK;
    if (r->seed != seed) {
        cli_print_error("--dir: %s: run %ld has seed %llu, but base seed %llu gives %llu (was "
                        "the manifest edited? move the directory away to start afresh)",
                        c->path, r->run, (unsigned long long)r->seed,
                        (unsigned long long)c->m.base_seed, (unsigned long long)seed);
        return HM_EINVAL;
    }
    int n = 0;
    char **argv = run_argv(c, r, &n);
    char *want = argv ? hm_output_shell_join(n, (const char *const *)argv) : NULL;
    int same = !want || !r->command || !strcmp(want, r->command);
    if (!same)
        cli_print_error("--dir: %s: run %ld was recorded as \"%s\", but this campaign runs "
                        "\"%s\" (was the manifest edited? move the directory away to start "
                        "afresh)",
                        c->path, r->run, r->command, want);
    free(want);
    if (argv) free_words(argv, n);
    return same ? HM_OK : HM_EINVAL;
}

/* Per-run file names and seeds, each started run checked against its
 * record; runs recorded as done stay done only while their raw file is
 * there. */
static int plan(campaign_t *c)
{
    for (long i = 0; i < c->m.nruns; i++) {
        hm_results_manifest_run_t *r = &c->m.runs[i];
        if (check_record(c, r) != HM_OK) return HM_EINVAL;
        r->seed = hm_results_run_seed(c->m.base_seed, r->run);
        snprintf(r->raw, sizeof r->raw, "%s/run-%03ld.csv", c->dir, r->run);
        snprintf(r->log, sizeof r->log, "%s/run-%03ld.log", c->dir, r->run);
        if (r->state == HM_RUN_DONE && !file_exists(r->raw)) r->state = HM_RUN_PENDING;
        if (r->state == HM_RUN_DONE && isfinite(r->duration_s) && i < c->limit)
            c->done_s += r->duration_s, c->done_n++; /* the ETA of a resumed campaign */
    }
    return HM_OK;
}

static int run_all(campaign_t *c)
{
    long todo = 0;
    for (long i = 0; i < c->limit; i++) todo += c->m.runs[i].state != HM_RUN_DONE;
    if (todo < c->limit)
        fprintf(stderr, "campaign: %ld of %ld runs already done in %s, %ld to run\n",
                c->limit - todo, c->limit, c->dir, todo);
    for (long i = 0; i < c->limit; i++) {
        if (c->m.runs[i].state == HM_RUN_DONE) continue;
        if (cli_campaign_stop_signal()) return stopped(c, "before", c->m.runs[i].run);
        int rc = run_one(c, &c->m.runs[i], --todo);
        if (rc != HM_OK) return rc;
    }
    return cli_campaign_stop_signal() ? stopped(c, "after", c->limit) : HM_OK;
}

/* The directory (created when missing, with its parents) and its lock: two campaigns writing
 * the same manifest would lose runs. The descriptor stays open until exit. */
static int open_dir(const char *dir)
{
    char lock[4200];
    if (hm_afile_make_dirs(dir) != HM_OK) {
        cli_print_error("--dir: %s", hm_last_error());
        return HM_EINVAL;
    }
    snprintf(lock, sizeof lock, "%s/.campaign.lock", dir);
    /* Not close-on-exec: the runs inherit the lock, so that a run left behind
     * by a campaign killed alone keeps a resumed campaign from running the
     * same run beside it. */
    /* O_NONBLOCK: a FIFO in its place is refused, not waited on. */
    int fd = open(lock, O_WRONLY | O_CREAT | O_NONBLOCK, 0644);
    if (fd < 0) {
        cli_print_error("--dir: \"%s\" is not a writable directory: %s", dir, strerror(errno));
        return HM_EINVAL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        cli_print_error("campaign: another campaign, or a run left by a killed one, is "
                        "running in \"%s\"",
                        dir);
        close(fd);
        return HM_EFAILED;
    }
    return HM_OK;
}

/* A manifest found in DIR must be of the same command and seed. */
static int adopt(campaign_t *c, hm_results_manifest_t *old, const char *template_command)
{
    const cli_config_t *cfg = c->cfg;
    if (strcmp(old->template_command, template_command) != 0) {
        cli_print_error("--dir: \"%s\" holds a campaign of another command (%s); choose "
                        "another --dir",
                        c->dir, old->template_command);
        return HM_EINVAL;
    }
    if ((cfg->given & HM_OPT_BIT(HM_OPT_SEED)) && cfg->seed != old->base_seed) {
        cli_print_error("--seed: %llu differs from the seed %llu of the campaign in \"%s\"",
                        (unsigned long long)cfg->seed, (unsigned long long)old->base_seed, c->dir);
        return HM_EINVAL;
    }
    c->m = *old;
    return HM_OK;
}

/* Without a manifest, files of runs in dir are not this campaign's to
 * replace: a deleted manifest let run-001.csv be overwritten, exit 0
 * (issue 31). HM_EINVAL, printed, naming the first. */
static int orphan_runs(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char found[300] = "";
    while (d && !found[0] && (e = readdir(d))) {
        long run;
        char ext[8];
        int used = 0;
        if (sscanf(e->d_name, "run-%ld.%7[a-z]%n", &run, ext, &used) == 2 && !e->d_name[used] &&
            (!strcmp(ext, "csv") || !strcmp(ext, "log")))
            snprintf(found, sizeof found, "%s", e->d_name);
    }
    if (d) closedir(d);
    if (!found[0]) return HM_OK;
    cli_print_error("--dir: \"%s\" holds %s but no %s (deleted?): a campaign never replaces "
                    "a run file its manifest does not account for; move the files away or "
                    "choose another --dir",
                    dir, found, HM_RESULTS_MANIFEST_FILE);
    return HM_EINVAL;
}

static int load(campaign_t *c)
{
    const cli_config_t *cfg = c->cfg;
    int found = 0, rc;
    hm_results_manifest_t old;
    char *tmpl = hm_output_shell_join(cfg->command_argc, (const char *const *)cfg->command_argv);
    if (!tmpl) {
        cli_print_error("campaign: out of memory");
        return HM_EFAILED;
    }
    snprintf(c->path, sizeof c->path, "%s/%s", c->dir, HM_RESULTS_MANIFEST_FILE);
    if (hm_results_manifest_read(c->path, &old, &found) != HM_OK) {
        cli_print_error("--dir: %s", hm_last_error());
        free(tmpl);
        return HM_EINVAL;
    }
    if (found) {
        rc = adopt(c, &old, tmpl);
        free(tmpl);
        if (rc != HM_OK) hm_results_manifest_free(&old);
        return rc;
    }
    if (orphan_runs(c->dir) != HM_OK) {
        free(tmpl);
        return HM_EINVAL;
    }
    c->m = (hm_results_manifest_t){.template_command = tmpl, .base_seed = cfg->seed};
    return HM_OK;
}

/* The MPI library of the first run, which tells two campaigns apart
 * (compare labels its sides by it): a factor of the raw file, if there. */
static int library_factor(const campaign_t *c, hm_factors_t *f)
{
    hm_csv_reader_t *r = NULL;
    const char *v;
    int rc = HM_OK;
    if (c->limit < 1 || hm_csv_reader_open(c->m.runs[0].raw, &r) != HM_OK) return HM_OK;
    if (hm_factors_get(hm_csv_reader_factors(r), "mpi_library", &v) == HM_OK)
        rc = hm_factors_set(f, "mpi_library", "%s", v);
    hm_csv_reader_close(r);
    return rc;
}

static int dataset_factors(const campaign_t *c, hm_factors_t **f)
{
    const cli_config_t *cfg = c->cfg;
    int rc = cli_offline_factors(cfg, f);
    if (rc == HM_OK) rc = library_factor(c, *f);
    if (rc == HM_OK) rc = hm_factors_set(*f, "campaign_command", "%s", c->m.template_command);
    if (rc == HM_OK) rc = hm_factors_set(*f, "runs", "%ld", c->limit);
    if (rc == HM_OK)
        rc = hm_factors_set(*f, "base_seed", "%llu", (unsigned long long)c->m.base_seed);
    return rc;
}

/* The two files and the table of a reduced campaign; errors printed. */
static int report(const campaign_t *c, const hm_results_permpirun_t *ds, const hm_factors_t *f)
{
    const cli_config_t *cfg = c->cfg;
    char path[4200], repro_path[4200];
    hm_analysis_repro_t *repro = NULL;
    snprintf(path, sizeof path, "%s/%s", c->dir, HM_RESULTS_PERMPIRUN_FILE);
    snprintf(repro_path, sizeof repro_path, "%s/%s", c->dir, HM_RESULTS_REPRO_FILE);
    int rc = hm_results_permpirun_write(ds, path, f);
    if (rc == HM_OK) rc = hm_analysis_repro_create(ds, HM_STATISTIC_MEDIAN, &repro);
    if (rc == HM_OK) rc = hm_analysis_repro_write(repro, repro_path, f);
    if (rc != HM_OK) {
        cli_print_error("campaign: %s", hm_last_error());
    } else {
        int overlap = hm_results_metric_kind(cfg->metric) == HM_RESULTS_OVERLAP_RAW;
        printf("campaign of %ld runs in %s: per-mpirun medians of the %s%s (filter %s) "
               "in %s, reproducibility in %s\n",
               c->limit, c->dir, hm_results_metric_name(cfg->metric),
               overlap ? " of each cell" : " run-time", hm_analysis_filter_name(cfg->filter), path,
               repro_path);
        if ((rc = cli_print_runs(repro, stdout)) != HM_OK)
            cli_print_error("campaign: %s", hm_strerror(rc));
    }
    hm_analysis_repro_free(repro);
    return rc;
}

/* The runs' raw files are of bench or of overlap, as the first one is:
 * --metric must be one of theirs, else their default (global, overhead).
 * Told after the runs, which are kept: the same command with another
 * --metric reduces them again without running them. */
static int choose_metric(cli_config_t *cfg, const campaign_t *c)
{
    hm_results_kind_t kind;
    const char *raw = c->m.runs[0].raw;
    if (hm_results_input_kind(raw, &kind) != HM_OK) {
        cli_print_error("campaign: %s", hm_last_error());
        return HM_EFAILED;
    }
    if (kind != HM_RESULTS_BENCH_RAW && kind != HM_RESULTS_OVERLAP_RAW) {
        cli_print_error("campaign: %s is %s, not a raw file of 'harmonia bench --raw' or "
                        "'harmonia overlap --raw'",
                        raw, hm_results_schema(kind)->what);
        return HM_EFAILED;
    }
    if (cli_choose_metric(cfg, raw, kind) == HM_OK) return HM_OK;
    cli_print_error("campaign: %s (the runs are kept: run the same command again with "
                    "another --metric)",
                    hm_last_error());
    return HM_EINVAL;
}

/* An overlap run none of whose cells ran (every calibration missed its
 * target: INVALID in its table) completed as designed; it adds no row, and
 * says so. A bench run always has valid repetitions, or it failed. */
static int overlap_run_empty(const cli_config_t *cfg, const hm_results_manifest_run_t *r)
{
    hm_analysis_groups_t g = {0};
    if (hm_results_metric_kind(cfg->metric) != HM_RESULTS_OVERLAP_RAW) return 0;
    int empty = hm_analysis_groups_read_raw(&g, r->raw, cfg->metric) == HM_OK && g.n == 0;
    hm_analysis_groups_free(&g);
    if (empty)
        fprintf(stderr,
                "campaign: run %ld has no valid repetition in %s (no cell of it ran: see %s); "
                "it adds no row\n",
                r->run, r->raw, r->log);
    return empty;
}

/* Alg. 6 over the runs' raw files, then the two files and the table. */
static int analyze(cli_config_t *cfg, const campaign_t *c)
{
    hm_results_permpirun_t ds = {0};
    hm_factors_t *f = NULL;
    int rc = choose_metric(cfg, c);
    if (rc != HM_OK) return rc;
    for (long i = 0; rc == HM_OK && i < c->limit; i++) {
        const hm_results_manifest_run_t *r = &c->m.runs[i];
        if (overlap_run_empty(cfg, r)) continue;
        rc = hm_analysis_permpirun_add_run(&ds, r->raw, r->run, r->seed, cfg->metric, cfg->filter);
    }
    if (rc == HM_OK && ds.n == 0) rc = HM_ENOENT; /* add_run returns HM_EINVAL or HM_ENOMEM */
    if (rc == HM_ENOENT)
        cli_print_error("campaign: no run has a valid repetition (see the runs' logs in %s)",
                        c->dir);
    else if (rc != HM_OK)
        cli_print_error("campaign: %s", hm_last_error());
    else if ((rc = dataset_factors(c, &f)) != HM_OK)
        cli_print_error("campaign: %s", hm_strerror(rc));
    else
        rc = report(c, &ds, f);
    hm_factors_free(f);
    hm_results_permpirun_free(&ds);
    return rc == HM_OK ? HM_OK : HM_EFAILED;
}

int cli_cmd_campaign(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    campaign_t c = {.cfg = cfg, .dir = cfg->dir[0] ? cfg->dir : "campaign", .limit = cfg->runs};
    if (check_command(cfg, &c.placeholders) != HM_OK) {
        cli_print_error("%s", hm_last_error());
        return HM_EINVAL;
    }
    if (c.limit == 0) { /* checked before DIR is created */
        cli_print_error("campaign: -n N is required (the number of runs, 1 or more)");
        return HM_EINVAL;
    }
    int rc = open_dir(c.dir);
    if (rc == HM_OK) rc = load(&c);
    if (rc != HM_OK) return rc;
    /* Runs beyond a smaller -n stay in the manifest but are neither run nor analyzed. */
    if (hm_results_manifest_resize(&c.m, c.limit) != HM_OK) {
        cli_print_error("campaign: out of memory for %ld runs", c.limit);
        rc = HM_EFAILED;
    }
    if (rc == HM_OK) {
        cli_campaign_catch_signals();
        rc = plan(&c);
        if (rc == HM_OK) rc = run_all(&c);
        cli_campaign_default_signals(); /* the analysis writes its files atomically */
        if (rc == HM_OK) rc = analyze(cfg, &c);
    }
    hm_results_manifest_free(&c.m);
    return rc;
}
