/* src/trace/writers.c — a merged trace as CSV (every event, its three
 * times; for stats and scripts) and as Chrome trace events (one track per
 * rank; Perfetto and chrome://tracing open it). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

static const char *const columns[] = {"rank",
                                      "function",
                                      "comm",
                                      "seq",
                                      "peer",
                                      "tag",
                                      "recv_peer",
                                      "recv_tag",
                                      "request",
                                      "calls",
                                      "bytes",
                                      "thread",
                                      "enter_local_s",
                                      "exit_local_s",
                                      "enter_extrapolated_s",
                                      "exit_extrapolated_s",
                                      "enter_s",
                                      "exit_s"};

/* The factors every rank agreed on, from the first rank with a model. */
static int trace_factors(const hm__trace_rank_t *ranks, int nranks, hm_factors_t **out)
{
    int st = hm_factors_create(out);
    int finished = 0, torn = 0;
    const hm_trace_rank_info_t *in = NULL;
    for (int r = 0; r < nranks; r++) {
        if (ranks[r].has_model && !in) in = &ranks[r].model.info;
        finished += ranks[r].has_model && ranks[r].model.info.has_end;
        torn += ranks[r].torn;
    }
    if (st == HM_OK && in) {
        hm_factors_set(*out, "clock_sync", "%s", in->clock_sync);
        hm_factors_set(*out, "timer", "%s", in->timer);
    }
    if (st == HM_OK) {
        hm_factors_set(*out, "processes", "%d", nranks);
        hm_factors_set(*out, "finished_ranks", "%d of %d", finished, nranks);
        hm_factors_set(*out, "times",
                       "enter_s/exit_s interpolated between the clock models of "
                       "MPI_Init and MPI_Finalize; *_extrapolated_s through the "
                       "MPI_Init model alone; seconds to the nanosecond");
        if (torn) hm_factors_set(*out, "incomplete", "%d rank(s) died in a flush", torn);
    }
    return st;
}

/* A row assembled here and handed over whole: cell by cell, the checks
 * and copies of hm_csv_put_number_text were a fifth of writing trace.csv. */
typedef struct cells {
    char b[512];
    size_t n;
} cells_t;

static void cell_int(cells_t *c, int64_t v)
{
    c->n += hm__trace_int(c->b + c->n, v);
    c->b[c->n++] = ',';
}

static void cell_fixed(cells_t *c, double v)
{
    c->n += hm__trace_fixed(c->b + c->n, v, 9);
    c->b[c->n++] = ',';
}

int hm__trace_csv_event(void *out, int rank, const hm__trace_ev_t *ev)
{
    const hm_trace_event_t *e = &ev->e;
    const char *name = hm_trace_func_name(e->func);
    cells_t c = {.n = 0};
    cell_int(&c, rank);
    size_t len = strlen(name ? name : "?"); /* MPI names: no quotes needed */
    memcpy(c.b + c.n, name ? name : "?", len), c.n += len, c.b[c.n++] = ',';
    c.n += hm__trace_uint(c.b + c.n, e->comm_key), c.b[c.n++] = ',';
    int64_t ints[] = {e->seq,   e->peer,           e->tag,   e->recv_peer, e->recv_tag, e->request,
                      e->calls, (int64_t)e->bytes, e->thread};
    for (size_t k = 0; k < sizeof ints / sizeof *ints; k++) cell_int(&c, ints[k]);
    double t[6] = {e->enter_s, e->exit_s, ev->ext[0], ev->ext[1], ev->glob[0], ev->glob[1]};
    for (int k = 0; k < 6; k++) cell_fixed(&c, t[k]);
    int st = hm_csv_put_cells_text(out, c.b, c.n - 1, sizeof columns / sizeof *columns);
    return st == HM_OK ? hm_csv_end_row(out) : st;
}

/* The rows come from the merge's stream (merge.c): by global entry time
 * across ranks, each rank's events in the order it recorded them. */
int hm__trace_csv_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, void **out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.csv", dir);
    hm_factors_t *factors = NULL;
    hm_csv_t *csv = NULL;
    int st = trace_factors(ranks, nranks, &factors);
    if (st == HM_OK)
        st = hm_csv_open(path, factors, columns, sizeof columns / sizeof *columns, &csv);
    hm_factors_free(factors);
    *out = csv;
    return st;
}

/* ---- Chrome trace events ---- */

/* A line of JSON assembled without printf (format.c says why). */
typedef struct line {
    char b[1024];
    size_t n;
} line_t;

static void add(line_t *l, const char *text)
{
    size_t k = strlen(text);
    if (l->n + k < sizeof l->b) memcpy(l->b + l->n, text, k), l->n += k;
}

static void add_fixed(line_t *l, double v, int decimals)
{
    if (l->n + 48 < sizeof l->b) l->n += hm__trace_fixed(l->b + l->n, v, decimals);
}

static void add_int(line_t *l, int64_t v)
{
    if (l->n + 24 < sizeof l->b) l->n += hm__trace_int(l->b + l->n, v);
}

static void add_uint(line_t *l, uint64_t v)
{
    if (l->n + 24 < sizeof l->b) l->n += hm__trace_uint(l->b + l->n, v);
}

void hm__trace_chrome_event(void *out, int rank, const hm__trace_ev_t *ev, double t0)
{
    const hm_trace_event_t *e = &ev->e;
    if (!hm__trace_is_call(e)) return;
    const char *name = hm_trace_func_name(e->func);
    static const char *const cat[] = {"p2p",     "collective", "completion", "tracer",
                                      "request", "onesided",   "io"};
    double dur_us = (ev->glob[1] - ev->glob[0]) * 1e6;
    line_t l = {.n = 0};
    add(&l, ",\n{\"name\":\""), add(&l, name ? name : "?");
    add(&l, "\",\"cat\":\""), add(&l, cat[hm_trace_func_class(e->func)]);
    add(&l, "\",\"ph\":\"X\",\"pid\":0,\"tid\":"), add_int(&l, rank);
    add(&l, ",\"ts\":"), add_fixed(&l, (ev->glob[0] - t0) * 1e6, 4);
    add(&l, ",\"dur\":"), add_fixed(&l, dur_us < 0 ? 0 : dur_us, 4);
    /* The key as a string: a JSON number is a double to JavaScript. */
    add(&l, ",\"args\":{\"comm\":\""), add_uint(&l, e->comm_key);
    add(&l, "\",\"seq\":"), add_uint(&l, e->seq);
    add(&l, ",\"peer\":"), add_int(&l, e->peer);
    add(&l, ",\"tag\":"), add_int(&l, e->tag);
    add(&l, ",\"calls\":"), add_uint(&l, e->calls);
    add(&l, ",\"bytes\":"), add_uint(&l, e->bytes);
    add(&l, ",\"local_enter_s\":"), add_fixed(&l, e->enter_s, 9);
    add(&l, ",\"extrapolated_us\":"), add_fixed(&l, (ev->ext[0] - t0) * 1e6, 4);
    add(&l, "}}");
    fwrite(l.b, 1, l.n, hm_afile_stream(out));
}

/* A message as a flow arrow (Perfetto, chrome://tracing): from the slice
 * that sent it, at its entry, to the slice that completed its receive, at
 * its exit; id k, in the order the messages were matched. A request
 * record is not a slice: its arrow ends in the wait or test whose times
 * it carries (the call just before it). Formatted as the slices are
 * (format.c): with fprintf's %.4f, the arrows were 15 % of trace.json. */
static void chrome_flow(FILE *f, const hm__trace_flow_t *m, uint64_t k, double t0)
{
    line_t l = {.n = 0};
    add(&l, ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":"), add_uint(&l, k);
    add(&l, ",\"pid\":0,\"tid\":"), add_int(&l, m->send_rank);
    add(&l, ",\"ts\":"), add_fixed(&l, (m->from_s - t0) * 1e6, 4);
    add(&l, "},\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
    add_uint(&l, k);
    add(&l, ",\"pid\":0,\"tid\":"), add_int(&l, m->recv_rank);
    add(&l, ",\"ts\":"), add_fixed(&l, (m->to_s - t0) * 1e6, 4);
    add(&l, "}");
    fwrite(l.b, 1, l.n, f);
}

/* Metadata first: the process and one named track per rank, in order. */
int hm__trace_chrome_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, void **out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.json", dir);
    hm_afile_t *af = NULL;
    int st = hm_afile_open(path, &af);
    *out = af;
    if (st != HM_OK) return st;
    FILE *f = hm_afile_stream(af);
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
               "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":"
               "\"MPI ranks (harmonia global clock)\"}}");
    for (int r = 0; r < nranks; r++)
        fprintf(f,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"args\":{\"name\":"
                "\"rank %d%s\"}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,"
                "\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                r, r, ranks[r].has_model && ranks[r].model.info.has_end ? "" : " (unfinished)", r,
                r);
    return HM_OK;
}

int hm__trace_chrome_finish(void *out, FILE *flows, double t0)
{
    hm_afile_t *af = out;
    FILE *f = hm_afile_stream(af);
    hm__trace_flow_t m;
    uint64_t k = 0;
    rewind(flows);
    while (fread(&m, sizeof m, 1, flows) == 1) chrome_flow(f, &m, k++, t0);
    fprintf(f, "\n]}\n");
    return hm_afile_commit(af);
}
