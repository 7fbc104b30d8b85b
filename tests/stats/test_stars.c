/* tests/stats/test_stars.c — significance stars at and around the
 * thresholds (closed: p <= 0.05 is "*"). */
#include <math.h>
#include <string.h>

#include <harmonia/stats.h>

#include "testutil.h"

int main(void)
{
    const struct {
        double p;
        const char *want;
    } cases[] = {{0.05, "*"},     {0.0500001, ""}, {0.01, "**"}, {0.010001, "*"}, {0.001, "***"},
                 {0.0009, "***"}, {0.0, "***"},    {1.0, ""},    {NAN, ""}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = hm_stats_stars(cases[i].p);
        HM_CHECK(strcmp(got, cases[i].want) == 0, "p=%g: \"%s\", expected \"%s\"", cases[i].p, got,
                 cases[i].want);
    }
    return hm_test_finish();
}
