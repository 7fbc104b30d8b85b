/* tools/harmonia/options/option_defs.c — every option: spelling, help, accepted values and
 * the function that checks and stores its value. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/sync.h>

#include "options/options_table.h"

int cli_opt_fail(const char *fmt, ...)
{
    char reason[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return hm_error_set(HM_EINVAL, "%s", reason);
}

static int copy_text(char *dst, size_t cap, const char *v, const char *what)
{
    if (!*v) return cli_opt_fail("empty value (expected %s)", what);
    if (strlen(v) >= cap) return cli_opt_fail("value longer than %zu characters", cap - 1);
    strcpy(dst, v);
    return 0;
}

/* The item of a comma-separated list that starts at p, and the next one
 * (NULL after the last). */
static const char *next_item(const char *p)
{
    p += strcspn(p, ",");
    return *p ? p + 1 : NULL;
}

static int shown_len(const char *item)
{
    size_t n = strcspn(item, ",");
    return n > 64 ? 64 : (int)n;
}

/* In a comma-separated list, the first item whose key (the item up to a
 * character of stop) an earlier item has too: 1 with *a and *b at the two
 * items, or 0. Empty keys are skipped: the value's own check names them. */
static int repeated_key(const char *list, const char *stop, const char **a, const char **b)
{
    for (const char *q = list; q; q = next_item(q)) {
        size_t nq = strcspn(q, stop);
        if (nq == 0) continue;
        for (const char *p = list; p != q; p = next_item(p))
            if (strcspn(p, stop) == nq && strncmp(p, q, nq) == 0) {
                *a = p, *b = q;
                return 1;
            }
    }
    return 0;
}

/* One rule for every list option: an item listed twice is refused, never
 * silently measured twice or merged, since it is most often a typo for
 * another item. */
/* One rule for every list: no empty item, no item twice. */
static int distinct_items(const char *v)
{
    const char *a, *b;
    size_t n = strlen(v);
    if (n == 0 || v[0] == ',' || v[n - 1] == ',' || strstr(v, ",,"))
        return cli_opt_fail("\"%s\" has an empty item", v);
    if (!repeated_key(v, ",", &a, &b)) return 0;
    return cli_opt_fail("\"%.*s\" is listed twice", shown_len(b), b);
}

static int p_timer(cli_config_t *c, const char *v)
{
    char known[256];
    for (size_t i = 0; i < hm_timer_count(); i++)
        if (strcmp(v, hm_timer_name_at(i)) == 0) return copy_text(c->timer, sizeof c->timer, v, "");
    hm_timer_names(known, sizeof known);
    return cli_opt_fail("unknown time source \"%s\" (known: %s)", v, known);
}

static int p_tsc_ghz(cli_config_t *c, const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x) || x <= 0 || x > 100)
        return cli_opt_fail("\"%s\" is not a frequency in GHz (accepted: 0 < F <= 100, e.g. 2.3)",
                            v);
    c->tsc_ghz = x;
    return 0;
}

/* A comma-separated list of specifications (harmonia clock compares several;
 * other commands take one), each checked against the registry. */
static int p_clock_sync(cli_config_t *c, const char *v)
{
    char buf[sizeof c->clock_sync];
    if (copy_text(c->clock_sync, sizeof c->clock_sync, v, "an algorithm, e.g. hca3")) return -1;
    strcpy(buf, v);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        if (hm_sync_check_spec(item) != HM_OK) return cli_opt_fail("%s", hm_last_error());
    }
    return distinct_items(v);
}

static int p_positive_int(int *dst, const char *v)
{
    long x = 0;
    if (cli_opt_integer(v, 1, 100000000, &x)) return -1;
    *dst = (int)x;
    return 0;
}

static int p_fitpoints(cli_config_t *c, const char *v)
{
    return p_positive_int(&c->fitpoints, v);
}

static int p_exchanges(cli_config_t *c, const char *v)
{
    return p_positive_int(&c->exchanges, v);
}

static int p_offset(cli_config_t *c, const char *v)
{
    char known[64];
    if (hm_offset_find(v, &c->offset) != HM_OK) {
        hm_offset_names(known, sizeof known);
        return cli_opt_fail("unknown offset algorithm \"%s\" (known: %s)", v, known);
    }
    return 0;
}

/* --sync and --ops are split and looked up by the commands (skew takes a
 * list of methods, bench a list of operations); their duplicates are
 * refused here, with every other list's. */
static int p_sync(cli_config_t *c, const char *v)
{
    if (copy_text(c->sync, sizeof c->sync, v, "a method, e.g. harmonize")) return -1;
    return distinct_items(v);
}

static int p_ops(cli_config_t *c, const char *v)
{
    if (copy_text(c->ops, sizeof c->ops, v, "operations, e.g. bcast,allreduce")) return -1;
    return distinct_items(v);
}

static int p_sizes(cli_config_t *c, const char *v)
{
    return cli_parse_sizes(v, c->sizes, HM_CLI_MAX_SIZES, &c->nsizes);
}

static int p_nrep(cli_config_t *c, const char *v)
{
    return cli_opt_integer(v, 1, 100000000, &c->nrep);
}

static int p_warmup(cli_config_t *c, const char *v)
{
    return cli_opt_integer(v, 0, 100000000, &c->warmup);
}

static int p_output(cli_config_t *c, const char *v)
{
    return copy_text(c->output, sizeof c->output, v, "a file name");
}

static int p_raw(cli_config_t *c, const char *v)
{
    return copy_text(c->raw, sizeof c->raw, v, "a file name");
}

static int p_seed(cli_config_t *c, const char *v)
{
    char *end;
    errno = 0;
    /* Digits only: strtoull itself would take " -1" as 2^64 - 1. */
    unsigned long long x = strtoull(v, &end, 10);
    if (!isdigit((unsigned char)*v) || *end || errno)
        return cli_opt_fail("\"%s\" is not a seed (accepted: 0 to %llu)", v, ULLONG_MAX);
    c->seed = x;
    return 0;
}

/* The library lets a later key=value replace an earlier one; on the command
 * line that hides a mistake, so a key given twice is refused here. */
static int synthetic_keys_distinct(const char *v)
{
    const char *a, *b;
    if (!repeated_key(v, ",=", &a, &b)) return 0;
    return cli_opt_fail("key \"%.*s\" is given twice (\"%.*s\", then \"%.*s\")",
                        (int)strcspn(b, ",="), b, shown_len(a), a, shown_len(b), b);
}

static int p_synthetic(cli_config_t *c, const char *v)
{
    if (synthetic_keys_distinct(v)) return -1;
    if (hm_timer_parse_synthetic(v, &c->synthetic_spec) != HM_OK)
        return cli_opt_fail("\"%s\": %s (example: offset=1e-3,drift=1e-4,jitter=0)", v,
                            hm_last_error());
    c->synthetic = 1;
    return 0;
}

static int p_ranks_per_node(cli_config_t *c, const char *v)
{
    return p_positive_int(&c->ranks_per_node, v);
}

static int p_ranks_per_socket(cli_config_t *c, const char *v)
{
    return p_positive_int(&c->ranks_per_socket, v);
}

static int p_flag_per_rank(cli_config_t *c, const char *v)
{
    (void)v;
    c->per_rank = 1;
    return 0;
}

/* plot writes images; the other commands print tables. */
static int p_format(cli_config_t *c, const char *v)
{
    if (c->command && strcmp(c->command, "plot") == 0) {
        if (strcmp(v, "svg") && strcmp(v, "png") && strcmp(v, "both"))
            return cli_opt_fail("unknown image format \"%s\" (known: svg, png, both)", v);
    } else if (strcmp(v, "table") && strcmp(v, "osu")) {
        return cli_opt_fail("unknown format \"%s\" (known: table, osu)", v);
    }
    strcpy(c->format, v);
    return 0;
}

/* Waits after synchronization, in seconds: ascending, at most 16, each
 * within a day (a drift check longer than that belongs to another tool). */
#define MAX_WAITS  16
#define MAX_WAIT_S 86400.0

static int wait_s(const char *item, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(item, &end);
    if (!*item || *end || errno || !isfinite(x) || x < 0 || x > MAX_WAIT_S)
        return cli_opt_fail("\"%s\" is not a wait in seconds (accepted: 0 to %g)", item,
                            MAX_WAIT_S);
    *out = x;
    return 0;
}

static int p_check_after(cli_config_t *c, const char *v)
{
    char buf[256];
    double *w = c->check_after_s;
    int n = 0;
    if (!*v) return cli_opt_fail("empty list (example: 0,1,5,10)");
    if (strlen(v) >= sizeof buf)
        return cli_opt_fail("list longer than %zu characters", sizeof buf - 1);
    strcpy(buf, v);
    for (char *item = buf, *next; item; item = next, n++) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        if (n >= MAX_WAITS)
            return cli_opt_fail("more than %d waits (accepted: 1 to %d)", MAX_WAITS, MAX_WAITS);
        if (wait_s(item, &w[n])) return -1;
        for (int i = 0; i < n; i++)
            if (w[i] == w[n]) return cli_opt_fail("%g is listed twice", w[n]);
        if (n > 0 && w[n] < w[n - 1]) return cli_opt_fail("\"%s\": waits must be increasing", v);
    }
    c->ncheck_after = n;
    return 0;
}

static int p_sample(cli_config_t *c, const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !(x > 0 && x <= 1))
        return cli_opt_fail("\"%s\" is not a fraction of ranks (accepted: 0 < F <= 1)", v);
    c->sample = x;
    return 0;
}

static int p_drift(cli_config_t *c, const char *v)
{
    if (hm_sync_drift_find(v, &c->drift) != HM_OK) return cli_opt_fail("%s", hm_last_error());
    return 0;
}

static int p_recompute(cli_config_t *c, const char *v)
{
    if (strcmp(v, "on") && strcmp(v, "off")) return cli_opt_fail("\"%s\" is not on or off", v);
    c->recompute_intercept = strcmp(v, "on") == 0;
    return 0;
}

static int p_help(cli_config_t *c, const char *v)
{
    (void)v;
    c->help = 1;
    return 0;
}

const cli_opt_def_t cli_options[HM_OPT_COUNT] = {
    [HM_OPT_TIMER] = {HM_OPT_TIMER, "timer", 0, "NAME",
                      "local time source: {timer,} (default " HM_CLI_DEFAULT_TIMER ")",
                      "e.g. --timer monotonic", p_timer},
    [HM_OPT_TSC_GHZ] = {HM_OPT_TSC_GHZ, "tsc-ghz", 0, "F",
                        "TSC frequency in GHz for --timer tsc (default: read from the system)",
                        "e.g. --tsc-ghz 2.3", p_tsc_ghz},
    [HM_OPT_CLOCK_SYNC] = {HM_OPT_CLOCK_SYNC, "clock-sync", 0, "SPEC",
                           "clock synchronization: an algorithm ({clock-sync,}), or levels "
                           "joined by + outermost first (hca3+prop)",
                           "e.g. --clock-sync hca3+prop", p_clock_sync},
    [HM_OPT_FITPOINTS] =
        {HM_OPT_FITPOINTS, "fitpoints", 0, "N",
         "points per linear regression of the drift-aware algorithms (default 1000)",
         "e.g. --fitpoints 200", p_fitpoints},
    [HM_OPT_EXCHANGES] = {HM_OPT_EXCHANGES, "exchanges", 0, "N",
                          "ping-pongs per clock offset measurement (default 100)",
                          "e.g. --exchanges 20", p_exchanges},
    [HM_OPT_OFFSET] = {HM_OPT_OFFSET, "offset", 0, "NAME",
                       "clock offset algorithm: {offset,} (default skampi)", "e.g. --offset skampi",
                       p_offset},
    [HM_OPT_SYNC] = {HM_OPT_SYNC, "sync", 0, "METHOD", "process synchronization: {sync,}",
                     "e.g. --sync harmonize", p_sync},
    [HM_OPT_OPS] = {HM_OPT_OPS, "ops", 0, "LIST", "comma-separated operations: {ops,}",
                    "e.g. --ops bcast,allreduce", p_ops},
    [HM_OPT_SIZES] = {HM_OPT_SIZES, "sizes", 'm', "SPEC",
                      "message sizes in bytes: 8,64,1K or 1:1M (powers of two) or 1:1M:x4; "
                      "K, M, G are powers of 1024 (OSU: -m MIN:MAX)",
                      "e.g. --sizes 8,64K or --sizes 1:1M:x4", p_sizes},
    [HM_OPT_NREP] = {HM_OPT_NREP, "nrep", 'i', "N",
                     "repetitions per measurement (OSU: -i; nccl-tests: -n)", "e.g. --nrep 1000",
                     p_nrep, 'n'},
    [HM_OPT_WARMUP] = {HM_OPT_WARMUP, "warmup", 'x', "N",
                       "warm-up iterations before the repetitions (OSU: -x; nccl-tests: -w)",
                       "e.g. --warmup 10", p_warmup, 'w'},
    [HM_OPT_OUTPUT] = {HM_OPT_OUTPUT, "output", 0, "FILE",
                       "summary CSV with the experimental factors", "e.g. --output result.csv",
                       p_output},
    [HM_OPT_RAW] = {HM_OPT_RAW, "raw", 0, "FILE", "one row per repetition CSV",
                    "e.g. --raw reps.csv", p_raw},
    [HM_OPT_SEED] = {HM_OPT_SEED, "seed", 0, "N",
                     "randomization seed (experiment order, synthetic clocks); default 1, "
                     "always written to the output",
                     "e.g. --seed 42", p_seed},
    [HM_OPT_SYNTHETIC_CLOCK] = {HM_OPT_SYNTHETIC_CLOCK, "synthetic-clock", 0, "SPEC",
                                "testing: per-rank offset (s), drift and jitter (s) drawn "
                                "within these bounds from --seed, over the real time source",
                                "e.g. --synthetic-clock offset=1e-3,drift=1e-4,jitter=0",
                                p_synthetic},
    [HM_OPT_RANKS_PER_NODE] =
        {HM_OPT_RANKS_PER_NODE, "ranks-per-node", 0, "N",
         "testing: treat N consecutive ranks as one node (the last holds the rest); "
         "for a hierarchical --clock-sync or --synthetic-clock",
         "e.g. --ranks-per-node 2", p_ranks_per_node},
    [HM_OPT_RANKS_PER_SOCKET] =
        {HM_OPT_RANKS_PER_SOCKET, "ranks-per-socket", 0, "N",
         "testing: treat N consecutive ranks of a node as one socket; for a "
         "--clock-sync of three levels",
         "e.g. --ranks-per-socket 1", p_ranks_per_socket},
    [HM_OPT_PER_RANK] = {HM_OPT_PER_RANK, "per-rank", 0, NULL,
                         "report every rank instead of the worst over ranks", "--per-rank",
                         p_flag_per_rank},
    [HM_OPT_FORMAT] = {HM_OPT_FORMAT, "format", 0, "NAME",
                       "stdout layout: table, or osu for OSU's columns (plot: image format "
                       "svg, png or both)",
                       "e.g. --format osu", p_format},
    [HM_OPT_HELP] = {HM_OPT_HELP, "help", 'h', NULL, "this help", "--help", p_help},
    [HM_OPT_CHECK_AFTER] = {HM_OPT_CHECK_AFTER, "check-after", 0, "LIST",
                            "seconds after synchronization at which the clocks are checked "
                            "(default 0,1)",
                            "e.g. --check-after 0,1,5,10", p_check_after},
    [HM_OPT_SAMPLE] = {HM_OPT_SAMPLE, "sample", 0, "F",
                       "fraction of ranks whose offset is measured by ping-pong (at scale); "
                       "default 1",
                       "e.g. --sample 0.1", p_sample},
    [HM_OPT_DRIFT] = {HM_OPT_DRIFT, "drift", 0, "MODE",
                      "clock drift models: {drift,}; auto keeps a slope only where it is "
                      "significant (default auto)",
                      "e.g. --drift auto", p_drift},
    [HM_OPT_RECOMPUTE_INTERCEPT] =
        {HM_OPT_RECOMPUTE_INTERCEPT, "recompute-intercept", 0, "on|off",
         "after each linear fit, re-measure the offset and set the "
         "intercept through it (Hunold & Carpen-Amarie 2018, Alg. 2; default on)",
         "e.g. --recompute-intercept off", p_recompute},
    [HM_OPT_ROOT] = {HM_OPT_ROOT, "root", 0, "N",
                     "root rank of bcast, reduce, gather, scatter (default 0)", "e.g. --root 1",
                     cli_opt_parse_root},
    [HM_OPT_PEER] = {HM_OPT_PEER, "peer", 0, "N",
                     "partner of rank 0 in pingpong (default 1; not 0)", "e.g. --peer 3",
                     cli_opt_parse_peer},
    [HM_OPT_VALIDATE] = {HM_OPT_VALIDATE, "validate", 0, NULL,
                         "check the result of every repetition (outside the timed region)",
                         "--validate", cli_opt_parse_validate},
    [HM_OPT_CHECK_EVERY] = {HM_OPT_CHECK_EVERY, "check-every", 0, "N",
                            "repetitions between agreements on their validity, one "
                            "MPI_Allreduce each (default 16)",
                            "e.g. --check-every 16", cli_opt_parse_check_every},
    [HM_OPT_MAX_ATTEMPTS] = {HM_OPT_MAX_ATTEMPTS, "max-attempts", 0, "N",
                             "repetitions tried at most to get --nrep valid ones "
                             "(default 10 x nrep + 100)",
                             "e.g. --max-attempts 5000", cli_opt_parse_max_attempts},
    [HM_OPT_WINDOW_US] = {HM_OPT_WINDOW_US, "window-us", 0, "US",
                          "window of --sync window in microseconds (default: adaptive, as "
                          "SKaMPI)",
                          "e.g. --window-us 100", cli_opt_parse_window_us},
    [HM_OPT_LATE_US] = {HM_OPT_LATE_US, "late-us", 0, "US",
                        "a measured start later than the agreed one by more than this is "
                        "invalid (window, roundtime, harmonize; default 1, or measured at "
                        "start-up when ranks outnumber processors)",
                        "e.g. --late-us 2", cli_opt_parse_late_us},
    [HM_OPT_SLICE_S] = {HM_OPT_SLICE_S, "slice-s", 0, "S",
                        "time slice of each experiment under --sync roundtime (default: none, "
                        "run until --nrep valid repetitions)",
                        "e.g. --slice-s 0.5", cli_opt_parse_slice_s},
    [HM_OPT_RESYNC_S] = {HM_OPT_RESYNC_S, "resync-s", 0, "S",
                         "harmonize: re-synchronize the clocks after this long (default 1)",
                         "e.g. --resync-s 5", cli_opt_parse_resync_s},
    [HM_OPT_ALLOW_PARTIAL] = {HM_OPT_ALLOW_PARTIAL, "allow-partial", 0, NULL,
                              "accept experiments that end with fewer valid repetitions than "
                              "--nrep (a --slice-s time slice, or the attempts, ran out); "
                              "without it they are written, flagged, and the run exits 1 (on a "
                              "busy machine, only for a time slice)",
                              "--allow-partial", cli_opt_parse_allow_partial},
    [HM_OPT_ALLOW_ONE_RANK] = {HM_OPT_ALLOW_ONE_RANK, "allow-one-rank", 0, NULL,
                               "run on a single rank (started without mpirun, or with -n 1): "
                               "there is no clock to synchronize and no rank to wait for, so "
                               "without it one rank is refused",
                               "--allow-one-rank", cli_opt_parse_allow_one_rank},
    [HM_OPT_COMM_US] = {HM_OPT_COMM_US, "comm-us", 0, "SPEC",
                        "communication times aimed at, in microseconds: a list, or "
                        "FIRST:LAST:xFACTOR (default 500:1000000:x2)",
                        "e.g. --comm-us 500:1000000:x2 or --comm-us 100,1000",
                        cli_opt_parse_comm_us},
    [HM_OPT_COMP_US] = {HM_OPT_COMP_US, "comp-us", 0, "SPEC",
                        "computation times aimed at, as --comm-us (default 500:1000000:x2), or "
                        "'comm': each cell's measured communication time (OSU's and IMB's "
                        "choice)",
                        "e.g. --comp-us 1000,10000 or --comp-us comm", cli_opt_parse_comp_us},
    [HM_OPT_THREADS] = {HM_OPT_THREADS, "threads", 0, "N",
                        "compute threads per rank, one per core (default: every core the rank "
                        "may use; one less leaves a core to a progress thread)",
                        "e.g. --threads 1", cli_opt_parse_threads},
    [HM_OPT_PATTERN] = {HM_OPT_PATTERN, "pattern", 0, "NAME",
                        "the pattern: rail, asymmetric, symmetric, self (over groups of "
                        "--ranks-per-node ranks), striping, or file (--file)",
                        "e.g. --pattern rail", cli_opt_parse_pattern},
    [HM_OPT_DIRECTION] = {HM_OPT_DIRECTION, "direction", 0, "DIR",
                          "between the groups: uni (group 0 to the others), bi (uni and every "
                          "message reversed, as CommBench), omni (every group to every other), "
                          "bi-mirror (uni, and the others to group 0 with the same pattern), "
                          "uni-in (uni reversed: the others to group 0, CommBench's inbound); "
                          "default uni",
                          "e.g. --direction omni", cli_opt_parse_direction},
    [HM_OPT_SUBGROUP] = {HM_OPT_SUBGROUP, "k", 0, "K",
                         "ranks of a group taking part, 1 to the group's size (default: all)",
                         "e.g. --k 1", cli_opt_parse_subgroup},
    [HM_OPT_BACKEND] = {HM_OPT_BACKEND, "backend", 0, "NAME",
                        "what moves the bytes: pattern: mpi, host, or on GPUs cuda, ipc, ipc-get, "
                        "nccl, one per step for striping (e.g. host+mpi+host); bench: mpi or "
                        "nccl (default mpi)",
                        "e.g. --backend host or --backend host+mpi+host", cli_opt_parse_backend},
    [HM_OPT_PATTERN_FILE] = {HM_OPT_PATTERN_FILE, "file", 0, "FILE",
                             "--pattern file: a Matrix Market coordinate file or a CSV "
                             "src,dst,bytes of the messages",
                             "e.g. --file halo.mtx", cli_opt_parse_pattern_file},
    [HM_OPT_FILE_ELEMENT_BYTES] = {HM_OPT_FILE_ELEMENT_BYTES, "file-element-bytes", 0, "N",
                                   "--pattern file: the bytes one unit of the file's values "
                                   "stands for (default 1: bytes; 4 for CommBench's dense "
                                   "matrices of ints)",
                                   "e.g. --file-element-bytes 4", cli_opt_parse_file_element_bytes},
    [HM_OPT_PATTERN_WINDOW] = {HM_OPT_PATTERN_WINDOW, "window", 0, "N",
                               "messages in flight: every message posted N times per repetition "
                               "before any wait, as osu_bw's window (-W; 64 there); default 1",
                               "e.g. --window 64", cli_opt_parse_pattern_window},
    [HM_OPT_NIC_BW] = {HM_OPT_NIC_BW, "nic-bw", 0, "GBPS",
                       "bandwidth of one NIC in GB/s: prints the model of CommBench's eq. 1 "
                       "(--gpus-per-nic) or eq. 2 (--nics) beside the measurements",
                       "e.g. --nic-bw 25 --gpus-per-nic 2", cli_opt_parse_nic_bw},
    [HM_OPT_GPUS_PER_NIC] = {HM_OPT_GPUS_PER_NIC, "gpus-per-nic", 0, "P",
                             "senders of a node packed on one NIC (eq. 1)", "e.g. --gpus-per-nic 2",
                             cli_opt_parse_gpus_per_nic},
    [HM_OPT_NICS] = {HM_OPT_NICS, "nics", 0, "R",
                     "NICs of a node the senders use round-robin (eq. 2)", "e.g. --nics 8",
                     cli_opt_parse_nics},
    [HM_OPT_MINBYTES] = {HM_OPT_MINBYTES, "minbytes", 'b', "SIZE",
                         "nccl-tests: the first size of the range -b MIN -e MAX -f F (for "
                         "--sizes MIN:MAX:xF)",
                         "e.g. -b 8", cli_opt_parse_minbytes},
    [HM_OPT_MAXBYTES] = {HM_OPT_MAXBYTES, "maxbytes", 'e', "SIZE",
                         "nccl-tests: the last size of the range (default: MIN)", "e.g. -e 128M",
                         cli_opt_parse_maxbytes},
    [HM_OPT_STEPFACTOR] = {HM_OPT_STEPFACTOR, "stepfactor", 'f', "F",
                           "nccl-tests: the factor between sizes (default 2)", "e.g. -f 2",
                           cli_opt_parse_stepfactor},
    [HM_OPT_CHECK] = {HM_OPT_CHECK, "check", 'c', "0|1", "nccl-tests: 1 is --validate, 0 is not",
                      "e.g. -c 1", cli_opt_parse_check},
    [HM_OPT_MATRIX] = {HM_OPT_MATRIX, "matrix", 0, "FILE",
                       "the pattern's matrix of bytes, src,dst,bytes CSV (a --file pattern "
                       "too; harmonia plot draws it)",
                       "e.g. --matrix matrix.csv", cli_opt_parse_matrix},
    [HM_OPT_MEMORY] = {HM_OPT_MEMORY, "memory", 0, "host|device",
                       "where the buffers are: host (default) or device (GPU memory, cudaMalloc; "
                       "MPI must be CUDA-aware)",
                       "e.g. --memory device", cli_opt_parse_memory},
    [HM_OPT_BATCH] = {HM_OPT_BATCH, "batch", 0, "N",
                      "--backend nccl: launch each operation N times back to back a repetition, "
                      "one stream synchronization after them, and report the time of one (as "
                      "nccl-tests' -n N times its loop); default 1",
                      "e.g. --batch 100", cli_opt_parse_batch},
    [HM_OPT_DEVICE_TIME] = {HM_OPT_DEVICE_TIME, "device-time", 0, NULL,
                            "GPU backends: also the device's own time of each repetition (two "
                            "CUDA events around its work, the raw file's device_s); the events "
                            "cost about 3 us a repetition, in the times too",
                            "--device-time", cli_opt_parse_device_time},
    [HM_OPT_GPUS_PER_NODE] = {HM_OPT_GPUS_PER_NODE, "gpus-per-node", 0, "N",
                              "GPUs of a node the ranks use: a rank takes device (node-local "
                              "rank modulo N); default every device the node shows",
                              "e.g. --gpus-per-node 4", cli_opt_parse_gpus_per_node},
    [HM_OPT_SELECT] = {HM_OPT_SELECT, "select", 0, "FUNC:N|MS:MS",
                       "plot of a trace: the N-th call of FUNC (1 = the first) across all ranks, "
                       "or a window in ms from the trace's first event; default the collective "
                       "call with the largest entry skew",
                       "e.g. --select MPI_Allreduce:100 or --select 2.5:3", cli_opt_parse_select},
    [HM_OPT_EXCLUDE] = {HM_OPT_EXCLUDE, "exclude", 0, "FUNCS",
                        "trace: functions not recorded, comma-separated shell patterns "
                        "(their collectives still counted, so the others match)",
                        "e.g. --exclude 'MPI_Test*,MPI_Iprobe'", cli_opt_parse_exclude},
    [HM_OPT_INCLUDE] = {HM_OPT_INCLUDE, "include", 0, "FUNCS",
                        "trace: record only these functions (patterns as --exclude); default "
                        "all",
                        "e.g. --include 'MPI_*send*,MPI_*recv*,MPI_Wait*'", cli_opt_parse_include},
    [HM_OPT_POLLS] = {HM_OPT_POLLS, "polls", 0, "MODE",
                      "trace: unsuccessful polls (a test that completes nothing, a probe that "
                      "finds nothing): burst records a run of them as one event with its count "
                      "(default), each one event a call",
                      "e.g. --polls each", cli_opt_parse_polls},
    [HM_OPT_DURING_S] = {HM_OPT_DURING_S, "during-s", 0, "FROM:TO",
                         "trace: record only the calls made from FROM to TO seconds after "
                         "MPI_Init's clock synchronization",
                         "e.g. --during-s 10:12", cli_opt_parse_during},
    [HM_OPT_TRACE_FILES] = {HM_OPT_TRACE_FILES, "files", 0, "LIST",
                            "trace: the files the merge writes, of csv (trace.csv), json "
                            "(trace.json), events (events.csv), otf2, or all (default) or none "
                            "(the summary alone)",
                            "e.g. --files csv,otf2", cli_opt_parse_trace_files},
    [HM_OPT_COLD_CACHE] = {HM_OPT_COLD_CACHE, "cold-cache", 0, NULL,
                           "overwrite a buffer the size of the last-level cache before every "
                           "repetition",
                           "--cold-cache", cli_opt_parse_cold_cache},
    [HM_OPT_INJECT_DELAY] = {HM_OPT_INJECT_DELAY, "inject-delay", 0, "R:A:US",
                             "testing: rank R sleeps US microseconds between the "
                             "synchronization and the start of attempt A of every experiment",
                             "e.g. --inject-delay 1:5:200", cli_opt_parse_inject_delay},
    [HM_OPT_BACK_TO_BACK] = {HM_OPT_BACK_TO_BACK, "back-to-back", 0, NULL,
                             "skew: call the method again right after each exit, without a "
                             "common start",
                             "--back-to-back", cli_opt_parse_back_to_back},
    [HM_OPT_BCAST_FACTOR] = {HM_OPT_BCAST_FACTOR, "bcast-factor", 0, "B",
                             "roundtime: the next start is B x the MPI_Bcast latency ahead "
                             "(default 3; raise it when ranks outnumber the cores)",
                             "e.g. --bcast-factor 1000", cli_opt_parse_bcast_factor},
    [HM_OPT_FILTER] = {HM_OPT_FILTER, "filter", 0, "NAME",
                       "outliers dropped before the statistics: {filter,}; tukey drops values "
                       "outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (default tukey)",
                       "e.g. --filter none", cli_opt_parse_filter},
    [HM_OPT_METRIC] = {HM_OPT_METRIC, "metric", 0, "NAME",
                       "value analysed: {metric,}; of bench, global is column global_s, "
                       "local local_s (default global); of overlap, the ratio or measured_s "
                       "(default overhead)",
                       "e.g. --metric local", cli_opt_parse_metric},
    [HM_OPT_RUNS] = {HM_OPT_RUNS, "runs", 'n', "N",
                     "campaign: number of separate runs of the command (mpiruns)", "e.g. -n 10",
                     cli_opt_parse_runs},
    [HM_OPT_DIR] = {HM_OPT_DIR, "dir", 0, "DIR",
                    "campaign: directory of the runs, manifest and dataset (default "
                    "campaign); plot: where the figures go (default .)",
                    "e.g. --dir results/barrier", cli_opt_parse_dir},
    [HM_OPT_ALTERNATIVE] = {HM_OPT_ALTERNATIVE, "alternative", 0, "H1",
                            "compare: alternative hypothesis of the Wilcoxon test on A vs B: "
                            "{alternative,}; less is A < B, greater A > B (default two-sided)",
                            "e.g. --alternative less", cli_opt_parse_alternative},
    [HM_OPT_STATISTIC] = {HM_OPT_STATISTIC, "statistic", 0, "NAME",
                          "compare: per-mpirun statistic compared: {statistic,} (default "
                          "median)",
                          "e.g. --statistic mean", cli_opt_parse_statistic},
};

/* A command's own words for option id, or NULL. */
static const cli_opt_help_t *own_help(const cli_opt_help_t *own, int id)
{
    for (; own && own->id >= 0; own++)
        if (own->id == id) return own;
    return NULL;
}

void cli_print_options_help(FILE *f, cli_opt_mask_t mask, const cli_opt_help_t *own)
{
    for (int i = 0; i < HM_OPT_COUNT; i++) {
        const cli_opt_def_t *d = &cli_options[i];
        if (!(mask & HM_OPT_BIT(d->id))) continue;
        const cli_opt_help_t *o = own_help(own, d->id);
        const char *value = o ? o->value : d->value;
        char head[64], help[1024];
        if (d->short_name)
            snprintf(head, sizeof head, "-%c, --%s%s%s", d->short_name, d->name, value ? " " : "",
                     value ? value : "");
        else
            snprintf(head, sizeof head, "    --%s%s%s", d->name, value ? " " : "",
                     value ? value : "");
        cli_expand_choices(o ? o->help : d->help, help, sizeof help);
        fprintf(f, "  %-28s %s\n  %-28s %s\n", head, help, "", o ? o->example : d->example);
    }
}
