/* src/figure/plot_campaign.c — a campaign's per-mpirun medians as box plots:
 * one box per series and message size over the runs (Hunold and
 * Carpen-Amarie 2016, Fig. 7 and 8): the box spans the quartiles (type 7),
 * the bar is the median, the whiskers reach the most extreme runs within 1.5
 * IQR of the box (Tukey) and the runs beyond are drawn as points. A wide box
 * means the mpiruns disagree: the run is an experimental factor. */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"

/* A value as written: on a symlog axis its hm__plot_symlog (monotone, so
 * the quartiles and fences are those of the values), else itself. */
static double at(double v, int symlog)
{
    return symlog ? hm__plot_symlog(v) : v;
}

/* Row of the box of g at x: x, whisker low, q1, median, q3, whisker high. */
static void box_row(FILE *f, const hm__plot_group_t *g, double x, int symlog)
{
    double q1 = hm_stats_quantile_sorted(g->v, g->n, 0.25);
    double q3 = hm_stats_quantile_sorted(g->v, g->n, 0.75);
    double lo_fence = q1 - 1.5 * (q3 - q1), hi_fence = q3 + 1.5 * (q3 - q1);
    double wlo = q1, whi = q3;
    for (size_t k = 0; k < g->n; k++) {
        if (g->v[k] >= lo_fence && g->v[k] < wlo) wlo = g->v[k];
        if (g->v[k] <= hi_fence && g->v[k] > whi) whi = g->v[k];
    }
    fprintf(f, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", x, at(wlo, symlog), at(q1, symlog),
            at(hm_stats_quantile_sorted(g->v, g->n, 0.5), symlog), at(q3, symlog), at(whi, symlog));
}

static void outliers(FILE *f, const hm__plot_group_t *g, double x, int symlog)
{
    double q1 = hm_stats_quantile_sorted(g->v, g->n, 0.25);
    double q3 = hm_stats_quantile_sorted(g->v, g->n, 0.75);
    for (size_t k = 0; k < g->n; k++)
        if (g->v[k] < q1 - 1.5 * (q3 - q1) || g->v[k] > q3 + 1.5 * (q3 - q1))
            fprintf(f, "%.17g\t%.17g\n", x, at(g->v[k], symlog));
}

/* Blocks of series i: boxes, then outliers (at least one row, so that the
 * index exists: a point at y = NaN draws nothing). */
static int series_blocks(const hm__plot_data_t *d, size_t i, const double *xs, size_t nx, int ncol,
                         int symlog, hm__plot_script_t *s, size_t *runs)
{
    int c = hm__plot_color(d, i);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < d->ng; k++) {
            const hm__plot_group_t *g = &d->g[k];
            if (g->series != i || !g->n) continue;
            double x = hm__plot_slot_x((int)hm__plot_x_index(xs, nx, g->x) + 1, c, ncol);
            if (pass == 0) box_row(s->data, g, x, symlog);
            if (pass == 1) outliers(s->data, g, x, symlog);
            *runs = g->n > *runs ? g->n : *runs;
        }
        if (pass == 1) fputs("0\tNaN\n", s->data);
        hm__plot_end_block(s);
    }
    return s->blocks - 2;
}

static void clauses(const hm__plot_data_t *d, FILE *body, const int *block)
{
    int n = 0;
    for (size_t i = 0; i < d->ns; i++) {
        int lt = hm__plot_color(d, i) + 1;
        hm__plot_clause(body, &n);
        fprintf(body,
                "data index %d using 1:3:2:6:5 with candlesticks whiskerbars 0.5 lt %d "
                "fs transparent solid 0.3 border",
                block[i], lt);
        hm__plot_title(body, d->s[i].label, "");
        hm__plot_clause(body, &n);
        fprintf(body, "data index %d using 1:4:4:4:4 with candlesticks lt %d lw 2.5 notitle",
                block[i], lt);
        hm__plot_clause(body, &n);
        fprintf(body, "data index %d using 1:2 with points lt %d pt 6 ps 0.8 notitle", block[i] + 1,
                lt);
    }
    fputc('\n', body);
}

/* What differs between the campaign figures of bench and of overlap. */
typedef struct boxes {
    const char *what; /* "median run-times", "median overheads" */
    const char *xlabel, *ylabel;
    hm__plot_y_axis_t axis;
    void (*tics)(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx);
} boxes_t;

/* Every series' boxes at categorical slots of x; *runs the most runs of a
 * box. */
static int draw_boxes(const hm__plot_data_t *d, const boxes_t *b, hm__plot_script_t *s,
                      size_t *runs)
{
    size_t nx;
    char title[200];
    double *xs = hm__plot_data_xs(d, &nx);
    int *block = calloc(d->ns ? d->ns : 1, sizeof *block), ncol = hm__plot_ncolors(d);
    if (!xs || !block) {
        free(xs);
        free(block);
        return hm__error_nomem(__func__);
    }
    int symlog = b->axis == HM_PLOT_Y_SYMLOG;
    for (size_t i = 0; i < d->ns; i++)
        block[i] = series_blocks(d, i, xs, nx, ncol, symlog, s, runs);
    hm__plot_palette(s->body);
    /* Two lines: gnuplot centres the title over the plot, beside the key
     * outside, and one line of it was cut at the image's left edge. */
    snprintf(title, sizeof title,
             "campaign of %zu runs: per-mpirun %s\nbox: quartiles, whiskers: 1.5 IQR", *runs,
             b->what);
    hm__plot_labels(s->body, title, b->xlabel, b->ylabel);
    if (b->axis == HM_PLOT_Y_LOG) fputs("set logscale y\n", s->body);
    if (symlog) hm__plot_symlog_axis(d, s->body);
    fprintf(s->body,
            "set xrange [0.5:%zu.5]\nset boxwidth %.6f absolute\n"
            "set key outside right top\nset grid noxtics\n",
            nx, 0.8 * hm__plot_slot_width(ncol));
    b->tics(d, s->body, xs, nx);
    clauses(d, s->body, block);
    free(xs);
    free(block);
    return HM_OK;
}

static void size_tics(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx)
{
    (void)d;
    hm__plot_size_tics(body, xs, nx, 1);
}

int hm__plot_draw_campaign(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                           char *what, size_t len)
{
    size_t runs = 0;
    (void)metric; /* chosen when the campaign reduced its runs */
    boxes_t b = {"median run-times", "message size (bytes)", "per-mpirun median run-time (µs)",
                 HM_PLOT_Y_LOG, size_tics};
    int rc = draw_boxes(d, &b, s, &runs);
    if (rc == HM_OK)
        snprintf(what, len, "per-mpirun medians per message size, %zu series, up to %zu runs",
                 d->ns, runs);
    return rc;
}

int hm__plot_draw_overlap_campaign(const hm__plot_data_t *d, const char *metric,
                                   hm__plot_script_t *s, char *what, size_t len)
{
    size_t runs = 0;
    (void)metric; /* the campaign's, carried by the series */
    const char *name = hm_results_metric_name(hm__plot_cells_metric(d));
    char which[64], ylabel[128], label[96];
    hm__plot_y_axis_t axis = hm__plot_cells_axis(d);
    hm__plot_cells_ylabel(d, axis, label, sizeof label);
    snprintf(which, sizeof which, "median %s", name);
    snprintf(ylabel, sizeof ylabel, "per-mpirun median %s", label);
    boxes_t b = {which, "communication: target time or message size (--sizes)", ylabel, axis,
                 hm__plot_cells_tics};
    int rc = draw_boxes(d, &b, s, &runs);
    if (rc == HM_OK)
        snprintf(what, len, "per-mpirun median %s per overlap cell, %zu series, up to %zu runs",
                 name, d->ns, runs);
    return rc;
}
