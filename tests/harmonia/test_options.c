/* tests/harmonia/test_options.c — the shared options: values, ranges, unknown and
 * misspelled options, options a command does not take, OSU aliases, and that
 * the order of options does not matter. */
#include <stdio.h>
#include <string.h>

#include <harmonia/procsync.h>

#include "options/config.h"
#include "testutil.h"

#define ALL_OPTIONS (~UINT64_C(0))
#define TIMERS_ONLY (HM_OPT_BIT(HM_OPT_TIMER) | HM_OPT_BIT(HM_OPT_SEED))

static int run(uint64_t mask, hm_cli_config_t *cfg, char *err, const char **args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "harmonia";
    argv[argc++] = "bench";
    for (; *args; args++) argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    hm_cli_config_defaults(cfg);
    cfg->command = "bench";
    err[0] = '\0';
    return hm_cli_parse(argc, argv, 2, mask, cfg, err, 1024);
}

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

static void expect_usage(uint64_t mask, const char **args, const char *fragment)
{
    hm_cli_config_t cfg;
    char err[1024];
    int rc = run(mask, &cfg, err, args);
    HM_CHECK(rc == HM_EXIT_USAGE && strstr(err, fragment),
             "%s ... -> exit 2 with \"%s\" (got %d: %s)", args[0], fragment, rc, err);
}

static void test_values(void)
{
    hm_cli_config_t cfg;
    char err[1024];
    int rc = run(ALL_OPTIONS, &cfg, err,
                 ARGS("--timer", "realtime", "--sizes", "8,1K", "--nrep", "50", "--warmup=0",
                      "--seed", "18446744073709551615", "--synthetic-clock",
                      "offset=1e-3,drift=1e-4,jitter=1e-7", "--ranks-per-node", "2",
                      "--ranks-per-socket", "1", "--clock-sync", "hca3+hca3+prop", "--per-rank",
                      "--output", "x.csv", "--offset", "meanrtt", "--format", "osu"));
    HM_CHECK(rc == HM_EXIT_OK, "a full valid command line parses (rc %d: %s)", rc, err);
    HM_CHECK(strcmp(cfg.timer, "realtime") == 0, "--timer stored: %s", cfg.timer);
    HM_CHECK(cfg.nsizes == 2 && cfg.sizes[0] == 8 && cfg.sizes[1] == 1024,
             "--sizes stored: %d sizes", cfg.nsizes);
    HM_CHECK(cfg.nrep == 50 && cfg.warmup == 0, "--nrep 50 --warmup=0 stored: %ld %ld", cfg.nrep,
             cfg.warmup);
    HM_CHECK(cfg.seed == UINT64_MAX, "--seed takes the full 64-bit range: %llu",
             (unsigned long long)cfg.seed);
    HM_CHECK(cfg.synthetic && cfg.synthetic_spec.offset_s == 1e-3 &&
                 cfg.synthetic_spec.drift == 1e-4 && cfg.synthetic_spec.jitter_s == 1e-7,
             "--synthetic-clock stored: %g %g %g", cfg.synthetic_spec.offset_s,
             cfg.synthetic_spec.drift, cfg.synthetic_spec.jitter_s);
    HM_CHECK(cfg.ranks_per_node == 2 && cfg.ranks_per_socket == 1 && cfg.per_rank,
             "topology and flags stored");
}

static void test_osu_aliases_and_order(void)
{
    hm_cli_config_t a, b;
    char err[1024];
    int ra = run(ALL_OPTIONS, &a, err, ARGS("-m", "1:64", "-i", "20", "-x", "3", "--seed", "5"));
    int rb = run(ALL_OPTIONS, &b, err, ARGS("--seed", "5", "-x3", "--nrep=20", "--sizes", "1:64"));
    HM_CHECK(ra == 0 && rb == 0 && a.nsizes == 7 && a.nrep == 20 && a.warmup == 3,
             "OSU -m 1:64 -i 20 -x 3 parse: %d sizes, nrep %ld, warmup %ld", a.nsizes, a.nrep,
             a.warmup);
    HM_CHECK(a.nsizes == b.nsizes && !memcmp(a.sizes, b.sizes, sizeof a.sizes) &&
                 a.nrep == b.nrep && a.warmup == b.warmup && a.seed == b.seed,
             "the same options in another order mean the same");
}

static void test_errors(void)
{
    expect_usage(ALL_OPTIONS, ARGS("--timer", "sundial"),
                 "--timer: unknown time source \"sundial\" (known: wtime, monotonic");
    expect_usage(ALL_OPTIONS, ARGS("--sizes", "1:abc"),
                 "--sizes: \"1:abc\" is not a size (examples: 8, 64K, 1:1M:x4)");
    expect_usage(ALL_OPTIONS, ARGS("--sizes", "1:100G"),
                 "--sizes: \"100G\" exceeds the largest size, 2147483647 bytes");
    expect_usage(ALL_OPTIONS, ARGS("--sizes="), "--sizes: empty size list");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", "-5"),
                 "--nrep: \"-5\" is out of range (accepted: 1 to");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", "0"), "--nrep: \"0\" is out of range");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", "ten"), "--nrep: \"ten\" is not an integer");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", "99999999999999999999"),
                 "--nrep: \"99999999999999999999\" is out of range");
    expect_usage(ALL_OPTIONS, ARGS("--warmup", "-1"),
                 "--warmup: \"-1\" is out of range (accepted: 0 to");
    expect_usage(ALL_OPTIONS, ARGS("--seed", "-1"), "--seed: \"-1\" is not a seed");
    expect_usage(ALL_OPTIONS, ARGS("--fitpoints", "0"), "--fitpoints: \"0\" is out of range");
    expect_usage(ALL_OPTIONS, ARGS("--exchanges", "0"), "--exchanges: \"0\" is out of range");
    expect_usage(ALL_OPTIONS, ARGS("--clock-sync", "hca3+hca3+hca3+prop"),
                 "at most 3 (node+socket+core)");
    expect_usage(ALL_OPTIONS, ARGS("--clock-sync", "hca3++prop"), "level 2 is empty");
    expect_usage(ALL_OPTIONS, ARGS("--offset", "ntp"),
                 "--offset: unknown offset algorithm \"ntp\"");
    expect_usage(ALL_OPTIONS, ARGS("--synthetic-clock", "offset=1,wobble=2"),
                 "unknown key \"wobble\"");
    expect_usage(ALL_OPTIONS, ARGS("--synthetic-clock", "drift=abc"),
                 "drift=\"abc\" is not a number");
    expect_usage(ALL_OPTIONS, ARGS("--synthetic-clock", "drift=-1e-4"), "is outside [0,");
    expect_usage(ALL_OPTIONS, ARGS("--tsc-ghz", "0"), "--tsc-ghz: \"0\" is not a frequency");
    expect_usage(ALL_OPTIONS, ARGS("--timer", "monotonic", "--tsc-ghz", "2"),
                 "only meaningful with --timer tsc");
    expect_usage(ALL_OPTIONS, ARGS("--ranks-per-node", "2", "--ranks-per-socket", "4"),
                 "--ranks-per-socket: 4 is more than --ranks-per-node 2");
    expect_usage(ALL_OPTIONS, ARGS("--recompute-intercept", "yes"),
                 "--recompute-intercept: \"yes\" is not on or off");
    expect_usage(ALL_OPTIONS, ARGS("--format", "json"), "--format: unknown format \"json\"");
    expect_usage(ALL_OPTIONS, ARGS("--sizs", "8"),
                 "unknown option \"--sizs\" (did you mean --sizes?)");
    expect_usage(ALL_OPTIONS, ARGS("--frobnicate"), "unknown option \"--frobnicate\"");
    expect_usage(ALL_OPTIONS, ARGS("-q"), "unknown option \"-q\"");
    expect_usage(ALL_OPTIONS, ARGS("--nrep"), "--nrep: a value is required");
    expect_usage(ALL_OPTIONS, ARGS("--seed", "3", "stray"), "unexpected argument \"stray\"");
    expect_usage(TIMERS_ONLY, ARGS("--sizes", "8"),
                 "--sizes (-m) is not an option of 'bench' (its options: --timer --seed)");
    expect_usage(TIMERS_ONLY, ARGS("-m", "8"), "--sizes (-m) is not an option of 'bench'");
}

/* Help texts name the choices of the library's tables: the oracle here is
 * the tables walked one name at a time, not their joined lists. */
static void test_choices(void)
{
    char out[512], want[512] = "";
    for (int i = 0; hm_analysis_filter_name((hm_filter_t)i); i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "|" : "",
                 hm_analysis_filter_name((hm_filter_t)i));
    hm_cli_expand_choices("[--filter {filter}]", out, sizeof out);
    HM_CHECK(strcmp(out, "[--filter tukey|none]") == 0 && strstr(out, want),
             "{filter} -> %s (tables: %s)", out, want);
    hm_cli_expand_choices("methods: {sync,}.", out, sizeof out);
    int commas = 0;
    for (const char *p = out; (p = strstr(p, ", ")); p++) commas++;
    HM_CHECK(commas + 1 == (int)hm_procsync_count() && strstr(out, hm_procsync_name_at(0)),
             "{sync,} -> %s (%zu methods)", out, hm_procsync_count());
    hm_cli_expand_choices("{drift} {seed} {nosuch,} {", out, sizeof out);
    HM_CHECK(strcmp(out, "auto|on|off {seed} {nosuch,} {") == 0,
             "unknown keys stay as written: %s", out);
    hm_cli_expand_choices("--timer {timer}", out, 12);
    HM_CHECK(strlen(out) == 11, "truncated to the buffer: \"%s\"", out);
}

int main(void)
{
    test_choices();
    test_values();
    test_osu_aliases_and_order();
    test_errors();
    /* The parser must be reusable (getopt state reset between calls). */
    test_values();
    return hm_test_finish();
}
