/* tools/harmonia/options/options.c — the shared options of the design, one table read by
 * the parser, the help and the error messages. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/sync.h>

#include "options/config.h"
#include "options/options_table.h"

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

void hm_cli_config_defaults(hm_cli_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    strcpy(cfg->timer, "monotonic");
    strcpy(cfg->clock_sync, "hca3");
    hm_sync_params_t sync;
    hm_sync_params_default(&sync);
    cfg->fitpoints = sync.fitpoints;
    cfg->exchanges = sync.exchanges;
    cfg->recompute_intercept = sync.recompute_intercept;
    cfg->offset = HM_OFFSET_SKAMPI;
    strcpy(cfg->sync, "harmonize");
    strcpy(cfg->ops, "allreduce,bcast,reduce");
    cfg->nrep = 1000;
    cfg->peer = 1;
    cfg->check_every = 16;
    cfg->late_us = 1.0;
    cfg->resync_s = 1.0;
    cfg->inject_rank = -1;
    cfg->bcast_factor = 3.0;
    cfg->filter = HM_FILTER_TUKEY;
    cfg->metric = HM_METRIC_GLOBAL;
    cfg->alternative = HM_ALT_TWO_SIDED;
    cfg->statistic = HM_STATISTIC_MEDIAN;
    cfg->warmup = 10;
    cfg->seed = 1;
    strcpy(cfg->format, "table");
    cfg->drift = HM_DRIFT_AUTO;
    cfg->check_after_s[0] = 0, cfg->check_after_s[1] = 1, cfg->ncheck_after = 2;
    cfg->sample = 1.0;
    char why[64];
    hm_cli_parse_sizes("8,64,512,4K,32K,256K,1M", cfg->sizes, HM_CLI_MAX_SIZES, &cfg->nsizes, why,
                       sizeof why);
}

/* Levenshtein distance between two option names, to suggest a spelling. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int row[64];
    if (lb >= 64) return 99;
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

static void unknown_option(const char *token, char *err, size_t len)
{
    char name[64];
    const char *best = NULL;
    int best_d = 3; /* suggest only close spellings */
    snprintf(name, sizeof name, "%s", token + strspn(token, "-"));
    name[strcspn(name, "=")] = '\0';
    for (int i = 0; i < HM_OPT_COUNT; i++) {
        int d = edit_distance(name, hm_cli_options[i].name);
        if (d < best_d) best_d = d, best = hm_cli_options[i].name;
    }
    if (best)
        say(err, len, "unknown option \"%s\" (did you mean --%s?)", token, best);
    else
        say(err, len, "unknown option \"%s\"", token);
}

static void not_accepted(const char *command, const hm_opt_def_t *d, uint64_t mask, char *err,
                         size_t len)
{
    char alias[8] = "";
    if (d->short_name) snprintf(alias, sizeof alias, " (-%c)", d->short_name);
    size_t used = (size_t)snprintf(
        err, len, "--%s%s is not an option of '%s' (its options:", d->name, alias, command);
    for (int i = 0; i < HM_OPT_COUNT && used < len; i++)
        if (mask & HM_OPT_BIT(hm_cli_options[i].id))
            used += (size_t)snprintf(err + used, len - used, " --%s", hm_cli_options[i].name);
    if (used < len) snprintf(err + used, len - used, ")");
}

static int fill_longopts(struct option *longopts)
{
    for (int i = 0; i < HM_OPT_COUNT; i++) {
        const hm_opt_def_t *d = &hm_cli_options[i];
        longopts[i] = (struct option){d->name, d->value ? required_argument : no_argument, NULL,
                                      HM_OPT_LONG_BASE + d->id};
    }
    longopts[HM_OPT_COUNT] = (struct option){0, 0, 0, 0};
    return HM_OPT_COUNT;
}

static const hm_opt_def_t *def_of(int code)
{
    for (int i = 0; i < HM_OPT_COUNT; i++) {
        const hm_opt_def_t *d = &hm_cli_options[i];
        if (code == HM_OPT_LONG_BASE + (int)d->id || (d->short_name && code == d->short_name))
            return d;
    }
    return NULL;
}

static int apply(const hm_opt_def_t *d, const char *value, hm_cli_config_t *cfg, uint64_t mask,
                 char *err, size_t len)
{
    char why[384];
    if (!(mask & HM_OPT_BIT(d->id))) {
        not_accepted(cfg->command, d, mask, err, len);
        return HM_EXIT_USAGE;
    }
    cfg->given |= HM_OPT_BIT(d->id);
    if (d->parse(cfg, value, why, sizeof why) != 0) {
        say(err, len, "--%s: %s", d->name, why);
        return HM_EXIT_USAGE;
    }
    return HM_EXIT_OK;
}

/* Checks that involve two options. */
static int cross_check(const hm_cli_config_t *cfg, char *err, size_t len)
{
    if ((cfg->given & HM_OPT_BIT(HM_OPT_TSC_GHZ)) && (cfg->given & HM_OPT_BIT(HM_OPT_TIMER)) &&
        strcmp(cfg->timer, "tsc") != 0) {
        say(err, len, "--tsc-ghz: only meaningful with --timer tsc (not --timer %s)", cfg->timer);
        return HM_EXIT_USAGE;
    }
    if (cfg->ranks_per_node && cfg->ranks_per_socket > cfg->ranks_per_node) {
        say(err, len, "--ranks-per-socket: %d is more than --ranks-per-node %d",
            cfg->ranks_per_socket, cfg->ranks_per_node);
        return HM_EXIT_USAGE;
    }
    return HM_EXIT_OK;
}

int hm_cli_parse(int argc, char **argv, int first, uint64_t mask, hm_cli_config_t *cfg, char *err,
                 size_t len)
{
    struct option longopts[HM_OPT_COUNT + 1];
    char *args[argc + 1];
    int nargs = 0, rc = HM_EXIT_OK;
    int end = argc;
    /* A command's words after "--" are not ours (campaign runs them). */
    if (cfg->takes_command) {
        for (end = first; end < argc && strcmp(argv[end], "--") != 0; end++) continue;
        cfg->command_argv = end < argc ? argv + end + 1 : NULL;
        cfg->command_argc = end < argc ? argc - end - 1 : 0;
    }
    /* getopt permutes its array: work on a copy so cfg->argv stays as typed. */
    for (int i = first - 1; i < end; i++) args[nargs++] = argv[i];
    args[nargs] = NULL;
    fill_longopts(longopts);
    opterr = 0;
    optind = 0; /* glibc: full reinitialisation, so the parser can run twice */
    for (int c;
         rc == HM_EXIT_OK && (c = getopt_long(nargs, args, ":m:i:x:hn:", longopts, NULL)) != -1;) {
        const hm_opt_def_t *d = def_of(c == ':' || c == '?' ? optopt : c);
        if (c == '?') {
            if (optopt)
                say(err, len, "unknown option \"-%c\"", optopt);
            else
                unknown_option(args[optind - 1], err, len);
            rc = HM_EXIT_USAGE;
        } else if (c == ':') {
            say(err, len, "--%s: a value is required (%s)", d ? d->name : "?", d ? d->example : "");
            rc = HM_EXIT_USAGE;
        } else {
            rc = apply(d, optarg, cfg, mask, err, len);
        }
    }
    if (rc == HM_EXIT_OK && cfg->takes_files) {
        for (cfg->nfiles = 0; rc == HM_EXIT_OK && optind < nargs; optind++) {
            if (cfg->nfiles == HM_CLI_MAX_FILES) {
                say(err, len, "more than %d files for '%s'", HM_CLI_MAX_FILES, cfg->command);
                rc = HM_EXIT_USAGE;
            } else {
                cfg->files[cfg->nfiles++] = args[optind];
            }
        }
    }
    if (rc == HM_EXIT_OK && optind < nargs) {
        say(err, len, "unexpected argument \"%s\" for '%s'%s", args[optind], cfg->command,
            cfg->takes_command ? " (the command to run goes after --)" : "");
        rc = HM_EXIT_USAGE;
    }
    return rc == HM_EXIT_OK ? cross_check(cfg, err, len) : rc;
}
