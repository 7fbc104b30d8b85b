/* src/trace/calls.c — the collective calls of a trace, matched as their
 * members come in global order: the members of a call (communicator, its
 * number on it) are gathered until there are as many as the communicator
 * has ranks, then the call is counted and forgotten, so that memory holds
 * the calls in progress. What is left at the end was found on only some
 * members. For events.csv, each complete call's row is kept in a
 * temporary file and the rows are written in (communicator, number)
 * order at the end: a call completes after the earlier calls on its
 * communicator (every member makes them in order), so the rows of one
 * communicator come in order and only communicators need sorting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

/* A call in progress. */
typedef struct set {
    uint64_t key; /* communicator */
    uint32_t seq;
    int size, count;
    int first_rank; /* the earliest member (the lowest rank of equal entries): its */
    int func;       /* function and bytes name the call */
    uint64_t bytes;
    double first, last_in, last_out, longest;
    double *enters; /* the members' global entries */
} set_t;

/* A complete call's row of events.csv, kept aside. */
typedef struct row {
    uint64_t key, bytes;
    double v[4]; /* global_s, local_s, start_spread_s, start_s */
    int func;
} row_t;

/* Per communicator: its complete calls, and where its rows go. */
typedef struct comm_rows {
    uint64_t key, n, at;
    struct row *buf; /* rows on their way to their place (sort_rows) */
    size_t nbuf;
} comm_rows_t;

struct hm__trace_calls {
    const hm__trace_rank_t *ranks;
    int nranks;
    set_t **table; /* open addressing on (key, seq) */
    size_t cap, n;
    uint64_t collectives;             /* complete calls */
    uint64_t *matched;                /* per function: complete calls, */
    double *max_skew_s, *late_wait_s; /* their largest skew, their waits */
    FILE *rows;                       /* NULL: no events.csv */
    const char *dir;
    comm_rows_t *comms;
    size_t ncomms, capcomms;
};

/* A call the tracer numbered on its communicator, window or file: one
 * every member makes (collectives, fences, collective I/O). */
static int is_matchable(const hm_trace_event_t *e)
{
    return e->seq > 0 && e->comm_key != HM_TRACE_NO_COMM;
}

static size_t home(uint64_t key, uint32_t seq, size_t cap)
{
    uint64_t h = (key * 0x9e3779b97f4a7c15ull) ^ (seq * 0xc2b2ae3d27d4eb4full);
    return (size_t)(h ^ (h >> 31)) & (cap - 1);
}

static set_t **slot_of(const hm__trace_calls_t *c, uint64_t key, uint32_t seq)
{
    for (size_t k = home(key, seq, c->cap);; k = (k + 1) & (c->cap - 1))
        if (!c->table[k] || (c->table[k]->key == key && c->table[k]->seq == seq))
            return &c->table[k];
}

static int rehash(hm__trace_calls_t *c)
{
    size_t cap = c->cap ? 2 * c->cap : 256, old_cap = c->cap;
    set_t **old = c->table;
    if (!(c->table = calloc(cap, sizeof *c->table)))
        return c->table = old, hm__error_nomem("hm_trace_merge");
    c->cap = cap;
    for (size_t k = 0; k < old_cap; k++)
        if (old[k]) *slot_of(c, old[k]->key, old[k]->seq) = old[k];
    free(old);
    return HM_OK;
}

/* A complete call out of the table (Knuth 6.4, Algorithm R). */
static void forget(hm__trace_calls_t *c, set_t **at)
{
    size_t i = (size_t)(at - c->table), j = i, mask = c->cap - 1;
    free((*at)->enters), free(*at);
    c->table[i] = NULL;
    c->n--;
    for (;;) {
        j = (j + 1) & mask;
        if (!c->table[j]) return;
        size_t h = home(c->table[j]->key, c->table[j]->seq, c->cap);
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            c->table[i] = c->table[j], c->table[j] = NULL;
            i = j;
        }
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Skew and late-arrival wait of a call found on all its communicator's
 * members, added to its function's. */
static void count_call(hm__trace_calls_t *c, set_t *s)
{
    qsort(s->enters, (size_t)s->count, sizeof *s->enters, by_value);
    double last = s->enters[s->count - 1], skew = last - s->enters[0];
    c->collectives++;
    c->matched[s->func]++;
    if (skew > c->max_skew_s[s->func]) c->max_skew_s[s->func] = skew;
    for (int k = 0; k < s->count; k++) c->late_wait_s[s->func] += last - s->enters[k];
}

static int comm_rows(hm__trace_calls_t *c, uint64_t key, comm_rows_t **out)
{
    for (size_t k = 0; k < c->ncomms; k++)
        if (c->comms[k].key == key) return *out = &c->comms[k], HM_OK;
    if (c->ncomms == c->capcomms) {
        size_t cap = c->capcomms ? 2 * c->capcomms : 16;
        comm_rows_t *v = realloc(c->comms, cap * sizeof *v);
        if (!v) return hm__error_nomem("hm_trace_merge");
        c->comms = v, c->capcomms = cap;
    }
    c->comms[c->ncomms] = (comm_rows_t){key, 0, 0, NULL, 0};
    *out = &c->comms[c->ncomms++];
    return HM_OK;
}

/* The row of a complete call, as a bench repetition: global_s = last exit
 * - first entry, local_s = the longest member's own duration. */
static int keep_row(hm__trace_calls_t *c, const set_t *s)
{
    comm_rows_t *cr = NULL;
    int st = comm_rows(c, s->key, &cr);
    if (st != HM_OK) return st;
    cr->n++;
    row_t r = {s->key,
               s->bytes,
               {s->last_out - s->first, s->longest, s->last_in - s->first, s->first},
               s->func};
    if (fwrite(&r, sizeof r, 1, c->rows) != 1)
        return hm__error_set(HM_EIO, "cannot keep a row of events.csv aside in %s", c->dir);
    return HM_OK;
}

static int new_set(hm__trace_calls_t *c, const hm_trace_event_t *e, set_t **out)
{
    if (2 * (c->n + 1) > c->cap) {
        int st = rehash(c);
        if (st != HM_OK) return st;
    }
    set_t **at = slot_of(c, e->comm_key, e->seq);
    if (*at) return *out = *at, HM_OK;
    int size = hm__trace_comm_size(c->ranks, c->nranks, e->comm_key);
    set_t *s = calloc(1, sizeof *s);
    if (s) s->enters = malloc((size_t)(size > 0 ? size : 1) * sizeof *s->enters);
    if (!s || !s->enters) return free(s), hm__error_nomem("hm_trace_merge");
    s->key = e->comm_key, s->seq = e->seq, s->size = size;
    s->first = s->last_in = s->last_out = NAN;
    *at = *out = s;
    c->n++;
    return HM_OK;
}

/* A member into its call: the call's earliest entry names it. */
static void join(set_t *s, int rank, const hm__trace_ev_t *ev)
{
    double in = ev->glob[0];
    if (!s->count || in < s->first || (in == s->first && rank < s->first_rank))
        s->first_rank = rank, s->func = ev->e.func, s->bytes = ev->e.bytes;
    s->first = s->count ? fmin(s->first, in) : in;
    s->last_in = s->count ? fmax(s->last_in, in) : in;
    s->last_out = s->count ? fmax(s->last_out, ev->glob[1]) : ev->glob[1];
    s->longest = fmax(s->count ? s->longest : 0, ev->e.exit_s - ev->e.enter_s);
    if (s->count < s->size) s->enters[s->count] = in;
    s->count++;
}

int hm__trace_calls_event(hm__trace_calls_t *c, int rank, const hm__trace_ev_t *ev)
{
    if (!is_matchable(&ev->e)) return HM_OK;
    set_t *s = NULL;
    int st = new_set(c, &ev->e, &s);
    if (st != HM_OK) return st;
    join(s, rank, ev);
    if (s->count != s->size) return HM_OK;
    count_call(c, s);
    if (c->rows) st = keep_row(c, s);
    forget(c, slot_of(c, s->key, s->seq));
    return st;
}

int hm__trace_calls_open(const hm__trace_rank_t *ranks, int nranks, const char *dir, int rows,
                         hm__trace_calls_t **out)
{
    size_t nf = (size_t)hm_trace_func_count();
    hm__trace_calls_t *c = calloc(1, sizeof *c);
    if (!c) return hm__error_nomem("hm_trace_merge");
    c->ranks = ranks, c->nranks = nranks, c->dir = dir;
    c->matched = calloc(nf, sizeof *c->matched);
    c->max_skew_s = calloc(nf, sizeof *c->max_skew_s);
    c->late_wait_s = calloc(nf, sizeof *c->late_wait_s);
    int st = c->matched && c->max_skew_s && c->late_wait_s ? rehash(c)
                                                           : hm__error_nomem("hm_trace_merge");
    if (st == HM_OK && rows) st = hm__trace_spool(dir, &c->rows);
    if (st != HM_OK) return hm__trace_calls_free(c), st;
    *out = c;
    return HM_OK;
}

void hm__trace_calls_finish(hm__trace_calls_t *c, hm_trace_summary_t *s, const int *slot)
{
    s->collectives = c->collectives;
    for (size_t k = 0; k < c->cap; k++)
        if (c->table[k]) s->collective_events_partial += (uint64_t)c->table[k]->count;
    for (int f = 0; f < hm_trace_func_count(); f++) {
        if (!c->matched[f] || slot[f] < 0) continue;
        hm_trace_func_summary_t *fs = &s->funcs[slot[f]];
        fs->matched = c->matched[f], fs->max_skew_s = c->max_skew_s[f];
        fs->late_wait_s = c->late_wait_s[f];
    }
}

int hm__trace_calls_complete(const hm__trace_calls_t *c, const hm_trace_event_t *e)
{
    return is_matchable(e) && !*slot_of(c, e->comm_key, e->seq);
}

void hm__trace_calls_free(hm__trace_calls_t *c)
{
    if (!c) return;
    for (size_t k = 0; k < c->cap; k++)
        if (c->table[k]) free(c->table[k]->enters), free(c->table[k]);
    if (c->rows) fclose(c->rows);
    free(c->table), free(c->matched), free(c->max_skew_s), free(c->late_wait_s), free(c->comms);
    free(c);
}

/* ---- events.csv's rows, in communicator order ---- */

static int by_key(const void *a, const void *b)
{
    const comm_rows_t *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static const comm_rows_t *rows_of(const hm__trace_calls_t *c, uint64_t key)
{
    comm_rows_t k = {key, 0, 0, NULL, 0};
    return bsearch(&k, c->comms, c->ncomms, sizeof *c->comms, by_key);
}

enum { ROWS_BUF = 256 }; /* rows a communicator's buffer holds: 14 KiB */

/* A communicator's buffered rows written at their place; 0 when they
 * could not be. */
static int put_back(int fd, comm_rows_t *cr)
{
    size_t bytes = cr->nbuf * sizeof *cr->buf;
    if (cr->nbuf && pwrite(fd, cr->buf, bytes, (off_t)(cr->at * sizeof *cr->buf)) != (ssize_t)bytes)
        return 0;
    cr->at += cr->nbuf, cr->nbuf = 0;
    return 1;
}

static int rows_failed(const hm__trace_calls_t *c)
{
    return hm__error_set(HM_EIO, "cannot sort the rows of events.csv in %s", c->dir);
}

/* Each row of the spool to its communicator's buffer, each full buffer to
 * its place: a write a row (fseeko, fwrite) was a system call a row. */
static int distribute(hm__trace_calls_t *c, int fd)
{
    row_t r;
    rewind(c->rows);
    while (fread(&r, sizeof r, 1, c->rows) == 1) {
        comm_rows_t *cr = (comm_rows_t *)rows_of(c, r.key);
        if (!cr->buf && !(cr->buf = malloc(ROWS_BUF * sizeof *cr->buf)))
            return hm__error_nomem("hm_trace_merge");
        cr->buf[cr->nbuf++] = r;
        if (cr->nbuf == ROWS_BUF && !put_back(fd, cr)) return rows_failed(c);
    }
    for (size_t k = 0; k < c->ncomms; k++)
        if (!put_back(fd, &c->comms[k])) return rows_failed(c);
    return ferror(c->rows) ? rows_failed(c) : HM_OK;
}

/* The kept rows in communicator order: as they are for one communicator,
 * else into a second spool, each communicator's place from the counts. */
static int sort_rows(hm__trace_calls_t *c, FILE **out)
{
    qsort(c->comms, c->ncomms, sizeof *c->comms, by_key);
    if (c->ncomms <= 1) return rewind(c->rows), *out = c->rows, HM_OK;
    uint64_t at = 0;
    for (size_t k = 0; k < c->ncomms; k++) c->comms[k].at = at, at += c->comms[k].n;
    FILE *sorted;
    int st = hm__trace_spool(c->dir, &sorted);
    if (st != HM_OK) return st;
    st = distribute(c, fileno(sorted));
    for (size_t k = 0; k < c->ncomms; k++) free(c->comms[k].buf), c->comms[k].buf = NULL;
    if (st != HM_OK) return fclose(sorted), st;
    rewind(sorted);
    *out = sorted;
    return HM_OK;
}

int hm__trace_calls_rows(hm__trace_calls_t *c, void *csv, long long *attempt)
{
    if (!c->rows) return HM_OK;
    if (fflush(c->rows) != 0)
        return hm__error_set(HM_EIO, "cannot keep the rows of events.csv aside in %s", c->dir);
    FILE *sorted = NULL;
    int st = sort_rows(c, &sorted);
    row_t r;
    while (st == HM_OK && fread(&r, sizeof r, 1, sorted) == 1)
        st = hm__trace_events_row(csv, r.func, r.bytes, (*attempt)++, r.v);
    if (st == HM_OK && ferror(sorted))
        st = hm__error_set(HM_EIO, "cannot read the rows of events.csv back in %s", c->dir);
    if (sorted && sorted != c->rows) fclose(sorted);
    return st;
}
