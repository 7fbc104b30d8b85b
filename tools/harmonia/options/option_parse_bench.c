/* tools/harmonia/options/option_parse_bench.c — values of the measurement options (bench,
 * skew): checked here, without MPI, so that a bad value is a usage error
 * before anything runs. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/options_table.h"

/* A decimal integer that fits a long: an optional "-", then digits only
 * (strtol alone takes " 5" and "+5", and clamps a huge value with ERANGE).
 * 0, -1 when it is not such a number, -2 when it does not fit. */
static int whole(const char *v, long *out)
{
    char *end;
    if (!isdigit((unsigned char)v[*v == '-'])) return -1;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (*end) return -1;
    if (errno == ERANGE) return -2;
    *out = x;
    return 0;
}

int cli_opt_integer(const char *v, long lo, long hi, long *out)
{
    long x = 0;
    int rc = whole(v, &x);
    if (rc == -1) return cli_opt_fail("\"%s\" is not an integer (accepted: %ld to %ld)", v, lo, hi);
    if (rc == -2 || x < lo || x > hi)
        return cli_opt_fail("\"%s\" is out of range (accepted: %ld to %ld)", v, lo, hi);
    *out = x;
    return 0;
}

/* A finite number in [lo, hi]; lo itself only when lo_ok. */
static int number(const char *v, double lo, int lo_ok, double hi, const char *unit, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x) || x < lo || (!lo_ok && x == lo) || x > hi)
        return cli_opt_fail("\"%s\" is not a duration in %s (accepted: %s%.15g to %.15g)", v, unit,
                            lo_ok ? "" : "more than ", lo, hi);
    *out = x;
    return 0;
}

int cli_opt_parse_batch(cli_config_t *c, const char *v)
{
    long x = 0;
    if (cli_opt_integer(v, 1, 1000000, &x)) return -1;
    c->batch = (int)x;
    return 0;
}

int cli_opt_parse_root(cli_config_t *c, const char *v)
{
    long x = 0;
    if (cli_opt_integer(v, 0, 1 << 30, &x)) return -1;
    c->root = (int)x;
    return 0;
}

/* Rank 0 is one end of the ping-pong: a peer of 0 would talk to itself. */
int cli_opt_parse_peer(cli_config_t *c, const char *v)
{
    long x = 0;
    if (cli_opt_integer(v, 1, 1 << 30, &x)) return -1;
    c->peer = (int)x;
    return 0;
}

int cli_opt_parse_validate(cli_config_t *c, const char *v)
{
    (void)v;
    c->validate = 1;
    return 0;
}

int cli_opt_parse_allow_partial(cli_config_t *c, const char *v)
{
    (void)v;
    c->allow_partial = 1;
    return 0;
}

int cli_opt_parse_allow_one_rank(cli_config_t *c, const char *v)
{
    (void)v;
    c->allow_one_rank = 1;
    return 0;
}

int cli_opt_parse_check_every(cli_config_t *c, const char *v)
{
    long x = 0;
    if (cli_opt_integer(v, 1, 1 << 20, &x)) return -1;
    c->check_every = (int)x;
    return 0;
}

int cli_opt_parse_max_attempts(cli_config_t *c, const char *v)
{
    return cli_opt_integer(v, 1, HM_CLI_MAX_ATTEMPTS, &c->max_attempts);
}

int cli_opt_parse_window_us(cli_config_t *c, const char *v)
{
    return number(v, 0, 0, 1e7, "microseconds", &c->window_us);
}

int cli_opt_parse_late_us(cli_config_t *c, const char *v)
{
    return number(v, 0, 1, 1e7, "microseconds", &c->late_us);
}

int cli_opt_parse_slice_s(cli_config_t *c, const char *v)
{
    return number(v, 0, 0, 86400, "seconds", &c->slice_s);
}

int cli_opt_parse_resync_s(cli_config_t *c, const char *v)
{
    return number(v, 0, 0, 86400, "seconds", &c->resync_s);
}

int cli_opt_parse_cold_cache(cli_config_t *c, const char *v)
{
    (void)v;
    c->cold_cache = 1;
    return 0;
}

/* --inject-delay RANK:ATTEMPT:MICROSECONDS. Ranks are MPI ints; attempts,
 * counted from 0, stay below the largest --max-attempts; a delay is at most
 * 10 s (1e7 us, the largest --late-us and --window-us): any late start those
 * can judge is that short, and a longer sleep only makes a test slow. */
#define INJECT_MAX_US 1e7
#define INJECT_FORM   "RANK:ATTEMPT:MICROSECONDS"

/* The three parts of v into parts (in buf), or -1 when v has not three. */
static int split_inject(const char *v, char *buf, size_t cap, char *parts[3])
{
    if (strlen(v) >= cap) return -1;
    strcpy(buf, v);
    parts[0] = buf;
    for (int i = 1; i < 3; i++) {
        if (!(parts[i] = strchr(parts[i - 1], ':'))) return -1;
        *parts[i]++ = '\0';
    }
    return strchr(parts[2], ':') ? -1 : 0;
}

int cli_opt_parse_inject_delay(cli_config_t *c, const char *v)
{
    char buf[128], *parts[3];
    long rank = 0, attempt = 0;
    double us = 0;
    if (split_inject(v, buf, sizeof buf, parts))
        return cli_opt_fail("\"%s\" is not " INJECT_FORM " (example: 1:5:200; accepted: RANK 0 "
                            "to %d, ATTEMPT 0 to %ld, MICROSECONDS 0 to %.15g)",
                            v, INT_MAX, HM_CLI_MAX_ATTEMPTS - 1, INJECT_MAX_US);
    const char *bad = NULL; /* the part refused, its reason the last error */
    if (cli_opt_integer(parts[0], 0, INT_MAX, &rank))
        bad = "RANK";
    else if (cli_opt_integer(parts[1], 0, HM_CLI_MAX_ATTEMPTS - 1, &attempt))
        bad = "ATTEMPT";
    else if (number(parts[2], 0, 1, INJECT_MAX_US, "microseconds", &us))
        bad = "MICROSECONDS";
    if (bad) return cli_opt_fail("\"%s\" is not " INJECT_FORM ": %s %s", v, bad, hm_last_error());
    c->inject_rank = (int)rank, c->inject_attempt = attempt, c->inject_delay_us = us;
    return 0;
}

int cli_opt_parse_back_to_back(cli_config_t *c, const char *v)
{
    (void)v;
    c->back_to_back = 1;
    return 0;
}

int cli_opt_parse_bcast_factor(cli_config_t *c, const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x) || x < 1 || x > 1e6)
        return cli_opt_fail("\"%s\" is not a factor (accepted: 1 to 1e6, e.g. 3)", v);
    c->bcast_factor = x;
    return 0;
}

/* A choice looked up in its library registry: the library's sentence
 * ('unknown filter "x" (known: tukey, none)') on failure. */
static int from_registry(int status)
{
    return status == HM_OK ? 0 : cli_opt_fail("%s", hm_last_error());
}

/* stats, campaign, compare: outlier filter and run-time definition of the
 * analysed column. */
int cli_opt_parse_filter(cli_config_t *c, const char *v)
{
    return from_registry(hm_analysis_filter_find(v, &c->filter));
}

int cli_opt_parse_metric(cli_config_t *c, const char *v)
{
    return from_registry(hm_results_metric_find(v, &c->metric));
}

/* The manifest is rewritten after every run: quadratic beyond a few thousand. */
#define MAX_RUNS 1000

int cli_opt_parse_runs(cli_config_t *c, const char *v)
{
    long x = 0;
    if (whole(v, &x) || x < 1 || x > MAX_RUNS)
        return cli_opt_fail("\"%s\" is not a number of runs (accepted: 1 to %d)", v, MAX_RUNS);
    c->runs = x;
    return 0;
}

int cli_opt_parse_dir(cli_config_t *c, const char *v)
{
    if (!*v) return cli_opt_fail("empty value (expected a directory)");
    if (strlen(v) >= sizeof c->dir)
        return cli_opt_fail("value longer than %zu characters", sizeof c->dir - 1);
    strcpy(c->dir, v);
    return 0;
}

int cli_opt_parse_alternative(cli_config_t *c, const char *v)
{
    return from_registry(hm_analysis_alternative_find(v, &c->alternative));
}

int cli_opt_parse_statistic(cli_config_t *c, const char *v)
{
    return from_registry(hm_analysis_statistic_find(v, &c->statistic));
}
