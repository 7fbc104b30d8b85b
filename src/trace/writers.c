/* src/trace/writers.c — a merged trace as CSV (every event, its three
 * times; for stats and scripts) and as Chrome trace events (one track per
 * rank; Perfetto and chrome://tracing open it). */
#include <inttypes.h>
#include <stdio.h>
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
                       "MPI_Init model alone");
        if (torn) hm_factors_set(*out, "incomplete", "%d rank(s) died in a flush", torn);
    }
    return st;
}

/* A communicator key is a 64-bit hash: unsigned in every file (trace.csv,
 * trace.json, the models), and in JSON a string, since a JSON number is a
 * double to its readers (JavaScript: exact only below 2^53). */
static void key_text(uint64_t key, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64, key);
}

static int put_event(hm_csv_t *csv, int rank, const hm__trace_rank_t *tr, size_t i)
{
    const hm_trace_event_t *e = &tr->events[i];
    const char *name = hm_trace_func_name(e->func);
    char key[24];
    key_text(e->comm_key, key, sizeof key);
    int st = hm_csv_put_int64(csv, rank);
    if (st == HM_OK) st = hm_csv_put_string(csv, name ? name : "?");
    if (st == HM_OK) st = hm_csv_put_string(csv, key);
    if (st == HM_OK) st = hm_csv_put_int64(csv, e->seq);
    if (st == HM_OK) st = hm_csv_put_int64(csv, e->peer);
    if (st == HM_OK) st = hm_csv_put_int64(csv, (int64_t)e->bytes);
    if (st == HM_OK) st = hm_csv_put_int64(csv, e->thread);
    double t[6] = {e->enter_s,         e->exit_s,       tr->ext[2 * i],
                   tr->ext[2 * i + 1], tr->glob[2 * i], tr->glob[2 * i + 1]};
    for (int k = 0; st == HM_OK && k < 6; k++) st = hm_csv_put_double(csv, t[k]);
    return st == HM_OK ? hm_csv_end_row(csv) : st;
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
    for (int r = 0; st == HM_OK && r < nranks; r++)
        for (size_t i = 0; st == HM_OK && i < ranks[r].n; i++) st = put_event(csv, r, &ranks[r], i);
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

static void chrome_event(FILE *f, int rank, const hm__trace_rank_t *tr, size_t i, double t0)
{
    const hm_trace_event_t *e = &tr->events[i];
    const char *name = hm_trace_func_name(e->func);
    static const char *const cat[] = {"p2p", "collective", "completion", "tracer"};
    double ts_us = (tr->glob[2 * i] - t0) * 1e6,
           dur_us = (tr->glob[2 * i + 1] - tr->glob[2 * i]) * 1e6;
    char key[24];
    key_text(e->comm_key, key, sizeof key);
    fprintf(f,
            ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,"
            "\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"comm\":\"%s\",\"seq\":%" PRIu32
            ",\"peer\":%d,\"bytes\":%" PRIu64 ",\"local_enter_s\":%.9f,\"extrapolated_us\":%.4f}}",
            name ? name : "?", cat[hm_trace_func_class(e->func)], rank, ts_us,
            dur_us < 0 ? 0 : dur_us, key, e->seq, e->peer, e->bytes, e->enter_s,
            (tr->ext[2 * i] - t0) * 1e6);
}

int hm__trace_write_chrome(const char *dir, const hm__trace_rank_t *ranks, int nranks)
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
        for (size_t i = 0; i < ranks[r].n; i++) chrome_event(f, r, &ranks[r], i, t0);
    fprintf(f, "\n]}\n");
    return hm_afile_commit(af);
}
