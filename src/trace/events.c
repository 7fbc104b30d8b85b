/* src/trace/events.c — dir/events.csv: a trace as repetitions of
 * operations, in the schema of `harmonia bench --raw` (results layer), so
 * that `harmonia stats`, `plot` and `compare` read it as they read a
 * bench. A collective call found on every member of its communicator is
 * one row, as a bench repetition: global_s = last exit - first entry on
 * the global clock, local_s = the longest rank's own (exit - entry),
 * start_spread_s = last entry - first entry, start_s = first entry. Every
 * other call (point to point, waits, a collective not found on every
 * member) is one row of its rank, global_s = local_s = its duration.
 * op is the MPI function, size_bytes the bytes of the rank's buffers (of
 * the first member, for a collective). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/results.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

int hm__trace_events_row(void *csv, int func, uint64_t bytes, long long attempt, const double v[4])
{
    char b[256];
    const char *op = hm_trace_func_name(func);
    size_t n = strlen(op ? op : "?"); /* MPI names: no quotes needed */
    memcpy(b, op ? op : "?", n), b[n++] = ',';
    n += hm__trace_uint(b + n, bytes), b[n++] = ',';
    n += hm__trace_int(b + n, attempt);
    memcpy(b + n, ",1,", 3), n += 3;
    for (int k = 0; k < 4; k++) n += hm__trace_fixed(b + n, v[k], 9), b[n++] = ',';
    /* late_tolerance_s: empty, a traced call had no deadline to start by. */
    int st = hm_csv_put_cells_text(csv, b, n, 9);
    return st == HM_OK ? hm_csv_end_row(csv) : st;
}

/* Every call of rank r but the collectives found on every member: one
 * row each, its duration. */
static int rank_rows(hm_csv_t *csv, const hm__trace_rank_t *tr, const hm__trace_calls_t *calls,
                     long long *attempt)
{
    hm__trace_stream_t in;
    hm__trace_ev_t ev;
    int st = hm__trace_stream_open(tr, &in), rc = 0;
    while (st == HM_OK && (rc = hm__trace_stream_next(&in, &ev)) > 0) {
        const hm_trace_event_t *e = &ev.e;
        /* A burst of polls is not a call to time. */
        if (!hm__trace_is_call(e) || e->calls > 1 || hm__trace_calls_complete(calls, e)) continue;
        double v[4] = {ev.glob[1] - ev.glob[0], e->exit_s - e->enter_s, 0, ev.glob[0]};
        st = hm__trace_events_row(csv, e->func, e->bytes, (*attempt)++, v);
    }
    if (st == HM_OK && rc < 0) st = rc;
    hm__trace_stream_close(&in);
    return st;
}

static int write_rows(hm_csv_t *csv, const hm__trace_rank_t *ranks, int nranks,
                      hm__trace_calls_t *calls)
{
    long long attempt = 0;
    int st = hm__trace_calls_rows(calls, csv, &attempt);
    for (int r = 0; st == HM_OK && r < nranks; r++) st = rank_rows(csv, &ranks[r], calls, &attempt);
    return st;
}

int hm__trace_write_events(const char *dir, const hm__trace_rank_t *ranks, int nranks,
                           hm__trace_calls_t *calls)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/events.csv", dir);
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    int st = hm_factors_create(&f);
    if (st == HM_OK) {
        hm_factors_set(f, "processes", "%d", nranks);
        hm_factors_set(f, "sync", "traced");
        hm_factors_set(f, "events_of",
                       "harmonia trace: a row per collective call found on every "
                       "member (global_s = last exit - first entry), per other "
                       "call of a rank (its duration)");
        st = hm_results_csv_open(path, f, HM_RESULTS_BENCH_RAW, &csv);
    }
    if (st == HM_OK) st = write_rows(csv, ranks, nranks, calls);
    if (st == HM_OK)
        st = hm_csv_close(csv);
    else if (csv)
        hm_csv_abort(csv);
    hm_factors_free(f);
    return st;
}
