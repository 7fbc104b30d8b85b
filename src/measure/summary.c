/* src/measure/summary.c — what one experiment's attempts say: the valid
 * repetitions' run-times, and beside them the discarded ones', so that a
 * figure kept from the undisturbed starts of a busy machine shows its
 * bias. */
#include <math.h>
#include <stdlib.h>

#include <harmonia/measure.h>

#include "common/error_set.h"

/* The median of x over the attempts whose validity is valid (NaN: none);
 * *rc takes HM_ENOMEM. */
static double median_of(const hm_measure_result_t *r, const double *x, int valid, int *rc)
{
    hm_stats_summary_t s;
    int st = hm_stats_summarize_flagged(x, r->valid, valid, (size_t)r->n, &s);
    if (st != HM_OK) *rc = st;
    return s.median;
}

int hm_measure_summarize(const hm_measure_result_t *r, hm_measure_summary_t *out)
{
    if (!r) return hm__error_null(__func__, "result");
    if (!out) return hm__error_null(__func__, "out");
    if (r->n > 0 && (!r->global_s || !r->valid))
        return hm__error_set(HM_EINVAL, "%s: result has no run-times (not the root's)", __func__);
    int rc = hm_stats_summarize_flagged(r->global_s, r->valid, 1, (size_t)r->n, &out->global);
    out->local_median_s = median_of(r, r->local_s, 1, &rc);
    out->start_spread_median_s = median_of(r, r->start_spread_s, 1, &rc);
    out->discarded_median_s = median_of(r, r->global_s, 0, &rc);
    out->valid = r->nvalid;
    out->discarded = r->attempts - r->nvalid;
    out->conditional =
        r->attempts > 0 && (double)out->discarded > HM_MEASURE_CONDITIONAL_SHARE * r->attempts;
    return rc;
}
