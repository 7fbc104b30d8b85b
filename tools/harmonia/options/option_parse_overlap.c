/* tools/harmonia/options/option_parse_overlap.c — the options of `harmonia
 * overlap`: the grid of target times and the compute threads. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options/options_table.h"

/* Targets from 1 ns (below any collective's latency and any dgemm call,
 * whose call and argument checks alone take tens of ns: reported
 * below-min, not refused; 0.1 us was met by a 7 x 7 dgemm on a faster
 * core) to 100 s (a grid of such cells would run for days). */
#define TARGET_MIN_US 0.001
#define TARGET_MAX_US 1e8

static int target_us(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v) || v < TARGET_MIN_US || v > TARGET_MAX_US)
        return cli_opt_fail("\"%s\" is not a time in microseconds (accepted: %g to %g)", text,
                            TARGET_MIN_US, TARGET_MAX_US);
    *out = v;
    return 0;
}

/* "FIRST:LAST:xFACTOR": FIRST, FIRST x FACTOR, ... up to LAST. */
static int target_range(const char *v, double *t, int *n)
{
    char buf[128], *a = buf, *b, *c;
    double first, last, factor;
    if (strlen(v) >= sizeof buf) return cli_opt_fail("\"%.40s...\" is too long", v);
    strcpy(buf, v);
    b = strchr(a, ':');
    *b++ = '\0';
    c = strchr(b, ':');
    if (!c || c[1] != 'x')
        return cli_opt_fail("\"%s\" is not FIRST:LAST:xFACTOR (e.g. 500:1000000:x2)", v);
    *c = '\0';
    c += 2;
    char *end;
    factor = strtod(c, &end);
    if (target_us(a, &first) || target_us(b, &last)) return -1;
    if (*end || !(factor >= 1.1 && factor <= 1000))
        return cli_opt_fail("factor \"%s\" is not a number from 1.1 to 1000", c);
    if (last < first) return cli_opt_fail("\"%s\": LAST is below FIRST", v);
    for (*n = 0; first <= last * (1 + 1e-9); first *= factor) {
        if (*n == HM_CLI_MAX_TARGETS)
            return cli_opt_fail("\"%s\" gives more than %d targets", v, HM_CLI_MAX_TARGETS);
        t[(*n)++] = first * 1e-6;
    }
    return 0;
}

/* "A,B,C" ascending, no duplicates, no empty item. */
static int target_list(const char *v, double *t, int *n)
{
    char buf[512];
    if (strlen(v) >= sizeof buf) return cli_opt_fail("\"%.40s...\" is too long", v);
    strcpy(buf, v);
    *n = 0;
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        if (!*item) return cli_opt_fail("\"%s\" has an empty item", v);
        if (*n == HM_CLI_MAX_TARGETS)
            return cli_opt_fail("more than %d targets", HM_CLI_MAX_TARGETS);
        double us;
        if (target_us(item, &us)) return -1;
        t[*n] = us * 1e-6;
        if (*n > 0 && t[*n] <= t[*n - 1])
            return cli_opt_fail("\"%s\": targets must be increasing, each once", v);
        (*n)++;
    }
    return 0;
}

static int targets(const char *v, double *t, int *n)
{
    if (!*v) return cli_opt_fail("empty (examples: 500:1000000:x2, 100,1000,10000)");
    return strchr(v, ':') ? target_range(v, t, n) : target_list(v, t, n);
}

int cli_opt_parse_comm_us(cli_config_t *c, const char *v)
{
    return targets(v, c->comm_targets_s, &c->ncomm_targets);
}

/* "comm": OSU's and IMB's configuration, the computation as long as the
 * communication alone, one target per cell (the targets array keeps one
 * placeholder, so that the grid has one computation column). */
int cli_opt_parse_comp_us(cli_config_t *c, const char *v)
{
    c->comp_is_comm = strcmp(v, "comm") == 0;
    if (!c->comp_is_comm) return targets(v, c->comp_targets_s, &c->ncomp_targets);
    c->comp_targets_s[0] = NAN;
    c->ncomp_targets = 1;
    return 0;
}

/* The upper limit, the cores a rank may use, is known only at run time
 * (hm_compute_create says it). */
int cli_opt_parse_threads(cli_config_t *c, const char *v)
{
    long x;
    if (cli_opt_integer(v, 1, 4096, &x)) return -1;
    c->threads = (int)x;
    return 0;
}
