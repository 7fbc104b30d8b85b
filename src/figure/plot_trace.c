/* src/figure/plot_trace.c — a trace of `harmonia trace` as a Gantt
 * chart: one row per rank, one box per MPI call, the same calls on the local
 * clocks (left) and on the global clock (right), as Hunold & Carpen-Amarie
 * 2018 draw an MPI_Allreduce of AMG2013 in Fig. 10. The trace is read and
 * the call or window chosen by plot_trace_read.c; this file draws it. A
 * window of more events than a box each can show (more than 2 a column of a
 * rank, or than MAX_BOXES) is binned: per rank, COLUMNS columns, each drawn
 * in the colour of the function that took most of its time, so that the
 * image and gnuplot's work stay bounded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/trace.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"
#include "figure/plot_trace.h"
#include "figure/plot_trace_read.h"

enum {
    MAX_BOXES = 5000, /* events drawn one by one (a box each in 2 panels): 1 MB of SVG */
    COLUMNS = 400,    /* bins across a panel, whose plotting area is ~300 px wide */
    MIN_COLUMNS = 16,
    CELLS = 1 << 22, /* floats of the bins at most (16 MB), whatever the ranks */
    NAMED = 12,      /* functions the legend names; the rest "other" (13 when 13) */
    OTHER = NAMED + 1,
    KEY_COLUMNS = 4
};

/* ---- The window's events: one by one, and binned ---- */

enum { LOCAL = 0, GLOBAL = 1 };

typedef struct shown {
    const gantt_t *g;
    const selection_t *s;
    double lo_s, span_s, ref_s; /* window; local - global of the reference rank */
    int ref_rank;
    int ncols;
    double width_s;
    float *busy;    /* [panel][rank][column][function present] seconds */
    double *time_s; /* per function present: its time in the window */
    size_t *count;  /* its calls there */
    event_t *boxes; /* the first events of the window, up to limit */
    size_t limit;   /* more are binned */
    size_t nboxes, inside;
    event_t *mark; /* the selected call on each rank */
    size_t nmark;
} shown_t;

static void bin(shown_t *w, int panel, const event_t *e, double a_s, double b_s)
{
    if (b_s < 0 || a_s > w->span_s) return;
    a_s = fmax(a_s, 0), b_s = fmin(b_s, w->span_s);
    int k0 = (int)(a_s / w->width_s), k1 = (int)(b_s / w->width_s);
    if (k1 >= w->ncols) k1 = w->ncols - 1;
    size_t nf = w->g->nf, f = (size_t)w->g->dense[e->func] - 1;
    float *row = w->busy + ((size_t)panel * w->g->nranks + e->rank) * w->ncols * nf;
    for (int k = k0; k <= k1; k++) {
        double in = fmin(b_s, (k + 1) * w->width_s) - fmax(a_s, k * w->width_s);
        if (in > 0) row[k * nf + f] += (float)in;
        if (in > 0 && panel == GLOBAL) w->time_s[f] += in;
    }
}

static void collect(void *ctx, const event_t *e, size_t i)
{
    shown_t *w = ctx;
    if (hm__gantt_chosen(w->s, e, i) && w->nmark < (size_t)w->g->nranks) w->mark[w->nmark++] = *e;
    if (e->glob[1] < w->lo_s || e->glob[0] > w->lo_s + w->span_s) return;
    double shift_s = w->lo_s + w->ref_s;
    bin(w, LOCAL, e, e->local[0] - shift_s, e->local[1] - shift_s);
    bin(w, GLOBAL, e, e->glob[0] - w->lo_s, e->glob[1] - w->lo_s);
    w->count[w->g->dense[e->func] - 1]++;
    if (w->inside++ < w->limit) w->boxes[w->nboxes++] = *e;
}

/* Columns so that the bins stay within CELLS floats at many ranks. */
static int shown_open(shown_t *w, const gantt_t *g, const selection_t *s, double lo_s, double hi_s)
{
    size_t per_col = 2 * (size_t)g->nranks * g->nf;
    size_t ncols = CELLS / per_col;
    memset(w, 0, sizeof *w);
    w->g = g, w->s = s, w->lo_s = lo_s, w->span_s = fmax(hi_s - lo_s, 1e-9);
    w->ncols = ncols > COLUMNS ? COLUMNS : ncols < MIN_COLUMNS ? MIN_COLUMNS : (int)ncols;
    w->width_s = w->span_s / w->ncols;
    w->busy = calloc(per_col * w->ncols, sizeof *w->busy);
    w->time_s = calloc(g->nf, sizeof *w->time_s);
    w->count = calloc(g->nf, sizeof *w->count);
    w->limit = 2 * (size_t)g->nranks * w->ncols;
    w->limit = w->limit < MAX_BOXES ? w->limit : MAX_BOXES;
    w->boxes = malloc(w->limit * sizeof *w->boxes);
    w->mark = malloc((size_t)g->nranks * sizeof *w->mark);
    if (w->busy && w->time_s && w->count && w->boxes && w->mark) return HM_OK;
    return hm__error_nomem(__func__);
}

static void shown_close(shown_t *w)
{
    free(w->busy), free(w->time_s), free(w->count), free(w->boxes), free(w->mark);
}

/* Local clocks are drawn from the lowest rank's: the others' boxes shift
 * by the difference of their clock to it. */
static void reference(shown_t *w)
{
    for (int r = 0; r < w->g->nranks; r++)
        if (isfinite(w->g->ranks[r].dist_s)) {
            w->ref_rank = r, w->ref_s = w->g->ranks[r].offset_s;
            return;
        }
}

/* ---- Legend: colours by function ---- */

/* Colour-blind safe first (Okabe and Ito), then Tol's muted; grey: other. */
static const char *const colors[OTHER + 1] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9",
                                              "#d55e00", "#f0e442", "#332288", "#882255", "#44aa99",
                                              "#999933", "#aa4499", "#6699cc", "#b0b0b0"};

typedef struct legend {
    int slot[HM_TRACE_NFUNCS];  /* per function present: its colour, OTHER beyond */
    int order[HM_TRACE_NFUNCS]; /* functions present in the window, the longest first */
    int nshown, nother;
} legend_t;

/* The functions of the window by time (then calls), the first NAMED named;
 * a 13th is named too rather than called "other". */
static void rank_functions(const shown_t *w, legend_t *l)
{
    const gantt_t *g = w->g;
    int n = 0;
    for (size_t f = 0; f < g->nf; f++) {
        if (!w->count[f]) continue;
        int k = n++;
        for (; k > 0; k--) {
            size_t p = (size_t)l->order[k - 1];
            if (w->time_s[p] > w->time_s[f] ||
                (w->time_s[p] == w->time_s[f] && w->count[p] >= w->count[f]))
                break;
            l->order[k] = l->order[k - 1];
        }
        l->order[k] = (int)f;
    }
    l->nshown = n <= NAMED + 1 ? n : NAMED;
    l->nother = n - l->nshown;
    for (int k = 0; k < n; k++) l->slot[l->order[k]] = k < l->nshown ? k : OTHER;
}

/* ---- Data blocks ---- */

/* The time axis: its unit picked from the window's span, so that the
 * numbers stay short, and a tic step of 1, 2 or 5 x 10^k (4 to 10 tics). */
typedef struct axis {
    double scale, step;
    const char *unit;
} axis_t;

static axis_t time_axis(double span_s)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "s"}, {1e3, "ms"}, {1e6, "µs"}, {1e9, "ns"}};
    int u = 0;
    while (u < 3 && span_s * units[u].scale < 1) u++;
    double raw = span_s * units[u].scale / 5, p = pow(10, floor(log10(raw))), m = raw / p;
    double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    return (axis_t){units[u].scale, step, units[u].unit};
}

/* A box: x centre and half width in the axis's unit, rank, half height,
 * colour (linetype). */
static void box(FILE *f, const axis_t *ax, double a_s, double b_s, int rank, double h, int lt)
{
    fprintf(f, "%.9g\t%d\t%.9g\t%.3g\t%d\n", (a_s + b_s) / 2 * ax->scale, rank,
            (b_s - a_s) / 2 * ax->scale, h, lt);
}

static int one_by_one(const shown_t *w, const legend_t *l, const axis_t *ax, int panel, FILE *f)
{
    double shift_s = panel == GLOBAL ? w->lo_s : w->lo_s + w->ref_s;
    for (size_t i = 0; i < w->nboxes; i++) {
        const event_t *e = &w->boxes[i];
        const double *x = panel == GLOBAL ? e->glob : e->local;
        int lt = l->slot[w->g->dense[e->func] - 1] + 1;
        box(f, ax, x[0] - shift_s, x[1] - shift_s, e->rank, 0.35, lt);
    }
    return (int)w->nboxes;
}

/* One column: its colour (the function that took most of it) and its
 * height in quarters of the time spent in calls. */
static int column(const shown_t *w, const legend_t *l, const float *cell, int *quarters)
{
    double by_slot[OTHER + 1] = {0}, total = 0;
    for (size_t f = 0; f < w->g->nf; f++) by_slot[l->slot[f]] += cell[f], total += cell[f];
    *quarters = (int)ceil(fmin(total / w->width_s, 1) * 4);
    if (total <= 0) return -1;
    int best = 0;
    for (int k = 1; k <= OTHER; k++)
        if (by_slot[k] > by_slot[best]) best = k;
    return best;
}

/* Runs of like columns as one box each. */
static int binned(const shown_t *w, const legend_t *l, const axis_t *ax, int panel, FILE *f)
{
    int nboxes = 0;
    for (int r = 0; r < w->g->nranks; r++) {
        const float *row = w->busy + ((size_t)panel * w->g->nranks + r) * w->ncols * w->g->nf;
        int start = 0, slot = -1, q = 0;
        for (int k = 0; k <= w->ncols; k++) {
            int qk = 0, sk = k < w->ncols ? column(w, l, row + (size_t)k * w->g->nf, &qk) : -1;
            if (sk == slot && qk == q) continue;
            if (slot >= 0)
                box(f, ax, start * w->width_s, k * w->width_s, r, 0.35 * q / 4, slot + 1), nboxes++;
            start = k, slot = sk, q = qk;
        }
    }
    return nboxes;
}

static void marks(const shown_t *w, const axis_t *ax, int panel, FILE *f)
{
    double shift_s = panel == GLOBAL ? w->lo_s : w->lo_s + w->ref_s;
    for (size_t i = 0; i < w->nmark; i++) {
        const double *x = panel == GLOBAL ? w->mark[i].glob : w->mark[i].local;
        box(f, ax, x[0] - shift_s, x[1] - shift_s, w->mark[i].rank, 0.42, 0);
    }
}

/* Blocks 0 and 1: the boxes of the local and the global panel; 2 and 3:
 * the selected call's outline in each. */
static void write_blocks(const shown_t *w, const legend_t *l, const axis_t *ax,
                         hm__plot_script_t *sc)
{
    for (int panel = LOCAL; panel <= GLOBAL; panel++) {
        int n = w->inside > w->limit ? binned(w, l, ax, panel, sc->data)
                                     : one_by_one(w, l, ax, panel, sc->data);
        if (!n) fputs("0\t0\t0\t0\t1\n", sc->data); /* gnuplot refuses an empty block */
        hm__plot_end_block(sc);
    }
    for (int panel = LOCAL; panel <= GLOBAL; panel++) {
        marks(w, ax, panel, sc->data);
        if (!w->nmark) fputs("0\t0\t0\t0\t1\n", sc->data);
        hm__plot_end_block(sc);
    }
}

/* ---- The gnuplot commands ---- */

typedef struct layout {
    const char *call; /* "call 40 of MPI_Allreduce" or NULL */
    int columns;      /* of the legend */
    double key_h;     /* the legend's share of the height, at the bottom */
} layout_t;

/* The legend's columns from its longest title (~8 px a character at 11
 * points, 70 for the sample and the gap): gnuplot takes fewer when they do
 * not fit, and its rows would leave the image. */
static void key_layout(const shown_t *w, const legend_t *l, layout_t *lay)
{
    size_t chars = lay->call ? strlen(lay->call) : 0;
    int entries = l->nshown + (l->nother > 0) + (lay->call != NULL);
    if (l->nother) chars = chars > 20 ? chars : 20; /* "other (N functions)" */
    for (int k = 0; k < l->nshown; k++) {
        size_t n = strlen(hm_trace_func_name(w->g->funcs[l->order[k]]));
        chars = n > chars ? n : chars;
    }
    lay->columns = (int)(780 / (chars * 8 + 70));
    lay->columns = lay->columns < 1 ? 1 : lay->columns > KEY_COLUMNS ? KEY_COLUMNS : lay->columns;
    int rows = (entries + lay->columns - 1) / lay->columns;
    lay->key_h = (rows * 20 + (w->inside > w->limit) * 20 + 12) / 500.0;
}

/* Where a rank's local clock lies so far from the reference's that its
 * boxes leave the local panel: said in its row. */
static void clock_labels(FILE *body, const shown_t *w)
{
    for (int r = 0; r < w->g->nranks; r++) {
        const rank_state_t *st = &w->g->ranks[r];
        double off_s = st->offset_s - w->ref_s;
        if (!isfinite(st->dist_s) || fabs(off_s) <= w->span_s) continue;
        fprintf(body,
                "set label 'clock %+.3g s from rank %d''s: its calls out of range' "
                "at graph 0.5, first %d center front noenhanced\n",
                off_s, w->ref_rank, r);
    }
}

/* 1, 2 or 5 x 10^k ranks between tics: 16 tics at most. */
static int rank_step(int nranks)
{
    static const int m[] = {1, 2, 5};
    for (int p = 1;; p *= 10)
        for (int k = 0; k < 3; k++)
            if (nranks / (m[k] * p) <= 16) return m[k] * p;
}

static void draw_panel(FILE *body, const shown_t *w, const layout_t *lay, const axis_t *ax,
                       int which)
{
    char xlabel[64];
    snprintf(xlabel, sizeof xlabel, "time from the window's start (%s)", ax->unit);
    fprintf(body, "set origin %g,%g\nset size 0.5,%g\n", which * 0.5, lay->key_h, 1 - lay->key_h);
    hm__plot_labels(
        body, which == GLOBAL ? "global clock (interpolated)" : "local clocks (each rank's own)",
        xlabel, "rank");
    fprintf(body,
            "set xrange [0:%.9g]\nset xtics 0, %.9g\nset format x '%%g'\nset mxtics\n"
            "set yrange [%g:-0.6]\nset ytics %d\nset grid x lc rgb '#dddddd'\nunset label\n",
            w->span_s * ax->scale, ax->step, w->g->nranks - 0.4, rank_step(w->g->nranks));
    if (which == LOCAL) clock_labels(body, w);
    fprintf(body,
            "plot data index %d using 1:2:3:4:5 with boxxyerror fs solid 0.85 noborder "
            "lc variable notitle",
            which);
    if (w->nmark)
        fprintf(body,
                ", '' index %d using 1:2:3:4 with boxxyerror fs empty lc rgb 'black' "
                "lw 1.5 notitle",
                2 + which);
    fputc('\n', body);
}

/* The legend alone, across the bottom: a plot of nothing whose key names
 * each colour's function, outside both panels. */
static void legend(FILE *body, const shown_t *w, const legend_t *l, const layout_t *lay)
{
    fprintf(body,
            "set origin 0,0\nset size 1,%g\nunset title\nunset xlabel\nunset ylabel\n"
            "unset border\nunset tics\nunset grid\nunset label\nset xrange [0:1]\n"
            "set yrange [0:1]\nset key at screen 0.5,%g center top horizontal maxcols %d "
            "reverse Left samplen 1.5 noenhanced\n",
            lay->key_h, lay->key_h - 0.01, lay->columns);
    if (w->inside > w->limit)
        fprintf(body,
                "set label '%zu calls binned: colour = the function longest in a column, "
                "height = its time in calls' at screen 0.5,0.02 center noenhanced\n",
                w->inside);
    fputs("plot ", body);
    for (int k = 0; k < l->nshown; k++)
        fprintf(body, "NaN with boxes fs solid 0.85 noborder lt %d title '%s', ", k + 1,
                hm_trace_func_name(w->g->funcs[l->order[k]]));
    if (l->nother)
        fprintf(body, "NaN with boxes fs solid 0.85 noborder lt %d title 'other (%d functions)', ",
                OTHER + 1, l->nother);
    if (lay->call)
        fprintf(body, "NaN with boxes fs empty lc rgb 'black' lw 1.5 title '%s', ", lay->call);
    fputs("NaN notitle\n", body);
}

static void script(FILE *body, const shown_t *w, const legend_t *l, const layout_t *lay,
                   const axis_t *ax)
{
    for (int k = 0; k <= OTHER; k++)
        fprintf(body, "set linetype %d lc rgb '%s'\n", k + 1, colors[k]);
    /* The body is loaded once per format: undo what the legend unset. */
    fputs("set border\nset tics\nset multiplot\nset key off\n", body);
    draw_panel(body, w, lay, ax, LOCAL);
    draw_panel(body, w, lay, ax, GLOBAL);
    legend(body, w, l, lay);
    fputs("unset multiplot\n", body);
}

/* ---- The figure ---- */

static int render(const hm__plot_out_t *out, const char *dir, const shown_t *w)
{
    const selection_t *s = w->s;
    legend_t l;
    memset(&l, 0, sizeof l);
    rank_functions(w, &l);
    axis_t ax = time_axis(w->span_s);
    char call[128], what[256];
    snprintf(call, sizeof call, "call %lld of %s", s->n,
             s->func >= 0 ? hm_trace_func_name(s->func) : "");
    layout_t lay = {s->func >= 0 ? call : NULL, 0, 0};
    key_layout(w, &l, &lay);
    hm__plot_script_t sc;
    int rc = hm__plot_script_open(out, "gantt", &sc);
    if (rc != HM_OK) return rc;
    write_blocks(w, &l, &ax, &sc);
    script(sc.body, w, &l, &lay, &ax);
    /* The window in ms from the first call: where to look in trace.csv. */
    double from_ms = (w->lo_s - w->g->first_s) * 1e3, to_ms = from_ms + w->span_s * 1e3;
    snprintf(what, sizeof what, "Gantt chart: %s%s%.6f-%.6f ms, local and global clocks",
             s->func >= 0 ? call : "", s->func >= 0 ? ", " : "", from_ms, to_ms);
    const char *slash = strrchr(dir, '/');
    char stem[256];
    snprintf(stem, sizeof stem, "%s", slash && slash[1] ? slash + 1 : dir);
    return hm__plot_render(out, &sc, stem, "gantt", what);
}

static int draw(const hm__plot_out_t *out, const char *dir, gantt_t *g, shown_t *w)
{
    selection_t s;
    double lo_s, hi_s;
    int rc = hm__gantt_pick(g, dir, &s, &lo_s, &hi_s);
    if (rc == HM_OK) rc = shown_open(w, g, &s, lo_s, hi_s);
    if (rc != HM_OK) return rc;
    reference(w);
    if ((rc = hm__gantt_replay(g, collect, w)) != HM_OK) return rc;
    return render(out, dir, w);
}

int hm__plot_trace(const hm_figure_select_t *sel, const hm__plot_out_t *out, const char *dir)
{
    gantt_t g;
    shown_t w = {0};
    int rc = hm__gantt_open(&g, sel, out);
    if (rc == HM_OK) rc = draw(out, dir, &g, &w);
    shown_close(&w);
    hm__gantt_close(&g);
    return rc;
}
