/* tests/results/test_schema.c — the schemas of the result files against
 * their documented formats (docs/measure.md, docs/analysis.md, the header
 * rows the existing files have): every column in place, names unique within
 * a kind, units that agree with the names (seconds end in _s), and the
 * header row a file opened by kind gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/results.h>

#include "testutil.h"

/* The header rows as documented, one per kind. */
static const char *const documented[HM_RESULTS_NKINDS] = {
    [HM_RESULTS_BENCH] = "op,size_bytes,sync,valid,invalid,wrong_results,min_s,q1_s,median_s,q3_s,"
                         "max_s,mean_s,sd_s,local_median_s,start_spread_median_s,procsync,order,"
                         "wall_s,late_starts,discarded_median_s,conditional,end,late_capped",
    [HM_RESULTS_BENCH_RAW] = "op,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s,"
                             "late_tolerance_s",
    [HM_RESULTS_PERMPIRUN] = "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s,nrep",
    [HM_RESULTS_REPRO] = "op,size_bytes,processes,sync,run,median_s,normalized,max_normalized",
    [HM_RESULTS_STATS] = "op,size_bytes,processes,sync,n,n_kept,min_s,q1_s,median_s,q3_s,max_s,"
                         "mean_s,median_ci_lo_s,median_ci_hi_s,mean_ci_lo_s,mean_ci_hi_s,acf1,"
                         "shapiro_p",
    [HM_RESULTS_COMPARE] = "op,size_bytes,processes,sync_A,sync_B,n_A,n_B,median_A_s,median_B_s,"
                           "ratio_B_A,W,p,stars,verdict,max_normalized_A,max_normalized_B",
    [HM_RESULTS_CLOCK] = "clock_sync,after_s,duration_s,drift_models,offset_models,nsampled,"
                         "offset_max_s,offset_median_s,truth_known,true_max_s,true_median_s,"
                         "level_models,pingpongs,internode_pingpongs,refinements,refine_cost_s",
    [HM_RESULTS_CLOCK_RAW] = "clock_sync,after_s,rank,offset_s,true_error_s",
    [HM_RESULTS_SKEW] = "method,repetitions,late_starts,missed,skew_median_s,skew_p90_s,skew_p99_s,"
                        "skew_max_s,true_skew_median_s,true_skew_p90_s,true_skew_p99_s,"
                        "true_skew_max_s,cost_s,valid_skew_median_s,valid_skew_p90_s,"
                        "valid_skew_p99_s,valid_skew_max_s,valid_true_skew_median_s,"
                        "valid_true_skew_p90_s,valid_true_skew_p99_s,valid_true_skew_max_s",
    [HM_RESULTS_SKEW_RAW] = "method,what,index,global_s,true_s,valid",
    [HM_RESULTS_TIMERS] = "rank,source,available,resolution_s,claimed_resolution_s,overhead_s,"
                          "decreases,monotonic_claimed",
    [HM_RESULTS_MANIFEST] = "run,seed,state,exit_status,start_utc,end_utc,duration_s,raw,log,"
                            "command",
    [HM_RESULTS_OVERLAP] = "op,comm_target_s,size_bytes,comm_ref_s,comm_calibration,comm_probes,"
                           "comp_target_s,matrix_order,comp_ref_s,comp_calibration,comp_probes,"
                           "cell_valid,"
                           "valid,invalid,measured_median_s,overhead,overhead_ci_lo,"
                           "overhead_ci_hi,comp_slowdown,comp_slowdown_ci_lo,comp_slowdown_ci_hi,"
                           "comm_ratio,comm_ratio_ci_lo,comm_ratio_ci_hi,osu_overlap_pct,"
                           "imb_overlap_pct,order,procsync,conditional,comm_error_pct,"
                           "comm_local_ref_s,comm_ref_end_s,comm_moved_pct,comp_calibrated_s,"
                           "comp_error_pct,comp_ref_end_s,comp_moved_pct,cell",
    [HM_RESULTS_OVERLAP_RAW] = "op,comm_target_s,size_bytes,comp_target_s,attempt,valid,measured_s,"
                               "comp_s,"
                               "mpi_s,overhead,comp_slowdown,comm_ratio,cell_valid",
    [HM_RESULTS_IMPACT] = "comp_target_s,matrix_order,rank,thread,core,without_mpi_s,with_mpi_s,"
                          "impact",
    [HM_RESULTS_PATTERN] =
        "pattern,direction,groups,group_size,k,backend,measured,size_bytes,messages,"
        "bytes,valid,invalid,wrong_bytes,min_s,median_s,max_s,mean_s,start_call_median_s,"
        "algbw_GBps,busbw_GBps,node_bytes,node_GBps,order,procsync,discarded_median_s,"
        "conditional,end",
    [HM_RESULTS_PATTERN_RAW] = "op,size_bytes,attempt,valid,global_s,local_s,start_spread_s,"
                               "start_s,device_s,start_call_s,late_tolerance_s",
    [HM_RESULTS_PERMPIRUN_OVERLAP] =
        "run,seed,op,comm_target_s,size_bytes,comp_target_s,"
        "processes,sync,progress,metric,n,kept,median,mean,cell_valid,nrep",
    [HM_RESULTS_REPRO_OVERLAP] = "op,comm_target_s,size_bytes,comp_target_s,processes,sync,"
                                 "progress,metric,run,median,normalized,max_normalized,"
                                 "difference,max_difference,cell_valid",
    [HM_RESULTS_STATS_OVERLAP] =
        "op,comm_target_s,size_bytes,comp_target_s,processes,sync,"
        "progress,metric,n,n_kept,min,q1,median,q3,max,mean,"
        "median_ci_lo,median_ci_hi,mean_ci_lo,mean_ci_hi,acf1,shapiro_p,invalid_cell_n",
    [HM_RESULTS_COMPARE_OVERLAP] = "op,comm_target_s,size_bytes,comp_target_s,processes,metric,"
                                   "sync_A,sync_B,progress_A,progress_B,n_A,n_B,median_A,"
                                   "median_B,difference_B_A,ratio_B_A,W,p,stars,verdict,range_A,"
                                   "range_B,max_normalized_A,max_normalized_B",
    [HM_RESULTS_PATTERN_MATRIX] = "src,dst,bytes",
};

/* The header row of kind as written by hm_results_csv_open into path. */
static int header_of(hm_results_kind_t kind, const char *path, char *line, size_t len)
{
    hm_csv_t *csv = NULL;
    if (hm_results_csv_open(path, NULL, kind, &csv) != HM_OK || hm_csv_close(csv) != HM_OK)
        return -1;
    /* The first line that is not a factor ("# complete: yes" with none given). */
    FILE *f = fopen(path, "r");
    int ok = 0;
    while (f && (ok = fgets(line, (int)len, f) != NULL) && line[0] == '#') continue;
    if (f) fclose(f);
    if (ok) line[strcspn(line, "\n")] = '\0';
    return ok ? 0 : -1;
}

static void check_kind(hm_results_kind_t kind, const char *path)
{
    const hm_results_schema_t *s = hm_results_schema(kind);
    char line[1024] = "", joined[1024] = "";
    int units = 1, unique = 1;
    for (size_t i = 0; s && i < s->ncolumns; i++) {
        const hm_results_column_t *c = &s->columns[i];
        size_t n = strlen(c->name);
        int seconds = n > 2 && !strcmp(c->name + n - 2, "_s");
        units &= seconds == !strcmp(c->unit, "s") && c->meaning && c->meaning[0];
        for (size_t j = 0; j < i; j++) unique &= strcmp(s->columns[j].name, c->name) != 0;
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? "," : "",
                 c->name);
    }
    HM_CHECK(s && s->kind == kind && !strcmp(joined, documented[kind]),
             "kind %d: the documented columns (%s)", (int)kind, joined);
    HM_CHECK(units && unique, "kind %d: unit s exactly for *_s, a meaning each, names unique",
             (int)kind);
    HM_CHECK(header_of(kind, path, line, sizeof line) == 0 && !strcmp(line, documented[kind]),
             "kind %d: the file's header row (%s)", (int)kind, line);
}

static void check_lookups(const char *path)
{
    hm_csv_t *csv = NULL;
    char line[256] = "";
    HM_CHECK(!hm_results_schema(HM_RESULTS_NKINDS) &&
                 !hm_results_column_name(HM_RESULTS_BENCH_RAW, 9) &&
                 !hm_results_column_name(HM_RESULTS_BENCH_RAW, -1),
             "no schema past the kinds, no column past a schema");
    HM_CHECK(!strcmp(hm_results_column_name(HM_RESULTS_BENCH, HM_COL_BENCH_LOCAL_MEDIAN_S),
                     "local_median_s") &&
                 !strcmp(hm_results_column_name(HM_RESULTS_SKEW, HM_COL_SKEW_COST_S), "cost_s"),
             "HM_COL_* index their schema");
    int rc = hm_results_repro_open(path, NULL, HM_COL_PERMPIRUN_MEAN_S, &csv);
    if (rc == HM_OK) rc = hm_csv_close(csv);
    FILE *f = rc == HM_OK ? fopen(path, "r") : NULL;
    line[0] = '\0';
    while (f && fgets(line, sizeof line, f) && line[0] == '#') line[0] = '\0';
    if (f) fclose(f);
    HM_CHECK(!strcmp(line, "op,size_bytes,processes,sync,run,mean_s,normalized,max_normalized\n"),
             "the reproducibility of means names its value column mean_s (%s)", line);
    HM_CHECK(hm_results_repro_open(path, NULL, HM_COL_PERMPIRUN_N, &csv) == HM_EINVAL && !csv,
             "a reproducibility of n is refused");
    rc = hm_results_repro_open(path, NULL, HM_COL_PERMPIRUN_OVERLAP_MEAN, &csv);
    if (rc == HM_OK) rc = hm_csv_close(csv);
    f = rc == HM_OK ? fopen(path, "r") : NULL;
    line[0] = '\0';
    while (f && fgets(line, sizeof line, f) && line[0] == '#') line[0] = '\0';
    if (f) fclose(f);
    HM_CHECK(
        !strcmp(line,
                "op,comm_target_s,size_bytes,comp_target_s,processes,sync,progress,"
                "metric,run,mean,normalized,max_normalized,difference,max_difference,cell_valid\n"),
        "the reproducibility of overlap's means names its value column mean (%s)", line);
}

int main(void)
{
    char path[] = "/tmp/hm_schema_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    for (int k = 0; k < HM_RESULTS_NKINDS; k++) check_kind((hm_results_kind_t)k, path);
    check_lookups(path);
    unlink(path);
    return hm_test_finish();
}
