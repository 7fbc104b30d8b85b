/* src/figure/plot_trace_read.h — the Gantt chart's input: trace.csv read
 * once into a scratch file of fixed-size events, what the choice of the
 * call or window needs kept as it streams by (plot_trace_read.c); drawn by
 * plot_trace.c. */
#ifndef HM_FIGURE_TRACE_READ_H
#define HM_FIGURE_TRACE_READ_H
#include <stdint.h>
#include <stdio.h>

#include <harmonia/figure.h>
#include <harmonia/trace.h>

#include "figure/plot_gnuplot.h"

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

typedef struct selection {
    int func;            /* the call shown (-1: a window) */
    long long n;         /* its place among its function's calls on rank */
    int rank;            /* the lowest rank that made it */
    size_t index;        /* its event there */
    uint32_t call;       /* a collective: its table entry, the same on every member */
    double from_s, to_s; /* its global span over the ranks, or the window */
} selection_t;

/* Open g for the selection: its scratch file under out->tmpdir, gone from
 * the directory at once. HM_EIO. */
int hm__gantt_open(gantt_t *g, const hm_figure_select_t *sel, const hm__plot_out_t *out);
void hm__gantt_close(gantt_t *g);

/* Read DIR/trace.csv into g, choose the call or window sel names and frame
 * it: [*lo_s, *hi_s] on the global clock; per rank, its clock offset near
 * the selection (g->ranks[r].offset_s, dist_s finite where known). HM_EINVAL
 * (a file that does not read, a call or window the trace does not have),
 * HM_ENOMEM, HM_EIO, the reason as the last error. */
int hm__gantt_pick(gantt_t *g, const char *dir, selection_t *s, double *lo_s, double *hi_s);

/* Every event kept, in the order read: visit(ctx, event, its number). */
int hm__gantt_replay(gantt_t *g, void (*visit)(void *, const event_t *, size_t), void *ctx);

/* 1 when event i (its number in the replay) is the selected call. */
int hm__gantt_chosen(const selection_t *s, const event_t *e, size_t i);
#endif
