/* src/overlap/ratios.c — the ratios of [Denis et al. 2022, §3] from the
 * times of one overlap repetition and the two references, and their
 * medians with a 95 % interval over the valid repetitions of a cell. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "common/error_set.h"

void hm_overlap_ratios(double measured_s, double comp_s, double mpi_s, double comp_ref_s,
                       double comm_ref_s, double comm_local_ref_s, hm_overlap_ratios_t *out)
{
    if (!out) {
        hm__error_null(__func__, "out");
        return;
    }
    /* eq. 1: the overhead over perfect overlap, in units of the overhead of
     * running the two in sequence (0: perfect overlap, 1: none). */
    double ideal_s = fmax(comp_ref_s, comm_ref_s), serial_extra_s = fmin(comp_ref_s, comm_ref_s);
    out->overhead = serial_extra_s > 0 ? (measured_s - ideal_s) / serial_extra_s : NAN;
    out->comp_slowdown = comp_ref_s > 0 ? comp_s / comp_ref_s : NAN; /* eq. 3 */
    /* eq. 4: t_call + t_wait are two stretches of one rank's own time, with
     * the computation between them, so that no global span can be made of
     * them; the reference is the same rank-local time of the call and its
     * wait run alone. Against the global t_comm_ref, a start skew s between
     * ranks divided a wait-only communication of t by t + s: 0.5 at s = t,
     * half an overlap that was not there (tests/overlap/test_comm_basis.c). */
    out->comm = comm_local_ref_s > 0 ? mpi_s / comm_local_ref_s : NAN;
}

double hm_overlap_osu_pct(double overall_s, double comp_s, double comm_s)
{
    return comm_s > 0 ? fmax(0.0, 100.0 - 100.0 * (overall_s - comp_s) / comm_s) : NAN;
}

double hm_overlap_imb_pct(double ovrl_s, double pure_s, double comp_s)
{
    double longer_s = fmax(pure_s, comp_s);
    return longer_s > 0 ? 100.0 * fmax(0.0, fmin(1.0, (pure_s + comp_s - ovrl_s) / longer_s)) : NAN;
}

/* Median and 95 % interval of the median (order statistics) of v[0..n). */
static void summarize(double *v, size_t n, hm_overlap_estimate_t *e)
{
    hm_stats_sort(v, n);
    e->median = hm_stats_quantile_sorted(v, n, 0.5);
    if (hm_stats_median_ci(v, n, 0.95, &e->ci_lo, &e->ci_hi) != HM_OK) e->ci_lo = e->ci_hi = NAN;
}

int hm_overlap_summarize(const hm_overlap_result_t *r, double comp_ref_s, double comm_ref_s,
                         double comm_local_s, hm_overlap_summary_t *out)
{
    if (!out) return hm__error_null(__func__, "out");
    memset(out, 0, sizeof *out);
    out->osu_pct = out->imb_pct = NAN;
    if (!r) return hm__error_null(__func__, "r");
    if (!r->measured_s || !r->max_comp_s || !r->max_mpi_s)
        return hm__error_set(HM_EINVAL, "%s: r has no run-times (not the root's)", __func__);
    size_t n = 0, cap = (size_t)(r->n ? r->n : 1);
    double *v[4];
    for (int k = 0; k < 4; k++) v[k] = malloc(cap * sizeof *v[k]);
    int rc = v[0] && v[1] && v[2] && v[3] ? HM_OK : hm__error_nomem(__func__);
    for (long i = 0; rc == HM_OK && i < r->n; i++) {
        if (!r->valid[i]) continue;
        hm_overlap_ratios_t q;
        hm_overlap_ratios(r->measured_s[i], r->max_comp_s[i], r->max_mpi_s[i], comp_ref_s,
                          comm_ref_s, comm_local_s, &q);
        v[0][n] = r->measured_s[i];
        v[1][n] = q.overhead;
        v[2][n] = q.comp_slowdown;
        v[3][n] = q.comm;
        n++;
    }
    if (rc == HM_OK && n == 0) rc = hm__error_set(HM_EAGAIN, "no valid repetition");
    if (rc == HM_OK) {
        out->nvalid = (long)n;
        summarize(v[0], n, &out->measured_s);
        summarize(v[1], n, &out->overhead);
        summarize(v[2], n, &out->comp_slowdown);
        summarize(v[3], n, &out->comm);
        out->osu_pct = hm_overlap_osu_pct(r->mean_overall_s, r->mean_comp_s, comm_local_s);
        out->imb_pct = hm_overlap_imb_pct(r->max_overall_s, comm_ref_s, comp_ref_s);
    }
    for (int k = 0; k < 4; k++) free(v[k]);
    return rc;
}

/* Root: the median over the valid repetitions of v. */
static double median_valid(const hm_overlap_result_t *r, const double *v, int *rc)
{
    hm_stats_summary_t s;
    if (hm_stats_summarize_flagged(v, r->valid, 1, (size_t)r->n, &s) != HM_OK) {
        *rc = hm__error_set(HM_ENOMEM, "out of memory");
        return NAN;
    }
    if (!s.n) *rc = hm__error_set(HM_EAGAIN, "no valid repetition of the reference run");
    return s.median;
}

int hm_overlap_comm_refs(const hm_overlap_result_t *ref, double *global_s, double *local_s)
{
    const char *null = !ref ? "ref" : !global_s ? "global_s" : !local_s ? "local_s" : NULL;
    if (null) return hm__error_null(__func__, null);
    if (!ref->measured_s || !ref->max_mpi_s || !ref->valid)
        return hm__error_set(HM_EINVAL, "%s: ref has no run-times (not the root's)", __func__);
    int rc = HM_OK;
    *global_s = median_valid(ref, ref->measured_s, &rc);
    *local_s = median_valid(ref, ref->max_mpi_s, &rc);
    return rc;
}
