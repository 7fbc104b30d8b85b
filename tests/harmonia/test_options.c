/* tests/harmonia/test_options.c — the shared options: values, ranges, unknown and
 * misspelled options, options a command does not take, OSU aliases, and that
 * the order of options does not matter; options given twice, items listed
 * twice, abbreviations, and numbers that must not wrap. */
#include <stdio.h>
#include <string.h>

#include <harmonia/procsync.h>

#include "options/config.h"
#include "testutil.h"

#define ALL_OPTIONS (~UINT64_C(0))
#define TIMERS_ONLY (HM_OPT_BIT(HM_OPT_TIMER) | HM_OPT_BIT(HM_OPT_SEED))
/* A command with a few options starting alike, and without --runs or --root. */
#define BENCH_LIKE                                                                                 \
    (HM_OPT_BIT(HM_OPT_SYNC) | HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_NREP) |                \
     HM_OPT_BIT(HM_OPT_SEED) | HM_OPT_BIT(HM_OPT_RANKS_PER_NODE) |                                 \
     HM_OPT_BIT(HM_OPT_RANKS_PER_SOCKET) | HM_OPT_BIT(HM_OPT_VALIDATE))
#define HELP_ONLY HM_OPT_BIT(HM_OPT_HELP)

static int run(uint64_t mask, cli_config_t *cfg, char *err, const char **args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "harmonia";
    argv[argc++] = "bench";
    for (; *args; args++) argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    cli_config_defaults(cfg);
    cfg->command = "bench";
    /* A refusal's message is the last error (hm_last_error); err gets it. */
    int rc = cli_parse(argc, argv, 2, mask, cfg);
    snprintf(err, 1024, "%s", rc != HM_OK ? hm_last_error() : "");
    return rc;
}

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

static void expect_usage(uint64_t mask, const char **args, const char *fragment)
{
    cli_config_t cfg;
    char err[1024];
    int rc = run(mask, &cfg, err, args);
    HM_CHECK(rc == HM_EINVAL && strstr(err, fragment), "%s ... -> exit 2 with \"%s\" (got %d: %s)",
             args[0], fragment, rc, err);
}

/* The message is exactly what, with nothing before or after it: a
 * suggestion appended where none is wanted fails. */
static void expect_exact(uint64_t mask, const char **args, const char *what)
{
    cli_config_t cfg;
    char err[1024];
    int rc = run(mask, &cfg, err, args);
    HM_CHECK(rc == HM_EINVAL && strcmp(err, what) == 0,
             "%s ... -> exit 2 with exactly \"%s\" (got %d: %s)", args[0], what, rc, err);
}

static void expect_ok(uint64_t mask, const char **args, cli_config_t *cfg)
{
    char err[1024];
    int rc = run(mask, cfg, err, args);
    HM_CHECK(rc == HM_OK, "%s %s ... parses (got %d: %s)", args[0], args[1] ? args[1] : "", rc,
             err);
}

static void test_values(void)
{
    cli_config_t cfg;
    char err[1024];
    int rc = run(ALL_OPTIONS, &cfg, err,
                 ARGS("--timer", "realtime", "--sizes", "8,1K", "--nrep", "50", "--warmup=0",
                      "--seed", "18446744073709551615", "--synthetic-clock",
                      "offset=1e-3,drift=1e-4,jitter=1e-7", "--ranks-per-node", "2",
                      "--ranks-per-socket", "1", "--clock-sync", "hca3+hca3+prop", "--per-rank",
                      "--output", "x.csv", "--offset", "meanrtt", "--format", "osu"));
    HM_CHECK(rc == HM_OK, "a full valid command line parses (rc %d: %s)", rc, err);
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
    cli_config_t a, b;
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
                 "--sizes: \"1:abc\" is not a size (accepted: 0 to 2147483647 bytes; K, M, G are "
                 "powers of 1024; examples: 8, 64K, 1:1M:x4)");
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

/* An option given twice is refused, whatever the spelling: the last one
 * winning would hide which value was measured. */
static void test_given_twice(void)
{
    expect_exact(ALL_OPTIONS, ARGS("--nrep", "5", "--nrep", "7"),
                 "--nrep (-i): given twice (\"5\", then \"7\")");
    expect_exact(ALL_OPTIONS, ARGS("-i", "5", "--nrep=7"),
                 "--nrep (-i): given twice (\"5\", then \"7\")");
    expect_usage(ALL_OPTIONS, ARGS("--sizes", "8", "-m64"),
                 "--sizes (-m): given twice (\"8\", then \"64\")");
    expect_usage(ALL_OPTIONS, ARGS("--seed", "3", "--ops", "bcast", "--seed", "3"),
                 "--seed: given twice (\"3\", then \"3\")");
    expect_exact(ALL_OPTIONS, ARGS("--validate", "--nrep", "5", "--validate"),
                 "--validate: given twice");
    expect_exact(ALL_OPTIONS, ARGS("-h", "--help"), "--help (-h): given twice");
    expect_exact(
        ALL_OPTIONS, ARGS("--synthetic-clock", "offset=1,offset=2"),
        "--synthetic-clock: key \"offset\" is given twice (\"offset=1\", then \"offset=2\")");
    expect_usage(ALL_OPTIONS, ARGS("--synthetic-clock", "drift=1e-4,jitter=0,drift=0"),
                 "key \"drift\" is given twice (\"drift=1e-4\", then \"drift=0\")");
}

/* Full names only, and suggestions only among the command's options. */
static void test_abbreviations(void)
{
    cli_config_t cfg;
    expect_exact(BENCH_LIKE, ARGS("--s", "8"),
                 "unknown option \"--s\" (ambiguous: --sync, --sizes, --seed; abbreviations are "
                 "not accepted)");
    expect_exact(BENCH_LIKE, ARGS("--ranks", "2"),
                 "unknown option \"--ranks\" (ambiguous: --ranks-per-node, --ranks-per-socket; "
                 "abbreviations are not accepted)");
    expect_exact(BENCH_LIKE, ARGS("--siz", "8"),
                 "unknown option \"--siz\" (did you mean --sizes? abbreviations are not accepted)");
    expect_exact(
        BENCH_LIKE, ARGS("--nre=5"),
        "unknown option \"--nre=5\" (did you mean --nrep? abbreviations are not accepted)");
    expect_exact(ALL_OPTIONS, ARGS("--valid"),
                 "unknown option \"--valid\" (did you mean --validate? abbreviations are not "
                 "accepted)");
    /* --runs and --root exist, but not for this command. */
    expect_exact(BENCH_LIKE, ARGS("--rnus", "3"), "unknown option \"--rnus\"");
    expect_usage(ALL_OPTIONS, ARGS("--rnus", "3"), "(did you mean --runs?)");
    expect_exact(HELP_ONLY, ARGS("--foo"), "unknown option \"--foo\"");
    expect_exact(HELP_ONLY, ARGS("--roo", "1"), "unknown option \"--roo\"");
    expect_exact(BENCH_LIKE, ARGS("--rank", "2"),
                 "unknown option \"--rank\" (ambiguous: --ranks-per-node, --ranks-per-socket; "
                 "abbreviations are not accepted)");
    expect_exact(ALL_OPTIONS, ARGS("--validate=yes"),
                 "--validate: takes no value (got \"--validate=yes\")");
    /* The full names, and values that look like options, still work. */
    expect_ok(BENCH_LIKE, ARGS("--sizes", "8", "--sync", "barrier", "--seed", "2"), &cfg);
    expect_usage(BENCH_LIKE, ARGS("--nrep", "--seed"), "--nrep: \"--seed\" is not an integer");
}

/* Every numeric option states what it accepts, and no number wraps into
 * range (4294967297 is 1 in 32 bits, 18446744073709551621 is 5 in 64). */
static void test_ranges(void)
{
    cli_config_t cfg;
    expect_exact(ALL_OPTIONS, ARGS("--check-after", "1e9"),
                 "--check-after: \"1e9\" is not a wait in seconds (accepted: 0 to 86400)");
    expect_usage(ALL_OPTIONS, ARGS("--check-after", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"),
                 "--check-after: more than 16 waits (accepted: 1 to 16)");
    expect_exact(ALL_OPTIONS, ARGS("--inject-delay", "4294967297:5:100"),
                 "--inject-delay: \"4294967297:5:100\" is not RANK:ATTEMPT:MICROSECONDS: RANK "
                 "\"4294967297\" is out of range (accepted: 0 to 2147483647)");
    expect_usage(ALL_OPTIONS, ARGS("--inject-delay", "1:18446744073709551621:100"),
                 "ATTEMPT \"18446744073709551621\" is out of range (accepted: 0 to 999999999)");
    expect_usage(ALL_OPTIONS, ARGS("--inject-delay", "1:-1:100"),
                 "ATTEMPT \"-1\" is out of range (accepted: 0 to 999999999)");
    expect_usage(
        ALL_OPTIONS, ARGS("--inject-delay", "1:5:1e8"),
        "MICROSECONDS \"1e8\" is not a duration in microseconds (accepted: 0 to 10000000)");
    expect_usage(ALL_OPTIONS, ARGS("--inject-delay", "1:5"),
                 "\"1:5\" is not RANK:ATTEMPT:MICROSECONDS (example: 1:5:200; accepted: RANK 0 to "
                 "2147483647, ATTEMPT 0 to 999999999, MICROSECONDS 0 to 10000000)");
    expect_usage(ALL_OPTIONS, ARGS("--inject-delay", " 1:5:100"),
                 "RANK \" 1\" is not an integer (accepted: 0 to 2147483647)");
    expect_ok(ALL_OPTIONS, ARGS("--inject-delay", "2147483647:999999999:1e7"), &cfg);
    HM_CHECK(cfg.inject_rank == 2147483647 && cfg.inject_attempt == 999999999 &&
                 cfg.inject_delay_us == 1e7,
             "--inject-delay at its bounds stored: %d %ld %g", cfg.inject_rank, cfg.inject_attempt,
             cfg.inject_delay_us);
    expect_usage(ALL_OPTIONS, ARGS("--seed", " -1"),
                 "--seed: \" -1\" is not a seed (accepted: 0 to");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", "+5"),
                 "--nrep: \"+5\" is not an integer (accepted: 1 to");
    expect_usage(ALL_OPTIONS, ARGS("--nrep", " 5"),
                 "--nrep: \" 5\" is not an integer (accepted: 1 to");
    expect_usage(ALL_OPTIONS, ARGS("--root", "4294967296"),
                 "--root: \"4294967296\" is out of range (accepted: 0 to 1073741824)");
    expect_usage(ALL_OPTIONS, ARGS("--runs", "4294967297"),
                 "--runs: \"4294967297\" is not a number of runs (accepted: 1 to 1000)");
    expect_usage(ALL_OPTIONS, ARGS("--max-attempts", "18446744073709551617"),
                 "--max-attempts: \"18446744073709551617\" is out of range (accepted: 1 to "
                 "1000000000)");
    expect_usage(ALL_OPTIONS, ARGS("--window-us", "0"),
                 "--window-us: \"0\" is not a duration in microseconds (accepted: more than 0 to "
                 "10000000)");
    expect_usage(ALL_OPTIONS, ARGS("--sizes", "1:1M:x1"),
                 "is not a range factor (accepted: x2 to x2147483647");
    expect_usage(ALL_OPTIONS, ARGS("--sizes", "1:1M:x18446744073709551617"),
                 "is not a range factor (accepted: x2 to x2147483647");
}

/* One rule for every list: an item listed twice is an error naming it. */
static void test_list_duplicates(void)
{
    cli_config_t cfg;
    expect_exact(ALL_OPTIONS, ARGS("--ops", "bcast,bcast"), "--ops: \"bcast\" is listed twice");
    expect_exact(ALL_OPTIONS, ARGS("--sync", "barrier,dissem,barrier"),
                 "--sync: \"barrier\" is listed twice");
    expect_exact(ALL_OPTIONS, ARGS("--clock-sync", "hca3,hca3"),
                 "--clock-sync: \"hca3\" is listed twice");
    expect_exact(ALL_OPTIONS, ARGS("--sizes", "8,8"), "--sizes: 8 is listed twice");
    expect_exact(ALL_OPTIONS, ARGS("--sizes", "8,1:16"),
                 "--sizes: 8 is listed twice (\"8\", then \"1:16\")");
    expect_exact(ALL_OPTIONS, ARGS("-m", "1K,1024"),
                 "--sizes: 1024 is listed twice (\"1K\", then \"1024\")");
    expect_exact(ALL_OPTIONS, ARGS("--check-after", "0,0"), "--check-after: 0 is listed twice");
    expect_exact(ALL_OPTIONS, ARGS("--check-after", "0,1,1.0"), "--check-after: 1 is listed twice");
    /* Distinct items, ranges included, are fine; sizes are sorted. */
    expect_ok(ALL_OPTIONS, ARGS("--sizes", "1:1M"), &cfg);
    HM_CHECK(cfg.nsizes == 21 && cfg.sizes[20] == 1048576, "--sizes 1:1M: 21 sizes (got %d)",
             cfg.nsizes);
    expect_ok(ALL_OPTIONS, ARGS("--sizes", "64,0:4,8"), &cfg);
    HM_CHECK(cfg.nsizes == 6 && cfg.sizes[0] == 0 && cfg.sizes[5] == 64,
             "--sizes 64,0:4,8: 0 1 2 4 8 64 (got %d sizes)", cfg.nsizes);
    expect_ok(
        ALL_OPTIONS,
        ARGS("--ops", "bcast,ibcast", "--clock-sync", "hca3,hca3+prop", "--check-after", "0,1,5"),
        &cfg);
    HM_CHECK(cfg.ncheck_after == 3 && cfg.check_after_s[2] == 5, "--check-after 0,1,5 stored");
}

/* Help texts name the choices of the library's tables: the oracle here is
 * the tables walked one name at a time, not their joined lists. */
static void test_choices(void)
{
    char out[512], want[512] = "";
    for (int i = 0; hm_analysis_filter_name((hm_filter_t)i); i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "|" : "",
                 hm_analysis_filter_name((hm_filter_t)i));
    cli_expand_choices("[--filter {filter}]", out, sizeof out);
    HM_CHECK(strcmp(out, "[--filter tukey|none]") == 0 && strstr(out, want),
             "{filter} -> %s (tables: %s)", out, want);
    cli_expand_choices("methods: {sync,}.", out, sizeof out);
    int commas = 0;
    for (const char *p = out; (p = strstr(p, ", ")); p++) commas++;
    HM_CHECK(commas + 1 == (int)hm_procsync_count() && strstr(out, hm_procsync_name_at(0)),
             "{sync,} -> %s (%zu methods)", out, hm_procsync_count());
    cli_expand_choices("{drift} {seed} {nosuch,} {", out, sizeof out);
    HM_CHECK(strcmp(out, "auto|on|off {seed} {nosuch,} {") == 0, "unknown keys stay as written: %s",
             out);
    cli_expand_choices("--timer {timer}", out, 12);
    HM_CHECK(strlen(out) == 11, "truncated to the buffer: \"%s\"", out);
}

int main(void)
{
    test_choices();
    test_values();
    test_osu_aliases_and_order();
    test_errors();
    test_given_twice();
    test_abbreviations();
    test_ranges();
    test_list_duplicates();
    /* The parser must be reusable (no state kept between calls). */
    test_values();
    return hm_test_finish();
}
