/* src/pattern/run_measure.c — a pattern benchmark's measurement
 * (hm_pattern_run_measure): for each size its edges, buffers as large as
 * each rank's regions, committed plans, then every row of the size
 * measured, handed to the caller and judged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/measure.h>
#include <harmonia/pattern.h>

#include "common/error_set.h"
#include "pattern/run_impl.h"

enum { MAX_BUFS = 3 };

static const char *const measured_names[HM_RUN_NMEASURED] = {
    "pattern", "split", "translate", "assemble", "sequence", "concurrent", ""};

/* One size: its edges, buffers and plans. */
typedef struct cell {
    hm_edges_t steps[HM_PATTERN_MAX_STEPS];
    int nsteps;
    hm_buffer_t *buf[MAX_BUFS];
    hm_plan_t *plan[HM_PATTERN_MAX_STEPS];
} cell_t;

static void free_cell(cell_t *c)
{
    for (int i = 0; i < HM_PATTERN_MAX_STEPS; i++)
        hm_plan_free(c->plan[i]), hm_edges_free(&c->steps[i]);
    for (int b = 0; b < MAX_BUFS; b++) hm_buffer_free(c->buf[b]);
}

/* Local: the edges of every step at bytes (per message; striping: the
 * whole buffer). */
static int edges_at(const hm_pattern_run_t *r, int nranks, size_t bytes, cell_t *c)
{
    c->nsteps = 1;
    if (r->p.kind == HM_PATTERN_FILE)
        return hm_edges_read_elements(
            r->p.file, nranks, r->p.file_element_bytes ? r->p.file_element_bytes : 1, c->steps);
    if (r->p.kind == HM_PATTERN_STRIPING) {
        c->nsteps = 3;
        return hm_striping_edges(r->g, bytes, c->steps);
    }
    hm_group_params_t gp = {r->n, r->g, r->k, r->p.direction, bytes};
    return hm_generator_edges(r->p.generator, &gp, c->steps);
}

/* Collective: buffers as large as this rank's regions need, and the
 * committed plans. */
static int build(const hm_pattern_run_t *r, int rank, cell_t *c)
{
    size_t need[MAX_BUFS] = {0};
    for (int s = 0; s < c->nsteps; s++) {
        size_t extent[MAX_BUFS] = {0};
        hm_edges_extent(&c->steps[s], rank, extent);
        for (int b = 0; b < c->steps[s].nbufs && b < MAX_BUFS; b++)
            if (extent[b] > need[b]) need[b] = extent[b];
    }
    int rc = HM_OK;
    for (int b = 0; b < MAX_BUFS && rc == HM_OK; b++)
        rc = hm_buffer_alloc(r->comm, r->memory, need[b], &c->buf[b]);
    for (int s = 0; s < c->nsteps && rc == HM_OK; s++) {
        rc = hm_plan_create(r->comm, r->p.backend[s < r->p.nbackends ? s : 0], &c->plan[s]);
        if (rc == HM_OK) rc = hm_plan_set_device_timing(c->plan[s], r->p.device_time);
        /* The window: the whole list again, so that each pair's messages
         * still match in the order added. */
        for (int w = 0; w < r->p.window && rc == HM_OK; w++)
            rc = hm_edges_add(&c->steps[s], c->plan[s], c->buf, MAX_BUFS);
        if (rc == HM_OK) rc = hm_plan_commit(c->plan[s]);
    }
    return rc;
}

/* Striping is validated end to end: rank g's buffer 1 must hold rank 0's
 * buffer 0 after the three steps. */
typedef struct striping_check {
    hm_buffer_t *src, *dst;
    int rank, g;
} striping_check_t;

enum { STAGE_BYTES = 1 << 20 }; /* striping's fill and check go through the host in pieces */

static int striping_fill(void *ctx)
{
    striping_check_t *c = ctx;
    hm_buffer_t *b = c->rank == 0 ? c->src : c->dst;
    if (c->rank != 0 && c->rank != c->g) return HM_OK;
    unsigned char *stage = malloc(STAGE_BYTES);
    int rc = stage ? HM_OK : hm__error_nomem(__func__);
    for (size_t at = 0, n = hm_buffer_size(b); rc == HM_OK && at < n; at += STAGE_BYTES) {
        size_t k = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
        for (size_t i = 0; i < k; i++) stage[i] = c->rank == 0 ? hm_pattern_byte(0, at + i) : 0;
        rc = hm_buffer_write(b, at, stage, k);
    }
    free(stage);
    return rc;
}

static int striping_verify(void *ctx, uint64_t *wrong)
{
    striping_check_t *c = ctx;
    *wrong = 0;
    if (c->rank != c->g) return HM_OK;
    unsigned char *stage = malloc(STAGE_BYTES);
    int rc = stage ? HM_OK : hm__error_nomem(__func__);
    for (size_t at = 0, n = hm_buffer_size(c->dst); rc == HM_OK && at < n; at += STAGE_BYTES) {
        size_t k = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
        rc = hm_buffer_read(c->dst, at, stage, k);
        for (size_t i = 0; rc == HM_OK && i < k; i++)
            *wrong += stage[i] != hm_pattern_byte(0, at + i);
    }
    free(stage);
    return rc;
}

/* What a row of one size shares with the caller's callback. */
typedef struct row_ctx {
    hm_pattern_run_t *r;
    hm_procsync_t *ps;
    const hm_measure_params_t *mp;
    hm_pattern_row_fn fn;
    void *ctx;
    hm_pattern_failure_t *f;
    cell_t *c;
} row_ctx_t;

void hm_pattern_row_words(const hm_pattern_row_t *row, char *buf, size_t len)
{
    const char *null = !row ? "row" : !buf ? "buf" : NULL;
    if (null) {
        hm__error_null(__func__, null);
        return;
    }
    char size[32] = "the file"; /* a generated pattern moves at least a byte */
    if (row->size_bytes) snprintf(size, sizeof size, "%zu B", row->size_bytes);
    if (!row->measured || strcmp(row->measured, "pattern") == 0)
        snprintf(buf, len, "%s", size);
    else
        snprintf(buf, len, "%s (%.60s)", size, row->measured);
}

/* Collective: the row's measurement status rc (HM_OK or HM_EAGAIN: handed
 * to the callback), then the callback's, then its wrong bytes. Agreed. */
static int judge(row_ctx_t *x, hm_pattern_row_t *row, int rc)
{
    char words[96], cause[1024];
    hm_pattern_row_words(row, words, sizeof words);
    if (rc != HM_OK && rc != HM_EAGAIN) {
        /* HM_ENOMEM: the root could not summarize the row (no sentence set). */
        snprintf(cause, sizeof cause, "%s", rc == HM_ENOMEM ? hm_strerror(rc) : hm_last_error());
        rc = hm__error_set(rc, "%s: %s", words, cause);
        x->f->what = HM_PATTERN_FAILED_RUN;
        return hm__pattern_run_agree(x->r->comm, rc, x->f);
    }
    row->status = rc;
    if ((rc = x->fn(x->ctx, row)) != HM_OK) return x->f->what = HM_PATTERN_FAILED_ROW, rc;
    if (row->wrong <= 0) return HM_OK;
    x->f->what = HM_PATTERN_FAILED_WRONG;
    rc = hm__error_set(HM_EIO, "%s: %lld received bytes differ from what was sent", words,
                       row->wrong);
    return hm__pattern_run_agree(x->r->comm, rc, x->f);
}

/* Collective: the collective baseline of the size's pattern, over every
 * rank of the comm, set up from the pattern's edges. */
static int measure_baseline(row_ctx_t *x, hm_pattern_row_t *row)
{
    int size;
    MPI_Comm_size(x->r->comm, &size);
    hm_baseline_kind_t kind = x->r->baseline;
    hm_baseline_t *b = NULL;
    hm_measure_result_t res = {0};
    uint64_t wrong = 0;
    row->measured = hm_baseline_name(kind);
    row->baseline = 1;
    int rc = hm_baseline_create(x->r->comm, kind, &x->c->steps[0], &b);
    if (rc == HM_OK) rc = hm_baseline_measure(b, x->ps, x->mp, &res, &wrong);
    if (rc == HM_OK || rc == HM_EAGAIN) {
        row->messages = kind == HM_BASELINE_SCATTER    ? size - 1
                        : kind == HM_BASELINE_ALLTOALL ? (long long)size * (size - 1)
                                                       : (long long)x->c->steps[0].n;
        row->bytes = hm_baseline_bytes(b);
        row->wrong = x->mp->validate ? (long long)wrong : -1;
        row->result = &res;
    }
    hm_baseline_free(b);
    rc = judge(x, row, rc);
    hm_measure_result_free(&res);
    return rc;
}

/* Collective: one row of the cell. Striping's steps alone are validated
 * each on its own; the sequence end to end (rank g's buffer against rank
 * 0's); the concurrent run is not: its steps forward what they are still
 * receiving, as the paper's Fig. 5c does. */
static int measure_row(row_ctx_t *x, hm__run_measured_t m, hm_pattern_row_t *row)
{
    if (m == HM_RUN_BASELINE) return measure_baseline(x, row);
    cell_t *c = x->c;
    int rank, one = m <= HM_RUN_ASSEMBLE; /* one plan: the pattern, or a step alone */
    int s = m == HM_RUN_PATTERN ? 0 : (int)(m - HM_RUN_SPLIT);
    MPI_Comm_rank(x->r->comm, &rank);
    row->measured = measured_names[m];
    for (int i = one ? s : 0; i < (one ? s + 1 : c->nsteps); i++)
        row->messages += (long long)c->steps[i].n * x->r->p.window;
    if (row->messages == 0) return HM_OK; /* striping's split and assemble at g = 1 */
    /* Striping moves one buffer, whatever its stripes cross: the paper's
     * time for moving 1 GB (Fig. 9). */
    row->bytes = one ? hm_plan_total_bytes(c->plan[s]) : row->size_bytes;
    /* Between the nodes, the steps together move what the translation does. */
    row->node_bytes =
        hm_edges_node_bytes(&c->steps[one ? s : 1], x->r->g) * (unsigned long long)x->r->p.window;
    hm_measure_params_t mp = *x->mp;
    if (m == HM_RUN_CONCURRENT) mp.validate = 0;
    striping_check_t sc = {c->buf[0], c->buf[1], rank, x->r->g};
    hm_plan_validation_t v = {striping_fill, striping_verify, &sc};
    hm_measure_result_t res = {0};
    uint64_t wrong = 0;
    int rc = hm_plan_measure(one ? &c->plan[s] : c->plan, one ? 1 : c->nsteps,
                             m == HM_RUN_CONCURRENT ? HM_SEQUENCE_CONCURRENT : HM_SEQUENCE_STEPS,
                             x->ps, &mp, m == HM_RUN_SEQUENCE ? &v : NULL, &res, &wrong);
    int measured = rc == HM_OK || rc == HM_EAGAIN;
    row->wrong = measured && mp.validate ? (long long)wrong : -1;
    row->result = measured ? &res : NULL;
    /* Once: the first size's pattern (striping: its translation). */
    if (row->order < (size_t)x->r->nmeasured && (m == HM_RUN_PATTERN || m == HM_RUN_TRANSLATE))
        row->plan = c->plan[c->nsteps > 1 ? 1 : 0];
    rc = judge(x, row, rc);
    if (measured) hm_measure_result_free(&res);
    return rc;
}

/* Collective: the cell of the size at bytes: its edges (refused as a
 * parameter: the file, or its ranks), then its buffers and plans. */
static int make_cell(hm_pattern_run_t *r, size_t bytes, cell_t *c, hm_pattern_failure_t *f)
{
    int rank, size;
    MPI_Comm_rank(r->comm, &rank);
    MPI_Comm_size(r->comm, &size);
    char cause[1024], at[32] = "";
    /* A file's messages have their own sizes: a failure names no size. */
    if (r->p.kind != HM_PATTERN_FILE) snprintf(at, sizeof at, "%zu B: ", bytes);
    int rc = edges_at(r, size, bytes, c);
    if (rc != HM_OK) {
        snprintf(cause, sizeof cause, "%s", hm_last_error());
        f->what = HM_PATTERN_FAILED_EDGES;
        rc = hm__error_set(rc, "%s%s", at, cause);
    } else if (c->steps[0].nranks > size) {
        f->what = HM_PATTERN_FAILED_RANKS;
        rc =
            hm__error_set(HM_EINVAL, "it needs %d ranks, the run has %d", c->steps[0].nranks, size);
    }
    if ((rc = hm__pattern_run_agree(r->comm, rc, f)) != HM_OK) return rc;
    if ((rc = build(r, rank, c)) != HM_OK) {
        snprintf(cause, sizeof cause, "%s", hm_last_error());
        f->what = HM_PATTERN_FAILED_RUN;
        rc = hm__error_set(rc, "%s%s", at, cause);
    }
    return hm__pattern_run_agree(r->comm, rc, f);
}

int hm_pattern_run_measure(hm_pattern_run_t *run, hm_procsync_t *ps,
                           const hm_measure_params_t *params, hm_pattern_row_fn row, void *ctx,
                           hm_pattern_failure_t *failed)
{
    if (!run) return hm__error_null(__func__, "run");
    if (!ps) return hm__error_null(__func__, "ps");
    if (!params) return hm__error_null(__func__, "params");
    if (!row) return hm__error_null(__func__, "row");
    hm_pattern_failure_t f = {HM_PATTERN_FAILED_NONE, 0, run->n, run->g};
    row_ctx_t x = {run, ps, params, row, ctx, &f, NULL};
    int rc = HM_OK;
    for (size_t k = 0; rc == HM_OK && k < run->nsizes; k++) {
        size_t index = run->order[k];
        size_t bytes = run->p.kind == HM_PATTERN_FILE ? 0 : run->p.sizes[index];
        cell_t c = {0};
        x.c = &c;
        rc = make_cell(run, bytes, &c, &f);
        for (int i = 0; rc == HM_OK && i < run->nmeasured; i++) {
            hm_pattern_row_t r = {0};
            r.size_bytes = bytes;
            r.index = index * (size_t)run->nmeasured + (size_t)i;
            r.order = k * (size_t)run->nmeasured + (size_t)i;
            rc = measure_row(&x, run->measured[i], &r);
        }
        free_cell(&c);
    }
    if (failed) *failed = f;
    return rc;
}
