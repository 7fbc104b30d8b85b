/* src/results/schema.c — the columns of every kind of result file: the one
 * place their names are written. Writers and readers index these tables
 * with the HM_COL_* constants of harmonia/results.h. Times are seconds. */
#include <harmonia/results.h>

#define COLUMNS(a) (a), sizeof(a) / sizeof((a)[0])

/* The columns every measurement's summary ends with (bench, pattern): what
 * was discarded beside what was kept, and why the repetitions stopped. */
#define DISCARDED_MEDIAN_COLUMN                                                                    \
    {                                                                                              \
        "discarded_median_s", "s",                                                                 \
            "median global run-time of the discarded (invalid) repetitions, beside the valid "     \
            "ones' to "                                                                            \
            "show the bias"                                                                        \
    }
#define CONDITIONAL_COLUMN                                                                         \
    {                                                                                              \
        "conditional", "",                                                                         \
            "1 when more than half the attempts were discarded: the figures hold for undisturbed " \
            "starts only"                                                                          \
    }
#define END_COLUMN                                                                                 \
    {                                                                                              \
        "end", "",                                                                                 \
            "why the repetitions stopped: nrep, slice, attempts (--max-attempts) or budget (a "    \
            "busy "                                                                                \
            "machine's: 2 x nrep + 32 attempts)"                                                   \
    }

/* The raw files of a measurement (bench, pattern): beside each repetition,
 * what its validity rests on. */
#define LATE_TOLERANCE_COLUMN                                                                      \
    {                                                                                              \
        "late_tolerance_s", "s",                                                                   \
            "the largest late-start tolerance a rank's start was held to (late_us + run-time, "    \
            "capped; the run-time at least the last chunk's median): a valid repetition's "        \
            "start_spread_s is at most this; empty without a deadline (barrier, dissem)"           \
    }

static const hm_results_column_t bench[] = {
    [HM_COL_BENCH_OP] = {"op", "", "operation (--ops name)"},
    [HM_COL_BENCH_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_BENCH_SYNC] = {"sync", "", "process synchronization method (--sync)"},
    [HM_COL_BENCH_VALID] = {"valid", "", "valid repetitions"},
    [HM_COL_BENCH_INVALID] = {"invalid", "", "repetitions the synchronization declared invalid"},
    [HM_COL_BENCH_WRONG_RESULTS] = {"wrong_results", "", "repetitions --validate found wrong"},
    [HM_COL_BENCH_MIN_S] = {"min_s", "s", "global run-time of the valid repetitions: minimum"},
    [HM_COL_BENCH_Q1_S] = {"q1_s", "s", "first quartile (type 7)"},
    [HM_COL_BENCH_MEDIAN_S] = {"median_s", "s", "median"},
    [HM_COL_BENCH_Q3_S] = {"q3_s", "s", "third quartile"},
    [HM_COL_BENCH_MAX_S] = {"max_s", "s", "maximum"},
    [HM_COL_BENCH_MEAN_S] = {"mean_s", "s", "mean"},
    [HM_COL_BENCH_SD_S] = {"sd_s", "s", "sample standard deviation"},
    [HM_COL_BENCH_LOCAL_MEDIAN_S] = {"local_median_s", "s", "median local run-time"},
    [HM_COL_BENCH_START_SPREAD_MEDIAN_S] = {"start_spread_median_s", "s",
                                            "median spread of the global starts"},
    [HM_COL_BENCH_PROCSYNC] = {"procsync", "", "what the synchronization method did"},
    [HM_COL_BENCH_ORDER] = {"order", "", "position in the shuffled experiment order"},
    [HM_COL_BENCH_WALL_S] = {"wall_s", "s", "the experiment's wall time on rank 0"},
    [HM_COL_BENCH_LATE_STARTS] = {"late_starts", "",
                                  "repetitions (valid or not) whose start spread exceeded the "
                                  "late-start tolerance, under every method"},
    [HM_COL_BENCH_DISCARDED_MEDIAN_S] = DISCARDED_MEDIAN_COLUMN,
    [HM_COL_BENCH_CONDITIONAL] = CONDITIONAL_COLUMN,
    [HM_COL_BENCH_END] = END_COLUMN,
    [HM_COL_BENCH_LATE_CAPPED] = {"late_capped", "",
                                  "starts discarded only by the cap on the late-start tolerance "
                                  "(half the run-time), all ranks"},
};

static const hm_results_column_t bench_raw[] = {
    [HM_COL_BENCH_RAW_OP] = {"op", "", "operation (--ops name)"},
    [HM_COL_BENCH_RAW_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_BENCH_RAW_ATTEMPT] = {"attempt", "", "0-based attempt of the experiment"},
    [HM_COL_BENCH_RAW_VALID] = {"valid", "", "1 when the synchronization held, else 0"},
    [HM_COL_BENCH_RAW_GLOBAL_S] = {"global_s", "s", "max global end - min global start over ranks"},
    [HM_COL_BENCH_RAW_LOCAL_S] = {"local_s", "s", "max over ranks of local end - local start"},
    [HM_COL_BENCH_RAW_START_SPREAD_S] = {"start_spread_s", "s", "max - min of the global starts"},
    [HM_COL_BENCH_RAW_START_S] = {"start_s", "s", "earliest global start"},
    [HM_COL_BENCH_RAW_LATE_TOLERANCE_S] = LATE_TOLERANCE_COLUMN,
};

static const hm_results_column_t permpirun[] = {
    [HM_COL_PERMPIRUN_RUN] = {"run", "", "1-based run (mpirun) of the campaign"},
    [HM_COL_PERMPIRUN_SEED] = {"seed", "", "the run's seed (unsigned 64-bit)"},
    [HM_COL_PERMPIRUN_OP] = {"op", "", "operation"},
    [HM_COL_PERMPIRUN_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_PERMPIRUN_PROCESSES] = {"processes", "", "MPI processes of the run"},
    [HM_COL_PERMPIRUN_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_PERMPIRUN_N] = {"n", "", "valid repetitions in the run"},
    [HM_COL_PERMPIRUN_KEPT] = {"kept", "", "repetitions kept by the filter"},
    [HM_COL_PERMPIRUN_MEDIAN_S] = {"median_s", "s", "median of the kept repetitions"},
    [HM_COL_PERMPIRUN_MEAN_S] = {"mean_s", "s", "mean of the kept repetitions"},
    [HM_COL_PERMPIRUN_NREP] = {"nrep", "",
                               "valid repetitions the run asked for (empty: unknown); n below "
                               "it: the run ended short"},
};

static const hm_results_column_t repro[] = {
    [HM_COL_REPRO_OP] = {"op", "", "operation"},
    [HM_COL_REPRO_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_REPRO_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_REPRO_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_REPRO_RUN] = {"run", "", "1-based run of the campaign"},
    [HM_COL_REPRO_VALUE_S] = {"median_s", "s",
                              "the run's per-mpirun value (mean_s under --statistic mean)"},
    [HM_COL_REPRO_NORMALIZED] = {"normalized", "", "the value / the group's smallest value"},
    [HM_COL_REPRO_MAX_NORMALIZED] = {"max_normalized", "", "the group's largest normalized"},
};

static const hm_results_column_t stats[] = {
    [HM_COL_STATS_OP] = {"op", "", "operation"},
    [HM_COL_STATS_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_STATS_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_STATS_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_STATS_N] = {"n", "", "valid repetitions"},
    [HM_COL_STATS_N_KEPT] = {"n_kept", "", "repetitions kept by the filter"},
    [HM_COL_STATS_MIN_S] = {"min_s", "s", "minimum of the kept"},
    [HM_COL_STATS_Q1_S] = {"q1_s", "s", "first quartile (type 7)"},
    [HM_COL_STATS_MEDIAN_S] = {"median_s", "s", "median"},
    [HM_COL_STATS_Q3_S] = {"q3_s", "s", "third quartile"},
    [HM_COL_STATS_MAX_S] = {"max_s", "s", "maximum"},
    [HM_COL_STATS_MEAN_S] = {"mean_s", "s", "mean"},
    [HM_COL_STATS_MEDIAN_CI_LO_S] = {"median_ci_lo_s", "s", "95% interval of the median: low"},
    [HM_COL_STATS_MEDIAN_CI_HI_S] = {"median_ci_hi_s", "s", "95% interval of the median: high"},
    [HM_COL_STATS_MEAN_CI_LO_S] = {"mean_ci_lo_s", "s", "95% Student t interval of the mean: low"},
    [HM_COL_STATS_MEAN_CI_HI_S] = {"mean_ci_hi_s", "s", "95% interval of the mean: high"},
    [HM_COL_STATS_ACF1] = {"acf1", "", "lag-1 autocorrelation in file order"},
    [HM_COL_STATS_SHAPIRO_P] = {"shapiro_p", "", "Shapiro-Wilk p-value"},
};

static const hm_results_column_t compare[] = {
    [HM_COL_COMPARE_OP] = {"op", "", "operation"},
    [HM_COL_COMPARE_SIZE_BYTES] = {"size_bytes", "B", "message size"},
    [HM_COL_COMPARE_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_COMPARE_SYNC_A] = {"sync_A", "", "A's synchronization method"},
    [HM_COL_COMPARE_SYNC_B] = {"sync_B", "", "B's synchronization method"},
    [HM_COL_COMPARE_N_A] = {"n_A", "", "A's samples"},
    [HM_COL_COMPARE_N_B] = {"n_B", "", "B's samples"},
    [HM_COL_COMPARE_MEDIAN_A_S] = {"median_A_s", "s", "median of A's samples"},
    [HM_COL_COMPARE_MEDIAN_B_S] = {"median_B_s", "s", "median of B's samples"},
    [HM_COL_COMPARE_RATIO_B_A] = {"ratio_B_A", "", "median_B_s / median_A_s"},
    [HM_COL_COMPARE_W] = {"W", "", "Wilcoxon rank-sum statistic of A (R's W)"},
    [HM_COL_COMPARE_P] = {"p", "", "p-value for the alternative"},
    [HM_COL_COMPARE_STARS] = {"stars", "", "* p <= 0.05, ** <= 0.01, *** <= 0.001"},
    [HM_COL_COMPARE_VERDICT] = {"verdict", "", "the reading at the 5% level"},
    [HM_COL_COMPARE_MAX_NORMALIZED_A] = {"max_normalized_A", "",
                                         "A's largest per-run value / smallest"},
    [HM_COL_COMPARE_MAX_NORMALIZED_B] = {"max_normalized_B", "",
                                         "B's largest per-run value / smallest"},
};

static const hm_results_column_t clock_summary[] = {
    [HM_COL_CLOCK_CLOCK_SYNC] = {"clock_sync", "", "clock synchronization (--clock-sync)"},
    [HM_COL_CLOCK_AFTER_S] = {"after_s", "s", "time of the check after the synchronization"},
    [HM_COL_CLOCK_DURATION_S] = {"duration_s", "s", "duration of the synchronization"},
    [HM_COL_CLOCK_DRIFT_MODELS] = {"drift_models", "", "pairwise models with a slope"},
    [HM_COL_CLOCK_OFFSET_MODELS] = {"offset_models", "", "pairwise models with an offset only"},
    [HM_COL_CLOCK_NSAMPLED] = {"nsampled", "", "ranks checked"},
    [HM_COL_CLOCK_OFFSET_MAX_S] = {"offset_max_s", "s", "largest measured offset to rank 0"},
    [HM_COL_CLOCK_OFFSET_MEDIAN_S] = {"offset_median_s", "s", "median measured offset"},
    [HM_COL_CLOCK_TRUTH_KNOWN] = {"truth_known", "", "1 when the true clock is known"},
    [HM_COL_CLOCK_TRUE_MAX_S] = {"true_max_s", "s", "largest error against the true clock"},
    [HM_COL_CLOCK_TRUE_MEDIAN_S] = {"true_median_s", "s", "median error against the truth"},
    [HM_COL_CLOCK_LEVEL_MODELS] = {"level_models", "", "per level: slope (L) and offset (O)"},
    [HM_COL_CLOCK_PINGPONGS] = {"pingpongs", "", "ping-pongs of the synchronization, all ranks"},
    [HM_COL_CLOCK_INTERNODE_PINGPONGS] = {"internode_pingpongs", "",
                                          "of them between ranks of different nodes"},
    [HM_COL_CLOCK_REFINEMENTS] = {"refinements", "",
                                  "refine: refinements made before the check (empty for the "
                                  "others)"},
    [HM_COL_CLOCK_REFINE_COST_S] = {"refine_cost_s", "s",
                                    "refine: their wall time, added (the ready phase is "
                                    "duration_s)"},
};

static const hm_results_column_t clock_raw[] = {
    [HM_COL_CLOCK_RAW_CLOCK_SYNC] = {"clock_sync", "", "clock synchronization"},
    [HM_COL_CLOCK_RAW_AFTER_S] = {"after_s", "s", "time of the check"},
    [HM_COL_CLOCK_RAW_RANK] = {"rank", "", "the rank"},
    [HM_COL_CLOCK_RAW_OFFSET_S] = {"offset_s", "s", "measured offset to rank 0"},
    [HM_COL_CLOCK_RAW_TRUE_ERROR_S] = {"true_error_s", "s", "error against the true clock"},
};

static const hm_results_column_t skew[] = {
    [HM_COL_SKEW_METHOD] = {"method", "", "process synchronization method"},
    [HM_COL_SKEW_REPETITIONS] = {"repetitions", "", "repetitions"},
    [HM_COL_SKEW_LATE_STARTS] = {"late_starts", "", "repetitions a rank started late"},
    [HM_COL_SKEW_MISSED] = {"missed", "", "repetitions the method declared invalid"},
    [HM_COL_SKEW_SKEW_MEDIAN_S] = {"skew_median_s", "s", "exit skew, global clock: median"},
    [HM_COL_SKEW_SKEW_P90_S] = {"skew_p90_s", "s", "90th percentile"},
    [HM_COL_SKEW_SKEW_P99_S] = {"skew_p99_s", "s", "99th percentile"},
    [HM_COL_SKEW_SKEW_MAX_S] = {"skew_max_s", "s", "maximum"},
    [HM_COL_SKEW_TRUE_SKEW_MEDIAN_S] = {"true_skew_median_s", "s", "exit skew, true clock"},
    [HM_COL_SKEW_TRUE_SKEW_P90_S] = {"true_skew_p90_s", "s", "90th percentile"},
    [HM_COL_SKEW_TRUE_SKEW_P99_S] = {"true_skew_p99_s", "s", "99th percentile"},
    [HM_COL_SKEW_TRUE_SKEW_MAX_S] = {"true_skew_max_s", "s", "maximum"},
    [HM_COL_SKEW_COST_S] = {"cost_s", "s", "cost of one call of the method"},
    [HM_COL_SKEW_VALID_SKEW_MEDIAN_S] = {"valid_skew_median_s", "s", "valid repetitions only"},
    [HM_COL_SKEW_VALID_SKEW_P90_S] = {"valid_skew_p90_s", "s", "90th percentile"},
    [HM_COL_SKEW_VALID_SKEW_P99_S] = {"valid_skew_p99_s", "s", "99th percentile"},
    [HM_COL_SKEW_VALID_SKEW_MAX_S] = {"valid_skew_max_s", "s", "maximum"},
    [HM_COL_SKEW_VALID_TRUE_SKEW_MEDIAN_S] = {"valid_true_skew_median_s", "s",
                                              "valid repetitions, true clock"},
    [HM_COL_SKEW_VALID_TRUE_SKEW_P90_S] = {"valid_true_skew_p90_s", "s", "90th percentile"},
    [HM_COL_SKEW_VALID_TRUE_SKEW_P99_S] = {"valid_true_skew_p99_s", "s", "99th percentile"},
    [HM_COL_SKEW_VALID_TRUE_SKEW_MAX_S] = {"valid_true_skew_max_s", "s", "maximum"},
};

static const hm_results_column_t skew_raw[] = {
    [HM_COL_SKEW_RAW_METHOD] = {"method", "", "process synchronization method"},
    [HM_COL_SKEW_RAW_WHAT] = {"what", "", "skew (a repetition) or rank_offset (a rank)"},
    [HM_COL_SKEW_RAW_INDEX] = {"index", "", "the repetition or the rank"},
    [HM_COL_SKEW_RAW_GLOBAL_S] = {"global_s", "s", "exit skew, or mean exit offset, global"},
    [HM_COL_SKEW_RAW_TRUE_S] = {"true_s", "s", "the same on the true clock"},
    /* Empty for the rank_offset rows, which average the kept repetitions. */
    [HM_COL_SKEW_RAW_VALID] = {"valid", "", "of a skew row: 1 unless the repetition was missed"},
};

static const hm_results_column_t timers[] = {
    [HM_COL_TIMERS_RANK] = {"rank", "", "the rank"},
    [HM_COL_TIMERS_SOURCE] = {"source", "", "time source (--timer name)"},
    [HM_COL_TIMERS_AVAILABLE] = {"available", "", "1 when the source works here"},
    [HM_COL_TIMERS_RESOLUTION_S] = {"resolution_s", "s", "smallest step measured"},
    [HM_COL_TIMERS_CLAIMED_RESOLUTION_S] = {"claimed_resolution_s", "s", "what it claims"},
    [HM_COL_TIMERS_OVERHEAD_S] = {"overhead_s", "s", "median cost of one read"},
    [HM_COL_TIMERS_DECREASES] = {"decreases", "", "reads that went back in time"},
    [HM_COL_TIMERS_MONOTONIC_CLAIMED] = {"monotonic_claimed", "", "1 when it claims monotony"},
};

static const hm_results_column_t manifest[] = {
    [HM_COL_MANIFEST_RUN] = {"run", "", "1-based run of the campaign"},
    [HM_COL_MANIFEST_SEED] = {"seed", "", "the seed the run was given"},
    [HM_COL_MANIFEST_STATE] = {"state", "", "pending, running, done, failed or interrupted"},
    [HM_COL_MANIFEST_EXIT_STATUS] = {"exit_status", "", "as a shell reports it; -1 unknown"},
    [HM_COL_MANIFEST_START_UTC] = {"start_utc", "", "ISO 8601 start, empty before it"},
    [HM_COL_MANIFEST_END_UTC] = {"end_utc", "", "ISO 8601 end, empty before it"},
    [HM_COL_MANIFEST_DURATION_S] = {"duration_s", "s", "the run's wall time, NaN before its end"},
    [HM_COL_MANIFEST_RAW] = {"raw", "", "the run's raw file"},
    [HM_COL_MANIFEST_LOG] = {"log", "", "the run's stdout and stderr"},
    [HM_COL_MANIFEST_COMMAND] = {"command", "", "the command as run, shell-quoted"},
};

/* Indexed by hm_results_kind_t. */
/* [Denis et al. 2022]: the references are the measured times, not the
 * targets (§5.1); a cell whose calibration did not converge is kept and
 * marked (cell_valid 0), never measured at a size that misses its target
 * silently. */
static const hm_results_column_t overlap[] = {
    [HM_COL_OVERLAP_OP] = {"op", "", "nonblocking collective (--ops name)"},
    [HM_COL_OVERLAP_COMM_TARGET_S] = {"comm_target_s", "s",
                                      "communication time aimed at (empty under --sizes)"},
    [HM_COL_OVERLAP_SIZE_BYTES] = {"size_bytes", "B", "message size the calibration kept"},
    [HM_COL_OVERLAP_COMM_REF_S] = {"comm_ref_s", "s",
                                   "t_comm_ref: median global run-time of the call and its "
                                   "wait at that size"},
    [HM_COL_OVERLAP_COMM_CALIBRATION] =
        {"comm_calibration", "",
         "converged, below-min, above-max, gap, out-of-probes, fixed (--sizes)"},
    [HM_COL_OVERLAP_COMM_PROBES] = {"comm_probes", "", "probes the calibration took"},
    [HM_COL_OVERLAP_COMP_TARGET_S] = {"comp_target_s", "s", "computation time aimed at"},
    [HM_COL_OVERLAP_MATRIX_ORDER] = {"matrix_order", "", "dgemm order the calibration kept"},
    [HM_COL_OVERLAP_COMP_REF_S] = {"comp_ref_s", "s",
                                   "t_comp_ref: median over runs of the slowest rank's "
                                   "computation"},
    [HM_COL_OVERLAP_COMP_CALIBRATION] = {"comp_calibration", "", "as comm_calibration"},
    [HM_COL_OVERLAP_COMP_PROBES] = {"comp_probes", "", "probes the calibration took"},
    [HM_COL_OVERLAP_CELL_VALID] = {"cell_valid", "",
                                   "1 when both references stand: calibrated (or given), "
                                   "within tolerance of the target, held over the grid"},
    [HM_COL_OVERLAP_VALID] = {"valid", "", "valid overlap repetitions"},
    [HM_COL_OVERLAP_INVALID] = {"invalid", "", "repetitions discarded (late start)"},
    [HM_COL_OVERLAP_MEASURED_MEDIAN_S] = {"measured_median_s", "s",
                                          "t_measured: max t4 - min t1, median"},
    [HM_COL_OVERLAP_OVERHEAD] = {"overhead", "", "overhead ratio (eq. 1), median"},
    [HM_COL_OVERLAP_OVERHEAD_CI_LO] = {"overhead_ci_lo", "", "95 % interval of the median"},
    [HM_COL_OVERLAP_OVERHEAD_CI_HI] = {"overhead_ci_hi", "", "95 % interval of the median"},
    [HM_COL_OVERLAP_COMP_SLOWDOWN] = {"comp_slowdown", "",
                                      "r_comp_slowdown (eq. 3): max t_comp / t_comp_ref, median"},
    [HM_COL_OVERLAP_COMP_SLOWDOWN_CI_LO] = {"comp_slowdown_ci_lo", "", "95 % interval"},
    [HM_COL_OVERLAP_COMP_SLOWDOWN_CI_HI] = {"comp_slowdown_ci_hi", "", "95 % interval"},
    [HM_COL_OVERLAP_COMM_RATIO] = {"comm_ratio", "",
                                   "r_comm (eq. 4): max (t_call + t_wait) / t_comm_ref, median"},
    [HM_COL_OVERLAP_COMM_RATIO_CI_LO] = {"comm_ratio_ci_lo", "", "95 % interval"},
    [HM_COL_OVERLAP_COMM_RATIO_CI_HI] = {"comm_ratio_ci_hi", "", "95 % interval"},
    [HM_COL_OVERLAP_OSU_PCT] = {"osu_overlap_pct", "%",
                                "OSU's overlap % (osu_util_mpi.c) from these repetitions: "
                                "max(0, 100 - 100 (overall - comp) / comm), means over ranks, "
                                "comm the local time of the communication alone"},
    [HM_COL_OVERLAP_IMB_PCT] = {"imb_overlap_pct", "%",
                                "IMB-NBC's overlap % (IMB_output.c) from these repetitions: "
                                "100 max(0, min(1, (t_comm_ref + t_comp_ref - t_ovrl) / max(the "
                                "refs))), t_ovrl the slowest rank's mean"},
    [HM_COL_OVERLAP_ORDER] = {"order", "", "position in the shuffled order of cells"},
    [HM_COL_OVERLAP_PROCSYNC] = {"procsync", "", "what the synchronization method did"},
    [HM_COL_OVERLAP_CONDITIONAL] = {"conditional", "",
                                    "1 when more than half the attempts were discarded: the "
                                    "ratios hold for undisturbed starts only"},
    [HM_COL_OVERLAP_COMM_ERROR_PCT] = {"comm_error_pct", "%",
                                       "(comm_ref_s - comm_target_s) / comm_target_s"},
    [HM_COL_OVERLAP_COMM_LOCAL_REF_S] = {"comm_local_ref_s", "s",
                                         "t_comm_ref of eq. 4: median of the slowest rank's own "
                                         "time of the call and its wait"},
    [HM_COL_OVERLAP_COMM_REF_END_S] = {"comm_ref_end_s", "s",
                                       "t_comm_ref measured again after the grid"},
    [HM_COL_OVERLAP_COMM_MOVED_PCT] = {"comm_moved_pct", "%",
                                       "(comm_ref_end_s - comm_ref_s) / comm_ref_s"},
    [HM_COL_OVERLAP_COMP_CALIBRATED_S] = {"comp_calibrated_s", "s",
                                          "the time the calibration reached at matrix_order: "
                                          "slowest thread's median dgemm, largest rank"},
    [HM_COL_OVERLAP_COMP_ERROR_PCT] = {"comp_error_pct", "%",
                                       "(comp_ref_s - comp_target_s) / comp_target_s"},
    [HM_COL_OVERLAP_COMP_REF_END_S] = {"comp_ref_end_s", "s",
                                       "t_comp_ref measured again after the grid"},
    [HM_COL_OVERLAP_COMP_MOVED_PCT] = {"comp_moved_pct", "%",
                                       "(comp_ref_end_s - comp_ref_s) / comp_ref_s"},
    [HM_COL_OVERLAP_CELL] = {"cell", "",
                             "ok, or why the cell is invalid: a calibration's outcome, a "
                             "reference off its target or moved during the grid, in %"},
};

static const hm_results_column_t overlap_raw[] = {
    [HM_COL_OVERLAP_RAW_OP] = {"op", "", "nonblocking collective"},
    [HM_COL_OVERLAP_RAW_COMM_TARGET_S] = {"comm_target_s", "s",
                                          "the cell's communication (empty under --sizes)"},
    [HM_COL_OVERLAP_RAW_SIZE_BYTES] = {"size_bytes", "B", "the cell's message size"},
    [HM_COL_OVERLAP_RAW_COMP_TARGET_S] = {"comp_target_s", "s", "the cell's computation"},
    [HM_COL_OVERLAP_RAW_ATTEMPT] = {"attempt", "", "attempt number (0-based, warm-up excluded)"},
    [HM_COL_OVERLAP_RAW_VALID] = {"valid", "", "1 when every rank started in time"},
    [HM_COL_OVERLAP_RAW_MEASURED_S] = {"measured_s", "s", "t_measured: max t4 - min t1"},
    [HM_COL_OVERLAP_RAW_COMP_S] = {"comp_s", "s", "max over ranks of t_comp = t3 - t2"},
    [HM_COL_OVERLAP_RAW_MPI_S] = {"mpi_s", "s", "max over ranks of t_call + t_wait"},
    [HM_COL_OVERLAP_RAW_OVERHEAD] = {"overhead", "", "eq. 1 against the cell's references"},
    [HM_COL_OVERLAP_RAW_COMP_SLOWDOWN] = {"comp_slowdown", "", "eq. 3: comp_s / t_comp_ref"},
    [HM_COL_OVERLAP_RAW_COMM_RATIO] = {"comm_ratio", "", "eq. 4: mpi_s / t_comm_ref"},
    [HM_COL_OVERLAP_RAW_CELL_VALID] = {"cell_valid", "",
                                       "1 when the cell's references stood (the summary's "
                                       "cell_valid, after the grid's recheck)"},
};

static const hm_results_column_t pattern[] = {
    [HM_COL_PATTERN_PATTERN] = {"pattern", "", "rail, asymmetric, symmetric, self, striping, file"},
    [HM_COL_PATTERN_DIRECTION] = {"direction", "",
                                  "uni, bi, omni, bi-mirror, uni-in (empty: none applies)"},
    [HM_COL_PATTERN_GROUPS] = {"groups", "", "n: groups (nodes) of the pattern"},
    [HM_COL_PATTERN_GROUP_SIZE] = {"group_size", "", "g: ranks per group"},
    [HM_COL_PATTERN_K] = {"k", "", "ranks of a group taking part"},
    [HM_COL_PATTERN_BACKEND] = {"backend", "", "mpi, host, or one per step (host+mpi+host)"},
    [HM_COL_PATTERN_MEASURED] = {"measured", "",
                                 "what the row times: pattern; striping's split, translate, "
                                 "assemble (each alone), sequence (dependent steps, end to "
                                 "end), concurrent (all started, then all waited for); or an "
                                 "MPI collective baseline (MPI_Scatter, MPI_Alltoall, "
                                 "MPI_Alltoallv)"},
    [HM_COL_PATTERN_SIZE_BYTES] = {"size_bytes", "B",
                                   "bytes per message (striping: the whole buffer; file: 0)"},
    [HM_COL_PATTERN_MESSAGES] = {"messages", "", "messages of the pattern, every step"},
    [HM_COL_PATTERN_BYTES] = {"bytes", "B",
                              "the sum of every message's size (striping: the buffer moved)"},
    [HM_COL_PATTERN_VALID] = {"valid", "", "valid repetitions"},
    [HM_COL_PATTERN_INVALID] = {"invalid", "", "repetitions discarded (late start)"},
    [HM_COL_PATTERN_WRONG_BYTES] = {"wrong_bytes", "",
                                    "received bytes that differed from what was sent "
                                    "(--validate; empty without)"},
    [HM_COL_PATTERN_MIN_S] = {"min_s", "s", "fastest valid repetition (max end - min start)"},
    [HM_COL_PATTERN_MEDIAN_S] = {"median_s", "s", "median valid repetition"},
    [HM_COL_PATTERN_MAX_S] = {"max_s", "s", "slowest valid repetition"},
    [HM_COL_PATTERN_MEAN_S] = {"mean_s", "s", "mean of the valid repetitions (CommBench's avg)"},
    [HM_COL_PATTERN_START_CALL_MEDIAN_S] = {"start_call_median_s", "s",
                                            "median over the valid repetitions of the slowest "
                                            "rank's time in its start calls (CommBench's "
                                            "start); empty for the baselines"},
    [HM_COL_PATTERN_ALGBW_GBPS] = {"algbw_GBps", "GB/s",
                                   "bytes / median_s (1 GB = 1e9 bytes, as nccl-tests)"},
    [HM_COL_PATTERN_BUSBW_GBPS] = {"busbw_GBps", "GB/s",
                                   "algbw x the bus factor: 1 for point-to-point patterns, "
                                   "every byte crosses one link once"},
    [HM_COL_PATTERN_NODE_BYTES] = {"node_bytes", "B",
                                   "bytes through the busiest group (node), sent plus received "
                                   "across groups; empty when none cross or for a baseline"},
    [HM_COL_PATTERN_NODE_GBPS] = {"node_GBps", "GB/s",
                                  "bandwidth per node (CommBench Fig. 12): node_bytes / "
                                  "median_s; algbw counts every message once instead"},
    [HM_COL_PATTERN_ORDER] = {"order", "", "position in the shuffled order of sizes"},
    [HM_COL_PATTERN_PROCSYNC] = {"procsync", "", "what the synchronization method did"},
    [HM_COL_PATTERN_DISCARDED_MEDIAN_S] = DISCARDED_MEDIAN_COLUMN,
    [HM_COL_PATTERN_CONDITIONAL] = CONDITIONAL_COLUMN,
    [HM_COL_PATTERN_END] = END_COLUMN,
};

static const hm_results_column_t pattern_raw[] = {
    [HM_COL_PATTERN_RAW_OP] = {"op", "",
                               "what was timed: the pattern (rail, ...), striping's steps as "
                               "striping:split ... striping:concurrent, or the collective "
                               "baseline (MPI_Scatter, MPI_Alltoall, MPI_Alltoallv)"},
    [HM_COL_PATTERN_RAW_SIZE_BYTES] = {"size_bytes", "B", "bytes per message"},
    [HM_COL_PATTERN_RAW_ATTEMPT] = {"attempt", "", "attempt number (0-based, warm-up excluded)"},
    [HM_COL_PATTERN_RAW_VALID] = {"valid", "", "1 when every rank started in time"},
    [HM_COL_PATTERN_RAW_GLOBAL_S] = {"global_s", "s", "max end - min start, global clock"},
    [HM_COL_PATTERN_RAW_LOCAL_S] = {"local_s", "s", "the slowest rank's own time"},
    [HM_COL_PATTERN_RAW_START_SPREAD_S] = {"start_spread_s", "s",
                                           "latest start - earliest start, global clock"},
    [HM_COL_PATTERN_RAW_START_S] = {"start_s", "s", "earliest start, global clock"},
    [HM_COL_PATTERN_RAW_DEVICE_S] = {"device_s", "s",
                                     "GPU backends: the slowest rank's own device time (CUDA "
                                     "events around its streams' work), beside global_s; "
                                     "empty for mpi, host and the baselines"},
    [HM_COL_PATTERN_RAW_START_CALL_S] = {"start_call_s", "s",
                                         "the slowest rank's time in its start calls "
                                         "(hm_plan_start: posting the messages, CommBench's "
                                         "start), inside global_s; empty for the baselines"},
    [HM_COL_PATTERN_RAW_LATE_TOLERANCE_S] = LATE_TOLERANCE_COLUMN,
};

/* The analysis of overlap: the cell first, its values in the unit of the
 * metric (a column of its own), seconds for measured, a ratio otherwise. */
#define OVERLAP_CELL(P)                                                                            \
    [P##_OP] = {"op", "", "nonblocking collective"},                                               \
    [P##_COMM_TARGET_S] = {"comm_target_s", "s",                                                   \
                           "the cell's communication (empty under --sizes)"},                      \
    [P##_SIZE_BYTES] = {"size_bytes", "B",                                                         \
                        "message size under --sizes (empty where comm_target_s names the cell)"},  \
    [P##_COMP_TARGET_S] = {"comp_target_s", "s",                                                   \
                           "the cell's computation (empty under --comp-us comm)"}

static const hm_results_column_t permpirun_overlap[] = {
    [HM_COL_PERMPIRUN_OVERLAP_RUN] = {"run", "", "1-based run (mpirun) of the campaign"},
    [HM_COL_PERMPIRUN_OVERLAP_SEED] = {"seed", "", "the run's seed (unsigned 64-bit)"},
    OVERLAP_CELL(HM_COL_PERMPIRUN_OVERLAP),
    [HM_COL_PERMPIRUN_OVERLAP_PROCESSES] = {"processes", "", "MPI processes of the run"},
    [HM_COL_PERMPIRUN_OVERLAP_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_PERMPIRUN_OVERLAP_PROGRESS] = {"progress", "", "the run's progress configuration"},
    [HM_COL_PERMPIRUN_OVERLAP_METRIC] = {"metric", "",
                                         "overhead, measured (s), comp_slowdown or comm_ratio"},
    [HM_COL_PERMPIRUN_OVERLAP_N] = {"n", "", "valid repetitions of the cell in the run"},
    [HM_COL_PERMPIRUN_OVERLAP_KEPT] = {"kept", "", "repetitions kept by the filter"},
    [HM_COL_PERMPIRUN_OVERLAP_MEDIAN] = {"median", "", "median of the kept values of the metric"},
    [HM_COL_PERMPIRUN_OVERLAP_MEAN] = {"mean", "", "mean of the kept values of the metric"},
    [HM_COL_PERMPIRUN_OVERLAP_CELL_VALID] = {"cell_valid", "",
                                             "1 when the cell's references stood in the run "
                                             "(its raw rows' cell_valid)"},
    [HM_COL_PERMPIRUN_OVERLAP_NREP] = {"nrep", "",
                                       "valid repetitions the run asked for (empty: unknown); n "
                                       "below it: the run ended short"},
};

static const hm_results_column_t repro_overlap[] = {
    OVERLAP_CELL(HM_COL_REPRO_OVERLAP),
    [HM_COL_REPRO_OVERLAP_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_REPRO_OVERLAP_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_REPRO_OVERLAP_PROGRESS] = {"progress", "", "progress configuration"},
    [HM_COL_REPRO_OVERLAP_METRIC] = {"metric", "", "what the values are of"},
    [HM_COL_REPRO_OVERLAP_RUN] = {"run", "", "1-based run of the campaign"},
    [HM_COL_REPRO_OVERLAP_VALUE] = {"median", "",
                                    "the run's per-mpirun value (mean under --statistic mean)"},
    [HM_COL_REPRO_OVERLAP_NORMALIZED] = {"normalized", "",
                                         "the value / the cell's smallest (empty unless that is "
                                         "above 0)"},
    [HM_COL_REPRO_OVERLAP_MAX_NORMALIZED] = {"max_normalized", "", "the cell's largest normalized"},
    [HM_COL_REPRO_OVERLAP_DIFFERENCE] = {"difference", "", "the value - the cell's smallest"},
    [HM_COL_REPRO_OVERLAP_MAX_DIFFERENCE] = {"max_difference", "",
                                             "the cell's largest - smallest value"},
    [HM_COL_REPRO_OVERLAP_CELL_VALID] = {"cell_valid", "",
                                         "1 when the cell's references stood in the run"},
};

static const hm_results_column_t stats_overlap[] = {
    OVERLAP_CELL(HM_COL_STATS_OVERLAP),
    [HM_COL_STATS_OVERLAP_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_STATS_OVERLAP_SYNC] = {"sync", "", "process synchronization method"},
    [HM_COL_STATS_OVERLAP_PROGRESS] = {"progress", "", "progress configuration"},
    [HM_COL_STATS_OVERLAP_METRIC] = {"metric", "", "what the values are of (--metric)"},
    [HM_COL_STATS_OVERLAP_N] = {"n", "", "valid repetitions"},
    [HM_COL_STATS_OVERLAP_N_KEPT] = {"n_kept", "", "repetitions kept by the filter"},
    [HM_COL_STATS_OVERLAP_MIN] = {"min", "", "minimum of the kept"},
    [HM_COL_STATS_OVERLAP_Q1] = {"q1", "", "first quartile (type 7)"},
    [HM_COL_STATS_OVERLAP_MEDIAN] = {"median", "", "median"},
    [HM_COL_STATS_OVERLAP_Q3] = {"q3", "", "third quartile"},
    [HM_COL_STATS_OVERLAP_MAX] = {"max", "", "maximum"},
    [HM_COL_STATS_OVERLAP_MEAN] = {"mean", "", "mean"},
    [HM_COL_STATS_OVERLAP_MEDIAN_CI_LO] = {"median_ci_lo", "", "95% interval of the median: low"},
    [HM_COL_STATS_OVERLAP_MEDIAN_CI_HI] = {"median_ci_hi", "", "95% interval of the median: high"},
    [HM_COL_STATS_OVERLAP_MEAN_CI_LO] = {"mean_ci_lo", "",
                                         "95% Student t interval of the mean: low"},
    [HM_COL_STATS_OVERLAP_MEAN_CI_HI] = {"mean_ci_hi", "", "95% interval of the mean: high"},
    [HM_COL_STATS_OVERLAP_ACF1] = {"acf1", "", "lag-1 autocorrelation in file order"},
    [HM_COL_STATS_OVERLAP_SHAPIRO_P] = {"shapiro_p", "", "Shapiro-Wilk p-value"},
    [HM_COL_STATS_OVERLAP_INVALID_CELL_N] = {"invalid_cell_n", "",
                                             "of n, samples of a cell whose references did not "
                                             "stand (raw cell_valid 0): not what they claim"},
};

static const hm_results_column_t compare_overlap[] = {
    OVERLAP_CELL(HM_COL_COMPARE_OVERLAP),
    [HM_COL_COMPARE_OVERLAP_PROCESSES] = {"processes", "", "MPI processes"},
    [HM_COL_COMPARE_OVERLAP_METRIC] = {"metric", "", "what the samples are of (--metric)"},
    [HM_COL_COMPARE_OVERLAP_SYNC_A] = {"sync_A", "", "A's synchronization method"},
    [HM_COL_COMPARE_OVERLAP_SYNC_B] = {"sync_B", "", "B's synchronization method"},
    [HM_COL_COMPARE_OVERLAP_PROGRESS_A] = {"progress_A", "", "A's progress configuration"},
    [HM_COL_COMPARE_OVERLAP_PROGRESS_B] = {"progress_B", "", "B's progress configuration"},
    [HM_COL_COMPARE_OVERLAP_N_A] = {"n_A", "", "A's samples"},
    [HM_COL_COMPARE_OVERLAP_N_B] = {"n_B", "", "B's samples"},
    [HM_COL_COMPARE_OVERLAP_MEDIAN_A] = {"median_A", "", "median of A's samples"},
    [HM_COL_COMPARE_OVERLAP_MEDIAN_B] = {"median_B", "", "median of B's samples"},
    [HM_COL_COMPARE_OVERLAP_DIFFERENCE_B_A] = {"difference_B_A", "",
                                               "median_B - median_A (what the table shows for "
                                               "the ratios of overlap)"},
    [HM_COL_COMPARE_OVERLAP_RATIO_B_A] = {"ratio_B_A", "",
                                          "median_B / median_A (empty unless median_A > 0; what "
                                          "the table shows for measured)"},
    [HM_COL_COMPARE_OVERLAP_W] = {"W", "", "Wilcoxon rank-sum statistic of A (R's W)"},
    [HM_COL_COMPARE_OVERLAP_P] = {"p", "", "p-value for the alternative"},
    [HM_COL_COMPARE_OVERLAP_STARS] = {"stars", "", "* p <= 0.05, ** <= 0.01, *** <= 0.001"},
    [HM_COL_COMPARE_OVERLAP_VERDICT] = {"verdict", "", "the reading at the 5% level"},
    [HM_COL_COMPARE_OVERLAP_RANGE_A] = {"range_A", "",
                                        "A's largest per-run value - smallest (empty for a raw "
                                        "file)"},
    [HM_COL_COMPARE_OVERLAP_RANGE_B] = {"range_B", "", "B's largest per-run value - smallest"},
    [HM_COL_COMPARE_OVERLAP_MAX_NORMALIZED_A] = {"max_normalized_A", "",
                                                 "A's largest per-run value / smallest (empty "
                                                 "unless the smallest is above 0)"},
    [HM_COL_COMPARE_OVERLAP_MAX_NORMALIZED_B] = {"max_normalized_B", "",
                                                 "B's largest per-run value / smallest"},
};

static const hm_results_column_t impact[] = {
    [HM_COL_IMPACT_COMP_TARGET_S] = {"comp_target_s", "s", "computation time aimed at"},
    [HM_COL_IMPACT_MATRIX_ORDER] = {"matrix_order", "", "dgemm order the calibration kept"},
    [HM_COL_IMPACT_RANK] = {"rank", "", "MPI rank"},
    [HM_COL_IMPACT_THREAD] = {"thread", "", "compute thread of the rank"},
    [HM_COL_IMPACT_CORE] = {"core", "", "processor the thread ran on"},
    [HM_COL_IMPACT_WITHOUT_MPI_S] = {"without_mpi_s", "s",
                                     "median kernel time in harmonia-compute (no MPI)"},
    [HM_COL_IMPACT_WITH_MPI_S] = {"with_mpi_s", "s", "median kernel time in the MPI process"},
    [HM_COL_IMPACT_RATIO] = {"impact", "", "MPI impact ratio (eq. 2): with / without"},
};

static const hm_results_column_t pattern_matrix[] = {
    [HM_COL_PATTERN_MATRIX_SRC] = {"src", "", "sender rank (0-based)"},
    [HM_COL_PATTERN_MATRIX_DST] = {"dst", "", "receiver rank (0-based)"},
    [HM_COL_PATTERN_MATRIX_BYTES] = {"bytes", "B",
                                     "bytes from src to dst in one run of the pattern (only "
                                     "pairs that exchange any)"},
};

static const hm_results_schema_t schemas[HM_RESULTS_NKINDS] = {
    {HM_RESULTS_BENCH, "the summary of 'harmonia bench --output'", COLUMNS(bench)},
    {HM_RESULTS_BENCH_RAW, "a raw file of 'harmonia bench --raw'", COLUMNS(bench_raw)},
    {HM_RESULTS_PERMPIRUN, "the per-mpirun.csv of 'harmonia campaign'", COLUMNS(permpirun)},
    {HM_RESULTS_REPRO, "the reproducibility.csv of 'harmonia campaign'", COLUMNS(repro)},
    {HM_RESULTS_STATS, "the output of 'harmonia stats'", COLUMNS(stats)},
    {HM_RESULTS_COMPARE, "the output of 'harmonia compare'", COLUMNS(compare)},
    {HM_RESULTS_CLOCK, "the summary of 'harmonia clock --output'", COLUMNS(clock_summary)},
    {HM_RESULTS_CLOCK_RAW, "a raw file of 'harmonia clock --raw'", COLUMNS(clock_raw)},
    {HM_RESULTS_SKEW, "the summary of 'harmonia skew --output'", COLUMNS(skew)},
    {HM_RESULTS_SKEW_RAW, "a raw file of 'harmonia skew --raw'", COLUMNS(skew_raw)},
    {HM_RESULTS_TIMERS, "the output of 'harmonia timers'", COLUMNS(timers)},
    {HM_RESULTS_MANIFEST, "the manifest.csv of 'harmonia campaign'", COLUMNS(manifest)},
    {HM_RESULTS_OVERLAP, "the summary of 'harmonia overlap --output'", COLUMNS(overlap)},
    {HM_RESULTS_OVERLAP_RAW, "a raw file of 'harmonia overlap --raw'", COLUMNS(overlap_raw)},
    {HM_RESULTS_IMPACT, "the output of 'harmonia overlap impact --output'", COLUMNS(impact)},
    {HM_RESULTS_PATTERN, "the summary of 'harmonia pattern --output'", COLUMNS(pattern)},
    {HM_RESULTS_PATTERN_RAW, "a raw file of 'harmonia pattern --raw'", COLUMNS(pattern_raw)},
    {HM_RESULTS_PERMPIRUN_OVERLAP, "a campaign's per-mpirun.csv of 'harmonia overlap' runs",
     COLUMNS(permpirun_overlap)},
    {HM_RESULTS_REPRO_OVERLAP, "the reproducibility.csv of 'harmonia overlap' runs",
     COLUMNS(repro_overlap)},
    {HM_RESULTS_STATS_OVERLAP, "the output of 'harmonia stats' on overlap raw files",
     COLUMNS(stats_overlap)},
    {HM_RESULTS_COMPARE_OVERLAP, "the output of 'harmonia compare' on overlap results",
     COLUMNS(compare_overlap)},
    {HM_RESULTS_PATTERN_MATRIX, "the matrix of 'harmonia pattern --matrix'",
     COLUMNS(pattern_matrix)},
};

const hm_results_schema_t *hm_results_schema(hm_results_kind_t kind)
{
    return (unsigned)kind < HM_RESULTS_NKINDS ? &schemas[kind] : NULL;
}

const char *hm_results_column_name(hm_results_kind_t kind, int column)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    return s && column >= 0 && (size_t)column < s->ncolumns ? s->columns[column].name : NULL;
}
