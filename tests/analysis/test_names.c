/* tests/analysis/test_names.c — the name tables of the analysis choices:
 * every value has the name the command line and result files use
 * (docs/analysis.md), names find their value, unknown ones are refused with
 * the list of known ones, as `harmonia` reports them. */
#include <string.h>

#include <harmonia/analysis.h>

#include "testutil.h"

static void check_filter(void)
{
    hm_filter_t f = HM_FILTER_TUKEY;
    char list[64];
    hm_analysis_filter_names(list, sizeof list);
    HM_CHECK(!strcmp(hm_analysis_filter_name(HM_FILTER_TUKEY), "tukey") &&
                 !strcmp(hm_analysis_filter_name(HM_FILTER_NONE), "none") &&
                 !hm_analysis_filter_name((hm_filter_t)2),
             "filter names tukey, none; NULL outside the enum");
    HM_CHECK(hm_analysis_filter_find("none", &f) == HM_OK && f == HM_FILTER_NONE,
             "\"none\" is HM_FILTER_NONE");
    HM_CHECK(hm_analysis_filter_find("median", &f) == HM_ENOENT &&
                 !strcmp(hm_last_error(), "unknown filter \"median\" (known: tukey, none)") &&
                 f == HM_FILTER_NONE,
             "\"median\" refused, *filter untouched (%s)", hm_last_error());
    HM_CHECK(!strcmp(list, "tukey, none"), "list \"%s\"", list);
}

static void check_statistic_and_metric(void)
{
    hm_statistic_t s = HM_STATISTIC_MEDIAN;
    hm_metric_t m = HM_METRIC_GLOBAL;
    char list[128];
    HM_CHECK(hm_analysis_statistic_find("mean", &s) == HM_OK && s == HM_STATISTIC_MEAN &&
                 !strcmp(hm_analysis_statistic_name(HM_STATISTIC_MEDIAN), "median"),
             "statistic: mean and median");
    HM_CHECK(hm_analysis_statistic_find("max", &s) == HM_ENOENT &&
                 !strcmp(hm_last_error(), "unknown statistic \"max\" (known: median, mean)"),
             "\"max\" refused (%s)", hm_last_error());
    HM_CHECK(hm_results_metric_find("local", &m) == HM_OK && m == HM_METRIC_LOCAL &&
                 !strcmp(hm_results_metric_name(HM_METRIC_GLOBAL), "global"),
             "metric: local and global");
    HM_CHECK(hm_results_metric_find("wall", &m) == HM_ENOENT &&
                 !strcmp(hm_last_error(),
                         "unknown metric \"wall\" (known: global, local, overhead, measured, "
                         "comp_slowdown, comm_ratio)"),
             "\"wall\" refused (%s)", hm_last_error());
    hm_results_metric_names(list, sizeof list);
    HM_CHECK(!strcmp(list, "global, local, overhead, measured, comp_slowdown, comm_ratio"),
             "metric list \"%s\"", list);
    /* Each metric of overlap reads its column of the raw file; a time is
     * compared by quotients, a ratio by differences. */
    HM_CHECK(hm_results_metric_find("comm_ratio", &m) == HM_OK && m == HM_METRIC_COMM_RATIO &&
                 hm_results_metric_kind(m) == HM_RESULTS_OVERLAP_RAW &&
                 hm_results_metric_column(m) == HM_COL_OVERLAP_RAW_COMM_RATIO &&
                 hm_results_metric_kind(HM_METRIC_LOCAL) == HM_RESULTS_BENCH_RAW &&
                 hm_results_metric_column(HM_METRIC_MEASURED) == HM_COL_OVERLAP_RAW_MEASURED_S,
             "metric: comm_ratio and measured of overlap, local of bench");
    HM_CHECK(hm_results_metric_is_time(HM_METRIC_MEASURED) &&
                 hm_results_metric_is_time(HM_METRIC_GLOBAL) &&
                 !hm_results_metric_is_time(HM_METRIC_OVERHEAD) &&
                 !hm_results_metric_is_time(HM_METRIC_COMP_SLOWDOWN) &&
                 !hm_results_metric_is_time((hm_metric_t)6),
             "times: global, local, measured; ratios: the others");
    HM_CHECK(hm_results_metric_default(HM_RESULTS_OVERLAP_RAW) == HM_METRIC_OVERHEAD &&
                 hm_results_metric_default(HM_RESULTS_PERMPIRUN_OVERLAP) == HM_METRIC_OVERHEAD &&
                 hm_results_metric_default(HM_RESULTS_BENCH_RAW) == HM_METRIC_GLOBAL &&
                 hm_results_metric_default(HM_RESULTS_PERMPIRUN) == HM_METRIC_GLOBAL,
             "default metrics: overhead for overlap, global for bench");
    hm_results_metric_names_of(HM_RESULTS_PERMPIRUN_OVERLAP, list, sizeof list);
    HM_CHECK(!strcmp(list, "overhead, measured, comp_slowdown, comm_ratio"),
             "metrics of overlap \"%s\"", list);
}

static void check_alternative_and_verdict(void)
{
    hm_alternative_t a = HM_ALT_TWO_SIDED;
    char list[64];
    hm_analysis_alternative_names(list, sizeof list);
    HM_CHECK(!strcmp(list, "two-sided, less, greater"), "alternative list \"%s\"", list);
    HM_CHECK(hm_analysis_alternative_find("greater", &a) == HM_OK && a == HM_ALT_GREATER &&
                 !strcmp(hm_analysis_alternative_name(HM_ALT_LESS), "less"),
             "alternative: greater and less are stats.h's constants");
    HM_CHECK(hm_analysis_alternative_find("bigger", &a) == HM_ENOENT &&
                 !strcmp(hm_last_error(),
                         "unknown alternative \"bigger\" (known: two-sided, less, greater)"),
             "\"bigger\" refused (%s)", hm_last_error());
    HM_CHECK(!strcmp(hm_analysis_verdict_name(HM_VERDICT_NO_EVIDENCE), "no evidence") &&
                 !strcmp(hm_analysis_verdict_name(HM_VERDICT_B_FASTER), "B faster") &&
                 !strcmp(hm_analysis_verdict_name(HM_VERDICT_A_LARGER), "A larger") &&
                 !strcmp(hm_analysis_verdict_name(HM_VERDICT_B_SMALLER), "B smaller") &&
                 !strcmp(hm_analysis_verdict_name(HM_VERDICT_B_LARGER), "B larger") &&
                 !hm_analysis_verdict_name((hm_verdict_t)9),
             "verdicts as compare writes them");
}

int main(void)
{
    check_filter();
    check_statistic_and_metric();
    check_alternative_and_verdict();
    return hm_test_finish();
}
