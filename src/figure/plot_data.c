/* src/figure/plot_data.c — series, groups of samples and legend labels of
 * the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/error.h>
#include <harmonia/stats.h>

#include "common/error_set.h"
#include "figure/plot_data.h"

/* Room for need elements of size in *p; fn: the caller, for the sentence. */
static int grow(void **p, size_t *cap, size_t need, size_t size, const char *fn)
{
    if (need <= *cap) return HM_OK;
    size_t cap2 = *cap ? 2 * *cap : 16;
    while (cap2 < need) cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q) return hm__error_nomem(fn);
    *p = q;
    *cap = cap2;
    return HM_OK;
}

int hm__plot_series(hm__plot_data_t *d, const char *base, const char *ranks,
                    const hm__plot_source_t *src, int variant, size_t *index)
{
    for (size_t i = 0; i < d->ns; i++) {
        const hm__plot_series_t *s = &d->s[i];
        if (s->src == src && s->variant == variant && !strcmp(s->base, base) &&
            !strcmp(s->ranks, ranks)) {
            *index = i;
            return HM_OK;
        }
    }
    int rc = grow((void **)&d->s, &d->cap_s, d->ns + 1, sizeof *d->s, __func__);
    if (rc != HM_OK) return rc;
    hm__plot_series_t *s = &d->s[d->ns];
    memset(s, 0, sizeof *s);
    snprintf(s->base, sizeof s->base, "%s", base);
    snprintf(s->ranks, sizeof s->ranks, "%s", ranks);
    s->src = src;
    s->variant = variant;
    *index = d->ns++;
    return HM_OK;
}

static int same_group(const hm__plot_group_t *g, size_t series, double x, double y)
{
    return g->series == series && g->x == x && g->y == y;
}

static int find_group(hm__plot_data_t *d, size_t series, double x, double y, size_t *index)
{
    if (d->last < d->ng && same_group(&d->g[d->last], series, x, y)) {
        *index = d->last;
        return HM_OK;
    }
    for (size_t i = 0; i < d->ng; i++)
        if (same_group(&d->g[i], series, x, y)) {
            *index = d->last = i;
            return HM_OK;
        }
    int rc = grow((void **)&d->g, &d->cap_g, d->ng + 1, sizeof *d->g, __func__);
    if (rc != HM_OK) return rc;
    d->g[d->ng] = (hm__plot_group_t){.series = series, .x = x, .y = y};
    *index = d->last = d->ng++;
    return HM_OK;
}

int hm__plot_add(hm__plot_data_t *d, size_t series, double x, double v)
{
    return hm__plot_add_xy(d, series, x, 0.0, v);
}

int hm__plot_add_xy(hm__plot_data_t *d, size_t series, double x, double y, double v)
{
    size_t i;
    int rc = find_group(d, series, x, y, &i);
    if (rc != HM_OK) return rc;
    hm__plot_group_t *g = &d->g[i];
    rc = grow((void **)&g->v, &g->cap, g->n + 1, sizeof *g->v, __func__);
    if (rc != HM_OK) return rc;
    g->v[g->n++] = v;
    return HM_OK;
}

static int cmp_group(const void *a, const void *b)
{
    const hm__plot_group_t *x = a, *y = b;
    if (x->series != y->series) return x->series < y->series ? -1 : 1;
    if (x->x != y->x) return (x->x > y->x) - (x->x < y->x);
    return (x->y > y->y) - (x->y < y->y);
}

/* The first series that differs from i at most in its variant. */
static size_t family(const hm__plot_data_t *d, size_t i)
{
    for (size_t j = 0;; j++)
        if (d->s[j].src == d->s[i].src && !strcmp(d->s[j].base, d->s[i].base) &&
            !strcmp(d->s[j].ranks, d->s[i].ranks))
            return j;
}

/* Series of one family next to each other, variants in order, so that a
 * legend reads "hca3 offset, hca3 true error" whatever row came first. */
static int order_series(hm__plot_data_t *d)
{
    size_t *order = malloc((d->ns ? d->ns : 1) * sizeof *order), n = 0;
    size_t *where = malloc((d->ns ? d->ns : 1) * sizeof *where);
    hm__plot_series_t *s = malloc((d->ns ? d->ns : 1) * sizeof *s);
    if (!order || !where || !s) {
        free(order), free(where), free(s);
        return hm__error_nomem(__func__);
    }
    for (size_t f = 0; f < d->ns; f++)
        for (int v = 0; family(d, f) == f && v < 8; v++)
            for (size_t i = f; i < d->ns; i++)
                if (family(d, i) == f && d->s[i].variant == v) order[n++] = i;
    for (size_t k = 0; k < n; k++) s[k] = d->s[order[k]], where[order[k]] = k;
    if (n == d->ns) {
        memcpy(d->s, s, n * sizeof *s);
        for (size_t k = 0; k < d->ng; k++) d->g[k].series = where[d->g[k].series];
    }
    free(order), free(where), free(s);
    return HM_OK;
}

void hm__plot_data_sort(hm__plot_data_t *d)
{
    order_series(d); /* out of memory: the order of the rows stays, harmless */
    if (d->ng) qsort(d->g, d->ng, sizeof *d->g, cmp_group);
    for (size_t i = 0; i < d->ng; i++) hm_stats_sort(d->g[i].v, d->g[i].n);
    d->last = 0;
}

/* The qualifier of level k: what may tell two series apart. */
static const char *qualifier(const hm__plot_series_t *s, int k)
{
    switch (k) {
    case 0:
        return s->ranks;
    case 1:
        return s->src->library;
    case 2:
        return s->src->stem;
    default:
        return s->src->path;
    }
}

/* Series i shares its label with another, and some of those differ in the
 * qualifier of level k (appending it then helps). */
static int ambiguous(const hm__plot_data_t *d, size_t i, int k)
{
    int shared = 0, differs = 0;
    for (size_t j = 0; j < d->ns; j++) {
        if (j == i || strcmp(d->s[j].label, d->s[i].label)) continue;
        shared = 1;
        differs |= strcmp(qualifier(&d->s[j], k), qualifier(&d->s[i], k)) != 0;
    }
    return shared && differs;
}

void hm__plot_data_label(hm__plot_data_t *d)
{
    for (size_t i = 0; i < d->ns; i++)
        snprintf(d->s[i].label, sizeof d->s[i].label, "%s", d->s[i].base);
    for (int k = 0; k < 4; k++) {
        int *mark = calloc(d->ns ? d->ns : 1, sizeof *mark);
        if (!mark) return; /* labels stay as they are: only a legend suffers */
        for (size_t i = 0; i < d->ns; i++) mark[i] = ambiguous(d, i, k) && *qualifier(&d->s[i], k);
        for (size_t i = 0; i < d->ns; i++) {
            hm__plot_series_t *s = &d->s[i];
            size_t used = strlen(s->label);
            if (mark[i]) snprintf(s->label + used, sizeof s->label - used, ", %s", qualifier(s, k));
        }
        free(mark);
    }
    for (size_t i = 0; i < d->ns; i++) {
        hm__plot_series_t *s = &d->s[i];
        size_t used = strlen(s->label);
        if (s->src && s->src->partial[0])
            snprintf(s->label + used, sizeof s->label - used, " (partial: %s)", s->src->partial);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double *hm__plot_data_xs(const hm__plot_data_t *d, size_t *n)
{
    *n = 0;
    double *xs = malloc((d->ng ? d->ng : 1) * sizeof *xs);
    if (!xs || !d->ng) {
        free(xs);
        return NULL;
    }
    for (size_t i = 0; i < d->ng; i++) xs[i] = d->g[i].x;
    qsort(xs, d->ng, sizeof *xs, cmp_double);
    for (size_t i = 0; i < d->ng; i++)
        if (*n == 0 || xs[*n - 1] != xs[i]) xs[(*n)++] = xs[i];
    return xs;
}

size_t hm__plot_x_index(const double *xs, size_t n, double x)
{
    for (size_t i = 0; i < n; i++)
        if (xs[i] == x) return i;
    return 0;
}

void hm__plot_data_free(hm__plot_data_t *d)
{
    for (size_t i = 0; i < d->ng; i++) free(d->g[i].v);
    free(d->g);
    free(d->s);
    memset(d, 0, sizeof *d);
}
