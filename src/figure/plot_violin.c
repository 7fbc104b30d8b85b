/* src/figure/plot_violin.c — the distribution of the run-time at each message
 * size: one violin per series and size, the Gaussian kernel density of the
 * log run-time (run-times are skewed to the right and span decades across
 * sizes, so the density is taken where the axis is logarithmic), trimmed to
 * the range of the data, with the median as a bar across it. The same for
 * an overlap metric per cell, on a linear axis for its ratios (an overhead
 * can be 0 or below). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"

enum { GRID = 64 }; /* points along each side of a violin */

/* Silverman's rule of thumb (Silverman 1986, eq. 3.31) on the log values;
 * the spread of the sample where the quartiles coincide (many ties). */
static double bandwidth(const double *t, size_t n)
{
    double iqr = hm_stats_quantile_sorted(t, n, 0.75) - hm_stats_quantile_sorted(t, n, 0.25);
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; i++) mean += t[i] / n;
    for (size_t i = 0; i < n; i++) var += (t[i] - mean) * (t[i] - mean) / (n > 1 ? n - 1 : 1);
    double sd = sqrt(var), spread = iqr > 0 && iqr / 1.34 < sd ? iqr / 1.34 : sd;
    double h = 0.9 * spread * pow((double)n, -0.2);
    return h > 0 ? h : (t[n - 1] - t[0]) / 10;
}

static double density(const double *t, size_t n, double h, double at)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += exp(-0.5 * ((at - t[i]) / h) * ((at - t[i]) / h));
    return sum;
}

/* Where the density is taken: the log value on a log axis (a run-time of 0,
 * below the timer's resolution, at the axis' floor), the symlog one, or the
 * value. */
static double to_axis(double v, hm__plot_y_axis_t y)
{
    return y == HM_PLOT_Y_LOG      ? log10(v > 1e-6 ? v : 1e-6)
           : y == HM_PLOT_Y_SYMLOG ? hm__plot_symlog(v)
                                   : v;
}

/* What is written for gnuplot: the value on a log axis (gnuplot takes its
 * log), else the axis coordinate itself. */
static double from_axis(double t, hm__plot_y_axis_t y)
{
    return y == HM_PLOT_Y_LOG ? pow(10, t) : t;
}

/* The closed outline of one violin centred on x with half-width hw; a sample
 * without spread (one value, or all equal) is a flat bar. */
static void violin(FILE *f, const double *v, size_t n, double x, double hw, double *t,
                   hm__plot_y_axis_t logy)
{
    for (size_t i = 0; i < n; i++) t[i] = to_axis(v[i], logy);
    double lo = t[0], hi = t[n - 1], h = bandwidth(t, n), dens[GRID], top = 0;
    if (!(hi > lo) || !(h > 0)) {
        double at = from_axis(lo, logy);
        fprintf(f, "%.17g\t%.17g\n%.17g\t%.17g\n\n", x - hw, at, x + hw, at);
        return;
    }
    for (int j = 0; j < GRID; j++) {
        dens[j] = density(t, n, h, lo + (hi - lo) * j / (GRID - 1));
        top = dens[j] > top ? dens[j] : top;
    }
    for (int j = 0; j < 2 * GRID + 1; j++) {
        int k = j < GRID       ? j
                : j < 2 * GRID ? 2 * GRID - 1 - j
                               : 0; /* up the right, down the left */
        double side = j < GRID ? 1 : j < 2 * GRID ? -1 : 1;
        fprintf(f, "%.17g\t%.17g\n", x + side * hw * dens[k] / top,
                from_axis(lo + (hi - lo) * k / (GRID - 1), logy));
    }
    fputc('\n', f);
}

/* Blocks of series i: its violins, then its medians (x, median, half-width). */
static int series_blocks(const hm__plot_data_t *d, size_t i, const double *xs, size_t nx, int ncol,
                         hm__plot_y_axis_t logy, hm__plot_script_t *s, int *medians)
{
    int c = hm__plot_color(d, i);
    double hw = 0.45 * hm__plot_slot_width(ncol);
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i || !g->n) continue;
        double *t = malloc(g->n * sizeof *t);
        if (!t) return hm__error_nomem(__func__);
        violin(s->data, g->v, g->n,
               hm__plot_slot_x((int)hm__plot_x_index(xs, nx, g->x) + 1, c, ncol), hw, t, logy);
        free(t);
    }
    int outline = hm__plot_end_block(s);
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i || !g->n) continue;
        fprintf(s->data, "%.17g\t%.17g\t%.17g\n",
                hm__plot_slot_x((int)hm__plot_x_index(xs, nx, g->x) + 1, c, ncol),
                logy == HM_PLOT_Y_SYMLOG
                    ? hm__plot_symlog(hm_stats_quantile_sorted(g->v, g->n, 0.5))
                    : hm_stats_quantile_sorted(g->v, g->n, 0.5),
                hw);
    }
    *medians = hm__plot_end_block(s);
    return outline;
}

static void clauses(const hm__plot_data_t *d, FILE *body, const int *outline, const int *medians)
{
    int n = 0;
    for (size_t i = 0; i < d->ns; i++) {
        hm__plot_clause(body, &n);
        fprintf(body,
                "data index %d using 1:2 with filledcurves closed lt %d "
                "fs transparent solid 0.35 border",
                outline[i], hm__plot_color(d, i) + 1);
        hm__plot_title(body, d->s[i].label, "");
    }
    for (size_t i = 0; i < d->ns; i++) {
        hm__plot_clause(body, &n);
        fprintf(body,
                "data index %d using ($1-$3):2:(2*$3):(0) with vectors nohead lc rgb "
                "'black' lw 1.5",
                medians[i]);
        if (i == 0)
            hm__plot_title(body, "median", "");
        else
            fputs(" notitle", body);
    }
    fputc('\n', body);
}

/* What differs between the distribution figures. */
typedef struct violins {
    const char *title, *xlabel, *ylabel;
    hm__plot_y_axis_t logy;
    void (*tics)(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx);
} violins_t;

/* Every series' violins and medians at categorical slots of x. */
static int draw_violins(const hm__plot_data_t *d, const violins_t *v, hm__plot_script_t *s)
{
    size_t nx;
    double *xs = hm__plot_data_xs(d, &nx);
    int *outline = calloc(2 * (d->ns ? d->ns : 1), sizeof *outline), ncol = hm__plot_ncolors(d);
    int rc = xs && outline ? HM_OK : hm__error_nomem(__func__);
    for (size_t i = 0; rc == HM_OK && i < d->ns; i++)
        if ((outline[i] = series_blocks(d, i, xs, nx, ncol, v->logy, s, &outline[d->ns + i])) < 0)
            rc = outline[i];
    if (rc == HM_OK) {
        hm__plot_palette(s->body);
        hm__plot_labels(s->body, v->title, v->xlabel, v->ylabel);
        if (v->logy == HM_PLOT_Y_LOG) fputs("set logscale y\n", s->body);
        if (v->logy == HM_PLOT_Y_SYMLOG) hm__plot_symlog_axis(d, s->body);
        fprintf(s->body, "set xrange [0.5:%zu.5]\nset key outside right top\n", nx);
        v->tics(d, s->body, xs, nx);
        fputs("set grid noxtics\n", s->body);
        clauses(d, s->body, outline, outline + d->ns);
    }
    free(xs);
    free(outline);
    return rc;
}

static void size_tics(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx)
{
    (void)d;
    hm__plot_size_tics(body, xs, nx, 1);
}

int hm__plot_draw_distribution(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                               char *what, size_t len)
{
    char title[160];
    snprintf(title, sizeof title, "distribution of the %s run-time at each message size", metric);
    violins_t v = {title, "message size (bytes)", "run-time (µs)", HM_PLOT_Y_LOG, size_tics};
    int rc = draw_violins(d, &v, s);
    if (rc == HM_OK)
        snprintf(what, len, "%s run-time distribution per message size, %zu series", metric, d->ns);
    return rc;
}

int hm__plot_draw_overlap_distribution(const hm__plot_data_t *d, const char *metric,
                                       hm__plot_script_t *s, char *what, size_t len)
{
    (void)metric; /* the series carry the overlap metric they were read with */
    const char *name = hm_results_metric_name(hm__plot_cells_metric(d));
    hm__plot_y_axis_t axis = hm__plot_cells_axis(d);
    char title[160], ylabel[96];
    snprintf(title, sizeof title, "distribution of the %s per cell (valid repetitions)", name);
    hm__plot_cells_ylabel(d, axis, ylabel, sizeof ylabel);
    violins_t v = {title, "communication: target time or message size (--sizes)", ylabel, axis,
                   hm__plot_cells_tics};
    int rc = draw_violins(d, &v, s);
    if (rc == HM_OK)
        snprintf(what, len, "%s distribution per overlap cell, %zu series", name, d->ns);
    return rc;
}
