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

/* A number cell formatted by format.c. */
static int put_text(hm_csv_t *csv, const char *buf, size_t len)
{
    return hm_csv_put_number_text(csv, buf, len);
}

static int put_event(hm_csv_t *csv, int rank, const hm__trace_rank_t *tr, size_t i)
{
    const hm_trace_event_t *e = &tr->events[i];
    const char *name = hm_trace_func_name(e->func);
    char buf[48];
    int st = put_text(csv, buf, hm__trace_int(buf, rank));
    if (st == HM_OK) st = hm_csv_put_string(csv, name ? name : "?");
    if (st == HM_OK) st = put_text(csv, buf, hm__trace_uint(buf, e->comm_key));
    int64_t ints[] = {e->seq,   e->peer,           e->tag,   e->recv_peer, e->recv_tag, e->request,
                      e->calls, (int64_t)e->bytes, e->thread};
    for (size_t k = 0; st == HM_OK && k < sizeof ints / sizeof *ints; k++)
        st = put_text(csv, buf, hm__trace_int(buf, ints[k]));
    double t[6] = {e->enter_s,         e->exit_s,       tr->ext[2 * i],
                   tr->ext[2 * i + 1], tr->glob[2 * i], tr->glob[2 * i + 1]};
    for (int k = 0; st == HM_OK && k < 6; k++)
        st = put_text(csv, buf, hm__trace_fixed(buf, t[k], 9));
    return st == HM_OK ? hm_csv_end_row(csv) : st;
}

/* A k-way merge of the ranks' events by global entry time: a binary
 * heap of the ranks, each at its next event, so that trace.csv reads in
 * the order things happened; each rank's events keep the order it
 * recorded them (a flush is dated after the call whose event waited for
 * it, so a rank's own entries are not strictly sorted). */
typedef struct cursor {
    double at_s;
    int rank;
    size_t i;
} cursor_t;

static int before(const cursor_t *a, const cursor_t *b)
{
    return a->at_s < b->at_s || (a->at_s == b->at_s && a->rank < b->rank);
}

static void sift_down(cursor_t *h, size_t n, size_t k)
{
    for (size_t c; (c = 2 * k + 1) < n; k = c) {
        if (c + 1 < n && before(&h[c + 1], &h[c])) c++;
        if (!before(&h[c], &h[k])) return;
        cursor_t t = h[c];
        h[c] = h[k], h[k] = t;
    }
}

static int put_merged(hm_csv_t *csv, const hm__trace_rank_t *ranks, int nranks)
{
    cursor_t *h = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof *h);
    if (!h) return hm__error_nomem("hm_trace_merge");
    size_t n = 0;
    for (int r = 0; r < nranks; r++)
        if (ranks[r].n) h[n++] = (cursor_t){ranks[r].glob[0], r, 0};
    for (size_t k = n; k-- > 0;) sift_down(h, n, k);
    int st = HM_OK;
    while (st == HM_OK && n > 0) {
        const hm__trace_rank_t *tr = &ranks[h[0].rank];
        st = put_event(csv, h[0].rank, tr, h[0].i);
        if (++h[0].i < tr->n)
            h[0].at_s = tr->glob[2 * h[0].i];
        else
            h[0] = h[--n];
        sift_down(h, n, 0);
    }
    free(h);
    return st;
}

int hm__trace_write_csv(const char *dir, const hm__trace_rank_t *ranks, int nranks)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.csv", dir);
    hm_factors_t *factors = NULL;
    hm_csv_t *csv = NULL;
    int st = trace_factors(ranks, nranks, &factors);
    if (st == HM_OK)
        st = hm_csv_open(path, factors, columns, sizeof columns / sizeof *columns, &csv);
    if (st == HM_OK) st = put_merged(csv, ranks, nranks);
    if (st == HM_OK)
        st = hm_csv_close(csv);
    else
        hm_csv_abort(csv);
    hm_factors_free(factors);
    return st;
}

/* ---- Chrome trace events ---- */

static double first_time(const hm__trace_rank_t *ranks, int nranks)
{
    double t0 = 0;
    int any = 0;
    for (int r = 0; r < nranks; r++)
        if (ranks[r].n && (!any || ranks[r].glob[0] < t0)) t0 = ranks[r].glob[0], any = 1;
    return t0;
}

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

static void chrome_event(FILE *f, int rank, const hm__trace_rank_t *tr, size_t i, double t0)
{
    const hm_trace_event_t *e = &tr->events[i];
    const char *name = hm_trace_func_name(e->func);
    static const char *const cat[] = {"p2p",     "collective", "completion", "tracer",
                                      "request", "onesided",   "io"};
    double dur_us = (tr->glob[2 * i + 1] - tr->glob[2 * i]) * 1e6;
    line_t l = {.n = 0};
    add(&l, ",\n{\"name\":\""), add(&l, name ? name : "?");
    add(&l, "\",\"cat\":\""), add(&l, cat[hm_trace_func_class(e->func)]);
    add(&l, "\",\"ph\":\"X\",\"pid\":0,\"tid\":"), add_int(&l, rank);
    add(&l, ",\"ts\":"), add_fixed(&l, (tr->glob[2 * i] - t0) * 1e6, 4);
    add(&l, ",\"dur\":"), add_fixed(&l, dur_us < 0 ? 0 : dur_us, 4);
    /* The key as a string: a JSON number is a double to JavaScript. */
    add(&l, ",\"args\":{\"comm\":\""), add_uint(&l, e->comm_key);
    add(&l, "\",\"seq\":"), add_uint(&l, e->seq);
    add(&l, ",\"peer\":"), add_int(&l, e->peer);
    add(&l, ",\"tag\":"), add_int(&l, e->tag);
    add(&l, ",\"calls\":"), add_uint(&l, e->calls);
    add(&l, ",\"bytes\":"), add_uint(&l, e->bytes);
    add(&l, ",\"local_enter_s\":"), add_fixed(&l, e->enter_s, 9);
    add(&l, ",\"extrapolated_us\":"), add_fixed(&l, (tr->ext[2 * i] - t0) * 1e6, 4);
    add(&l, "}}");
    fwrite(l.b, 1, l.n, f);
}

/* A message as a flow arrow (Perfetto, chrome://tracing): from the slice
 * that sent it, at its entry, to the slice that completed its receive, at
 * its exit; id k. A request record is not a slice: its arrow ends in the
 * wait or test whose times it carries (the call just before it). */
static void chrome_flow(FILE *f, const hm__trace_rank_t *ranks, const hm__trace_match_t *m,
                        size_t k, double t0)
{
    const hm__trace_rank_t *s = &ranks[m->send_rank], *r = &ranks[m->recv_rank];
    double from_us = (s->glob[2 * m->send_at] - t0) * 1e6,
           to_us = (r->glob[2 * m->recv_at + 1] - t0) * 1e6;
    fprintf(f,
            ",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":%zu,\"pid\":0,"
            "\"tid\":%d,\"ts\":%.4f},\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\","
            "\"bp\":\"e\",\"id\":%zu,\"pid\":0,\"tid\":%d,\"ts\":%.4f}",
            k, m->send_rank, from_us, k, m->recv_rank, to_us);
}

int hm__trace_write_chrome(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                           const hm__trace_messages_t *msgs)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.json", dir);
    hm_afile_t *af = NULL;
    int st = hm_afile_open(path, &af);
    if (st != HM_OK) return st;
    FILE *f = hm_afile_stream(af);
    double t0 = first_time(ranks, nranks);
    /* Metadata first: the process and one named track per rank, in order. */
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
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < ranks[r].n; i++)
            if (hm__trace_is_call(&ranks[r].events[i])) chrome_event(f, r, &ranks[r], i, t0);
    for (size_t k = 0; k < msgs->n; k++) chrome_flow(f, ranks, &msgs->m[k], k, t0);
    fprintf(f, "\n]}\n");
    return hm_afile_commit(af);
}
