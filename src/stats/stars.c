/* src/stats/stars.c — significance stars of a p-value. */
#include <harmonia/stats.h>

const char *hm_stats_stars(double p)
{
    if (p <= 0.001) return "***";
    if (p <= 0.01) return "**";
    if (p <= 0.05) return "*";
    return ""; /* also NaN */
}
