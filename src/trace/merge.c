/* src/trace/merge.c — a trace directory's rank files put on the global
 * clock: each local time through the start model (extrapolated) and
 * between the start and end models (interpolated, [Denis et al. 2022,
 * §4.2]); collectives matched across ranks by (communicator, number); the
 * files and the summary written from there. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <harmonia/stats.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"
#include "trace/trace_impl.h"

/* The largest rank with a file in dir, plus one; 0 when none. */
static int count_ranks(const char *dir, int *nranks)
{
    DIR *d = opendir(dir);
    if (!d) return hm__error_set(HM_ENOENT, "cannot open the trace directory %s", dir);
    int n = 0, r;
    char ext[16];
    for (struct dirent *e; (e = readdir(d));)
        if (sscanf(e->d_name, "rank-%d.%15s", &r, ext) == 2 && r >= 0 &&
            (!strcmp(ext, "events") || !strcmp(ext, "model")) && r + 1 > n)
            n = r + 1;
    closedir(d);
    *nranks = n;
    return n ? HM_OK : hm__error_set(HM_ENOENT, "%s holds no trace (no rank-N.events)", dir);
}

/* Whether path names something (a rank that died early wrote no model);
 * what it is, the reader checks (hm_input_open): a probe by opening it
 * would wait forever on a FIFO. */
static int present(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int load_rank(const char *dir, int rank, hm__trace_rank_t *tr)
{
    char path[4200];
    memset(tr, 0, sizeof *tr);
    snprintf(path, sizeof path, "%s/rank-%05d.model", dir, rank);
    int st = HM_OK;
    if (present(path)) {
        st = hm__trace_model_read(path, &tr->model);
        tr->has_model = st == HM_OK;
    }
    snprintf(path, sizeof path, "%s/rank-%05d.events", dir, rank);
    if (st == HM_OK && present(path))
        st = hm__trace_read_events(path, &tr->events, &tr->n, &tr->chunks, &tr->torn);
    return st;
}

/* Local to global, both ways, for every event of a rank. A rank without
 * a model file has no clock to go by: its times stay local (and the
 * summary says it did not finish). */
static int place_rank(hm__trace_rank_t *tr)
{
    size_t n = tr->n ? tr->n : 1;
    tr->ext = hm__trace_big_alloc(2 * n * sizeof *tr->ext);
    tr->glob = hm__trace_big_alloc(2 * n * sizeof *tr->glob);
    if (!tr->ext || !tr->glob) return hm__error_set(HM_ENOMEM, "out of memory");
    const hm_trace_rank_info_t *in = &tr->model.info;
    for (size_t i = 0; i < 2 * tr->n; i++) {
        double t = i % 2 ? tr->events[i / 2].exit_s : tr->events[i / 2].enter_s;
        double x = tr->has_model ? hm_trace_model_apply(in->start, t) : t;
        tr->ext[i] = x;
        tr->glob[i] =
            tr->has_model && in->has_end ? hm_trace_interpolate(in->start, in->end, t) : x;
    }
    return HM_OK;
}

/* What each request number of a rank stands for: the first event that
 * carries it (read by the message matching and the OTF2 writer). */
static int find_origins(hm__trace_rank_t *tr)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->events[i].request > tr->max_request) tr->max_request = tr->events[i].request;
    size_t n = (size_t)tr->max_request + 1;
    if (!(tr->origin = hm__trace_big_alloc(n * sizeof *tr->origin)))
        return hm__error_nomem("hm_trace_merge");
    for (size_t k = 0; k < n; k++) tr->origin[k] = SIZE_MAX;
    for (size_t i = tr->n; i-- > 0;) tr->origin[tr->events[i].request] = i; /* the earliest wins */
    return HM_OK;
}

const hm_trace_event_t *hm__trace_origin(const hm__trace_rank_t *tr, uint32_t id)
{
    size_t k = id && id <= tr->max_request ? tr->origin[id] : SIZE_MAX;
    return k == SIZE_MAX ? NULL : &tr->events[k];
}

void hm__trace_ranks_free(hm__trace_rank_t *ranks, int nranks)
{
    for (int r = 0; ranks && r < nranks; r++) {
        hm__trace_model_file_free(&ranks[r].model);
        free(ranks[r].events), free(ranks[r].ext), free(ranks[r].glob), free(ranks[r].origin);
    }
    free(ranks);
}

/* One rank: its files read, its events placed on the global clock, its
 * requests indexed. */
static int load_one(const char *dir, int rank, hm__trace_rank_t *tr)
{
    int st = load_rank(dir, rank, tr);
    if (st == HM_OK) st = place_rank(tr);
    if (st == HM_OK) st = find_origins(tr);
    return st;
}

/* The ranks at once (each reads and checks its own file: 6.8 M events of
 * 2 ranks, 2.4 s one after the other); the lowest failing rank's status,
 * its sentence carried over from the thread that set it. */
int hm__trace_load(const char *dir, hm__trace_rank_t **out, int *nranks)
{
    *out = NULL;
    int st = count_ranks(dir, nranks);
    if (st != HM_OK) return st;
    hm__trace_rank_t *ranks = calloc((size_t)*nranks, sizeof *ranks);
    if (!ranks) return hm__error_set(HM_ENOMEM, "out of memory");
    int n = *nranks, bad = n;
    char why[HM_ERROR_MAX] = "";
#pragma omp parallel for schedule(dynamic, 1)
    for (int r = 0; r < n; r++) {
        int rc = load_one(dir, r, &ranks[r]);
        if (rc == HM_OK) continue;
#pragma omp critical
        if (r < bad) bad = r, st = rc, snprintf(why, sizeof why, "%s", hm_last_error());
    }
    if (bad < n) return hm__trace_ranks_free(ranks, n), hm__error_set(st, "%s", why);
    *out = ranks;
    return HM_OK;
}

/* ---- Summary ---- */

int hm__trace_comm_size(const hm__trace_rank_t *ranks, int nranks, uint64_t key)
{
    if (key == HM_TRACE_WORLD) return nranks;
    for (int r = 0; r < nranks; r++)
        for (size_t c = 0; c < ranks[r].model.ncomms; c++)
            if (ranks[r].model.comms[c].key == key) return ranks[r].model.comms[c].size;
    return 0;
}

/* Skew and late-arrival wait of every collective call found on all its
 * communicator's members, added to its function's summary. */
static void match_collectives(const hm__trace_rank_t *ranks, int nranks,
                              const hm__trace_calls_t *calls, hm_trace_summary_t *s, int *slot)
{
    const hm__trace_member_t *m = calls->m;
    for (size_t i = 0, j; i < calls->n; i = j) {
        j = hm__trace_calls_run_end(calls, i);
        if ((int)(j - i) != hm__trace_comm_size(ranks, nranks, m[i].key)) {
            s->collective_events_partial += j - i;
            continue;
        }
        s->collectives++;
        int func = ranks[m[i].rank].events[m[i].i].func;
        hm_trace_func_summary_t *f = &s->funcs[slot[func]];
        double last = m[j - 1].enter_s, skew = last - m[i].enter_s;
        f->matched++;
        if (skew > f->max_skew_s) f->max_skew_s = skew;
        for (size_t k = i; k < j; k++) f->late_wait_s += last - m[k].enter_s;
    }
}

/* Per function: calls, total and median duration. slot maps a function to
 * its place in s->funcs (-1: not seen). */
static int per_function(const hm__trace_rank_t *ranks, int nranks, hm_trace_summary_t *s, int *slot)
{
    int nf = hm_trace_func_count();
    uint64_t *calls = calloc((size_t)nf, sizeof *calls),
             *events = calloc((size_t)nf, sizeof *events);
    if (!calls || !events) return free(calls), free(events), hm__error_nomem(__func__);
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < ranks[r].n; i++)
            if (ranks[r].events[i].func >= 0 && ranks[r].events[i].func < nf &&
                hm__trace_is_call(&ranks[r].events[i]))
                events[ranks[r].events[i].func]++;
    for (int f = 0; f < nf; f++) slot[f] = events[f] ? (int)s->nfuncs++ : -1;
    s->funcs = calloc(s->nfuncs ? s->nfuncs : 1, sizeof *s->funcs);
    double **d = calloc((size_t)nf, sizeof *d);
    size_t *nd = calloc((size_t)nf, sizeof *nd);
    int st = s->funcs && d && nd ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    for (int f = 0; st == HM_OK && f < nf; f++)
        if (events[f] && !(d[f] = hm__trace_big_alloc(events[f] * sizeof **d)))
            st = hm__error_set(HM_ENOMEM, "out of memory");
    for (int r = 0; st == HM_OK && r < nranks; r++)
        for (size_t i = 0; i < ranks[r].n; i++) {
            const hm_trace_event_t *e = &ranks[r].events[i];
            int f = e->func;
            if (f < 0 || f >= nf || !hm__trace_is_call(e)) continue;
            calls[f] += e->calls;
            d[f][nd[f]++] = ranks[r].glob[2 * i + 1] - ranks[r].glob[2 * i];
        }
    for (int f = 0; st == HM_OK && f < nf; f++) {
        if (!events[f]) continue;
        hm_trace_func_summary_t *fs = &s->funcs[slot[f]];
        fs->func = f, fs->calls = calls[f], fs->events = events[f];
        for (size_t k = 0; k < nd[f]; k++) fs->total_s += d[f][k];
        fs->median_s = hm_stats_quantile_select(d[f], nd[f], 0.5);
    }
    for (int f = 0; d && f < nf; f++) free(d[f]);
    free(d), free(nd), free(calls), free(events);
    return st;
}

/* The larger of a and b where b is a measurement (NaN: none). */
static double max_measured(double a, double b)
{
    return isnan(b) ? a : isnan(a) ? b : fmax(a, b);
}

/* What the checker and the ping-pongs at MPI_Init and MPI_Finalize saw
 * (rank 0's file has them), and whether the order of events on different
 * ranks can be trusted: only clocks that differ by less than the shortest
 * transmission time keep every receive after its send (Lamport 1978,
 * "Physical Clocks": the clock condition holds when the clocks' difference
 * stays below mu). The interpolated times take each model where it was
 * checked, the drift as constant in between, so between the two checks
 * their error is within the larger of the two. */
static void clock_accuracy(const hm__trace_rank_t *ranks, int nranks, hm_trace_summary_t *s)
{
    s->check_init_max_s = s->pair_error_s = s->latency_min_s = NAN;
    for (int r = 0; r < nranks; r++) {
        if (!ranks[r].has_model) continue;
        const hm_trace_rank_info_t *in = &ranks[r].model.info;
        s->check_init_max_s = max_measured(s->check_init_max_s, in->check_init_s);
        s->pair_error_s = max_measured(s->pair_error_s, in->pair_error_s);
        if (!isnan(in->latency_min_s))
            s->latency_min_s = isnan(s->latency_min_s) ? in->latency_min_s
                                                       : fmin(s->latency_min_s, in->latency_min_s);
    }
    s->order_doubtful = s->pair_error_s >= s->latency_min_s; /* false when either is NaN */
}

/* The flushes a rank did: its model says at MPI_Finalize; for a rank that
 * never got there, the whole chunks its file holds, one a flush that
 * reached the disk (its MPI_T_flush events undercount them: the event of
 * the last flush sat in the buffer that was lost). */
static uint64_t flushes_of(const hm__trace_rank_t *tr)
{
    return tr->has_model ? tr->model.info.flushes : (uint64_t)tr->chunks;
}

static void totals(const hm__trace_rank_t *ranks, int nranks, hm_trace_summary_t *s)
{
    double first = INFINITY, last = -INFINITY;
    clock_accuracy(ranks, nranks, s);
    /* Not measured until a rank's checker says (a run that never reached
     * MPI_Finalize has no end model to check). */
    s->check_start_max_s = s->check_end_max_s = NAN;
    for (int r = 0; r < nranks; r++) {
        const hm__trace_rank_t *tr = &ranks[r];
        s->nranks += tr->n > 0 || tr->has_model;
        s->nfinished += tr->has_model && tr->model.info.has_end;
        s->torn_ranks += tr->torn;
        s->events += tr->n;
        s->flushes += flushes_of(tr);
        if (tr->has_model && tr->model.info.has_end) {
            s->check_start_max_s = max_measured(s->check_start_max_s, tr->model.info.check_start_s);
            s->check_end_max_s = max_measured(s->check_end_max_s, tr->model.info.check_end_s);
        }
        for (size_t i = 0; i < 2 * tr->n; i++) {
            double c = fabs(tr->glob[i] - tr->ext[i]);
            if (c > s->drift_correction_max_s) s->drift_correction_max_s = c;
            if (tr->glob[i] < first) first = tr->glob[i];
            if (tr->glob[i] > last) last = tr->glob[i];
        }
    }
    s->span_s = last >= first ? last - first : NAN; /* NaN: no event */
}

int hm__trace_is_call(const hm_trace_event_t *e)
{
    return hm_trace_func_class(e->func) != HM_TRACE_CLASS_REQUEST;
}

static void messages(const hm__trace_messages_t *msgs, hm_trace_summary_t *s)
{
    s->messages = msgs->n;
    s->sends_unmatched = msgs->sends_unmatched;
    s->receives_unmatched = msgs->receives_unmatched;
    s->violations = msgs->violations;
    s->violations_local = msgs->violations_local;
    s->violation_max_s = msgs->violation_max_s;
    s->violation_max_local_s = msgs->violation_max_local_s;
}

int hm__trace_summarize(const hm__trace_rank_t *ranks, int nranks, const hm__trace_calls_t *calls,
                        const hm__trace_messages_t *msgs, hm_trace_summary_t *s)
{
    memset(s, 0, sizeof *s);
    messages(msgs, s);
    int *slot = malloc((size_t)hm_trace_func_count() * sizeof *slot);
    if (!slot) return hm__error_set(HM_ENOMEM, "out of memory");
    totals(ranks, nranks, s);
    int st = per_function(ranks, nranks, s, slot);
    if (st == HM_OK) match_collectives(ranks, nranks, calls, s, slot);
    free(slot);
    if (st != HM_OK) hm_trace_summary_free(s);
    return st;
}

void hm_trace_summary_free(hm_trace_summary_t *s)
{
    if (!s) return;
    free(s->funcs);
    s->funcs = NULL, s->nfuncs = 0;
}

/* The bytes of path: a file's size, a directory's files added up (the
 * OTF2 archive: two levels); 0 for nothing there. */
static uint64_t bytes_of(const char *path, int depth)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) return 0;
    if (!S_ISDIR(sb.st_mode)) return S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
    DIR *d = depth > 0 ? opendir(path) : NULL;
    uint64_t total = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[4400];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        total += bytes_of(sub, depth - 1);
    }
    if (d) closedir(d);
    return total;
}

static uint64_t file_in(const char *dir, const char *name, int depth)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return bytes_of(path, depth);
}

/* The bytes of the rank files and of the files this merge wrote. */
static void sizes(const char *dir, unsigned files, int nranks, hm_trace_summary_t *s)
{
    for (int r = 0; r < nranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "rank-%05d.events", r);
        s->rank_files_bytes += file_in(dir, name, 0);
    }
    if (files & HM_TRACE_FILE_CSV) s->trace_csv_bytes = file_in(dir, "trace.csv", 0);
    if (files & HM_TRACE_FILE_JSON) s->trace_json_bytes = file_in(dir, "trace.json", 0);
    if (files & HM_TRACE_FILE_EVENTS) s->events_csv_bytes = file_in(dir, "events.csv", 0);
    if (files & HM_TRACE_FILE_OTF2) s->otf2_bytes = file_in(dir, "otf2", 3);
    s->events_per_rank_s =
        s->span_s > 0 && s->nranks > 0 ? (double)s->events / s->nranks / s->span_s : NAN;
}

/* Writer k of the merged trace's files, in hm_trace_file_t's order. */
static int write_one(int k, const char *dir, const hm__trace_rank_t *ranks, int nranks,
                     const hm__trace_calls_t *calls, const hm__trace_messages_t *msgs)
{
    switch (k) {
    case 0:
        return hm__trace_write_csv(dir, ranks, nranks);
    case 1:
        return hm__trace_write_chrome(dir, ranks, nranks, msgs);
    case 2:
        return hm__trace_write_events(dir, ranks, nranks, calls);
    default:
        return hm__trace_write_otf2(dir, ranks, nranks, msgs);
    }
}

/* The files asked for at once: they only read the loaded trace, and each
 * is bound by formatting and writing (2 M events: 6.6 s one after the
 * other on 2 cores), the largest started first. The first failure in the files' order is the
 * status, its sentence carried over from the thread that set it. */
static int write_files(const char *dir, unsigned files, const hm__trace_rank_t *ranks, int nranks,
                       const hm__trace_calls_t *calls, const hm__trace_messages_t *msgs)
{
    enum { NFILES = 4 };
    static const int largest_first[NFILES] = {1, 0, 2, 3}; /* json, csv, events, otf2 */
    int st[NFILES];
    char why[NFILES][HM_ERROR_MAX]; /* written by the thread that failed */
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < NFILES; i++) {
        int k = largest_first[i];
        st[k] = files & (1u << k) ? write_one(k, dir, ranks, nranks, calls, msgs) : HM_OK;
        if (st[k] != HM_OK) snprintf(why[k], sizeof why[k], "%s", hm_last_error());
    }
    for (int k = 0; k < NFILES; k++)
        if (st[k] != HM_OK) return hm__error_set(st[k], "%s", why[k]);
    return HM_OK;
}

int hm_trace_files_parse(const char *list, unsigned *files)
{
    static const char *const names[] = {"csv", "json", "events", "otf2"};
    if (!list) return hm__error_null(__func__, "list");
    if (!files) return hm__error_null(__func__, "files");
    *files = 0;
    for (const char *w = list;; w++) {
        size_t n = strcspn(w, ",");
        unsigned bit = n == 3 && !strncmp(w, "all", 3) ? HM_TRACE_FILE_ALL : 0;
        for (int k = 0; k < 4; k++)
            if (strlen(names[k]) == n && !strncmp(w, names[k], n)) bit = 1u << k;
        if (!n)
            return hm__error_set(HM_EINVAL,
                                 "\"%.64s\": an empty name in the list of trace files (csv, "
                                 "json, events, otf2, all, none)",
                                 list);
        if (!bit && !(n == 4 && !strncmp(w, "none", 4)))
            return hm__error_set(HM_EINVAL,
                                 "unknown trace file \"%.*s\" (known: csv, json, events, otf2, "
                                 "all, none)",
                                 (int)(n > 64 ? 64 : n), w);
        *files |= bit;
        if (!w[n]) return HM_OK;
        w += n;
    }
}

int hm_trace_merge(const char *dir, unsigned files, hm_trace_summary_t *summary)
{
    hm__trace_rank_t *ranks = NULL;
    hm__trace_calls_t calls = {NULL, 0};
    hm__trace_messages_t msgs = {0};
    int nranks = 0;
    if (!dir) return hm__error_null(__func__, "dir");
    if (!summary) return hm__error_null(__func__, "summary");
    memset(summary, 0, sizeof *summary);
    if (files & ~HM_TRACE_FILE_ALL)
        return hm__error_set(HM_EINVAL, "hm_trace_merge: files 0x%x beyond HM_TRACE_FILE_ALL",
                             files);
    int st = hm__trace_load(dir, &ranks, &nranks);
    if (st == HM_OK) st = hm__trace_calls_collect(ranks, nranks, &calls);
    if (st == HM_OK) st = hm__trace_messages_match(ranks, nranks, &msgs);
    if (st == HM_OK) st = write_files(dir, files, ranks, nranks, &calls, &msgs);
    if (st == HM_OK) st = hm__trace_summarize(ranks, nranks, &calls, &msgs, summary);
    if (st == HM_OK) sizes(dir, files, nranks, summary);
    hm__trace_messages_free(&msgs);
    hm__trace_calls_free(&calls);
    hm__trace_ranks_free(ranks, nranks);
    return st;
}
