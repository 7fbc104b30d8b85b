/* src/figure/plot_cells.c — the axes of the figures of overlap's cells per
 * repetition or per mpirun (overlap-distribution, overlap-campaign): a slot
 * per communication (target time or message size), and a y axis for the
 * metric that fits its values. */
#include <math.h>
#include <stdio.h>

#include "figure/plot_figure.h"

double hm__plot_symlog(double v)
{
    return copysign(log10(1 + fabs(v)), v);
}

hm_metric_t hm__plot_cells_metric(const hm__plot_data_t *d)
{
    return d->ns ? (hm_metric_t)(d->s[0].variant & HM_PLOT_OVERLAP_METRIC_MASK)
                 : HM_METRIC_OVERHEAD;
}

/* A ratio's axis: logarithmic where every value is above 0, as ratios of
 * different cells span decades; an overhead at or below 0 (a communication
 * hidden completely) makes it symlog where some |value| reaches 100
 * (ibarrier's overhead against a 1 ms computation reached 8000 beside 0.1
 * elsewhere, and a linear axis flattened every other cell), else linear. */
hm__plot_y_axis_t hm__plot_cells_axis(const hm__plot_data_t *d)
{
    if (hm_results_metric_is_time(hm__plot_cells_metric(d)) || hm__plot_all_positive(d))
        return HM_PLOT_Y_LOG;
    for (size_t k = 0; k < d->ng; k++)
        for (size_t i = 0; i < d->g[k].n; i++)
            if (fabs(d->g[k].v[i]) >= 100) return HM_PLOT_Y_SYMLOG;
    return HM_PLOT_Y_LINEAR;
}

void hm__plot_cells_ylabel(const hm__plot_data_t *d, hm__plot_y_axis_t axis, char *buf, size_t len)
{
    hm_metric_t m = hm__plot_cells_metric(d);
    snprintf(buf, len, "%s%s", hm_results_metric_name(m),
             hm_results_metric_is_time(m) ? " (µs)"
             : axis == HM_PLOT_Y_SYMLOG   ? " (ratio, symmetric log scale)"
                                          : " (ratio)");
}

/* The range and tics of a symlog axis (values written as hm__plot_symlog of
 * them): the data's extremes with a twentieth of the span as margin each
 * side (gnuplot's autoscale stopped short of a violin's outline), tics at
 * 0 and the powers of ten up to the data's. */
void hm__plot_symlog_axis(const hm__plot_data_t *d, FILE *body)
{
    double lo = INFINITY, hi = -INFINITY, top = 0;
    for (size_t k = 0; k < d->ng; k++)
        for (size_t i = 0; i < d->g[k].n; i++) {
            double v = d->g[k].v[i];
            lo = fmin(lo, hm__plot_symlog(v)), hi = fmax(hi, hm__plot_symlog(v));
            top = fmax(top, fabs(v));
        }
    double margin = (hi - lo) / 20 > 0 ? (hi - lo) / 20 : 0.5;
    if (lo <= hi) fprintf(body, "set yrange [%.17g:%.17g]\n", lo - margin, hi + margin);
    fputs("set ytics ('0' 0", body);
    for (double p = 1; p <= 10 * top && p <= 1e12; p *= 10)
        fprintf(body, ", '%g' %.17g, '-%g' %.17g", p, hm__plot_symlog(p), p, hm__plot_symlog(-p));
    fputs(")\nset ytics noenhanced\n", body);
}

/* Whether a series whose cells are by message size (by_size) or by target
 * time (!by_size) has a group at x. */
static int kind_at(const hm__plot_data_t *d, double x, int by_size)
{
    for (size_t k = 0; k < d->ng; k++)
        if (d->g[k].x == x && !(d->s[d->g[k].series].variant & HM_PLOT_OVERLAP_BY_SIZE) == !by_size)
            return 1;
    return 0;
}

/* A cell's communication: its target time ("100 us"), its message size
 * ("64K B"), both where files of either kind share the value, or "none"
 * for ibarrier's size 0 without a target. */
void hm__plot_cells_tics(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx)
{
    fputs("set xtics (", body);
    for (size_t i = 0; i < nx; i++) {
        char size[32], text[96];
        int times = kind_at(d, xs[i], 0), sizes = kind_at(d, xs[i], 1);
        hm__plot_size_name(size, sizeof size, xs[i]);
        if (!times)
            snprintf(text, sizeof text, xs[i] == 0 ? "none" : "%s B", size);
        else if (!sizes)
            snprintf(text, sizeof text, "%.6g us", xs[i]);
        else
            snprintf(text, sizeof text, "%.6g us / %s B", xs[i], size);
        fprintf(body, "%s'%s' %zu", i ? ", " : "", text, i + 1);
    }
    fputs(")\nset xtics noenhanced\n", body);
    if (nx > 8) fputs("set xtics rotate by -45\n", body);
}
