/* src/figure/plot_style.c — the look shared by the figures of the figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure/plot_figure.h"

/* Okabe and Ito's colour-blind safe set, then darker extras. */
static const char *const colors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
                                     "#56b4e9", "#000000", "#f0e442", "#8c564b", "#7f7f7f"};
enum { NCOLORS = sizeof colors / sizeof colors[0] };

void hm__plot_palette(FILE *body)
{
    for (int i = 0; i < NCOLORS; i++)
        fprintf(body, "set linetype %d lc rgb '%s' lw 1.5 pt 7 ps 0.6\n", i + 1, colors[i]);
    fprintf(body, "set linetype cycle %d\nset grid lc rgb '#dddddd'\nset key noenhanced\n",
            NCOLORS);
}

static void label(FILE *body, const char *what, const char *text)
{
    fprintf(body, "set %s ", what);
    hm__plot_quote(body, text);
    fputs(" noenhanced\n", body);
}

void hm__plot_labels(FILE *body, const char *title, const char *xlabel, const char *ylabel)
{
    label(body, "title", title);
    label(body, "xlabel", xlabel);
    label(body, "ylabel", ylabel);
}

void hm__plot_size_name(char *buf, size_t len, double size_bytes)
{
    static const char units[] = "KMG";
    double v = size_bytes;
    int u = -1;
    while (u < 2 && v >= 1024 && fmod(v, 1024) == 0) v /= 1024, u++;
    snprintf(buf, len, "%.0f%s", v, u < 0 ? "" : (char[]){units[u], '\0'});
}

double hm__plot_size_at(double size_bytes)
{
    return size_bytes > 0 ? size_bytes : 0.5;
}

void hm__plot_size_tics(FILE *body, const double *xs, size_t n, int categorical)
{
    char name[32];
    fputs("set xtics (", body);
    for (size_t i = 0; i < n; i++) {
        hm__plot_size_name(name, sizeof name, xs[i]);
        fprintf(body, "%s'%s' %.17g", i ? ", " : "", name,
                categorical ? (double)(i + 1) : hm__plot_size_at(xs[i]));
    }
    fputs(")\nset xtics noenhanced\n", body);
    /* Many sizes (1:1M gives 21) would overlap when written upright. */
    if (n > 12) fputs("set xtics rotate by -45\n", body);
    fputs("set mxtics default\n", body);
}

void hm__plot_clause(FILE *body, int *nclauses)
{
    fputs(*nclauses ? ", \\\n     " : "plot ", body);
    ++*nclauses;
}

void hm__plot_title(FILE *body, const char *label, const char *suffix)
{
    char text[700];
    snprintf(text, sizeof text, "%s%s", label, suffix);
    fputs(" title ", body);
    hm__plot_quote(body, text);
    fputs(" noenhanced", body);
}

void hm__plot_line(FILE *body, int *nclauses, int block, const char *style, int color, int dash,
                   const char *label, const char *suffix)
{
    hm__plot_clause(body, nclauses);
    fprintf(body, "data index %d using 1:2 with %s lt %d dt %d", block, style, color, dash);
    hm__plot_title(body, label, suffix);
}

static int same_color(const hm__plot_series_t *a, const hm__plot_series_t *b)
{
    return a->src == b->src && !strcmp(a->base, b->base) && !strcmp(a->ranks, b->ranks);
}

int hm__plot_color(const hm__plot_data_t *d, size_t i)
{
    int c = 0;
    for (size_t j = 0; j < i; j++) {
        int first = 1;
        for (size_t k = 0; k < j && first; k++) first = !same_color(&d->s[k], &d->s[j]);
        if (!first) continue;
        if (same_color(&d->s[j], &d->s[i])) return c;
        c++;
    }
    return c;
}

int hm__plot_ncolors(const hm__plot_data_t *d)
{
    int n = 0;
    for (size_t i = 0; i < d->ns; i++)
        n = hm__plot_color(d, i) + 1 > n ? hm__plot_color(d, i) + 1 : n;
    return n;
}

int hm__plot_all_positive(const hm__plot_data_t *d)
{
    for (size_t i = 0; i < d->ng; i++)
        for (size_t k = 0; k < d->g[i].n; k++)
            if (!(d->g[i].v[k] > 0)) return 0;
    return 1;
}

double hm__plot_slot_width(int ncolors)
{
    return 0.8 / (ncolors > 0 ? ncolors : 1);
}

double hm__plot_slot_x(int k, int c, int ncolors)
{
    return k + (c - (ncolors - 1) / 2.0) * hm__plot_slot_width(ncolors);
}
