/* src/figure/plot_trace_read.c — reading a trace for its Gantt chart
 * (plot_trace_read.h). trace.csv is read once: what the choice needs is
 * kept as it streams by (the collective calls' spans, the N-th call of each
 * rank), the events go to a scratch file of fixed-size records, read again
 * (cheaply) once the window is known. What is chosen: the N-th call of a
 * function (--select FUNC:N) and its neighbours, a window of the trace
 * (--select MS:MS), or by default the collective call whose entries spread
 * the most. */
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
#include "figure/plot_trace.h"
#include "figure/plot_trace_read.h"

enum { MAX_RANK = 1 << 24 };

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

int hm__gantt_replay(gantt_t *g, void (*visit)(void *, const event_t *, size_t), void *ctx)
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

int hm__gantt_chosen(const selection_t *s, const event_t *e, size_t i)
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
    int mine = hm__gantt_chosen(s, e, i);
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

int hm__gantt_pick(gantt_t *g, const char *dir, selection_t *s, double *lo_s, double *hi_s)
{
    around_t a = {g, s, 0, 0};
    int rc = read_trace(dir, g);
    if (rc == HM_OK) rc = choose(g->sel, g, s);
    if (rc == HM_OK) rc = hm__gantt_replay(g, look_around, &a);
    if (rc != HM_OK) return rc;
    s->n = a.n;
    frame(g, s, lo_s, hi_s);
    return HM_OK;
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

int hm__gantt_open(gantt_t *g, const hm_figure_select_t *sel, const hm__plot_out_t *out)
{
    memset(g, 0, sizeof *g);
    g->sel = sel;
    return spill_open(g, out);
}

void hm__gantt_close(gantt_t *g)
{
    if (g->spill) fclose(g->spill);
    free(g->colls.c), free(g->colls.slot), free(g->ranks);
    memset(g, 0, sizeof *g);
}
