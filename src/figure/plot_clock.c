/* src/figure/plot_clock.c — clock offsets over time, from `harmonia clock`:
 * against the time since synchronization (its --check-after points), per
 * algorithm, the offsets measured by ping-pong against rank 0 and, where the
 * truth is known, the true error of the global clock. An offset-only
 * algorithm grows with time (drift); a drift-aware one stays flat. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/stats.h>

#include "figure/plot_figure.h"

/* Legend suffix and line style of each variant of the summary. */
static const char *const summary_suffix[] = {" max |offset|", " median |offset|",
                                             " max |true error|"};
static const int summary_dash[] = {1, 2, 3};
static const char *const ranks_suffix[] = {" offset (ping-pong)", " true error"};
static const int ranks_point[] = {7, 6};

/* One block per series: x, value, for every sample (ranks at the same x
 * stacked), at x shifted by dx so that algorithms do not hide each other. */
static int points_block(const hm__plot_data_t *d, size_t i, double dx, int positive_only,
                        hm__plot_script_t *s)
{
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i) continue;
        for (size_t j = 0; j < g->n; j++)
            if (!positive_only || g->v[j] > 0)
                fprintf(s->data, "%.17g\t%.17g\n", g->x + dx, g->v[j]);
    }
    return hm__plot_end_block(s);
}

static void axes(FILE *body, const char *title, const char *ylabel)
{
    hm__plot_palette(body);
    hm__plot_labels(body, title, "time after synchronization (s)", ylabel);
    fputs("set key outside right top\nset offsets graph 0.05, graph 0.05, 0, 0\n", body);
}

int hm__plot_draw_clock(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                        char *what, size_t len)
{
    int n = 0, logy = hm__plot_all_positive(d);
    (void)metric;
    axes(s->body, "clock offsets against rank 0 after synchronization, per algorithm",
         "offset (µs)");
    if (logy) fputs("set logscale y\n", s->body);
    for (size_t i = 0; i < d->ns; i++) {
        int b = points_block(d, i, 0, logy, s), v = d->s[i].variant;
        hm__plot_line(s->body, &n, b, "linespoints", hm__plot_color(d, i) + 1, summary_dash[v],
                      d->s[i].label, summary_suffix[v]);
    }
    fputc('\n', s->body);
    snprintf(what, len, "clock offsets vs time after synchronization, %d algorithms",
             hm__plot_ncolors(d));
    return HM_OK;
}

/* The span of the x values, for the shift between algorithms. */
static double x_span(const hm__plot_data_t *d)
{
    size_t nx;
    double *xs = hm__plot_data_xs(d, &nx), span = nx > 1 ? xs[nx - 1] - xs[0] : 1;
    free(xs);
    return span > 0 ? span : 1;
}

int hm__plot_draw_clock_ranks(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len)
{
    int n = 0, ncol = hm__plot_ncolors(d);
    double span = x_span(d);
    (void)metric;
    axes(s->body, "clock offset of every rank against rank 0, per algorithm",
         "offset of the global clock (µs)");
    for (size_t i = 0; i < d->ns; i++) {
        int c = hm__plot_color(d, i), v = d->s[i].variant;
        int b = points_block(d, i, (c - (ncol - 1) / 2.0) * 0.01 * span, 0, s);
        hm__plot_clause(s->body, &n);
        fprintf(s->body, "data index %d using 1:2 with points lt %d pt %d ps 0.8", b, c + 1,
                ranks_point[v]);
        hm__plot_title(s->body, d->s[i].label, ranks_suffix[v]);
    }
    fputc('\n', s->body);
    snprintf(what, len, "per-rank clock offsets vs time after synchronization, %d algorithms",
             ncol);
    return HM_OK;
}
