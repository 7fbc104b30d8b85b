/* src/figure/plot_trace.c — a trace of `harmonia trace` as a Gantt
 * chart: one row per rank, one box per MPI call, the same calls on the local
 * clocks (left) and on the global clock (right), as Hunold & Carpen-Amarie
 * 2018 draw an MPI_Allreduce of AMG2013 in Fig. 10. What is shown: the N-th
 * call of a function (--select FUNC:N) and its neighbours, a window of the
 * trace (--select MS:MS), or by default the collective call whose entries
 * spread the most.
 *
 * trace.csv is read once: what the choice needs is kept as it streams by
 * (the collective calls' spans, the N-th call of each rank), the events go
 * to a scratch file of fixed-size records, read again (cheaply) once the
 * window is known. A window of more events than a box each can show (more
 * than 2 a column of a rank, or than MAX_BOXES) is binned: per rank,
 * COLUMNS columns, each drawn in the colour of the function that took most
 * of its time, so that the image and gnuplot's work stay bounded. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"
#include "figure/plot_trace.h"

enum {
    MAX_BOXES = 5000, /* events drawn one by one (a box each in 2 panels): 1 MB of SVG */
    COLUMNS = 400,    /* bins across a panel, whose plotting area is ~300 px wide */
    MIN_COLUMNS = 16,
    CELLS = 1 << 22, /* floats of the bins at most (16 MB), whatever the ranks */
    NAMED = 12,      /* functions the legend names; the rest "other" (13 when 13) */
    OTHER = NAMED + 1,
    MAX_RANK = 1 << 24,
    KEY_COLUMNS = 4
};

/* A call as the scratch file holds it. */
typedef struct event {
    double local[2], glob[2]; /* enter, exit */
    int rank, func;
    uint32_t call;  /* 1 + its collective call's place in the table; 0: not one */
    uint32_t spare; /* 0: no byte of a record written to the file unset */
} event_t;

/* A collective call: the same (function, communicator, number) on every
 * member. */
typedef struct coll {
    unsigned long long comm;
    long long seq;
    int func, rank;      /* rank: its lowest member */
    double lo_s, hi_s;   /* earliest and latest entry */
    double from_s, to_s; /* first entry, last exit */
} coll_t;

typedef struct colls {
    coll_t *c;
    size_t n, cap;
    uint32_t *slot; /* open addressing: 1 + place in c, 0 free */
    size_t nslots;
} colls_t;

/* Per rank: the function's calls seen so far and the N-th (--select
 * FUNC:N); around the selection, its neighbours and clock offset. */
typedef struct rank_state {
    long count;
    size_t index;
    uint32_t call;
    double from_s, to_s;
    double before_s, after_s; /* the nearest other call's exit before, entry after */
    double offset_s, dist_s;  /* local - global of the call nearest the selection */
} rank_state_t;

typedef struct gantt {
    const hm_figure_select_t *sel;
    FILE *spill;
    char spill_path[4200];
    size_t n; /* events kept */
    int nranks;
    double first_s, last_s;     /* first global entry, last exit */
    int dense[HM_TRACE_NFUNCS]; /* 1 + place among the functions present; 0: absent */
    int funcs[HM_TRACE_NFUNCS];
    size_t nf;
    colls_t colls;
    rank_state_t *ranks;
    size_t cap_ranks;
} gantt_t;

int hm__plot_is_trace(const char *operand)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/trace.csv", operand);
    return stat(operand, &sb) == 0 && S_ISDIR(sb.st_mode) && stat(path, &sb) == 0;
}

/* ---- The collective calls ---- */

static size_t coll_hash(unsigned long long comm, long long seq, int func)
{
    uint64_t h = comm * 0x9e3779b97f4a7c15ull ^ (uint64_t)seq * 0xc2b2ae3d27d4eb4full;
    return (size_t)((h ^ (uint64_t)func * 0x165667b19e3779f9ull) >> 7);
}

static void coll_place(colls_t *t, uint32_t id)
{
    const coll_t *c = &t->c[id - 1];
    size_t k = coll_hash(c->comm, c->seq, c->func) & (t->nslots - 1);
    while (t->slot[k]) k = (k + 1) & (t->nslots - 1);
    t->slot[k] = id;
}

/* Room for one more call, the slots at most half full. */
static int coll_grow(colls_t *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        coll_t *c = realloc(t->c, cap * sizeof *c);
        if (!c) return hm__error_nomem(__func__);
        t->c = c, t->cap = cap;
    }
    if (2 * (t->n + 1) <= t->nslots) return HM_OK;
    size_t nslots = t->nslots ? 2 * t->nslots : 2048;
    uint32_t *slot = calloc(nslots, sizeof *slot);
    if (!slot) return hm__error_nomem(__func__);
    free(t->slot);
    t->slot = slot, t->nslots = nslots;
    for (size_t i = 0; i < t->n; i++) coll_place(t, (uint32_t)(i + 1));
    return HM_OK;
}

/* e's collective call, added when new; its span widened by e. */
static int coll_add(colls_t *t, event_t *e, unsigned long long comm, long long seq)
{
    int rc = coll_grow(t);
    if (rc != HM_OK) return rc;
    size_t k = coll_hash(comm, seq, e->func) & (t->nslots - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslots - 1)) {
        coll_t *c = &t->c[t->slot[k] - 1];
        if (c->comm != comm || c->seq != seq || c->func != e->func) continue;
        c->rank = e->rank < c->rank ? e->rank : c->rank;
        c->lo_s = fmin(c->lo_s, e->glob[0]), c->hi_s = fmax(c->hi_s, e->glob[0]);
        c->from_s = fmin(c->from_s, e->glob[0]), c->to_s = fmax(c->to_s, e->glob[1]);
        return e->call = t->slot[k], HM_OK;
    }
    t->c[t->n] =
        (coll_t){comm, seq, e->func, e->rank, e->glob[0], e->glob[0], e->glob[0], e->glob[1]};
    e->call = t->slot[k] = (uint32_t)++t->n;
    return HM_OK;
}

/* ---- Reading trace.csv ---- */

enum { C_RANK, C_FUNC, C_COMM, C_SEQ, C_LENTER, C_LEXIT, C_GENTER, C_GEXIT, NCOLS };

typedef struct reader {
    const char *path;
    hm_csv_reader_t *csv;
    size_t col[NCOLS];
    char name[64]; /* the last row's function (most rows repeat it) and its id */
    int func;
} reader_t;

static int func_of(reader_t *rd, const char *name)
{
    if (strcmp(name, rd->name)) {
        if (hm_trace_func_find(name, &rd->func) != HM_OK) rd->func = -1; /* a newer tracer's */
        snprintf(rd->name, sizeof rd->name, "%s", name);
    }
    return rd->func;
}

/* The row as an event; *keep = 0 for a request record (the times of the
 * call before it, not a call) or a function this program does not know. */
static int parse_row(reader_t *rd, event_t *e, unsigned long long *comm, long long *seq, int *keep)
{
    int func = func_of(rd, hm_csv_reader_cell(rd->csv, rd->col[C_FUNC]));
    *keep = func >= 0 && hm_trace_func_class(func) != HM_TRACE_CLASS_REQUEST;
    if (!*keep) return HM_OK;
    double v[NCOLS];
    for (int k = 0; k < NCOLS; k++)
        if (k != C_FUNC && k != C_COMM && hm_csv_reader_double(rd->csv, rd->col[k], &v[k]) != HM_OK)
            return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(rd->csv));
    if (!(v[C_RANK] >= 0 && v[C_RANK] < MAX_RANK && v[C_RANK] == floor(v[C_RANK])))
        return hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not a rank (column rank)", rd->path,
                             hm_csv_reader_line(rd->csv), hm_csv_reader_cell(rd->csv, rd->col[0]));
    for (int k = C_LENTER; k <= C_GEXIT; k++)
        if (isnan(v[k]))
            return hm__error_set(HM_EINVAL, "%s:%zu: no time in column %s", rd->path,
                                 hm_csv_reader_line(rd->csv),
                                 hm_csv_reader_column(rd->csv, rd->col[k]));
    *e =
        (event_t){{v[C_LENTER], v[C_LEXIT]}, {v[C_GENTER], v[C_GEXIT]}, (int)v[C_RANK], func, 0, 0};
    /* Keys are 64-bit: read as integers, not through a double. */
    *comm = strtoull(hm_csv_reader_cell(rd->csv, rd->col[C_COMM]), NULL, 10);
    *seq = (long long)v[C_SEQ];
    return HM_OK;
}

static int grow_ranks(gantt_t *g, int rank)
{
    if ((size_t)rank < g->cap_ranks) return HM_OK;
    size_t cap = g->cap_ranks ? g->cap_ranks : 16;
    while (cap <= (size_t)rank) cap *= 2;
    rank_state_t *r = realloc(g->ranks, cap * sizeof *r);
    if (!r) return hm__error_nomem(__func__);
    for (size_t i = g->cap_ranks; i < cap; i++)
        r[i] = (rank_state_t){0, 0, 0, 0, 0, -INFINITY, INFINITY, 0, INFINITY};
    g->ranks = r, g->cap_ranks = cap;
    return HM_OK;
}

/* What the choice needs from e (the g->n-th event kept). */
static int survey(gantt_t *g, event_t *e, unsigned long long comm, long long seq)
{
    const hm_figure_select_t *sel = g->sel;
    int rc = grow_ranks(g, e->rank);
    int coll = hm_trace_func_class(e->func) == HM_TRACE_CLASS_COLLECTIVE;
    if (rc == HM_OK && coll &&
        (sel->kind == HM_FIGURE_SELECT_WIDEST ||
         (sel->kind == HM_FIGURE_SELECT_CALL && e->func == sel->func)))
        rc = coll_add(&g->colls, e, comm, seq);
    if (rc != HM_OK) return rc;
    if (!g->dense[e->func]) g->funcs[g->nf] = e->func, g->dense[e->func] = (int)++g->nf;
    if (e->rank + 1 > g->nranks) g->nranks = e->rank + 1;
    if (!g->n || e->glob[0] < g->first_s) g->first_s = e->glob[0];
    if (!g->n || e->glob[1] > g->last_s) g->last_s = e->glob[1];
    rank_state_t *r = &g->ranks[e->rank];
    if (sel->kind == HM_FIGURE_SELECT_CALL && e->func == sel->func && ++r->count == sel->call)
        r->index = g->n, r->call = e->call, r->from_s = e->glob[0], r->to_s = e->glob[1];
    return HM_OK;
}

static int spill_put(gantt_t *g, const event_t *e)
{
    if (fwrite(e, sizeof *e, 1, g->spill) == 1) return HM_OK;
    return hm__error_set(HM_EIO, "plot: cannot write %s: %s", g->spill_path, strerror(errno));
}

/* The reader's sentence names the file (and line) already. */
static int open_columns(reader_t *rd, const char *path)
{
    static const char *const names[NCOLS] = {"rank",          "function",     "comm",    "seq",
                                             "enter_local_s", "exit_local_s", "enter_s", "exit_s"};
    int rc = hm_csv_reader_open(path, &rd->csv);
    if (rc != HM_OK) return rc; /* sentence: set by hm_csv_reader_open */
    for (int k = 0; k < NCOLS; k++)
        if (hm_csv_reader_find(rd->csv, names[k], &rd->col[k]) != HM_OK)
            return hm__error_set(HM_EINVAL, "%s: no column %s (not a trace.csv)", path, names[k]);
    return HM_OK;
}

static int read_trace(const char *dir, gantt_t *g)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.csv", dir);
    reader_t rd = {path, .func = -1};
    int rc = open_columns(&rd, path), more = 1, keep;
    while (rc == HM_OK && more) {
        if ((rc = hm_csv_reader_next(rd.csv, &more)) != HM_OK || !more) {
            if (rc != HM_OK) hm__error_set(rc, "%s", hm_csv_reader_error(rd.csv));
            continue;
        }
        event_t e;
        unsigned long long comm = 0;
        long long seq = 0;
        if ((rc = parse_row(&rd, &e, &comm, &seq, &keep)) != HM_OK || !keep) continue;
        if ((rc = survey(g, &e, comm, seq)) == HM_OK && (rc = spill_put(g, &e)) == HM_OK) g->n++;
    }
    hm_csv_reader_close(rd.csv);
    if (rc == HM_OK && !g->n) rc = hm__error_set(HM_EINVAL, "%s: no event to plot", path);
    if (rc == HM_OK && fflush(g->spill) != 0)
        rc = hm__error_set(HM_EIO, "plot: cannot write %s: %s", g->spill_path, strerror(errno));
    return rc;
}

/* Every event kept, in the order read: visit(ctx, event, its number). */
static int replay(gantt_t *g, void (*visit)(void *, const event_t *, size_t), void *ctx)
{
    event_t e[256];
    size_t got, i = 0;
    rewind(g->spill);
    while ((got = fread(e, sizeof *e, 256, g->spill)) > 0)
        for (size_t k = 0; k < got; k++, i++) visit(ctx, &e[k], i);
    if (!ferror(g->spill) && i == g->n) return HM_OK;
    return hm__error_set(HM_EIO, "plot: cannot read back %s", g->spill_path);
}

/* ---- What to show ---- */

typedef struct selection {
    int func;            /* the call shown (-1: a window) */
    long long n;         /* its place among its function's calls on rank */
    int rank;            /* the lowest rank that made it */
    size_t index;        /* its event there */
    uint32_t call;       /* a collective: its table entry, the same on every member */
    double from_s, to_s; /* its global span over the ranks, or the window */
} selection_t;

static int chosen(const selection_t *s, const event_t *e, size_t i)
{
    return s->func >= 0 && (s->call ? e->call == s->call : i == s->index);
}

/* The n-th call of func on the lowest rank that made one (collectives are
 * the same call on every member: communicator and number). */
static int nth_call(const gantt_t *g, int func, long n, selection_t *s)
{
    int rank = 0;
    while (rank < g->nranks && !g->ranks[rank].count) rank++;
    const rank_state_t *r = rank < g->nranks ? &g->ranks[rank] : NULL;
    if (!r || r->count < n)
        return hm__error_set(HM_EINVAL, "--select %s:%ld: the trace has %ld such calls on rank %d",
                             hm_trace_func_name(func), n, r ? r->count : 0L, r ? rank : 0);
    *s = (selection_t){func, n, rank, r->index, r->call, r->from_s, r->to_s};
    if (r->call) s->from_s = g->colls.c[r->call - 1].from_s, s->to_s = g->colls.c[r->call - 1].to_s;
    return HM_OK;
}

/* The collective call whose entries spread the most; without one, the
 * whole trace. Its number is counted when the events are read again. */
static void widest_call(const gantt_t *g, selection_t *s)
{
    *s = (selection_t){-1, 0, 0, 0, 0, g->first_s, g->last_s};
    double best = -1;
    for (size_t i = 0; i < g->colls.n; i++) {
        const coll_t *c = &g->colls.c[i];
        if (c->hi_s - c->lo_s <= best) continue;
        best = c->hi_s - c->lo_s;
        *s = (selection_t){c->func, 0, c->rank, 0, (uint32_t)(i + 1), c->from_s, c->to_s};
    }
}

static int choose(const hm_figure_select_t *sel, const gantt_t *g, selection_t *s)
{
    if (sel->kind == HM_FIGURE_SELECT_CALL) return nth_call(g, sel->func, sel->call, s);
    if (sel->kind == HM_FIGURE_SELECT_WIDEST) return widest_call(g, s), HM_OK;
    *s = (selection_t){
        -1, 0, 0, 0, 0, g->first_s + sel->from_ms * 1e-3, g->first_s + sel->to_ms * 1e-3};
    if (s->from_s <= g->last_s) return HM_OK;
    return hm__error_set(HM_EINVAL, "--select %g:%g: the trace lasts %.6g ms", sel->from_ms,
                         sel->to_ms, (g->last_s - g->first_s) * 1e3);
}

/* ---- Around the selection ---- */

typedef struct around {
    gantt_t *g;
    selection_t *s;
    long long n; /* calls of the function on s->rank up to the selected one */
    int found;
} around_t;

/* Per rank: the nearest other calls before and after the selection, the
 * clock offset near it; the selected call's number. */
static void look_around(void *ctx, const event_t *e, size_t i)
{
    around_t *a = ctx;
    selection_t *s = a->s;
    rank_state_t *r = &a->g->ranks[e->rank];
    double dist = fabs(e->glob[0] - s->from_s);
    if (dist < r->dist_s) r->dist_s = dist, r->offset_s = e->local[0] - e->glob[0];
    if (s->func < 0) return;
    int mine = chosen(s, e, i);
    if (!a->found && e->rank == s->rank && e->func == s->func) a->n++, a->found = mine;
    if (mine) return;
    if (e->glob[0] < s->from_s) r->before_s = fmax(r->before_s, fmin(e->glob[1], s->from_s));
    if (e->glob[1] > s->to_s) r->after_s = fmin(r->after_s, fmax(e->glob[0], s->to_s));
}

/* The window around a call: its span plus a margin that reaches the
 * nearest other call of every rank, between 2 and 20 times the call's span
 * (more would shrink the call to nothing), at least 0.1 us. A window, or
 * the call's, is cut to the trace: no room given to what has no call. */
static void frame(const gantt_t *g, const selection_t *s, double *lo_s, double *hi_s)
{
    double margin = 0;
    if (s->func >= 0) {
        double d = fmax(s->to_s - s->from_s, 0.1e-6), gap = 0;
        for (int r = 0; r < g->nranks; r++) {
            if (isfinite(g->ranks[r].before_s)) gap = fmax(gap, s->from_s - g->ranks[r].before_s);
            if (isfinite(g->ranks[r].after_s)) gap = fmax(gap, g->ranks[r].after_s - s->to_s);
        }
        margin = fmin(fmax(1.2 * gap, 2 * d), 20 * d);
    }
    *lo_s = fmax(s->from_s - margin, g->first_s), *hi_s = fmin(s->to_s + margin, g->last_s);
}

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
    if (chosen(w->s, e, i) && w->nmark < (size_t)w->g->nranks) w->mark[w->nmark++] = *e;
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

/* Read the trace, choose the call or window and frame it. */
static int pick(const hm_figure_select_t *sel, const char *dir, gantt_t *g, selection_t *s,
                double *lo_s, double *hi_s)
{
    around_t a = {g, s, 0, 0};
    int rc = read_trace(dir, g);
    if (rc == HM_OK) rc = choose(sel, g, s);
    if (rc == HM_OK) rc = replay(g, look_around, &a);
    if (rc != HM_OK) return rc;
    s->n = a.n;
    frame(g, s, lo_s, hi_s);
    return HM_OK;
}

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

static int draw(const hm_figure_select_t *sel, const hm__plot_out_t *out, const char *dir,
                gantt_t *g, shown_t *w)
{
    selection_t s;
    double lo_s, hi_s;
    int rc = pick(sel, dir, g, &s, &lo_s, &hi_s);
    if (rc == HM_OK) rc = shown_open(w, g, &s, lo_s, hi_s);
    if (rc != HM_OK) return rc;
    reference(w);
    if ((rc = replay(g, collect, w)) != HM_OK) return rc;
    return render(out, dir, w);
}

/* The scratch file of the events, gone from the directory at once (it
 * lives as long as it is open). */
static int spill_open(gantt_t *g, const hm__plot_out_t *out)
{
    snprintf(g->spill_path, sizeof g->spill_path, "%s/gantt.events", out->tmpdir);
    g->spill = fopen(g->spill_path, "w+b");
    if (!g->spill)
        return hm__error_set(HM_EIO, "plot: cannot write %s: %s", g->spill_path, strerror(errno));
    unlink(g->spill_path);
    return HM_OK;
}

int hm__plot_trace(const hm_figure_select_t *sel, const hm__plot_out_t *out, const char *dir)
{
    gantt_t g;
    memset(&g, 0, sizeof g);
    g.sel = sel;
    shown_t w = {0};
    int rc = spill_open(&g, out);
    if (rc == HM_OK) rc = draw(sel, out, dir, &g, &w);
    shown_close(&w);
    if (g.spill) fclose(g.spill);
    free(g.colls.c), free(g.colls.slot), free(g.ranks);
    return rc;
}
