/* src/figure/plot_overlap.c — the heat maps of `harmonia overlap`
 * [Denis et al. 2022, §5.2]: communication time on x, computation time on
 * y, both on log axes, one box per cell coloured by its ratio and labelled
 * with it, the comp = comm diagonal dashed. An invalid cell (cell_valid 0:
 * a calibration that did not converge, a reference off its target or moved
 * during the grid; its reason is the CSV's cell column) or one without a
 * ratio is hatched grey: visible, never a colour it did not measure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"

typedef struct scale {
    const char *name;    /* colour bar label */
    const char *palette; /* gnuplot "set palette defined (...)" body */
    double lo, hi;       /* colour range; values beyond take the end colours */
    const char *panel;   /* panel title, before the series label */
} scale_t;

/* Green 0 (perfect overlap), yellow 1 (none), red above 1 (worse than in
 * sequence), blue below 0 (faster than perfect: imprecision), as in §5.2. */
static const scale_t overhead = {"0 perfect overlap, 1 none",
                                 "-1 '#2166ac', 0 '#1a9850', 1 '#fee08b', 2 '#d73027'", -1, 2,
                                 "overhead ratio"};
/* Blue for the best case, red for the worst (§5.2, Fig. 7). */
static const scale_t comm_ratio = {"0 hidden, 1 not", "0 '#2166ac', 1 '#fee08b', 2 '#d73027'", 0, 2,
                                   "communication ratio"};
static const scale_t comp_ratio = {"1 untouched",
                                   "0.5 '#2166ac', 1 '#2166ac', 1.5 '#fee08b', 2 '#d73027'", 0.5, 2,
                                   "computation slowdown"};

/* The distinct x (or y) values of series i, ascending; NULL when none. */
static double *distinct(const hm__plot_data_t *d, size_t i, int want_y, size_t *n)
{
    double *v = malloc((d->ng ? d->ng : 1) * sizeof *v);
    *n = 0;
    if (!v) return NULL;
    for (size_t k = 0; k < d->ng; k++)
        if (d->g[k].series == i) v[(*n)++] = want_y ? d->g[k].y : d->g[k].x;
    hm_stats_sort(v, *n);
    size_t m = 0;
    for (size_t k = 0; k < *n; k++)
        if (m == 0 || v[k] != v[m - 1]) v[m++] = v[k];
    *n = m;
    return v;
}

/* The box of value t among the sorted ts: the geometric midpoints to its
 * neighbours; at an end, as far out as in (a lone value: a factor 2). */
static void edges(const double *ts, size_t n, double t, double *lo, double *hi)
{
    size_t k = 0;
    while (k + 1 < n && ts[k] < t) k++;
    double down = k > 0 ? sqrt(ts[k - 1] / t) : k + 1 < n ? sqrt(t / ts[k + 1]) : M_SQRT1_2;
    double up = k + 1 < n ? sqrt(ts[k + 1] / t) : k > 0 ? sqrt(t / ts[k - 1]) : M_SQRT2;
    *lo = t * down;
    *hi = t * up;
}

/* The cells of series i, those with a value (valid 1) or those without:
 * x, y, value, x edges, y edges. Returns the block, or -1 when empty. */
static int cells(const hm__plot_data_t *d, size_t i, const double *xs, size_t nx, const double *ys,
                 size_t ny, int valid, hm__plot_script_t *s)
{
    int any = 0;
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        double v = g->n ? g->v[0] : NAN, xlo, xhi, ylo, yhi;
        if (g->series != i || (isfinite(v) != valid)) continue;
        edges(xs, nx, g->x, &xlo, &xhi);
        edges(ys, ny, g->y, &ylo, &yhi);
        fprintf(s->data, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", g->x, g->y,
                valid ? v : 0.0, xlo, xhi, ylo, yhi);
        any = 1;
    }
    /* gnuplot does not count an empty block: none is written. */
    return any ? hm__plot_end_block(s) : -1;
}

/* Tics at the grid's values: the targets, whatever decade they fall in. */
static void grid_tics(FILE *body, const char *axis, const double *ts, size_t n)
{
    /* Slanted on x: several maps share the canvas, and 8 targets of up to
     * 7 digits would overlap side by side. */
    fprintf(body, "set %stics font ',9' %s(", axis, axis[0] == 'x' ? "rotate by 45 right " : "");
    for (size_t k = 0; k < n; k++) fprintf(body, "%s'%g' %.17g", k ? ", " : "", ts[k], ts[k]);
    fputs(")\n", body);
}

static int panel(const hm__plot_data_t *d, size_t i, const scale_t *sc, hm__plot_script_t *s)
{
    size_t nx, ny;
    double *xs = distinct(d, i, 0, &nx), *ys = distinct(d, i, 1, &ny);
    if (!xs || !ys || !nx || !ny) {
        free(xs);
        free(ys);
        return hm__error_nomem(__func__);
    }
    int good = cells(d, i, xs, nx, ys, ny, 1, s), bad = cells(d, i, xs, nx, ys, ny, 0, s);
    double xlo, xhi, ylo, yhi, unused;
    edges(xs, nx, xs[0], &xlo, &unused);
    edges(xs, nx, xs[nx - 1], &unused, &xhi);
    edges(ys, ny, ys[0], &ylo, &unused);
    edges(ys, ny, ys[ny - 1], &unused, &yhi);
    char title[700];
    snprintf(title, sizeof title, "%s: %s", sc->panel, d->s[i].label);
    int v = d->s[i].variant;
    hm__plot_labels(s->body, title,
                    v & HM_PLOT_OVERLAP_X_ALONE ? "communication time, measured alone (µs)"
                                                : "communication time, target (µs)",
                    v & HM_PLOT_OVERLAP_Y_ALONE ? "computation time, measured alone (µs)"
                                                : "computation time, target (µs)");
    fprintf(s->body,
            "set logscale xy\nset xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n"
            "set palette defined (%s)\nset cbrange [%g:%g]\nset cblabel '%s' noenhanced\n"
            "set key below\n",
            xlo, xhi, ylo, yhi, sc->palette, sc->lo, sc->hi, sc->name);
    grid_tics(s->body, "x", xs, nx);
    grid_tics(s->body, "y", ys, ny);
    /* Boxes, then the diagonal, then the values, so that no line crosses
     * a value; a value beyond the colour range, which takes the end
     * colour, is marked with an arrow towards where it lies. */
    int n = 0;
    if (good >= 0) {
        hm__plot_clause(s->body, &n);
        fprintf(s->body,
                "data index %d using 1:2:4:5:6:7:3 with boxxyerror fs solid 1.0 noborder "
                "lc palette notitle",
                good);
    }
    if (bad >= 0) {
        hm__plot_clause(s->body, &n);
        fprintf(s->body,
                "data index %d using 1:2:4:5:6:7 with boxxyerror fs pattern 4 lc rgb 'grey40' "
                "title 'invalid cell (its reason: the CSV cell column)'",
                bad);
    }
    hm__plot_clause(s->body, &n);
    fputs("x with lines lc rgb 'black' dt 2 lw 1.5 title 'comp = comm'", s->body);
    if (good >= 0) {
        hm__plot_clause(s->body, &n);
        fprintf(s->body,
                "data index %d using 1:2:($3 > %g ? sprintf('%%.2f ▲', $3) : $3 < %g ? "
                "sprintf('%%.2f ▼', $3) : sprintf('%%.2f', $3)) with labels font ',8' "
                "title '▲ ▼ beyond the colour range'",
                good, sc->hi, sc->lo);
    }
    fputc('\n', s->body);
    free(xs);
    free(ys);
    return HM_OK;
}

int hm__plot_draw_overlap(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                          char *what, size_t len)
{
    (void)metric;
    int rc = HM_OK;
    /* A map of 800 x 500 each: several in one default canvas were too
     * cramped to read (issue 32). */
    s->height_px = 500 * (int)(d->ns ? d->ns : 1);
    fprintf(s->body, "set multiplot layout %zu,1\n", d->ns);
    for (size_t i = 0; i < d->ns && rc == HM_OK; i++) rc = panel(d, i, &overhead, s);
    fputs("unset multiplot\n", s->body);
    snprintf(what, len, "overhead ratio per cell (comm x comp), %zu map%s", d->ns,
             d->ns == 1 ? "" : "s");
    return rc;
}

/* Each operation's pair side by side, r_comm left and r_comp_slowdown
 * right (§5.2): which of the two spoiled the overlap. */
int hm__plot_draw_overlap_ratios(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len)
{
    (void)metric;
    int rc = HM_OK;
    /* Two panels abreast: a title in the default font is wider than its
     * panel ("communication ratio: iallreduce, MPICH Version: 4.0.2"). */
    s->width_px = 1200;
    s->height_px = 450 * (int)((d->ns + 1) / 2 ? (d->ns + 1) / 2 : 1);
    fprintf(s->body, "set multiplot layout %zu,2\nset title font ',9'\n", (d->ns + 1) / 2);
    for (size_t i = 0; i < d->ns && rc == HM_OK; i++)
        rc = panel(d, i, d->s[i].variant & 1 ? &comp_ratio : &comm_ratio, s);
    fputs("unset multiplot\n", s->body);
    snprintf(what, len, "r_comm and r_comp_slowdown per cell, %zu pair%s", d->ns / 2,
             d->ns / 2 == 1 ? "" : "s");
    return rc;
}
