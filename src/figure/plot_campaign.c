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

/* Row of the box of g at x: x, whisker low, q1, median, q3, whisker high. */
static void box_row(FILE *f, const hm__plot_group_t *g, double x)
{
    double q1 = hm_stats_quantile_sorted(g->v, g->n, 0.25);
    double q3 = hm_stats_quantile_sorted(g->v, g->n, 0.75);
    double lo_fence = q1 - 1.5 * (q3 - q1), hi_fence = q3 + 1.5 * (q3 - q1);
    double wlo = q1, whi = q3;
    for (size_t k = 0; k < g->n; k++) {
        if (g->v[k] >= lo_fence && g->v[k] < wlo) wlo = g->v[k];
        if (g->v[k] <= hi_fence && g->v[k] > whi) whi = g->v[k];
    }
    fprintf(f, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", x, wlo, q1,
            hm_stats_quantile_sorted(g->v, g->n, 0.5), q3, whi);
}

static void outliers(FILE *f, const hm__plot_group_t *g, double x)
{
    double q1 = hm_stats_quantile_sorted(g->v, g->n, 0.25);
    double q3 = hm_stats_quantile_sorted(g->v, g->n, 0.75);
    for (size_t k = 0; k < g->n; k++)
        if (g->v[k] < q1 - 1.5 * (q3 - q1) || g->v[k] > q3 + 1.5 * (q3 - q1))
            fprintf(f, "%.17g\t%.17g\n", x, g->v[k]);
}

/* Blocks of series i: boxes, then outliers (at least one row, so that the
 * index exists: a point at y = NaN draws nothing). */
static int series_blocks(const hm__plot_data_t *d, size_t i, const double *xs, size_t nx, int ncol,
                         hm__plot_script_t *s, size_t *runs)
{
    int c = hm__plot_color(d, i);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < d->ng; k++) {
            const hm__plot_group_t *g = &d->g[k];
            if (g->series != i || !g->n) continue;
            double x = hm__plot_slot_x((int)hm__plot_x_index(xs, nx, g->x) + 1, c, ncol);
            if (pass == 0) box_row(s->data, g, x);
            if (pass == 1) outliers(s->data, g, x);
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

int hm__plot_draw_campaign(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                           char *what, size_t len)
{
    size_t nx, runs = 0;
    char title[200];
    double *xs = hm__plot_data_xs(d, &nx);
    int *block = calloc(d->ns ? d->ns : 1, sizeof *block), ncol = hm__plot_ncolors(d);
    (void)metric; /* chosen when the campaign reduced its runs */
    if (!xs || !block) {
        free(xs);
        free(block);
        return hm__error_nomem(__func__);
    }
    for (size_t i = 0; i < d->ns; i++) block[i] = series_blocks(d, i, xs, nx, ncol, s, &runs);
    hm__plot_palette(s->body);
    snprintf(title, sizeof title,
             "campaign: per-mpirun median run-times (%zu runs; box: quartiles, whiskers: 1.5 IQR)",
             runs);
    hm__plot_labels(s->body, title, "message size (bytes)", "per-mpirun median run-time (µs)");
    fprintf(s->body,
            "set logscale y\nset xrange [0.5:%zu.5]\nset boxwidth %.6f absolute\n"
            "set key outside right top\nset grid noxtics\n",
            nx, 0.8 * hm__plot_slot_width(ncol));
    hm__plot_size_tics(s->body, xs, nx, 1);
    clauses(d, s->body, block);
    snprintf(what, len, "per-mpirun medians per message size, %zu series, up to %zu runs", d->ns,
             runs);
    free(xs);
    free(block);
    return HM_OK;
}
