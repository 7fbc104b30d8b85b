/* src/analysis/names.c — the names of the analysis choices: one table per
 * choice, indexed by its enum, read by the command line (parsing, help,
 * errors) and by the writers of result files. */
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"
#include "common/names.h"

static const char *const filters[] = {[HM_FILTER_TUKEY] = "tukey", [HM_FILTER_NONE] = "none"};
static const char *const statistics[] = {
    [HM_STATISTIC_MEDIAN] = "median", [HM_STATISTIC_MEAN] = "mean"};
static const char *const alternatives[] = {
    [HM_ALT_TWO_SIDED] = "two-sided", [HM_ALT_LESS] = "less", [HM_ALT_GREATER] = "greater"};
static const char *const verdicts[] = {
    [HM_VERDICT_NO_EVIDENCE] = "no evidence", [HM_VERDICT_B_FASTER] = "B faster",
    [HM_VERDICT_B_SLOWER] = "B slower",       [HM_VERDICT_A_SMALLER] = "A smaller",
    [HM_VERDICT_A_LARGER] = "A larger",       [HM_VERDICT_B_SMALLER] = "B smaller",
    [HM_VERDICT_B_LARGER] = "B larger",       [HM_VERDICT_INVALID_CELL] = "invalid cell"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *name(const char *const *table, size_t n, int value)
{
    return value >= 0 && (size_t)value < n ? table[value] : NULL;
}

/* The name_at callbacks of hm__join_names, one per table. */
static const char *filter_at(size_t i)
{
    return filters[i];
}

static const char *statistic_at(size_t i)
{
    return statistics[i];
}

static const char *alternative_at(size_t i)
{
    return alternatives[i];
}

/* The value named text in table (n names), or HM_ENOENT with the names
 * known, as the command line reports an unknown choice. */
static int find(const char *const *table, size_t n, const char *(*name_at)(size_t),
                const char *what, const char *text, int *value)
{
    char known[128];
    for (size_t i = 0; text && i < n; i++)
        if (strcmp(table[i], text) == 0) {
            *value = (int)i;
            return HM_OK;
        }
    hm__join_names(name_at, n, known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown %s \"%s\" (known: %s)", what, text ? text : "", known);
}

/* hm__join_names into the caller's buf, refused when there is none. */
static void join(const char *fn, const char *(*name_at)(size_t), size_t n, char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(fn, "buf");
        return;
    }
    hm__join_names(name_at, n, buf, len);
}

const char *hm_analysis_filter_name(hm_filter_t filter)
{
    return name(filters, COUNT(filters), (int)filter);
}

int hm_analysis_filter_find(const char *text, hm_filter_t *filter)
{
    int v = 0, rc = find(filters, COUNT(filters), filter_at, "filter", text, &v);
    if (rc == HM_OK && filter) *filter = (hm_filter_t)v;
    return rc;
}

void hm_analysis_filter_names(char *buf, size_t len)
{
    join(__func__, filter_at, COUNT(filters), buf, len);
}

const char *hm_analysis_statistic_name(hm_statistic_t statistic)
{
    return name(statistics, COUNT(statistics), (int)statistic);
}

int hm_analysis_statistic_find(const char *text, hm_statistic_t *statistic)
{
    int v = 0, rc = find(statistics, COUNT(statistics), statistic_at, "statistic", text, &v);
    if (rc == HM_OK && statistic) *statistic = (hm_statistic_t)v;
    return rc;
}

void hm_analysis_statistic_names(char *buf, size_t len)
{
    join(__func__, statistic_at, COUNT(statistics), buf, len);
}

const char *hm_analysis_alternative_name(hm_alternative_t alternative)
{
    return name(alternatives, COUNT(alternatives), (int)alternative);
}

int hm_analysis_alternative_find(const char *text, hm_alternative_t *alternative)
{
    int v = 0,
        rc = find(alternatives, COUNT(alternatives), alternative_at, "alternative", text, &v);
    if (rc == HM_OK && alternative) *alternative = (hm_alternative_t)v;
    return rc;
}

void hm_analysis_alternative_names(char *buf, size_t len)
{
    join(__func__, alternative_at, COUNT(alternatives), buf, len);
}

const char *hm_analysis_verdict_name(hm_verdict_t verdict)
{
    return name(verdicts, COUNT(verdicts), (int)verdict);
}
