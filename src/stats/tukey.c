/* src/stats/tukey.c — Tukey's fences (Hunold & Carpen-Amarie 2016, §3.5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "common/error_set.h"

/* Fences Q1 - 1.5 IQR and Q3 + 1.5 IQR from the type-7 quartiles of x. */
static int fences(const double *x, size_t n, double *lo, double *hi)
{
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted) return hm__error_nomem(__func__);
    memcpy(sorted, x, n * sizeof *sorted);
    hm_stats_sort(sorted, n);
    double q1 = hm_stats_quantile_sorted(sorted, n, 0.25);
    double q3 = hm_stats_quantile_sorted(sorted, n, 0.75);
    free(sorted);
    *lo = q1 - 1.5 * (q3 - q1);
    *hi = q3 + 1.5 * (q3 - q1);
    return HM_OK;
}

int hm_stats_tukey(const double *x, size_t n, double *out, size_t *kept, double *lo, double *hi)
{
    if (!kept) return hm__error_null(__func__, "kept");
    if (!x && n > 0) return hm__error_null(__func__, "x");
    if (!out && n > 0) return hm__error_null(__func__, "out");
    *kept = 0;
    if (lo) *lo = NAN;
    if (hi) *hi = NAN;
    if (n == 0) return HM_OK;
    double f_lo = NAN, f_hi = NAN;
    int rc = fences(x, n, &f_lo, &f_hi);
    if (rc != HM_OK) return rc;
    /* The write index never passes the read index, so out may be x. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= f_lo && x[i] <= f_hi) out[k++] = x[i];
    *kept = k;
    if (lo) *lo = f_lo;
    if (hi) *hi = f_hi;
    return HM_OK;
}
