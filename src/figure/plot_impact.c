/* src/figure/plot_impact.c — the MPI impact ratio of `harmonia
 * overlap impact` as a histogram [Denis et al. 2022, §5, "Impact on
 * computation display"]: how many (rank, thread) pairs fall in each bin of
 * the ratio, one colour per computation target (and file), the bars of a
 * bin side by side, and a red line at 1, no impact. */
#include <math.h>
#include <stdio.h>

#include <harmonia/stats.h>

#include "figure/plot_figure.h"

/* The bins: width w, bin k holds [k w, (k + 1) w); 1 is an edge, so that
 * ratios below and above it never share a bar. */
typedef struct bins {
    double w;
    long first, last; /* the bins drawn, a free one on each side */
    size_t most;      /* the tallest bar */
} bins_t;

/* The 1, 2 or 5 times a power of ten nearest x (on a log scale). */
static double nice_near(double x)
{
    double p = pow(10, floor(log10(x))), best = p;
    for (int k = 1; k < 4; k++) {
        double c = p * (double[]){1, 2, 5, 10}[k];
        if (fabs(log(c / x)) < fabs(log(best / x))) best = c;
    }
    return best;
}

static long bin_of(const bins_t *b, double v)
{
    /* A ratio on an edge (1.000 exactly) belongs to the bin above it. */
    return (long)floor(v / b->w + 1e-9);
}

/* About 20 bins over the ratios and 1 together, at least 0.02 in all: a
 * run whose ratios are all 1.00 still shows the line beside its bar. */
static void choose_bins(const hm__plot_data_t *d, bins_t *b)
{
    double lo = 1, hi = 1;
    for (size_t k = 0; k < d->ng; k++)
        for (size_t j = 0; j < d->g[k].n; j++) {
            lo = fmin(lo, d->g[k].v[j]);
            hi = fmax(hi, d->g[k].v[j]);
        }
    b->w = nice_near(fmax(hi - lo, 0.02) / 20);
    b->first = bin_of(b, lo) - 1;
    b->last = bin_of(b, hi) + 1;
    b->most = 1;
}

/* Major tics every m bins, m the smallest of 1, 2, 5, 10, 20, ... that
 * leaves at most 10 of them; a minor tic on every bin edge. */
static void bin_tics(FILE *body, const bins_t *b)
{
    long nbins = b->last - b->first + 1, m = 1;
    for (int k = 0; nbins / m > 10; k++) m = (long[]){2, 5, 10}[k % 3] * (long)pow(10, k / 3);
    fprintf(body, "set xtics %.17g\nset mxtics %ld\n", (double)m * b->w, m);
}

/* Series i's counts per bin, its bars offset within the bin by its slot:
 * centre, count, width. Returns the block. */
static int bars(const hm__plot_data_t *d, size_t i, int slot, int nslots, bins_t *b,
                hm__plot_script_t *s)
{
    double bw = b->w / nslots;
    for (long k = b->first; k <= b->last; k++) {
        size_t n = 0;
        for (size_t g = 0; g < d->ng; g++)
            for (size_t j = 0; d->g[g].series == i && j < d->g[g].n; j++)
                n += bin_of(b, d->g[g].v[j]) == k;
        if (!n) continue;
        b->most = n > b->most ? n : b->most;
        fprintf(s->data, "%.17g\t%zu\t%.17g\n", (double)k * b->w + (slot + 0.5) * bw, n, bw);
    }
    return hm__plot_end_block(s);
}

/* The median of series i (its one group: one target) and its number of
 * samples, for its legend; the samples are sorted (hm__plot_data_sort). */
static double series_median(const hm__plot_data_t *d, size_t i, size_t *n)
{
    for (size_t g = 0; g < d->ng; g++)
        if (d->g[g].series == i && d->g[g].n) {
            *n = d->g[g].n;
            return hm_stats_quantile_sorted(d->g[g].v, d->g[g].n, 0.5);
        }
    *n = 0;
    return NAN;
}

int hm__plot_draw_impact(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                         char *what, size_t len)
{
    bins_t b;
    int n = 0, nslots = (int)d->ns, first_block = s->blocks;
    size_t total = 0;
    (void)metric;
    choose_bins(d, &b);
    /* The blocks first: the tallest bar sets the y range. */
    for (size_t i = 0; i < d->ns; i++) bars(d, i, (int)i, nslots, &b, s);
    hm__plot_palette(s->body);
    hm__plot_labels(s->body, "MPI impact ratio per rank and thread (Denis et al. 2022, eq. 2)",
                    "kernel time with MPI / without (1: no impact)",
                    "compute threads (rank x thread)");
    /* The key below the plot: the line at 1 may fall anywhere in it. */
    fputs("set key below\nset style fill solid 0.85 border -1\nset grid ytics\n"
          "set arrow 1 from 1, graph 0 to 1, graph 1 nohead lc rgb '#d62728' lw 2 front\n"
          "set label 1 '1 = no impact' at 1, graph 0.96 offset 0.5, 0 left tc rgb '#d62728' "
          "front\n",
          s->body);
    fprintf(s->body, "set xrange [%.17g:%.17g]\n", (double)b.first * b.w,
            (double)(b.last + 1) * b.w);
    bin_tics(s->body, &b);
    /* Whole counts only; room above the tallest bar for the key. */
    fprintf(s->body, "set yrange [0:%zu]\n", b.most + 1 + b.most / 3);
    if (b.most <= 10) fputs("set ytics 1\n", s->body);
    for (size_t i = 0; i < d->ns; i++) {
        size_t m;
        char suffix[96];
        double med = series_median(d, i, &m);
        total += m;
        snprintf(suffix, sizeof suffix, ": median %.3f, %zu ratio%s", med, m, m == 1 ? "" : "s");
        hm__plot_clause(s->body, &n);
        fprintf(s->body, "data index %d using 1:2:3 with boxes lt %d", first_block + (int)i,
                hm__plot_color(d, i) + 1);
        hm__plot_title(s->body, d->s[i].label, suffix);
    }
    fputc('\n', s->body);
    snprintf(what, len, "MPI impact ratio histogram, %zu rank x thread ratios, %zu target%s", total,
             d->ns, d->ns == 1 ? "" : "s");
    return HM_OK;
}
