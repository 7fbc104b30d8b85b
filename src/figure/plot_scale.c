/* src/figure/plot_scale.c — figures against the process count, from the files
 * scale/run gathers (docs/scale.md): how long each clock synchronization
 * takes, with its duration fitted to a tree's a + b log2 p and to a root's
 * a + b p (the better fit drawn, both r² in the legend, and where a linear
 * algorithm overtakes a tree); the true error of the global clock after each
 * check time; the exit skew and cost of each process synchronization; and
 * the run-time of each benchmarked operation. Both axes logarithmic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/analysis.h>
#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"

enum { CURVE_POINTS = 48, MAX_POINTS = 64 };

/* The legend's words for a series' variant. */
typedef void (*suffix_t)(int variant, char *buf, size_t len);

/* x log2 with a tic at every process count, y log where every value is > 0. */
static void axes(const hm__plot_data_t *d, FILE *body, const char *title, const char *ylabel)
{
    size_t nx;
    double *xs = hm__plot_data_xs(d, &nx);
    hm__plot_palette(body);
    hm__plot_labels(body, title, "processes", ylabel);
    fputs("set logscale x 2\nset key outside right top\nset offsets graph 0.03, graph 0.03, 0, 0\n",
          body);
    fputs("set xtics (", body);
    for (size_t i = 0; i < nx; i++) fprintf(body, "%s'%.0f' %.17g", i ? ", " : "", xs[i], xs[i]);
    fputs(")\nset xtics noenhanced\n", body);
    if (hm__plot_all_positive(d)) fputs("set logscale y\n", body);
    free(xs);
}

/* The points of series i: (p, median of its samples at p), ascending p. */
static size_t points(const hm__plot_data_t *d, size_t i, double *p, double *y)
{
    size_t n = 0;
    for (size_t k = 0; k < d->ng && n < MAX_POINTS; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i || !g->n) continue;
        p[n] = g->x, y[n++] = hm_stats_quantile_sorted(g->v, g->n, 0.5);
    }
    return n;
}

static int points_block(const double *p, const double *y, size_t n, hm__plot_script_t *s)
{
    for (size_t k = 0; k < n; k++) fprintf(s->data, "%.17g\t%.17g\n", p[k], y[k]);
    return hm__plot_end_block(s);
}

/* Every series as lines and points, dashed by variant; suffix names it. */
static void series_lines(const hm__plot_data_t *d, hm__plot_script_t *s, int *n, suffix_t suffix)
{
    double p[MAX_POINTS], y[MAX_POINTS];
    char sfx[64];
    for (size_t i = 0; i < d->ns; i++) {
        size_t np = points(d, i, p, y);
        int b = points_block(p, y, np, s), v = d->s[i].variant;
        suffix(v, sfx, sizeof sfx);
        hm__plot_line(s->body, n, b, "linespoints", hm__plot_color(d, i) + 1, 1 + v % 4,
                      d->s[i].label, sfx);
    }
}

/* ---- Synchronization duration, fitted ---- */

typedef struct fitted {
    int ok;
    hm_scaling_fit_t best, other; /* best: the larger r² */
} fitted_t;

static fitted_t fit(const double *p, const double *y, size_t n)
{
    fitted_t f = {0};
    hm_scaling_fit_t lg, lin;
    if (n < 3 || hm_analysis_fit_scaling(p, y, n, HM_SCALING_LOG, &lg) != HM_OK ||
        hm_analysis_fit_scaling(p, y, n, HM_SCALING_LINEAR, &lin) != HM_OK)
        return f;
    f.ok = 1;
    f.best = lg.r2 >= lin.r2 ? lg : lin, f.other = lg.r2 >= lin.r2 ? lin : lg;
    return f;
}

static int curve_block(const hm_scaling_fit_t *f, double lo, double hi, hm__plot_script_t *s)
{
    for (int k = 0; k < CURVE_POINTS; k++) {
        double p = lo * pow(hi / lo, (double)k / (CURVE_POINTS - 1));
        fprintf(s->data, "%.17g\t%.17g\n", p, hm_analysis_scaling_at(f, p));
    }
    return hm__plot_end_block(s);
}

static void fit_suffix(const fitted_t *f, char *buf, size_t len)
{
    int lg = f->best.shape == HM_SCALING_LOG;
    snprintf(buf, len, ": %.3g %c %.3g %s, r² %.3f (%s %.3f)", f->best.a, f->best.b < 0 ? '-' : '+',
             fabs(f->best.b), lg ? "log2 p" : "p", f->best.r2, lg ? "linear" : "log", f->other.r2);
}

/* Per algorithm whose duration a line fits best, from which p it stays
 * above each one a tree fits best ("skampi (linear) overtakes hca3 at p =
 * 136, ..."), from the smallest p measured to 16 times the largest (further
 * is not a forecast a fit can make); one gnuplot label a line, top left
 * inside the graph, where durations at few processes leave room. */
static void crossovers(const hm__plot_data_t *d, const fitted_t *f, double lo_p, double hi_p,
                       FILE *body)
{
    int line = 0;
    for (size_t i = 0; i < d->ns; i++) {
        char text[512];
        size_t used = 0;
        if (!f[i].ok || f[i].best.shape != HM_SCALING_LINEAR) continue;
        for (size_t j = 0; j < d->ns && used + 48 < sizeof text; j++) {
            double p;
            if (!f[j].ok || f[j].best.shape != HM_SCALING_LOG ||
                hm_analysis_scaling_crossover(&f[j].best, &f[i].best, lo_p, hi_p, &p) != HM_OK)
                continue;
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s at p = %.0f",
                                     used ? ", " : "", d->s[j].label, ceil(p));
        }
        if (!used) continue;
        fprintf(body, "set label %d ", ++line);
        char full[1200];
        snprintf(full, sizeof full, "%s (linear) overtakes %s", d->s[i].label, text);
        hm__plot_quote(body, full);
        fprintf(body, " at graph 0.02, graph %.2f font ',8' noenhanced\n", 0.96 - 0.05 * line);
    }
}

int hm__plot_draw_scale_duration(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len)
{
    double p[MAX_POINTS], y[MAX_POINTS];
    char sfx[160];
    int n = 0, nfit = 0;
    (void)metric;
    fitted_t *f = calloc(d->ns ? d->ns : 1, sizeof *f);
    if (!f) return hm__error_nomem(__func__);
    axes(d, s->body, "clock synchronization: duration against the process count", "duration (ms)");
    for (size_t i = 0; i < d->ns; i++) {
        size_t np = points(d, i, p, y);
        f[i] = fit(p, y, np);
        nfit += f[i].ok;
    }
    size_t nx;
    double *xs = hm__plot_data_xs(d, &nx), lo_p = nx ? xs[0] : 1, hi_p = nx ? 16 * xs[nx - 1] : 1;
    free(xs);
    fputs("set key below maxcols 2 font ',9'\n", s->body);
    crossovers(d, f, lo_p, hi_p, s->body); /* settings: before the plot command */
    for (size_t i = 0; i < d->ns; i++) {
        size_t np = points(d, i, p, y);
        int c = hm__plot_color(d, i) + 1, b = points_block(p, y, np, s);
        sfx[0] = '\0';
        if (f[i].ok) fit_suffix(&f[i], sfx, sizeof sfx);
        hm__plot_clause(s->body, &n);
        fprintf(s->body, "data index %d using 1:2 with points lt %d pt 7", b, c);
        hm__plot_title(s->body, d->s[i].label, sfx);
        if (!f[i].ok) continue;
        hm__plot_clause(s->body, &n);
        fprintf(s->body, "data index %d using 1:2 with lines lt %d dt 2 notitle",
                curve_block(&f[i].best, p[0], p[np - 1], s), c);
    }
    fputc('\n', s->body);
    snprintf(what, len, "sync duration vs processes, %d algorithms, %d fitted", hm__plot_ncolors(d),
             nfit);
    free(f);
    return HM_OK;
}

/* ---- True error, skew, run-time ---- */

/* A figure of lines against p: what says "WHAT vs processes, N NOUN". */
static int line_figure(const hm__plot_data_t *d, hm__plot_script_t *s, const char *title,
                       const char *ylabel, suffix_t suffix, const char *head, const char *noun,
                       char *what, size_t len)
{
    int n = 0;
    axes(d, s->body, title, ylabel);
    series_lines(d, s, &n, suffix);
    fputc('\n', s->body);
    snprintf(what, len, "%s vs processes, %d %s", head, hm__plot_ncolors(d), noun);
    return HM_OK;
}

static void after_suffix(int variant, char *buf, size_t len)
{
    snprintf(buf, len, " after %d s", variant);
}

int hm__plot_draw_scale_error(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len)
{
    (void)metric;
    return line_figure(
        d, s,
        "global clock: largest |true error| (|offset| where unknown) against the process count",
        "error (µs)", after_suffix, "clock error", "algorithms", what, len);
}

static void skew_suffix(int variant, char *buf, size_t len)
{
    static const char *const names[] = {" median skew", " p99 skew", " cost per call"};
    snprintf(buf, len, "%s", names[variant % 3]);
}

int hm__plot_draw_scale_skew(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                             char *what, size_t len)
{
    (void)metric;
    return line_figure(d, s,
                       "exit skew (true where known) and cost per call against the process count",
                       "time (µs)", skew_suffix, "exit skew and cost", "methods", what, len);
}

static void no_suffix(int variant, char *buf, size_t len)
{
    (void)variant;
    snprintf(buf, len, "%s", "");
}

int hm__plot_draw_scale_bench(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len)
{
    char title[128];
    snprintf(title, sizeof title, "median %s run-time against the process count", metric);
    return line_figure(d, s, title, "run-time (µs)", no_suffix, "run-time", "series", what, len);
}
