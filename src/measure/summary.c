/* src/measure/summary.c — what one experiment's attempts say: the valid
 * repetitions' run-times, and beside them the discarded ones', so that a
 * figure kept from the undisturbed starts of a busy machine shows its
 * bias. */
#include <math.h>
#include <stdlib.h>

#include <harmonia/measure.h>

/* The values of x at the attempts whose validity is valid. */
static size_t select_values(const hm_measure_result_t *r, const double *x, int valid, double *out)
{
    size_t n = 0;
    for (long i = 0; i < r->n; i++)
        if ((r->valid[i] != 0) == valid) out[n++] = x[i];
    return n;
}

static double median_of(double *v, size_t n)
{
    hm_stats_summary_t s;
    return n && hm_stats_summarize(v, n, &s) == HM_OK ? s.median : NAN;
}

int hm_measure_summarize(const hm_measure_result_t *r, hm_measure_summary_t *out)
{
    if (!r || !out || (r->n > 0 && (!r->global_s || !r->valid))) return HM_EINVAL;
    double *v = malloc((size_t)(r->n ? r->n : 1) * sizeof *v);
    if (!v) return HM_ENOMEM;
    int rc = hm_stats_summarize(v, select_values(r, r->global_s, 1, v), &out->global);
    out->local_median_s = median_of(v, select_values(r, r->local_s, 1, v));
    out->start_spread_median_s = median_of(v, select_values(r, r->start_spread_s, 1, v));
    out->discarded_median_s = median_of(v, select_values(r, r->global_s, 0, v));
    free(v);
    out->valid = r->nvalid;
    out->discarded = r->attempts - r->nvalid;
    out->conditional =
        r->attempts > 0 && (double)out->discarded > HM_MEASURE_CONDITIONAL_SHARE * r->attempts;
    return rc;
}
