/* src/procsync/harmonize_slack.c — the slack hm_harmonize's root aims for,
 * from the "used" times of the last calls (see HZ_MARGIN in harmonize.c):
 * the cheapest slack in expectation, since a miss costs a refresh of the
 * clocks, hundreds of microseconds over TCP, while covering the rare late
 * arrival costs its lateness at every call. The history is kept sorted as
 * it goes, so that the target costs a linear scan, not a sort. */
#include <string.h>

#include "procsync/harmonize_state.h"

/* The first index of sorted (n values, ascending) whose value is >= v. */
static int lower_bound(const double *sorted, int n, double v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void hm__hz_history_add(hm__hz_state_t *st, double used_s)
{
    int n = st->history_n < HZ_HISTORY ? (int)st->history_n : HZ_HISTORY;
    double *slot = &st->history_s[st->history_n % HZ_HISTORY];
    if (n == HZ_HISTORY) { /* the oldest leaves: it is in sorted_s */
        int k = lower_bound(st->sorted_s, n, *slot);
        if (k == n) k = n - 1; /* not found (cannot happen for numbers): drop the largest */
        memmove(&st->sorted_s[k], &st->sorted_s[k + 1], (size_t)(n - k - 1) * sizeof(double));
        n--;
    }
    int k = lower_bound(st->sorted_s, n, used_s);
    memmove(&st->sorted_s[k + 1], &st->sorted_s[k], (size_t)(n - k) * sizeof(double));
    st->sorted_s[k] = used_s;
    *slot = used_s;
    st->history_n++;
}

double hm__hz_slack_target(const double *sorted, int n, double margin, double refresh_cost_s)
{
    if (n > HZ_HISTORY) n = HZ_HISTORY;
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
