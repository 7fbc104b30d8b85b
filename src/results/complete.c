/* src/results/complete.c — whether a result file holds everything its run
 * set out to write, as its factor "complete" says (output.h,
 * hm_csv_incomplete): what an analysis must tell its user before it draws
 * conclusions from part of a run. */
#include <string.h>

#include <harmonia/results.h>

int hm_results_partial(const hm_factors_t *factors, const char **what)
{
    const char *v = NULL;
    if (what) *what = NULL;
    /* Files written before the factor existed say nothing: taken as whole. */
    if (!factors || hm_factors_get(factors, "complete", &v) != HM_OK || !v) return 0;
    if (strncmp(v, "yes", 3) == 0) return 0;
    if (what) *what = v;
    return 1;
}
