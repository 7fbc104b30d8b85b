/* src/procsync/harmonize_slack.c — the slack hm_harmonize's root aims for,
 * from the "used" times of the last calls (see HZ_MARGIN in harmonize.c):
 * the cheapest slack in expectation, since a miss costs a refresh of the
 * clocks, hundreds of microseconds over TCP, while covering the rare late
 * arrival costs its lateness at every call. */
#include <stdlib.h>
#include <string.h>

#include "procsync/harmonize_state.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hm_hz_slack_target(const double *used_s, int n, double margin, double refresh_cost_s)
{
    double sorted[HZ_HISTORY];
    if (n > HZ_HISTORY) n = HZ_HISTORY;
    memcpy(sorted, used_s, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    if (!(refresh_cost_s > 0)) return margin * sorted[n > 1 ? n - 2 : 0];
    double best = 0.0, best_cost = 0.0;
    /* Candidates ascending; above = how many used times exceed the current
     * one, which only falls as the candidate grows. */
    for (int k = 0, above = n; k < n; k++) {
        double s = margin * sorted[k];
        while (above > 0 && sorted[n - above] <= s) above--;
        double cost = s + (double)above / n * refresh_cost_s;
        if (k == 0 || cost < best_cost) best = s, best_cost = cost;
    }
    return best;
}
