/* src/figure/plot_trace.c — a trace of `harmonia trace` as a Gantt
 * chart: one row per rank, one box per MPI call, the same calls on the local
 * clocks (left) and on the global clock (right), as Hunold & Carpen-Amarie
 * 2018 draw an MPI_Allreduce of AMG2013 in Fig. 10. What is shown: the N-th
 * call of a function across all ranks (--select FUNC:N), a window of the
 * trace (--select MS:MS), or by default the collective call whose entries
 * spread the most. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <harmonia/output.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"
#include "figure/plot_trace.h"

typedef struct event {
    int rank, func;
    unsigned long long comm; /* the 64-bit key */
    long long seq;
    double local[2], glob[2]; /* enter, exit */
} event_t;

typedef struct trace {
    event_t *e;
    size_t n, cap;
    double first_s; /* first global entry */
} trace_t;

int hm__plot_is_trace(const char *operand)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/trace.csv", operand);
    return stat(operand, &sb) == 0 && S_ISDIR(sb.st_mode) && stat(path, &sb) == 0;
}

static int add_row(hm_csv_reader_t *r, const size_t *col, trace_t *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        event_t *e = realloc(t->e, cap * sizeof *e);
        if (!e) return hm__error_nomem(__func__);
        t->e = e, t->cap = cap;
    }
    event_t *e = &t->e[t->n];
    double v[8];
    for (int k = 0; k < 8; k++)
        if (k != 1 && hm_csv_reader_double(r, col[k], &v[k]) != HM_OK)
            return hm__error_set(HM_EINVAL, "%s", hm_csv_reader_error(r));
    if (hm_trace_func_find(hm_csv_reader_cell(r, col[1]), &e->func) != HM_OK) return HM_OK;
    /* Keys are 64-bit: read as integers, not through a double. */
    e->rank = (int)v[0], e->comm = strtoull(hm_csv_reader_cell(r, col[2]), NULL, 10);
    e->seq = (long long)v[3];
    e->local[0] = v[4], e->local[1] = v[5], e->glob[0] = v[6], e->glob[1] = v[7];
    if (!t->n || e->glob[0] < t->first_s) t->first_s = e->glob[0];
    t->n++;
    return HM_OK;
}

static int read_trace(const char *dir, trace_t *t)
{
    static const char *const names[8] = {"rank",          "function",     "comm",    "seq",
                                         "enter_local_s", "exit_local_s", "enter_s", "exit_s"};
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.csv", dir);
    hm_csv_reader_t *r = NULL;
    size_t col[8];
    int rc = hm_csv_reader_open(path, &r), more = 1, said = 0;
    for (int k = 0; rc == HM_OK && k < 8; k++)
        if (hm_csv_reader_find(r, names[k], &col[k]) != HM_OK)
            rc = hm__error_set(HM_EINVAL, "%s: no column %s (not a trace.csv)", path, names[k]),
            said = 1;
    while (rc == HM_OK && (rc = hm_csv_reader_next(r, &more)) == HM_OK && more)
        said = (rc = add_row(r, col, t)) != HM_OK;
    if (rc != HM_OK && !said)
        hm__error_set(HM_EINVAL, "%s", r ? hm_csv_reader_error(r) : hm_last_error());
    hm_csv_reader_close(r);
    if (rc == HM_OK && !t->n) rc = hm__error_set(HM_EINVAL, "%s: no event to plot", path);
    return rc;
}

/* ---- What to show ---- */

typedef struct selection {
    int func; /* the call shown (-1: a window) */
    unsigned long long comm;
    long long seq, n;    /* its communicator's key, its number; n: its place among the function's */
    double from_s, to_s; /* the global window */
} selection_t;

static int same_call(const event_t *e, const selection_t *s)
{
    return e->func == s->func && e->comm == s->comm && e->seq == s->seq;
}

/* The global span of call (func, comm, seq) over all ranks. */
static void call_span(const trace_t *t, selection_t *s)
{
    s->from_s = INFINITY, s->to_s = -INFINITY;
    for (size_t i = 0; i < t->n; i++)
        if (same_call(&t->e[i], s)) {
            s->from_s = fmin(s->from_s, t->e[i].glob[0]);
            s->to_s = fmax(s->to_s, t->e[i].glob[1]);
        }
}

/* The n-th call of func on the lowest rank that made one (collectives are
 * matched across ranks by their communicator and number). */
static int nth_call(const trace_t *t, int func, long n, selection_t *s)
{
    long seen = 0;
    int rank = -1;
    for (size_t i = 0; i < t->n; i++) {
        const event_t *e = &t->e[i];
        if (e->func != func || (rank >= 0 && e->rank != rank)) continue;
        rank = e->rank;
        if (++seen == n) {
            *s = (selection_t){func, e->comm, e->seq, n, 0, 0};
            return call_span(t, s), HM_OK;
        }
    }
    return hm__error_set(HM_EINVAL, "--select %s:%ld: the trace has %ld such calls on rank %d",
                         hm_trace_func_name(func), n, seen, rank < 0 ? 0 : rank);
}

/* The collective call whose entries spread the most. */
static void widest_call(const trace_t *t, selection_t *s)
{
    double best = -1;
    *s = (selection_t){t->e[0].func, t->e[0].comm, t->e[0].seq, 1, 0, 0};
    for (size_t i = 0; i < t->n; i++) {
        const event_t *e = &t->e[i];
        if (e->rank != t->e[0].rank || hm_trace_func_class(e->func) != HM_TRACE_CLASS_COLLECTIVE)
            continue;
        selection_t c = {e->func, e->comm, e->seq, 0, 0, 0};
        double lo = INFINITY, hi = -INFINITY;
        for (size_t j = 0; j < t->n; j++)
            if (same_call(&t->e[j], &c))
                lo = fmin(lo, t->e[j].glob[0]), hi = fmax(hi, t->e[j].glob[0]);
        if (hi - lo > best) best = hi - lo, *s = c;
    }
    long n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].rank == t->e[0].rank && t->e[i].func == s->func) {
            n++;
            if (same_call(&t->e[i], s)) break;
        }
    s->n = n;
    call_span(t, s);
}

static int choose(const hm_figure_select_t *sel, const trace_t *t, selection_t *s)
{
    if (sel->kind == HM_FIGURE_SELECT_CALL) return nth_call(t, sel->func, sel->call, s);
    if (sel->kind == HM_FIGURE_SELECT_WINDOW) {
        *s = (selection_t){
            -1, 0, 0, 0, t->first_s + sel->from_ms * 1e-3, t->first_s + sel->to_ms * 1e-3};
        return HM_OK;
    }
    widest_call(t, s);
    return HM_OK;
}

/* ---- Drawing ---- */

/* The boxes of one panel (and a dot at each centre, which stays visible
 * where local clocks lie seconds apart): x centre and half width in us from origin_s, the
 * rank, a colour by class (the selected call in its own). */
static int boxes(const trace_t *t, const selection_t *s, int local, double lo_s, double hi_s,
                 double origin_s, hm__plot_script_t *sc, int *nranks)
{
    int any = 0;
    for (size_t i = 0; i < t->n; i++) {
        const event_t *e = &t->e[i];
        const double *x = local ? e->local : e->glob;
        int chosen = s->func >= 0 && same_call(e, s);
        if (!chosen && (e->glob[1] < lo_s || e->glob[0] > hi_s)) continue;
        double a = (x[0] - origin_s) * 1e6, b = (x[1] - origin_s) * 1e6;
        int colour = chosen ? 5 : 1 + (int)hm_trace_func_class(e->func);
        fprintf(sc->data, "%.9g\t%d\t%.9g\t%d\n", (a + b) / 2, e->rank, (b - a) / 2, colour);
        if (e->rank + 1 > *nranks) *nranks = e->rank + 1;
        any = 1;
    }
    if (!any) fputs("0\t0\t0\t1\n", sc->data);
    return hm__plot_end_block(sc);
}

/* span_us > 0: the x range of the window (calls that cross its edges are
 * cut); 0: whatever the boxes need (local clocks may be seconds apart). */
static void panel(FILE *body, int block, const char *title, int nranks, double span_us)
{
    hm__plot_labels(body, title, "time (us)", "rank");
    if (span_us > 0)
        fprintf(body, "set xrange [0:%.9g]\n", span_us);
    else
        fputs("set autoscale x\n", body);
    fprintf(body,
            "set yrange [%g:-0.6]\nset ytics 1\nset grid x lc rgb 'grey85'\n"
            "plot data index %d using 1:2:3:(0.35):4 with boxxyerror fs solid 0.8 noborder "
            "lc variable notitle, '' index %d using 1:2:4 with points pt 7 ps 0.4 lc variable "
            "notitle\n",
            nranks - 0.4, block, block);
}

int hm__plot_trace(const hm_figure_select_t *sel, const hm__plot_out_t *out, const char *dir)
{
    trace_t t = {0};
    selection_t s;
    int rc = read_trace(dir, &t);
    if (rc == HM_OK) rc = choose(sel, &t, &s);
    hm__plot_script_t sc;
    if (rc == HM_OK) rc = hm__plot_script_open(out, "gantt", &sc);
    if (rc != HM_OK) return free(t.e), rc;
    /* A margin of half the shown span on each side: what came before and
     * after the call. */
    double margin = fmax((s.to_s - s.from_s) * 0.5, 1e-6);
    double lo = s.from_s - margin, hi = s.to_s + margin;
    int nranks = 0;
    int b_local = boxes(&t, &s, 1, lo, hi, lo, &sc, &nranks);
    int b_global = boxes(&t, &s, 0, lo, hi, lo, &sc, &nranks);
    char what[256], title[256];
    if (s.func >= 0)
        snprintf(what, sizeof what, "Gantt chart: call %lld of %s, local and global clocks", s.n,
                 hm_trace_func_name(s.func));
    else
        snprintf(what, sizeof what, "Gantt chart: %.3f-%.3f ms, local and global clocks",
                 sel->from_ms, sel->to_ms);
    /* Colours: point to point, collective, completion, tracer, the call. */
    fputs("set linetype 1 lc rgb '#e69f00'\nset linetype 2 lc rgb '#0072b2'\n"
          "set linetype 3 lc rgb '#009e73'\nset linetype 4 lc rgb '#999999'\n"
          "set linetype 5 lc rgb '#cc0000'\n"
          "set multiplot layout 1,2\n",
          sc.body);
    snprintf(title, sizeof title, "local clocks (each rank's own)%s",
             s.func >= 0 ? ", the call in red" : "");
    panel(sc.body, b_local, title, nranks, 0);
    snprintf(title, sizeof title, "global clock (interpolated)%s",
             s.func >= 0 ? ", the call in red" : "");
    panel(sc.body, b_global, title, nranks, (hi - lo) * 1e6);
    fputs("unset multiplot\n", sc.body);
    const char *slash = strrchr(dir, '/');
    char stem[256];
    snprintf(stem, sizeof stem, "%s", slash && slash[1] ? slash + 1 : dir);
    rc = hm__plot_render(out, &sc, stem, "gantt", what);
    free(t.e);
    return rc;
}
