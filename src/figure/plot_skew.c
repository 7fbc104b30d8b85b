/* src/figure/plot_skew.c — exit-skew distributions from `harmonia skew`: the
 * empirical CDF of the skew (max - min exit time over ranks) of every
 * repetition per method from a raw file, or the quantiles of a summary. The
 * tail matters as much as the median: it is what delays the operation timed
 * next, so the CDF is drawn whole on a log axis. */
#include <stdio.h>

#include "figure/plot_figure.h"

static const char *const clock_suffix[] = {"", " (true clock)"};

/* ECDF of series i: sorted value, fraction of repetitions <= it. Values of 0
 * (below the clock's resolution) cannot be drawn on the log axis but still
 * count in the fractions. */
static int ecdf_block(const hm__plot_data_t *d, size_t i, int logx, hm__plot_script_t *s)
{
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i) continue;
        for (size_t j = 0; j < g->n; j++)
            if (!logx || g->v[j] > 0)
                fprintf(s->data, "%.17g\t%.17g\n", g->v[j], (double)(j + 1) / (double)g->n);
    }
    return hm__plot_end_block(s);
}

static int any_positive(const hm__plot_data_t *d)
{
    for (size_t k = 0; k < d->ng; k++)
        for (size_t j = 0; j < d->g[k].n; j++)
            if (d->g[k].v[j] > 0) return 1;
    return 0;
}

int hm__plot_draw_skew(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                       char *what, size_t len)
{
    int n = 0, logx = any_positive(d);
    (void)metric;
    hm__plot_palette(s->body);
    hm__plot_labels(s->body, "exit skew (max - min exit time over ranks): empirical CDF per method",
                    "exit skew (µs)", "fraction of repetitions");
    fputs("set yrange [0:1.02]\nset key bottom right\n", s->body);
    if (logx) fputs("set logscale x\n", s->body);
    for (size_t i = 0; i < d->ns; i++) {
        int b = ecdf_block(d, i, logx, s), v = d->s[i].variant;
        hm__plot_line(s->body, &n, b, "steps", hm__plot_color(d, i) + 1, v ? 2 : 1, d->s[i].label,
                      clock_suffix[v]);
    }
    fputc('\n', s->body);
    snprintf(what, len, "exit-skew CDF per method, %d methods", hm__plot_ncolors(d));
    return HM_OK;
}

int hm__plot_draw_skew_quantiles(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len)
{
    int n = 0, logy = hm__plot_all_positive(d);
    (void)metric;
    hm__plot_palette(s->body);
    hm__plot_labels(s->body, "exit skew (max - min exit time over ranks): quantiles per method",
                    "quantile of the repetitions", "exit skew (µs)");
    fputs("set xtics ('median' 0, 'p90' 1, 'p99' 2, 'max' 3) noenhanced\nset xrange [-0.3:3.3]\n"
          "set key top left\n",
          s->body);
    if (logy) fputs("set logscale y\n", s->body);
    for (size_t i = 0; i < d->ns; i++) {
        int v = d->s[i].variant;
        for (size_t k = 0; k < d->ng; k++)
            if (d->g[k].series == i) fprintf(s->data, "%.17g\t%.17g\n", d->g[k].x, d->g[k].v[0]);
        int b = hm__plot_end_block(s);
        hm__plot_line(s->body, &n, b, "linespoints", hm__plot_color(d, i) + 1, v ? 2 : 1,
                      d->s[i].label, clock_suffix[v]);
    }
    fputc('\n', s->body);
    snprintf(what, len, "exit-skew quantiles per method, %d methods", hm__plot_ncolors(d));
    return HM_OK;
}
