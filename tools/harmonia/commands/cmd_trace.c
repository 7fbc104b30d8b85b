/* tools/harmonia/commands/cmd_trace.c — `harmonia trace [--clock-sync SPEC]
 * [--output DIR] -- mpirun -n P ./app ARGS`: the launcher run with
 * libharmonia-trace.so preloaded (include/harmonia/trace.h), then the rank
 * files merged onto the global clock and summarized. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/output.h>
#include <harmonia/sync.h>
#include <harmonia/trace.h>

#include "commands/commands.h"

/* Where an installed libharmonia-trace.so is, from the installed program
 * (bin/ to lib/...), so that an installed tree can move. */
#ifndef HM_TRACE_LIB_RELATIVE
#define HM_TRACE_LIB_RELATIVE "../lib/libharmonia-trace.so"
#endif

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

/* libharmonia-trace.so: HARMONIA_TRACE_LIB, else beside this program (the
 * build tree), else where the install put it. */
static int find_tracer(char *path, size_t len)
{
    const char *env = getenv("HARMONIA_TRACE_LIB");
    if (env && *env) return snprintf(path, len, "%s", env), readable(path);
    char exe[3840]; /* room for the file names after it in a path of 4096 */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(path, len, "%s/libharmonia-trace.so", exe);
    if (readable(path)) return 1;
    snprintf(path, len, "%s/%s", exe, HM_TRACE_LIB_RELATIVE);
    return readable(path);
}

/* A directory that holds no trace yet, created if need be. */
static int prepare_dir(const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cli_print_error("--output: \"%s\" is not a directory", dir), HM_EINVAL;
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/rank-00000.events", dir);
    if (readable(probe))
        return cli_print_error("--output: \"%s\" holds a trace already (rank-00000.events); "
                               "give another directory",
                               dir),
               HM_EINVAL;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return cli_print_error("--output: cannot create \"%s\": %s", dir, strerror(errno)),
               HM_EINVAL;
    return HM_OK;
}

/* var = value when option opt was given, else var unset. */
static void given_env(const cli_config_t *cfg, int opt, const char *var, const char *value)
{
    if (cfg->given & HM_OPT_BIT(opt))
        setenv(var, value, 1);
    else
        unsetenv(var);
}

static void set_tracer_env(const cli_config_t *cfg, const char *lib, const char *dir)
{
    char buf[8192];
    const char *pre = getenv("LD_PRELOAD");
    snprintf(buf, sizeof buf, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
    setenv("LD_PRELOAD", buf, 1);
    char abs[4096];
    setenv("HARMONIA_TRACE_DIR", realpath(dir, abs) ? abs : dir, 1);
    /* The variables of the options: set when given, else unset, so that
     * one left in the environment does not stand in for an option's
     * default unseen (HARMONIA_TRACE_BUFFER, which no option sets, is
     * the user's). */
    char num[32];
    snprintf(num, sizeof num, "%d", cfg->fitpoints);
    given_env(cfg, HM_OPT_FITPOINTS, "HARMONIA_TRACE_FITPOINTS", num);
    snprintf(num, sizeof num, "%d", cfg->exchanges);
    given_env(cfg, HM_OPT_EXCHANGES, "HARMONIA_TRACE_EXCHANGES", num);
    given_env(cfg, HM_OPT_CLOCK_SYNC, "HARMONIA_TRACE_CLOCK_SYNC", cfg->clock_sync);
    given_env(cfg, HM_OPT_TIMER, "HARMONIA_TRACE_TIMER", cfg->timer);
    given_env(cfg, HM_OPT_EXCLUDE, "HARMONIA_TRACE_EXCLUDE", cfg->trace_exclude);
    given_env(cfg, HM_OPT_INCLUDE, "HARMONIA_TRACE_INCLUDE", cfg->trace_include);
    given_env(cfg, HM_OPT_POLLS, "HARMONIA_TRACE_POLLS", cfg->polls_each ? "each" : "burst");
    snprintf(buf, sizeof buf, "%.17g:%.17g", cfg->during_from_s, cfg->during_to_s);
    given_env(cfg, HM_OPT_DURING_S, "HARMONIA_TRACE_DURING", buf);
    unsetenv("HARMONIA_TRACE_SYNTHETIC"), unsetenv("HARMONIA_TRACE_SEED");
    if (cfg->synthetic) {
        snprintf(buf, sizeof buf, "offset=%.17g,drift=%.17g,jitter=%.17g",
                 cfg->synthetic_spec.offset_s, cfg->synthetic_spec.drift,
                 cfg->synthetic_spec.jitter_s);
        setenv("HARMONIA_TRACE_SYNTHETIC", buf, 1);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)cfg->seed);
        setenv("HARMONIA_TRACE_SEED", buf, 1);
    }
}

/* The launcher's exit status, as a shell tells it (127: not started). */
static int launch(char *const *argv, const cli_config_t *cfg, const char *lib, const char *dir)
{
    pid_t pid = fork();
    if (pid < 0) return cli_print_error("cannot start %s: %s", argv[0], strerror(errno)), 127;
    if (pid == 0) {
        set_tracer_env(cfg, lib, dir);
        execvp(argv[0], argv);
        fprintf(stderr, "harmonia: error: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    /* Ctrl-C reaches the launcher (same process group), which ends the
     * ranks; this process waits for it and merges what they flushed. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The clock's error between two ranks against the shortest message
 * latency (hm_trace_summary_t, order_doubtful): figures only where they
 * were measured. */
static void print_order(const hm_trace_summary_t *s)
{
    if (isnan(s->pair_error_s) || isnan(s->latency_min_s)) {
        printf("order of events across ranks: not checked (no clock check or latency at "
               "MPI_Finalize: a rank did not reach it, or a trace of an older version)\n");
        return;
    }
    /* Received-before-sent messages overrule the checks: those are made at
     * MPI_Init and MPI_Finalize only. */
    printf("order of events across ranks: clock error between two ranks up to %.3f us, "
           "shortest message latency %.3f us: %s\n",
           s->pair_error_s * 1e6, s->latency_min_s * 1e6,
           s->order_doubtful || s->violations ? "NOT TRUSTED" : "trusted");
}

static void warn_order(const hm_trace_summary_t *s)
{
    if (!s->order_doubtful) return;
    fprintf(stderr,
            "harmonia: warning: the global clock's error between two ranks (up to %.3f us, "
            "checked at MPI_Init and MPI_Finalize) is not below the shortest message latency "
            "(%.3f us): a receive may appear before its send, and events on different ranks "
            "less than %.3f us apart may be out of order; more --fitpoints, fewer ranks than "
            "cores or a quieter machine makes the clock better\n",
            s->pair_error_s * 1e6, s->latency_min_s * 1e6, s->pair_error_s * 1e6);
}

/* The messages matched on the records and the clock condition on them:
 * the global clock's count and largest violation beside the local
 * clocks', which show what a tracer without a global clock gets. */
static void print_messages(const hm_trace_summary_t *s)
{
    if (s->messages + s->sends_unmatched + s->receives_unmatched == 0) return;
    printf("messages: %llu matched", (unsigned long long)s->messages);
    if (s->sends_unmatched || s->receives_unmatched)
        printf(", unmatched: %llu sends, %llu receives", (unsigned long long)s->sends_unmatched,
               (unsigned long long)s->receives_unmatched);
    printf("; received before sent: %llu on the global clock", (unsigned long long)s->violations);
    if (s->violations) printf(" (up to %.3f us)", s->violation_max_s * 1e6);
    printf(", %llu on local clocks", (unsigned long long)s->violations_local);
    if (s->violations_local) printf(" (up to %.3f us)", s->violation_max_local_s * 1e6);
    printf("\n");
}

/* The collective calls found on every member, and those that were not. */
static void print_collectives(const hm_trace_summary_t *s)
{
    if (s->collectives + s->collective_events_partial == 0) return;
    printf("collectives: %llu found on every member of their communicator",
           (unsigned long long)s->collectives);
    if (s->collective_events_partial)
        printf(", %llu calls of a rank found on only some",
               (unsigned long long)s->collective_events_partial);
    printf("\n");
}

/* A receive before its send on the global clock: the clock was not good
 * enough for these messages, said with the error the checker measured. */
static void warn_messages(const hm_trace_summary_t *s)
{
    if (!s->violations) return;
    fprintf(stderr,
            "harmonia: warning: %llu of %llu messages were received before they were sent on "
            "the global clock (up to %.3f us); the clock's checked error between two ranks "
            "was up to %.3f us at MPI_Init and MPI_Finalize, so between them it was worse "
            "(a poor drift estimate: more --fitpoints or a quieter machine)\n",
            (unsigned long long)s->violations, (unsigned long long)s->messages,
            s->violation_max_s * 1e6, s->pair_error_s * 1e6);
}

/* "1.9 MB" */
static void size_text(uint64_t bytes, char *buf, size_t len)
{
    const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000 && u < 4) v /= 1000, u++;
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

/* The last line: what the trace takes on disk, and how fast a rank
 * recorded, to size the next one. */
static void print_sizes(const hm_trace_summary_t *s)
{
    const uint64_t b[] = {s->rank_files_bytes, s->trace_csv_bytes, s->trace_json_bytes,
                          s->events_csv_bytes, s->otf2_bytes};
    const char *name[] = {"rank files", "trace.csv", "trace.json", "events.csv", "otf2"};
    printf("written:");
    for (int i = 0; i < 5; i++) {
        char t[32];
        size_text(b[i], t, sizeof t);
        if (b[i]) printf("%s %s %s", i ? "," : "", name[i], t);
    }
    if (s->events && s->rank_files_bytes)
        printf(" (%.0f B an event in the rank files)", (double)s->rank_files_bytes / s->events);
    if (isfinite(s->events_per_rank_s)) printf("; %.3g events/s a rank", s->events_per_rank_s);
    printf("\n");
}

/* refine's offsets per rank at each end, and when a busy machine made
 * the tracer stop short of those asked for, that it did. */
static void print_offsets(const hm_trace_summary_t *s)
{
    if (s->offsets_asked <= 0) return;
    if (s->offsets_init == s->offsets_asked && s->offsets_end == s->offsets_asked) {
        printf("; refine: %d offsets per rank at each end", s->offsets_asked);
        return;
    }
    printf("; refine: %d and %d of %d offsets per rank, a busy machine: each end's stop after "
           "%g s",
           s->offsets_init, s->offsets_end, s->offsets_asked, HM_TRACE_REFINE_BUDGET_S);
}

/* What the ranks left: only figures that were measured (a run cut short
 * has no end model, a rank killed before its first flush no events). */
static void print_ranks(const hm_trace_summary_t *s)
{
    if (s->nranks == 0) {
        printf("ranks: none left an event or reached MPI_Finalize (the program ended before "
               "a tracer's buffer was first flushed)\n");
        return;
    }
    printf("ranks %d (%d finished), events %llu, flushes %llu", s->nranks, s->nfinished,
           (unsigned long long)s->events, (unsigned long long)s->flushes);
    if (isfinite(s->span_s)) printf(", span %.6f s", s->span_s);
    printf("\n");
    if (isnan(s->check_start_max_s)) {
        printf("global clock at MPI_Finalize: not checked (no rank reached it; times are "
               "extrapolated from MPI_Init's model)\n");
        return;
    }
    printf("global clock at MPI_Finalize: start model max offset %.3f us, end model %.3f us; "
           "interpolation moved events by up to %.3f us\n",
           s->check_start_max_s * 1e6, s->check_end_max_s * 1e6, s->drift_correction_max_s * 1e6);
    if (isnan(s->clock_cost_max_s)) return;
    printf("global clock cost: %.1f ms at MPI_Init and MPI_Finalize (the slowest rank's "
           "synchronizations and checks",
           s->clock_cost_max_s * 1e3);
    print_offsets(s);
    printf(")\n");
}

/* The first line: the directory and the files written in it. */
static void print_written(const char *dir, unsigned files)
{
    static const char *const name[] = {"trace.csv", "trace.json", "events.csv", "otf2"};
    int n = 0;
    printf("trace: %s (", dir);
    for (int k = 0; k < 4; k++)
        if (files & (1u << k) && (k != 3 || hm_trace_otf2_built()))
            printf("%s%s", n++ ? ", " : "", name[k]);
    printf("%s%s)\n", n ? "" : "no merged file: --files none",
           files & HM_TRACE_FILE_JSON ? ": open trace.json in https://ui.perfetto.dev" : "");
}

static void print_summary(const hm_trace_summary_t *s, const char *dir, unsigned files)
{
    print_written(dir, files);
    print_ranks(s);
    print_order(s);
    print_messages(s);
    print_collectives(s);
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    const char *heads[] = {"function", "calls",       "total_ms",    "median_us",
                           "matched",  "max_skew_us", "late_wait_ms"};
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        hm_table_add_column(t, heads[i], i ? HM_ALIGN_RIGHT : HM_ALIGN_LEFT);
    for (size_t i = 0; i < s->nfuncs; i++) {
        const hm_trace_func_summary_t *f = &s->funcs[i];
        int coll = hm_trace_func_class(f->func) == HM_TRACE_CLASS_COLLECTIVE;
        hm_table_add_cell(t, hm_trace_func_name(f->func));
        hm_table_add_cellf(t, "%llu", (unsigned long long)f->calls);
        hm_table_add_number(t, "%.3f", f->total_s * 1e3);
        hm_table_add_number(t, "%.2f", f->median_s * 1e6);
        if (coll) {
            hm_table_add_cellf(t, "%llu", (unsigned long long)f->matched);
            hm_table_add_number(t, "%.2f", f->max_skew_s * 1e6);
            hm_table_add_number(t, "%.3f", f->late_wait_s * 1e3);
        } else {
            hm_table_add_cell(t, "-"), hm_table_add_cell(t, "-"), hm_table_add_cell(t, "-");
        }
    }
    hm_table_print(t, stdout);
    hm_table_free(t);
    print_sizes(s);
}

/* The rank files of dir merged onto the global clock, the summary printed
 * and what it warns of said; the merge's status (its sentence printed).
 * command_status: the traced command's exit status (0 for a merge
 * again); a command that failed before any rank was traced, the tracer's
 * refusal of a bad variable among the reasons (said by it), is said as
 * that, not as a directory without a trace. */
static int merge_and_report(const char *dir, unsigned files, int command_status)
{
    hm_trace_summary_t s;
    int rc = hm_trace_merge(dir, files, &s);
    if (rc == HM_ENOENT && command_status)
        return fprintf(stderr,
                       "harmonia: the traced command exited with status %d before any "
                       "rank was traced\n",
                       command_status),
               rc;
    if (rc != HM_OK) return cli_print_error("%s", hm_last_error()), rc;
    print_summary(&s, dir, files);
    warn_order(&s);
    warn_messages(&s);
    if (s.torn_ranks)
        fprintf(stderr,
                "harmonia: warning: the event files of %d rank(s) end in a flush that was cut "
                "short or fails its checksum: its events were dropped\n",
                s.torn_ranks);
    if (s.nfinished < s.nranks)
        fprintf(stderr,
                "harmonia: warning: %d of %d ranks did not reach MPI_Finalize: their "
                "times are extrapolated from MPI_Init's clock model\n",
                s.nranks - s.nfinished, s.nranks);
    hm_trace_summary_free(&s);
    return HM_OK;
}

/* `harmonia trace merge DIR`: a trace merged again from its rank and model
 * files (after a merge that was cut short, or by a newer harmonia), its
 * trace files replaced. A bad DIR is a usage error (HM_EINVAL). */
static int merge_again(const cli_config_t *cfg)
{
    if (strcmp(cfg->files[0], "merge") != 0)
        return cli_print_error("unexpected argument \"%s\" for 'trace' (the command to run goes "
                               "after --; 'harmonia trace merge DIR' merges a trace again)",
                               cfg->files[0]),
               HM_EINVAL;
    if (cfg->nfiles != 2)
        return cli_print_error(cfg->nfiles < 2 ? "merge: which trace? (harmonia trace merge DIR)"
                                               : "merge: one trace directory, not %d",
                               cfg->nfiles - 1),
               HM_EINVAL;
    if (cfg->command_argv)
        return cli_print_error("merge %s runs no command: drop what follows --", cfg->files[1]),
               HM_EINVAL;
    /* Every option of trace but --files is the run's (its clock, its
     * timer, its output). */
    if (cli_refuse_unread(cfg, HM_OPT_BIT(HM_OPT_TRACE_FILES),
                          "merge reads what the run wrote; it applies to a run") != HM_OK)
        return cli_print_error("%s", hm_last_error()), HM_EINVAL;
    fflush(stdout);
    return merge_and_report(cfg->files[1], cfg->trace_files, 0);
}

int cli_cmd_trace(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    if (cfg->nfiles > 0) return merge_again(cfg);
    if (!cfg->command_argv || cfg->command_argc == 0)
        return cli_print_error("no command after -- (e.g. -- mpirun -n 2 ./app)"), HM_EINVAL;
    if ((cfg->given & HM_OPT_BIT(HM_OPT_CLOCK_SYNC)) &&
        hm_sync_check_spec(cfg->clock_sync) != HM_OK)
        return cli_print_error("--clock-sync: %s", hm_last_error()), HM_EINVAL;
    const char *dir = cfg->given & HM_OPT_BIT(HM_OPT_OUTPUT) ? cfg->output : "harmonia-trace";
    char lib[4096];
    if (!find_tracer(lib, sizeof lib))
        return cli_print_error("libharmonia-trace.so not found (beside this program, at "
                               "%s from it, or HARMONIA_TRACE_LIB)",
                               HM_TRACE_LIB_RELATIVE),
               HM_EFAILED;
    int rc = prepare_dir(dir);
    if (rc != HM_OK) return rc;
    fflush(stdout);
    int status = launch(cfg->command_argv, cfg, lib, dir);
    if (merge_and_report(dir, cfg->trace_files, status) != HM_OK)
        return status ? status : HM_EFAILED;
    if (status) fprintf(stderr, "harmonia: the traced command exited with status %d\n", status);
    return status;
}
