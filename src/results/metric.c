/* src/results/metric.c — the run-time definitions a raw file holds, by the
 * names --metric accepts and result files record. */
#include <string.h>

#include <harmonia/results.h>

#include "common/error_set.h"
#include "common/names.h"

/* Indexed by hm_metric_t. */
static const char *const names[] = {"global", "local"};
enum { NMETRICS = sizeof names / sizeof names[0] };

const char *hm_results_metric_name(hm_metric_t metric)
{
    return (unsigned)metric < NMETRICS ? names[metric] : NULL;
}

int hm_results_metric_find(const char *name, hm_metric_t *metric)
{
    for (size_t i = 0; name && i < NMETRICS; i++)
        if (strcmp(names[i], name) == 0) {
            if (metric) *metric = (hm_metric_t)i;
            return HM_OK;
        }
    char known[64];
    hm_results_metric_names(known, sizeof known);
    return hm_error_set(HM_ENOENT, "unknown metric \"%s\" (known: %s)", name ? name : "", known);
}

static const char *name_at(size_t i)
{
    return names[i];
}

void hm_results_metric_names(char *buf, size_t len)
{
    hm_join_names(name_at, NMETRICS, buf, len);
}
