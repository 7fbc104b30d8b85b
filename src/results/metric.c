/* src/results/metric.c — what the values of a raw file are, by the names
 * --metric accepts and result files record: the run-times of bench and the
 * ratios (and measured time) of overlap [Denis et al. 2022, eq. 1-4], each
 * with the raw column it reads. */
#include <stdio.h>
#include <string.h>

#include <harmonia/results.h>

#include "common/error_set.h"
#include "common/names.h"

/* Indexed by hm_metric_t. */
static const struct {
    const char *name;
    hm_results_kind_t kind; /* the raw file that has the column */
    int column;
    int time; /* seconds: compared by quotients; else a ratio, by differences */
} metrics[] = {
    {"global", HM_RESULTS_BENCH_RAW, HM_COL_BENCH_RAW_GLOBAL_S, 1},
    {"local", HM_RESULTS_BENCH_RAW, HM_COL_BENCH_RAW_LOCAL_S, 1},
    {"overhead", HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_OVERHEAD, 0},
    {"measured", HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_MEASURED_S, 1},
    {"comp_slowdown", HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_COMP_SLOWDOWN, 0},
    {"comm_ratio", HM_RESULTS_OVERLAP_RAW, HM_COL_OVERLAP_RAW_COMM_RATIO, 0},
};
enum { NMETRICS = sizeof metrics / sizeof metrics[0] };

const char *hm_results_metric_name(hm_metric_t metric)
{
    return (unsigned)metric < NMETRICS ? metrics[metric].name : NULL;
}

int hm_results_metric_find(const char *name, hm_metric_t *metric)
{
    for (size_t i = 0; name && i < NMETRICS; i++)
        if (strcmp(metrics[i].name, name) == 0) {
            if (metric) *metric = (hm_metric_t)i;
            return HM_OK;
        }
    char known[128];
    hm_results_metric_names(known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown metric \"%s\" (known: %s)", name ? name : "", known);
}

static const char *name_at(size_t i)
{
    return metrics[i].name;
}

void hm_results_metric_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(name_at, NMETRICS, buf, len);
}

hm_results_kind_t hm_results_metric_kind(hm_metric_t metric)
{
    return (unsigned)metric < NMETRICS ? metrics[metric].kind : HM_RESULTS_NKINDS;
}

int hm_results_metric_column(hm_metric_t metric)
{
    return (unsigned)metric < NMETRICS ? metrics[metric].column : -1;
}

int hm_results_metric_is_time(hm_metric_t metric)
{
    return (unsigned)metric < NMETRICS && metrics[metric].time;
}

/* The raw kind of a file's family: a campaign's dataset reduces raw files. */
static hm_results_kind_t raw_kind(hm_results_kind_t kind)
{
    if (kind == HM_RESULTS_PERMPIRUN) return HM_RESULTS_BENCH_RAW;
    if (kind == HM_RESULTS_PERMPIRUN_OVERLAP) return HM_RESULTS_OVERLAP_RAW;
    return kind;
}

hm_metric_t hm_results_metric_default(hm_results_kind_t kind)
{
    return raw_kind(kind) == HM_RESULTS_OVERLAP_RAW ? HM_METRIC_OVERHEAD : HM_METRIC_GLOBAL;
}

void hm_results_metric_names_of(hm_results_kind_t kind, char *buf, size_t len)
{
    size_t used = 0;
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (len) buf[0] = '\0';
    for (size_t i = 0; i < NMETRICS && used < len; i++)
        if (metrics[i].kind == raw_kind(kind))
            used +=
                (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", metrics[i].name);
}
