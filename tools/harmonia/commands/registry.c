/* tools/harmonia/commands/registry.c — the commands of the harmonia program. Adding a
 * command is one file and one entry here. */
#include <string.h>

#include "commands/commands.h"

#define COMMON_TIMER (HM_OPT_BIT(HM_OPT_TIMER) | HM_OPT_BIT(HM_OPT_TSC_GHZ))
#define COMMON_SYNTH (HM_OPT_BIT(HM_OPT_SYNTHETIC_CLOCK) | HM_OPT_BIT(HM_OPT_SEED))
#define CLOCK_SYNC                                                                                 \
    (HM_OPT_BIT(HM_OPT_CLOCK_SYNC) | HM_OPT_BIT(HM_OPT_FITPOINTS) | HM_OPT_BIT(HM_OPT_EXCHANGES) | \
     HM_OPT_BIT(HM_OPT_OFFSET) | HM_OPT_BIT(HM_OPT_DRIFT) |                                        \
     HM_OPT_BIT(HM_OPT_RECOMPUTE_INTERCEPT) | HM_OPT_BIT(HM_OPT_RANKS_PER_NODE) |                  \
     HM_OPT_BIT(HM_OPT_RANKS_PER_SOCKET))
#define PROCSYNC                                                                                   \
    (HM_OPT_BIT(HM_OPT_SYNC) | HM_OPT_BIT(HM_OPT_CHECK_EVERY) | HM_OPT_BIT(HM_OPT_WINDOW_US) |     \
     HM_OPT_BIT(HM_OPT_LATE_US) | HM_OPT_BIT(HM_OPT_SLICE_S) | HM_OPT_BIT(HM_OPT_RESYNC_S) |       \
     HM_OPT_BIT(HM_OPT_BCAST_FACTOR))

/* The commands whose point is ranks started together on one clock: they
 * refuse a single rank unless told (dispatch.c), since one rank has no clock
 * to synchronize and no rank to wait for, and its table would look like a
 * measurement of synchronized ranks. */
#define SYNCHRONIZES HM_OPT_BIT(HM_OPT_ALLOW_ONE_RANK)

/* --output where it is not a summary of measurements. */
static const cli_opt_help_t stats_help[] = {
    {HM_OPT_OUTPUT, "FILE", "the statistics (or the campaigns' ratios) as CSV, in seconds",
     "e.g. --output summary.csv"},
    {-1, NULL, NULL, NULL}};
static const cli_opt_help_t compare_help[] = {
    {HM_OPT_OUTPUT, "FILE", "the comparison as CSV, a row per group", "e.g. --output compare.csv"},
    {-1, NULL, NULL, NULL}};
static const cli_opt_help_t trace_help[] = {
    {HM_OPT_OUTPUT, "DIR",
     "the trace directory (rank files, trace.csv, trace.json, events.csv, otf2/); default "
     "harmonia-trace, must not hold a trace",
     "e.g. --output trace-solver"},
    {-1, NULL, NULL, NULL}};

static const cli_command_t commands[] = {
    {"timers", "each time source: resolution, read overhead, monotonicity", 1,
     COMMON_TIMER | COMMON_SYNTH | HM_OPT_BIT(HM_OPT_PER_RANK) | HM_OPT_BIT(HM_OPT_OUTPUT) |
         HM_OPT_BIT(HM_OPT_HELP),
     "mpirun -n P harmonia timers [--timer NAME] [--per-rank] [--output FILE]",
     "Measures every time source on every rank: the smallest step it shows\n"
     "(resolution), the resolution it claims, the median cost of one read and\n"
     "whether it ever went backwards. Without --timer every source is listed, and\n"
     "one that cannot be used here (tsc without a constant, non-stop TSC) says why.\n"
     "The table shows the worst rank; --per-rank shows each rank.",
     "mpirun -n 2 harmonia timers --per-rank --output timers.csv", cli_cmd_timers, 0, 0, NULL},
    {"clock", "synchronize clocks with one or more algorithms and check them", 1,
     COMMON_TIMER | COMMON_SYNTH | HM_OPT_BIT(HM_OPT_CLOCK_SYNC) | HM_OPT_BIT(HM_OPT_FITPOINTS) |
         HM_OPT_BIT(HM_OPT_EXCHANGES) | HM_OPT_BIT(HM_OPT_OFFSET) | HM_OPT_BIT(HM_OPT_DRIFT) |
         HM_OPT_BIT(HM_OPT_RECOMPUTE_INTERCEPT) | HM_OPT_BIT(HM_OPT_CHECK_AFTER) |
         HM_OPT_BIT(HM_OPT_SAMPLE) | HM_OPT_BIT(HM_OPT_RANKS_PER_NODE) |
         HM_OPT_BIT(HM_OPT_RANKS_PER_SOCKET) | HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) |
         HM_OPT_BIT(HM_OPT_HELP) | SYNCHRONIZES,
     "mpirun -n P harmonia clock [--clock-sync LIST] [--check-after 0,1,5,10] [--sample F]",
     "Synchronizes the clocks with each algorithm of the comma-separated LIST in\n"
     "turn, fresh each time, and reports how long it took. Then, right after and\n"
     "after each wait of --check-after, it measures the offset of every rank's\n"
     "global clock against rank 0 by ping-pong (Check-Global-Clock, Hunold and\n"
     "Carpen-Amarie 2018, Alg. 6), as max and median; --sample measures a fraction\n"
     "of the ranks at scale. Where the truth is known (all ranks read one real\n"
     "clock, or --synthetic-clock), it also reports the true error of every rank's\n"
     "global clock. Offset-only algorithms (skampi, netgauge) show their drift\n"
     "error after a wait; drift-aware ones (jk, hca, hca2, hca3) should not.\n"
     "refine is ready after one offset per rank and refines its model while it\n"
     "waits: an offset per rank at 1, 2, 4, ... ms after, a line fitted through\n"
     "all of them; the table adds the refinements made before each check and\n"
     "their cost.\n"
     "Algorithms: skampi, netgauge, jk, hca, hca2, hca3, prop, refine; levels\n"
     "joined by +, outermost first (hca3+prop: hca3 between nodes, propagation\n"
     "inside a node; refine takes no other level).",
     "mpirun -n 4 harmonia clock --clock-sync hca3,skampi,hca3+prop --check-after 0,10 "
     "--synthetic-clock offset=1,drift=1e-4 --ranks-per-node 2",
     cli_cmd_clock, 0, 0, NULL},
    {"bench", "latency of MPI operations under a chosen process synchronization", 1,
     COMMON_TIMER | COMMON_SYNTH | CLOCK_SYNC | PROCSYNC | HM_OPT_BIT(HM_OPT_OPS) |
         HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_NREP) | HM_OPT_BIT(HM_OPT_WARMUP) |
         HM_OPT_BIT(HM_OPT_MAX_ATTEMPTS) | HM_OPT_BIT(HM_OPT_ROOT) | HM_OPT_BIT(HM_OPT_PEER) |
         HM_OPT_BIT(HM_OPT_VALIDATE) | HM_OPT_BIT(HM_OPT_COLD_CACHE) |
         HM_OPT_BIT(HM_OPT_ALLOW_PARTIAL) | HM_OPT_BIT(HM_OPT_INJECT_DELAY) |
         HM_OPT_BIT(HM_OPT_FORMAT) | HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) |
         HM_OPT_BIT(HM_OPT_BACKEND) | HM_OPT_BIT(HM_OPT_BATCH) | HM_OPT_BIT(HM_OPT_MEMORY) |
         HM_OPT_BIT(HM_OPT_GPUS_PER_NODE) | HM_OPT_BIT(HM_OPT_HELP) | SYNCHRONIZES,
     "mpirun -n P harmonia bench [--ops LIST] [--sizes SPEC] [--sync METHOD] [--nrep N]",
     "Measures each operation of --ops at each size of --sizes (in an order shuffled\n"
     "with --seed). The clocks are synchronized once with --clock-sync; before every\n"
     "repetition the processes are synchronized with --sync: barrier (MPI_Barrier),\n"
     "dissem (harmonia's dissemination barrier), window (start t0 + (i+1) x window,\n"
     "--window-us, adaptive by default), roundtime (the root broadcasts each start,\n"
     "--slice-s), harmonize (hm_harmonize: an agreed deadline on the global clock).\n"
     "Validity flags are agreed every --check-every repetitions; invalid repetitions\n"
     "(a rank late by more than --late-us, a window overrun) are discarded and\n"
     "counted, and repetitions continue until --nrep are valid or --max-attempts are\n"
     "used up (an error). barrier and dissem have no deadline: a rank that starts\n"
     "late still makes a valid repetition; every method counts, in the column late,\n"
     "the repetitions whose starts spread wider than --late-us on the global clock.\n"
     "The table shows, per operation and size, the valid and\n"
     "invalid counts and min, median, mean, max of the global run-time (max end - min\n"
     "start on the global clock), with the median local run-time (max over ranks of\n"
     "end - start, what barrier-based benchmarks report) beside it. Sizes are bytes\n"
     "per message: MPI_CHAR for data movement, MPI_INT with MPI_SUM for reductions\n"
     "(size / 4 ints). pingpong is the half round trip between rank 0 and --peer.\n"
     "With more ranks than processors the late-start tolerance is measured at\n"
     "start-up unless --late-us is given (one line on stderr says what was chosen),\n"
     "and the table and files say that the run was oversubscribed.\n"
     "Defaults: --ops allreduce,bcast,reduce --sizes 8,64,512,4K,32K,256K,1M\n"
     "--sync harmonize --clock-sync hca3 --nrep 1000 --warmup 10.",
     "mpirun -n 4 harmonia bench --ops allreduce,bcast --sizes 8:64K --sync harmonize "
     "--output lat.csv --raw reps.csv",
     cli_cmd_bench, 0, 0, NULL},
    {"skew", "exit skew of process synchronization methods started at a common time", 1,
     /* skew agrees on the flags once, after all repetitions: no --check-every */
     COMMON_TIMER | COMMON_SYNTH | CLOCK_SYNC | (PROCSYNC & ~HM_OPT_BIT(HM_OPT_CHECK_EVERY)) |
         HM_OPT_BIT(HM_OPT_NREP) | HM_OPT_BIT(HM_OPT_BACK_TO_BACK) | HM_OPT_BIT(HM_OPT_PER_RANK) |
         HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) | HM_OPT_BIT(HM_OPT_HELP) |
         SYNCHRONIZES,
     "mpirun -n P harmonia skew [--sync LIST] [--nrep N] [--back-to-back]",
     "For each method of the comma-separated --sync LIST (default barrier, dissem,\n"
     "harmonize), --nrep times: all ranks wait for a common start on the global clock\n"
     "(Round-Time), call the method, and timestamp their exit. Reported per method:\n"
     "the exit skew (max - min exit over ranks) as median, p90, p99 and max, on the\n"
     "global clock and, where the truth is known (one real clock shared by all ranks,\n"
     "or --synthetic-clock), on the true clock; the cost of one call; and each rank's\n"
     "mean exit offset from the first rank to leave (Hunold and Carpen-Amarie 2016,\n"
     "Fig. 10). --back-to-back calls the method in a loop instead, as a benchmark does.",
     "mpirun -n 4 harmonia skew --sync barrier,dissem,harmonize --nrep 2000", cli_cmd_skew, 0, 0,
     NULL},
    {"overlap", "overlap of nonblocking collectives with computation, on a grid of times", 1,
     COMMON_TIMER | COMMON_SYNTH | CLOCK_SYNC | PROCSYNC | HM_OPT_BIT(HM_OPT_OPS) |
         HM_OPT_BIT(HM_OPT_COMM_US) | HM_OPT_BIT(HM_OPT_SIZES) | HM_OPT_BIT(HM_OPT_COMP_US) |
         HM_OPT_BIT(HM_OPT_THREADS) | HM_OPT_BIT(HM_OPT_NREP) | HM_OPT_BIT(HM_OPT_WARMUP) |
         HM_OPT_BIT(HM_OPT_MAX_ATTEMPTS) | HM_OPT_BIT(HM_OPT_ROOT) | HM_OPT_BIT(HM_OPT_VALIDATE) |
         HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) | HM_OPT_BIT(HM_OPT_HELP) |
         SYNCHRONIZES,
     "mpirun -n P harmonia overlap [--ops LIST] [--comm-us SPEC | --sizes SPEC]\n"
     "                             [--comp-us SPEC|comm] [--threads N]\n"
     "       mpirun -n P harmonia overlap impact [--comp-us SPEC] [--threads N] [--nrep N]\n"
     "                                    [--output FILE]",
     "The methodology of Denis et al. 2022. For each nonblocking collective of --ops\n"
     "(default iallreduce) and each communication time of --comm-us, finds the\n"
     "message size at which the call and its MPI_Wait take that time (median global\n"
     "run-time, every repetition started together by --sync); for each computation\n"
     "time of --comp-us, the order of a dgemm that each of --threads threads (one\n"
     "per core) runs in that time. Then, for every cell, in an order shuffled with\n"
     "--seed, --nrep repetitions (default 20) of: the call, the computation, MPI_Wait\n"
     "(no MPI_Test), and reports the overhead ratio (0: perfect overlap, 1: none),\n"
     "the computation slowdown and the communication ratio against the measured\n"
     "references, with the medians' 95% intervals in --output. A target no size or\n"
     "order reaches marks its cells INVALID, never measured at another time. A start\n"
     "late by more than --late-us (default 20 for overlap) invalidates a repetition.\n"
     "'overlap impact' gives the MPI impact ratio (eq. 2) per rank and thread: the\n"
     "kernel's median time here over its time in harmonia-compute, the same kernel\n"
     "in a process that never loads MPI, both at the order calibrated to each\n"
     "--comp-us target (default 100000 us), --nrep runs each (default 5); --output\n"
     "writes one row per target, rank and thread.\n"
     "--sizes fixes the message sizes instead of calibrating them, and --comp-us comm\n"
     "aims each cell's computation at its measured communication time: OSU's and\n"
     "IMB's configuration, whose overlap % are printed beside the ratios.",
     "mpirun -n 2 harmonia overlap --comm-us 1000,10000 --comp-us 1000,10000 --nrep 10",
     cli_cmd_overlap, 1, 0, NULL},
    {"pattern", "point-to-point patterns between groups of ranks: rail, asymmetric, ...", 1,
     COMMON_TIMER | COMMON_SYNTH | CLOCK_SYNC | PROCSYNC | HM_OPT_BIT(HM_OPT_PATTERN) |
         HM_OPT_BIT(HM_OPT_DIRECTION) | HM_OPT_BIT(HM_OPT_SUBGROUP) | HM_OPT_BIT(HM_OPT_BACKEND) |
         HM_OPT_BIT(HM_OPT_PATTERN_FILE) | HM_OPT_BIT(HM_OPT_FILE_ELEMENT_BYTES) |
         HM_OPT_BIT(HM_OPT_PATTERN_WINDOW) | HM_OPT_BIT(HM_OPT_NIC_BW) |
         HM_OPT_BIT(HM_OPT_GPUS_PER_NIC) | HM_OPT_BIT(HM_OPT_NICS) | HM_OPT_BIT(HM_OPT_SIZES) |
         HM_OPT_BIT(HM_OPT_NREP) | HM_OPT_BIT(HM_OPT_WARMUP) | HM_OPT_BIT(HM_OPT_MAX_ATTEMPTS) |
         HM_OPT_BIT(HM_OPT_VALIDATE) | HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) |
         HM_OPT_BIT(HM_OPT_MINBYTES) | HM_OPT_BIT(HM_OPT_MAXBYTES) | HM_OPT_BIT(HM_OPT_STEPFACTOR) |
         HM_OPT_BIT(HM_OPT_CHECK) | HM_OPT_BIT(HM_OPT_MATRIX) | HM_OPT_BIT(HM_OPT_MEMORY) |
         HM_OPT_BIT(HM_OPT_DEVICE_TIME) | HM_OPT_BIT(HM_OPT_GPUS_PER_NODE) |
         HM_OPT_BIT(HM_OPT_HELP) | SYNCHRONIZES,
     "mpirun -n P harmonia pattern [--pattern NAME] [--direction DIR] [--k K]\n"
     "                             [--backend NAME] [--ranks-per-node G] [--sizes SPEC]",
     "The communication patterns of CommBench (Hidayetoglu et al. 2024, §4) over n\n"
     "groups of g ranks (g = --ranks-per-node, else the ranks of a node): rail\n"
     "(position i to position i), asymmetric (k ranks to all g), symmetric (k to k),\n"
     "self, in a --direction uni, bi, omni, bi-mirror or uni-in; striping (split,\n"
     "translate, assemble, one --backend per step, e.g. host+mpi+host); or the\n"
     "messages of a --file (Matrix Market, CSV src,dst,bytes or CommBench's dense\n"
     "matrix). Every repetition starts together (--sync, default harmonize) and its\n"
     "time is max end - min start on the global clock; the table gives nccl-tests'\n"
     "columns: time, algbw (the bytes of every message over the time), busbw and\n"
     "#wrong (--validate checks every byte); and CommBench's: avg, start (the start\n"
     "calls) and node (bandwidth per node).\n"
     "--window N keeps N copies of every message in flight, as osu_bw's -W.\n"
     "Backends: mpi (MPI_Isend/MPI_Irecv), host (memcpy into shared memory).\n"
     "nccl-tests' -b MIN -e MAX -f F, -n N, -w N and -c 0|1 are accepted.",
     "mpirun -n 4 harmonia pattern --pattern symmetric --direction bi --ranks-per-node 2 "
     "--sizes 1K,1M --validate",
     cli_cmd_pattern, 0, 0, NULL},
    {"version", "version of harmonia and of the libraries it was built with", 0,
     HM_OPT_BIT(HM_OPT_HELP), "harmonia version",
     "Prints the version of harmonia, the MPI library, compiler and flags, GSL and\n"
     "hwloc it was built with.",
     "harmonia version", cli_cmd_version, 0, 0, NULL},
    {"stats", "summaries of raw result files: quantiles, confidence intervals, checks", 0,
     HM_OPT_BIT(HM_OPT_FILTER) | HM_OPT_BIT(HM_OPT_METRIC) | HM_OPT_BIT(HM_OPT_OUTPUT) |
         HM_OPT_BIT(HM_OPT_STATISTIC) | HM_OPT_BIT(HM_OPT_HELP),
     "harmonia stats [--filter {filter}] [--metric {metric}] [--output FILE] FILE...\n"
     "       harmonia stats [--statistic {statistic}] [--output FILE] CAMPAIGN...",
     "Reads raw files of 'harmonia bench --raw' (one row per repetition) and\n"
     "summarizes the valid repetitions (valid = 1) of each (operation, size,\n"
     "processes, sync) over all the files; processes and sync come from each\n"
     "file's factors. Raw files of 'harmonia overlap --raw' are summarized per\n"
     "cell (operation, comm and comp targets) and processes, sync, progress; bench\n"
     "and overlap files are not mixed. --metric picks the run-time (global_s or\n"
     "local_s) or, for overlap, overhead (default), measured, comp_slowdown or\n"
     "comm_ratio; --filter tukey drops the values outside Q1 - 1.5 IQR,\n"
     "Q3 + 1.5 IQR first. Per group:\n"
     "n, n kept by the filter, min, q1, median, q3, max, mean, the 95% confidence\n"
     "interval of the median (order statistics) and of the mean (Student t), the\n"
     "lag-1 autocorrelation of the kept values in file order (near 0 for\n"
     "independent repetitions) and the Shapiro-Wilk p-value (small: not normal).\n"
     "n/a where there are too few values or they are all equal. The table is in\n"
     "microseconds; --output writes seconds (n/a as an empty cell).\n"
     "Given campaign directories (or their per-mpirun.csv) instead, it reports\n"
     "their reproducibility (Hunold and Carpen-Amarie 2016, Fig. 29): per group\n"
     "the spread of the per-mpirun medians (--statistic mean: means) and each\n"
     "run's value divided by the smallest run's; --output writes these ratios.",
     "harmonia stats --output summary.csv reps1.csv reps2.csv", cli_cmd_stats, 1, 0, stats_help},
    {"campaign", "repeat a command in N separate mpiruns, resumable; per-mpirun dataset", 0,
     HM_OPT_BIT(HM_OPT_RUNS) | HM_OPT_BIT(HM_OPT_DIR) | HM_OPT_BIT(HM_OPT_SEED) |
         HM_OPT_BIT(HM_OPT_FILTER) | HM_OPT_BIT(HM_OPT_METRIC) | HM_OPT_BIT(HM_OPT_HELP),
     "harmonia campaign -n N [--dir DIR] [--seed S] [--filter {filter}] [--metric "
     "{metric}] -- LAUNCHER...",
     "Runs the command after -- (e.g. mpirun -n 16 harmonia bench ...) N times as\n"
     "separate processes, one after the other (Hunold and Carpen-Amarie 2016, Alg. 5:\n"
     "the mpirun is an experimental factor). Run i gets its own seed, derived from\n"
     "--seed, so that each mpirun shuffles its experiments differently; harmonia\n"
     "appends --seed SEED --raw DIR/run-NNN.csv to the command, or substitutes the\n"
     "words {seed}, {raw}, {run} and {dir} where the command contains them. Each run's\n"
     "output goes to DIR/run-NNN.log. DIR/manifest.csv records every run (command,\n"
     "seed, start and end time, exit status) and is rewritten atomically after each\n"
     "change. Re-running the same campaign skips the completed runs and redoes the\n"
     "others (interrupted, failed); a larger -n adds runs. A failed run stops the\n"
     "campaign (exit 1, naming its log); Ctrl-C stops it (exit 130; 128 + signal\n"
     "for others); completed runs are never lost. N is at most 1000. Then, per run\n"
     "and (operation, size, processes, sync), or cell of 'harmonia overlap' (its\n"
     "--metric, default overhead), the valid repetitions are filtered\n"
     "(--filter) and reduced to their median and mean (Alg. 6) into\n"
     "DIR/per-mpirun.csv, and the table shows per group the spread of the per-run\n"
     "medians and the reproducibility: each run's median divided by the\n"
     "smallest (Fig. 29), largest value shown, all in DIR/reproducibility.csv.",
     "harmonia campaign -n 10 --dir runs/harmonize -- mpirun -n 2 harmonia bench --ops "
     "allreduce --sizes 8:64K",
     cli_cmd_campaign, 0, 1, NULL},
    {"compare", "Wilcoxon comparison of two campaigns, per operation and size", 0,
     HM_OPT_BIT(HM_OPT_ALTERNATIVE) | HM_OPT_BIT(HM_OPT_STATISTIC) | HM_OPT_BIT(HM_OPT_OUTPUT) |
         HM_OPT_BIT(HM_OPT_FILTER) | HM_OPT_BIT(HM_OPT_METRIC) | HM_OPT_BIT(HM_OPT_HELP),
     "harmonia compare [--alternative {alternative}] [--statistic {statistic}] "
     "[--filter {filter}] [--metric {metric}] [--output FILE] A B",
     "A and B are campaign directories (their per-mpirun.csv), per-mpirun files, or\n"
     "raw files of 'harmonia bench --raw', or all of these of 'harmonia overlap'\n"
     "(both sides of one command). Per (operation, size, processes) present in\n"
     "both, or per overlap cell (operation, comm and comp targets) and processes,\n"
     "the Wilcoxon rank-sum test compares the per-mpirun medians (or means,\n"
     "--statistic) of A with those of B (Hunold and Carpen-Amarie 2016, Sec. 6.2);\n"
     "a raw file contributes its valid repetitions instead (column --metric, filtered\n"
     "by --filter), which are repetitions within one mpirun, not per-mpirun values.\n"
     "Printed: the samples' medians, the ratio B/A, the p-value with stars (* <= 0.05,\n"
     "** <= 0.01, *** <= 0.001) and the verdict at 0.05: \"B faster\" or \"B slower\"\n"
     "(two-sided, by the ratio), \"A smaller\" (less), \"A larger\" (greater), else\n"
     "\"no evidence\"; and the reproducibility of each side (largest per-run value\n"
     "over the smallest, Fig. 29; n/a for a raw file). Overlap's ratios (--metric\n"
     "overhead, the default, comp_slowdown, comm_ratio) are told apart by B - A,\n"
     "not B/A (overhead may be 0 or below), \"B smaller\" or \"B larger\", and their\n"
     "spread by largest - smallest; --metric measured is a time, as bench's. The\n"
     "sides are named by their syncs, progress configurations or MPI libraries,\n"
     "or by their file names when these are the same. Groups present in only one\n"
     "of A and B are an error; so is a side with two syncs in one group.",
     "harmonia compare runs/barrier runs/harmonize", cli_cmd_compare, 1, 0, compare_help},
    {"plot", "figures with gnuplot: latency, distributions, campaigns, clocks, skew", 0,
     HM_OPT_BIT(HM_OPT_DIR) | HM_OPT_BIT(HM_OPT_FORMAT) | HM_OPT_BIT(HM_OPT_METRIC) |
         HM_OPT_BIT(HM_OPT_SELECT) | HM_OPT_BIT(HM_OPT_HELP),
     "harmonia plot [--dir DIR] [--format svg|png|both] [--metric {metric}] [--select "
     "FUNC:N|MS:MS] FILE...",
     "Draws figures of result files with gnuplot (found in PATH), as SVG (default)\n"
     "or PNG (--format png|both), into --dir (created if missing; default .). The\n"
     "kind of each FILE is told by its columns; a directory is a campaign (its\n"
     "per-mpirun.csv). Figures gather the series of all files that feed them; a\n"
     "legend adds the process count, MPI library or file name where two series\n"
     "would otherwise share a name. Run-times, offsets and skews in microseconds.\n"
     "bench --raw: STEM-latency (median per size, log2 sizes, band: 95% confidence\n"
     "interval of the median) and STEM-distribution (violins: density of the log\n"
     "run-time per size, bar at the median), of --metric global or local.\n"
     "bench --output: its medians in STEM-latency, without a band. Campaign:\n"
     "STEM-campaign, box plots of the per-mpirun medians per size. clock --output:\n"
     "STEM-clock, max and median |offset| and true error against the time after\n"
     "synchronization; clock --raw: STEM-clock-ranks, every rank's offset. skew\n"
     "--raw: STEM-skew, empirical CDF of the exit skew per method; skew --output:\n"
     "STEM-skew-quantiles. pattern --matrix (or a pattern file): STEM-matrix, a heat\n"
     "map of the bytes each sender (a row, rank 0 at the top) sends each receiver;\n"
     "pattern --output: STEM-bandwidth, algbw against message size per pattern and\n"
     "baseline (pattern --raw plots as bench --raw). overlap --output:\n"
     "STEM-overhead, a heat map of the overhead ratio per cell (communication on x,\n"
     "computation on y: the targets, or the times measured alone where a run had\n"
     "none: --sizes, ibarrier), and STEM-overlap-ratios, r_comm and\n"
     "r_comp_slowdown per cell; overlap --raw: STEM-overlap-distribution, violins\n"
     "of the --metric (default overhead) per cell and series; a campaign of overlap\n"
     "runs: STEM-overlap-campaign, box plots of its per-mpirun medians per cell;\n"
     "overlap impact --output: STEM-impact, a histogram of the MPI impact ratios.\n"
     "A trace directory (harmonia trace --output): STEM-gantt, a Gantt chart of\n"
     "every rank's MPI calls on the local clocks beside the global clock (Hunold and\n"
     "Carpen-Amarie 2018, Fig. 10), of the N-th call of a function and what\n"
     "surrounds it (--select MPI_Allreduce:100), of a window in ms from the trace's\n"
     "first call (--select 2.5:3), or by default of the collective call whose\n"
     "entries spread the most. The clock, skew and bench files scale/run gathers\n"
     "(a processes column, docs/scale.md) are drawn against the process count:\n"
     "STEM-scale-duration (sync duration, each algorithm fitted to a + b log2 p and\n"
     "to a + b p, the better drawn, where a linear one overtakes a tree),\n"
     "STEM-scale-error (true error after each check time), STEM-scale-skew (median\n"
     "and p99 exit skew, cost per call) and STEM-scale-bench (median run-time).\n"
     "STEM is the file name without .csv (a campaign: its directory), several joined\n"
     "by +. Images are written under a temporary name and renamed when complete; one\n"
     "line per image is printed. Bad input (missing file or column, a cell that is\n"
     "not a number) is an error naming file and line.",
     "harmonia plot --dir figures runs/barrier runs/harmonize", cli_cmd_plot, 1, 0, NULL},
    {"trace", "trace an unchanged MPI program on the global clock", 0,
     COMMON_TIMER | COMMON_SYNTH | HM_OPT_BIT(HM_OPT_CLOCK_SYNC) | HM_OPT_BIT(HM_OPT_FITPOINTS) |
         HM_OPT_BIT(HM_OPT_EXCHANGES) | HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_EXCLUDE) |
         HM_OPT_BIT(HM_OPT_INCLUDE) | HM_OPT_BIT(HM_OPT_POLLS) | HM_OPT_BIT(HM_OPT_DURING_S) |
         HM_OPT_BIT(HM_OPT_TRACE_FILES) | HM_OPT_BIT(HM_OPT_HELP),
     "harmonia trace [--clock-sync SPEC] [--output DIR] [--exclude FUNCS] -- LAUNCHER... "
     "PROGRAM ARGS\n"
     "       harmonia trace merge [--files LIST] DIR",
     "Runs the command after -- (e.g. mpirun -n 4 ./app) with libharmonia-trace.so\n"
     "preloaded: at MPI_Init the clocks are synchronized (--clock-sync, default\n"
     "refine with 16 offsets per rank, --fitpoints N for N; hca3+prop across\n"
     "nodes), every MPI call the program spends time in (point to\n"
     "point with tags and requests, persistent requests, collectives and their\n"
     "nonblocking and neighbourhood forms, waits, tests, probes, communicators and\n"
     "topologies, one-sided calls, MPI-IO) is recorded with the local clock into a\n"
     "buffer per rank, flushed to DIR/rank-N.events when full (the flush is an event\n"
     "too); unsuccessful polls are one event a burst (--polls), --exclude,\n"
     "--include and --during-s leave calls out. At MPI_Finalize the clocks are\n"
     "synchronized again. Every time is then put on the global clock by\n"
     "interpolating between both models (the drift taken as constant, Denis et al.\n"
     "2022, Sec. 4.2) beside the start model alone (extrapolated): DIR/trace.csv,\n"
     "DIR/trace.json (Chrome trace events with an arrow a message: open it in\n"
     "Perfetto), DIR/events.csv (calls as bench repetitions) and DIR/otf2\n"
     "(Vampir); --files chooses which (none: the summary alone, the files of a\n"
     "long trace being gigabytes). Every message is paired with its receive\n"
     "from the records, and the receives completed before their send are counted\n"
     "on the global and the local clocks. The table gives per function the calls,\n"
     "total and median time, and for collectives the largest entry skew of one\n"
     "call across ranks and the time ranks waited for the last one to arrive. DIR\n"
     "(default harmonia-trace) must not hold a trace already. C programs only (no\n"
     "Fortran bindings); Open MPI passes the preload to the ranks of the local\n"
     "node, use mpirun -x LD_PRELOAD across nodes. 'harmonia trace merge DIR'\n"
     "merges the rank files of DIR again (its trace files replaced), e.g. after a\n"
     "merge that was cut short.",
     "harmonia trace --output trace-solver -- mpirun -n 2 examples/solver", cli_cmd_trace, 1, 1,
     trace_help},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

const cli_command_t *cli_find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

size_t cli_command_count(void)
{
    return NCOMMANDS;
}

const cli_command_t *cli_command_at(size_t i)
{
    return i < NCOMMANDS ? &commands[i] : NULL;
}
