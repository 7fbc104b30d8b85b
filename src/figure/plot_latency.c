/* src/figure/plot_latency.c — latency vs message size: per series the median
 * run-time at each size, with the distribution-free 95% confidence interval
 * of the median as a band where the repetitions are known (raw files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"

/* One block per series: size position, median, CI low, CI high, n. A group
 * too small for a 95% interval gets its min-max range (what median_ci
 * returns then), so the band is never narrower than the data allow. */
static int series_block(const hm__plot_data_t *d, size_t i, int band, hm__plot_script_t *s)
{
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i || !g->n) continue;
        double med = hm_stats_quantile_sorted(g->v, g->n, 0.5), lo = med, hi = med;
        if (band) hm_stats_median_ci(g->v, g->n, 0.95, &lo, &hi);
        fprintf(s->data, "%.17g\t%.17g\t%.17g\t%.17g\t%zu\n", hm__plot_size_at(g->x), med, lo, hi,
                g->n);
    }
    return hm__plot_end_block(s);
}

/* What a figure against message size shows: its labels, and whether the
 * series of variant 0 (raw files: the repetitions are known) get a band. */
typedef struct by_size {
    const char *title, *ylabel;
    int bands;
} by_size_t;

/* Per series, a line of its medians against message size (log2), on a log
 * y axis, with the bands first so that every line is drawn over them. */
static int draw_by_size(const hm__plot_data_t *d, const by_size_t *fig, hm__plot_script_t *s)
{
    size_t nx;
    double *xs = hm__plot_data_xs(d, &nx);
    int *block = calloc(d->ns ? d->ns : 1, sizeof *block), nclauses = 0;
    if (!xs || !block) {
        free(xs);
        free(block);
        return hm__error_nomem(__func__);
    }
    for (size_t i = 0; i < d->ns; i++)
        block[i] = series_block(d, i, fig->bands && d->s[i].variant == 0, s);
    hm__plot_palette(s->body);
    hm__plot_labels(s->body, fig->title, "message size (bytes)", fig->ylabel);
    /* A margin of half a power of two: the extreme sizes keep their tics
     * and points clear of the border. */
    fprintf(s->body,
            "set logscale x 2\nset logscale y\nset key top left\nset xrange [%.17g:%.17g]\n",
            hm__plot_size_at(xs[0]) / 1.41, hm__plot_size_at(xs[nx - 1]) * 1.41);
    hm__plot_size_tics(s->body, xs, nx, 0);
    for (size_t i = 0; fig->bands && i < d->ns; i++) {
        if (d->s[i].variant != 0) continue;
        hm__plot_clause(s->body, &nclauses);
        fprintf(s->body,
                "data index %d using 1:3:4 with filledcurves lt %d fs transparent solid 0.2 "
                "noborder notitle",
                block[i], hm__plot_color(d, i) + 1);
    }
    for (size_t i = 0; i < d->ns; i++) {
        hm__plot_line(s->body, &nclauses, block[i], "linespoints", hm__plot_color(d, i) + 1,
                      d->s[i].variant ? 2 : 1, d->s[i].label, "");
    }
    fputc('\n', s->body);
    free(xs);
    free(block);
    return HM_OK;
}

int hm__plot_draw_latency(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                          char *what, size_t len)
{
    int bands = 0;
    for (size_t i = 0; i < d->ns; i++) bands |= d->s[i].variant == 0;
    char title[256];
    snprintf(title, sizeof title, "latency: median %s run-time%s", metric,
             bands ? " per message size; band: 95% confidence interval of the median"
                   : " per message size");
    by_size_t fig = {title, "run-time (µs)", 1};
    snprintf(what, len, "median %s run-time vs message size, %zu series", metric, d->ns);
    return draw_by_size(d, &fig, s);
}

/* pattern --output: each series' algbw (every message's bytes over the
 * median run-time, the table's convention) against message size. */
int hm__plot_draw_bandwidth(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                            char *what, size_t len)
{
    (void)metric;
    by_size_t fig = {"bandwidth: algbw = bytes of every message / median run-time, per message "
                     "size",
                     "algbw (GB/s, GB = 1e9 B)", 0};
    snprintf(what, len, "algbw vs message size, %zu series", d->ns);
    return draw_by_size(d, &fig, s);
}
