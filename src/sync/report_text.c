/* src/sync/report_text.c — a synchronization report's models in one line,
 * for tables and the factors of result files. */
#include <math.h>
#include <stdio.h>

#include <harmonia/sync.h>

#include "common/error_set.h"

/* The drift test of level l: the largest t of the fits that became offsets
 * and the smallest of those that kept their slope, each against the
 * critical value (the sign says how t compares: with drift on or off the
 * model need not follow the test); then the drift the offset models may
 * hide and the fits extended to resolve less. Nothing for a level without
 * fits. */
static int drift_test(const hm_sync_report_t *r, int l, char *buf, size_t len)
{
    double t[2] = {r->drift_t_offset_max[l], r->drift_t_linear_min[l]},
           crit = r->drift_t_critical[l];
    int used = 0;
    if (isnan(crit)) return 0;
    for (int k = 0; k < 2; k++)
        if (!isnan(t[k]) && (size_t)used < len)
            used += snprintf(buf + used, len - (size_t)used, "%s%.3g%s%.3g", used ? ", " : "(t ",
                             t[k], t[k] < crit ? "<" : ">=", crit);
    if (!isnan(r->drift_resolution_ppm[l]) && used > 0 && (size_t)used < len)
        used += snprintf(buf + used, len - (size_t)used, "; hides < %.2g ppm",
                         r->drift_resolution_ppm[l]);
    if (r->fits_extended[l] > 0 && used > 0 && (size_t)used < len)
        used += snprintf(buf + used, len - (size_t)used, "; %d extended to %d points",
                         r->fits_extended[l], r->fitpoints_max[l]);
    if (used > 0 && (size_t)used < len) used += snprintf(buf + used, len - (size_t)used, ")");
    return used;
}

void hm_sync_report_models(const hm_sync_report_t *r, char *buf, size_t len)
{
    size_t used = 0;
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (len == 0) return;
    buf[0] = '\0';
    for (int l = 0; r && l < r->nlevels && used < len; l++) {
        used += (size_t)snprintf(buf + used, len - used, "%s%s:%dL/%dO", l ? " " : "",
                                 r->algorithm[l], r->drift_models[l], r->offset_models[l]);
        if (used < len) used += (size_t)drift_test(r, l, buf + used, len - used);
    }
}
