/* src/figure/plot_matrix.c — a pattern's matrix of bytes as a heat
 * map, drawn as CommBench draws its communication matrices (Hidayetoglu et
 * al. 2024, Fig. 6): a row per sender, sender 0 at the top, a column per
 * receiver, each pair that exchanges bytes a square coloured by how many;
 * pairs that exchange none stay white; lines between the groups of ranks
 * (nodes) where the file says how many ranks a group has. One map per
 * file. */
#include <math.h>
#include <stdio.h>

#include "figure/plot_figure.h"

/* A colour scale in bytes: logarithmic when the counts span more than a
 * factor 100 (an application's halo beside its corners). */
static void color_scale(FILE *body, double lo, double hi)
{
    fputs("set palette defined (0 '#fee08b', 1 '#fc8d59', 2 '#d73027', 3 '#67001f')\n"
          "set cblabel 'bytes' noenhanced\n",
          body);
    if (hi > 100 * lo) fputs("set logscale cb\n", body);
    if (hi <= lo) hi = lo * 2; /* one value: a range gnuplot accepts */
    fprintf(body, "set cbrange [%.17g:%.17g]\n", hi > 100 * lo ? lo : 0.0, hi);
}

/* Series i's pairs: receiver, sender, bytes (the sum of its samples). The
 * largest rank and the byte range into *ranks, *lo, *hi. Returns the
 * block, or -1 when the series has no pair. */
static int pairs(const hm__plot_data_t *d, size_t i, hm__plot_script_t *s, double *ranks,
                 double *lo, double *hi)
{
    int any = 0;
    *ranks = 0, *lo = INFINITY, *hi = 0;
    for (size_t k = 0; k < d->ng; k++) {
        const hm__plot_group_t *g = &d->g[k];
        if (g->series != i || !g->n) continue;
        double bytes = 0;
        for (size_t j = 0; j < g->n; j++) bytes += g->v[j];
        fprintf(s->data, "%.17g\t%.17g\t%.17g\n", g->x, g->y, bytes);
        *ranks = fmax(*ranks, fmax(g->x, g->y) + 1);
        *lo = fmin(*lo, bytes), *hi = fmax(*hi, bytes);
        any = 1;
    }
    return any ? hm__plot_end_block(s) : -1;
}

/* More groups than this and their lines would hide the cells: a map some
 * 400 pixels high leaves 6 pixels a group. */
enum { MAX_GROUPS = 64 };

/* The boundaries of the groups of g ranks, as the paper's Fig. 6 draws
 * its nodes: a line between ranks g - 1 and g, 2g - 1 and 2g, ..., across
 * the rows and down the columns, on the cells' edges (the values stay in
 * view). None unless the ranks split into 2 to MAX_GROUPS whole groups. */
static void group_lines(FILE *body, double ranks, int g)
{
    if (g <= 1 || g >= ranks || fmod(ranks, g) != 0 || ranks / g > MAX_GROUPS) return;
    for (double at = g - 0.5; at < ranks - 1; at += g)
        fprintf(body,
                "set arrow from %.17g,-0.5 to %.17g,%.17g nohead front lc rgb '#202020' lw 1.5\n"
                "set arrow from -0.5,%.17g to %.17g,%.17g nohead front lc rgb '#202020' lw 1.5\n",
                at, at, ranks - 0.5, at, ranks - 0.5, at);
}

static void panel(const hm__plot_data_t *d, size_t i, hm__plot_script_t *s)
{
    double ranks, lo, hi;
    int block = pairs(d, i, s, &ranks, &lo, &hi);
    ranks = fmax(ranks, d->s[i].processes); /* the run's silent ranks too */
    char title[700];
    snprintf(title, sizeof title, "bytes from rank to rank: %s", d->s[i].label);
    hm__plot_labels(s->body, title, "receiver rank", "sender rank");
    /* Square cells, sender 0 at the top (Fig. 6); a tic per rank while
     * they stay readable. */
    fprintf(s->body,
            "set size ratio -1\nset xrange [-0.5:%.17g]\nset yrange [%.17g:-0.5]\n"
            "set xtics %s\nset ytics %s\nset grid front lc rgb 'grey80'\nunset key\n",
            ranks - 0.5, ranks - 0.5, ranks <= 32 ? "1" : "autofreq",
            ranks <= 32 ? "1" : "autofreq");
    fputs("unset arrow\n", s->body); /* the previous map's groups */
    group_lines(s->body, ranks, d->s[i].group_size);
    if (block < 0) {
        fputs("set label 1 'no message' at graph 0.5, 0.5 center\nplot NaN notitle\n", s->body);
        return;
    }
    color_scale(s->body, lo, hi);
    fprintf(s->body,
            "plot data index %d using 1:2:($1 - 0.5):($1 + 0.5):($2 - 0.5):($2 + 0.5):3 "
            "with boxxyerror fs solid 1.0 noborder lc palette notitle\n",
            block);
}

int hm__plot_draw_matrix(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                         char *what, size_t len)
{
    (void)metric;
    fprintf(s->body, "set multiplot layout %zu,1\n", d->ns);
    for (size_t i = 0; i < d->ns; i++) panel(d, i, s);
    fputs("unset multiplot\n", s->body);
    snprintf(what, len, "matrix of bytes, %zu map%s", d->ns, d->ns == 1 ? "" : "s");
    return HM_OK;
}
