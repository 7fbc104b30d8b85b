/* tools/harmonia/options/options.c — the shared options of the design, one table read by
 * the parser, the help and the error messages. */
#include <string.h>

#include <harmonia/sync.h>
#include <harmonia/trace.h>

#include "options/config.h"
#include "options/options_table.h"

void cli_config_defaults(cli_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    strcpy(cfg->timer, HM_CLI_DEFAULT_TIMER);
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
    cfg->batch = 1;
    cfg->check_every = 16;
    cfg->late_us = 1.0;
    cfg->resync_s = 1.0;
    cfg->inject_rank = -1;
    cfg->bcast_factor = 3.0;
    cfg->trace_files = HM_TRACE_FILE_ALL;
    /* overlap: the default grid, 500 us to 1 s, doubling */
    for (double t = 500e-6; t <= 1.0 + 1e-9 && cfg->ncomm_targets < HM_CLI_MAX_TARGETS; t *= 2)
        cfg->comm_targets_s[cfg->ncomm_targets++] = t;
    memcpy(cfg->comp_targets_s, cfg->comm_targets_s, sizeof cfg->comp_targets_s);
    cfg->ncomp_targets = cfg->ncomm_targets;
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
    cli_parse_sizes("8,64,512,4K,32K,256K,1M", cfg->sizes, HM_CLI_MAX_SIZES, &cfg->nsizes);
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

/* The options of the command (mask) that name begins, joined into list: a
 * refused abbreviation is answered with them. Only the command's: naming an
 * option that it would then refuse does not help. */
static int prefix_matches(const char *name, cli_opt_mask_t mask, char *list, size_t len)
{
    int n = 0;
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < HM_OPT_COUNT && *name; i++) {
        const char *full = cli_options[i].name;
        if (!(mask & HM_OPT_BIT(cli_options[i].id))) continue;
        if (strncmp(full, name, strlen(name)) != 0) continue;
        if (used < len)
            used += (size_t)snprintf(list + used, len - used, "%s--%s", n ? ", " : "", full);
        n++;
    }
    return n;
}

/* The option of the command closest in spelling to name, or NULL when none
 * is close: at most 2 edits, and at most one per two typed letters (so
 * that "--rnus" is --runs but "--foo" does not become --root). */
static const char *closest_option(const char *name, cli_opt_mask_t mask)
{
    const char *best = NULL;
    int best_d = 3;
    for (int i = 0; i < HM_OPT_COUNT; i++) {
        if (!(mask & HM_OPT_BIT(cli_options[i].id))) continue;
        int d = edit_distance(name, cli_options[i].name);
        if (d < best_d && 2 * (size_t)d <= strlen(name)) best_d = d, best = cli_options[i].name;
    }
    return best;
}

static void unknown_option(const char *token, cli_opt_mask_t mask)
{
    char name[64], list[512];
    const char *close;
    snprintf(name, sizeof name, "%s", token + 2);
    name[strcspn(name, "=")] = '\0';
    int n = prefix_matches(name, mask, list, sizeof list);
    if (n == 1)
        cli_opt_fail("unknown option \"%s\" (did you mean %s? abbreviations are not accepted)",
                     token, list);
    else if (n > 1)
        cli_opt_fail("unknown option \"%s\" (ambiguous: %s; abbreviations are not accepted)", token,
                     list);
    else if ((close = closest_option(name, mask)))
        cli_opt_fail("unknown option \"%s\" (did you mean --%s?)", token, close);
    else
        cli_opt_fail("unknown option \"%s\"", token);
}

static void not_accepted(const char *command, const cli_opt_def_t *d, cli_opt_mask_t mask)
{
    char alias[8] = "";
    if (d->short_name) snprintf(alias, sizeof alias, " (-%c)", d->short_name);
    char err[1024];
    size_t len = sizeof err;
    size_t used = (size_t)snprintf(
        err, len, "--%s%s is not an option of '%s' (its options:", d->name, alias, command);
    for (int i = 0; i < HM_OPT_COUNT && used < len; i++)
        if (mask & HM_OPT_BIT(cli_options[i].id))
            used += (size_t)snprintf(err + used, len - used, " --%s", cli_options[i].name);
    if (used < len) snprintf(err + used, len - used, ")");
    cli_opt_fail("%s", err);
}

/* The option named exactly name (n characters), or NULL. Abbreviations are
 * refused: getopt_long took any unambiguous prefix ("--siz" for --sizes), so
 * a script could come to depend on a prefix that a new option makes
 * ambiguous later. getopt_long cannot be told to match full names only, so
 * the parser is this file's own (it also needs no global state). */
static const cli_opt_def_t *find_long(const char *name, size_t n)
{
    for (int i = 0; i < HM_OPT_COUNT; i++)
        if (strlen(cli_options[i].name) == n && strncmp(cli_options[i].name, name, n) == 0)
            return &cli_options[i];
    return NULL;
}

/* The option of letter c. nccl-tests' letters (-n, -w) count only for a
 * command that takes nccl-tests' range (-b): elsewhere -n stays what it is
 * (--runs, or a mistaken mpirun -n refused). The option is then looked up
 * by its own letter, among any command's options for the error naming it. */
static const cli_opt_def_t *find_short(char c, cli_opt_mask_t mask)
{
    int nccl = (mask & HM_OPT_BIT(HM_OPT_MINBYTES)) != 0;
    for (int i = 0; c && nccl && i < HM_OPT_COUNT; i++)
        if (cli_options[i].nccl_short == c && (mask & HM_OPT_BIT(cli_options[i].id)))
            return &cli_options[i];
    for (int i = 0; c && i < HM_OPT_COUNT; i++)
        if (cli_options[i].short_name == c) return &cli_options[i];
    return NULL;
}

/* The state of one parse: where the scan is, and the value each option got
 * first, so that a second occurrence can name both. */
typedef struct scan {
    char **args;
    int nargs, next;
    cli_opt_mask_t mask;
    const char *first[HM_OPT_COUNT];
} scan_t;

/* An option given twice is refused rather than the last one winning: in a
 * long command line (or one assembled by a script) the second occurrence is
 * more often a mistake than an intended override, and nothing would tell
 * which value was measured. An OSU alias is the same option. */
static int given_twice(const cli_opt_def_t *d, const char *first, const char *second)
{
    char alias[8] = "";
    if (d->short_name) snprintf(alias, sizeof alias, " (-%c)", d->short_name);
    if (d->value)
        cli_opt_fail("--%s%s: given twice (\"%s\", then \"%s\")", d->name, alias, first, second);
    else
        cli_opt_fail("--%s%s: given twice", d->name, alias);
    return HM_EINVAL;
}

static int apply(scan_t *s, const cli_opt_def_t *d, const char *value, cli_config_t *cfg)
{
    if (!(s->mask & HM_OPT_BIT(d->id))) {
        not_accepted(cfg->command, d, s->mask);
        return HM_EINVAL;
    }
    if (cfg->given & HM_OPT_BIT(d->id)) return given_twice(d, s->first[d->id], value);
    cfg->given |= HM_OPT_BIT(d->id);
    s->first[d->id] = value;
    if (d->parse(cfg, value) != 0) {
        cli_opt_fail("--%s: %s", d->name, hm_last_error());
        return HM_EINVAL;
    }
    return HM_OK;
}

/* The value of d into *value (NULL for a flag): what follows "=" or the
 * short letter (attached, NULL if nothing), else the next word whatever it
 * is ("--nrep -5" is a value to refuse, not an option). HM_EINVAL with
 * the message in s->err when it is missing, or when a flag has one. */
static int take_value(scan_t *s, const cli_opt_def_t *d, const char *token, const char *attached,
                      const char **value)
{
    *value = NULL;
    if (!d->value && attached) {
        cli_opt_fail("--%s: takes no value (got \"%s\")", d->name, token);
        return HM_EINVAL;
    }
    if (!d->value) return HM_OK;
    if (attached) {
        *value = attached;
    } else if (s->next < s->nargs) {
        *value = s->args[s->next++];
    } else {
        cli_opt_fail("--%s: a value is required (%s)", d->name, d->example);
        return HM_EINVAL;
    }
    return HM_OK;
}

/* "--name", "--name=value" or "--name value". */
static int long_option(scan_t *s, const char *token, cli_config_t *cfg)
{
    const char *name = token + 2, *eq = strchr(name, '=');
    const cli_opt_def_t *d = find_long(name, eq ? (size_t)(eq - name) : strlen(name));
    const char *value;
    if (!d) {
        unknown_option(token, s->mask);
        return HM_EINVAL;
    }
    if (take_value(s, d, token, eq ? eq + 1 : NULL, &value) != HM_OK) return HM_EINVAL;
    return apply(s, d, value, cfg);
}

/* "-x", "-x VALUE" or "-xVALUE" (OSU's spellings); no grouping of flags. */
static int short_option(scan_t *s, const char *token, cli_config_t *cfg)
{
    const cli_opt_def_t *d = find_short(token[1], s->mask);
    const char *value;
    if (!d) {
        cli_opt_fail("unknown option \"%s\"", token);
        return HM_EINVAL;
    }
    if (take_value(s, d, token, token[2] ? token + 2 : NULL, &value) != HM_OK) return HM_EINVAL;
    return apply(s, d, value, cfg);
}

/* Operands (FILE arguments) in the order given; an error for a command
 * that takes none. */
static int operands(char **words, int n, cli_config_t *cfg)
{
    if (n > 0 && !cfg->takes_files) {
        cli_opt_fail("unexpected argument \"%s\" for '%s'%s", words[0], cfg->command,
                     cfg->takes_command ? " (the command to run goes after --)" : "");
        return HM_EINVAL;
    }
    if (n > HM_CLI_MAX_FILES) {
        cli_opt_fail("more than %d files for '%s'", HM_CLI_MAX_FILES, cfg->command);
        return HM_EINVAL;
    }
    for (int i = 0; i < n; i++) cfg->files[i] = words[i];
    cfg->nfiles = n;
    return HM_OK;
}

/* Checks that involve two options, and what several compose. */
static int cross_check(cli_config_t *cfg)
{
    /* Without --timer, timers measures every source, tsc among them; the
     * other commands read the default, monotonic. */
    int all_timers = cfg->command && strcmp(cfg->command, "timers") == 0 &&
                     !(cfg->given & HM_OPT_BIT(HM_OPT_TIMER));
    if ((cfg->given & HM_OPT_BIT(HM_OPT_TSC_GHZ)) && strcmp(cfg->timer, "tsc") != 0 &&
        !all_timers) {
        cli_opt_fail("--tsc-ghz: only meaningful with --timer tsc (not --timer %s)", cfg->timer);
        return HM_EINVAL;
    }
    if ((cfg->given & HM_OPT_BIT(HM_OPT_CHECK)) && (cfg->given & HM_OPT_BIT(HM_OPT_VALIDATE))) {
        cli_opt_fail("--check (-c) and --validate: give one of them");
        return HM_EINVAL;
    }
    if (cli_opt_compose_nccl_sizes(cfg) != 0) return HM_EINVAL; /* said */
    if (cfg->ranks_per_node && cfg->ranks_per_socket > cfg->ranks_per_node) {
        cli_opt_fail("--ranks-per-socket: %d is more than --ranks-per-node %d",
                     cfg->ranks_per_socket, cfg->ranks_per_node);
        return HM_EINVAL;
    }
    return HM_OK;
}

/* Options and operands may be mixed; "--" ends the options (a command
 * that runs another has already been cut there). Option errors come before
 * operand errors, whatever the order on the command line. */
int cli_parse(int argc, char **argv, int first, cli_opt_mask_t mask, cli_config_t *cfg)
{
    int end = argc, nwords = 0, rc = HM_OK, options_end = 0;
    char *words[argc + 1];
    /* A command's words after "--" are not ours (campaign runs them). */
    if (cfg->takes_command) {
        for (end = first; end < argc && strcmp(argv[end], "--") != 0; end++) continue;
        cfg->command_argv = end < argc ? argv + end + 1 : NULL;
        cfg->command_argc = end < argc ? argc - end - 1 : 0;
    }
    scan_t s = {.args = argv, .nargs = end, .next = first, .mask = mask};
    while (rc == HM_OK && s.next < s.nargs) {
        const char *token = argv[s.next++];
        if (options_end || token[0] != '-' || token[1] == '\0')
            words[nwords++] = (char *)token;
        else if (strcmp(token, "--") == 0)
            options_end = 1;
        else if (token[1] == '-')
            rc = long_option(&s, token, cfg);
        else
            rc = short_option(&s, token, cfg);
    }
    if (rc == HM_OK) rc = operands(words, nwords, cfg);
    return rc == HM_OK ? cross_check(cfg) : rc;
}
