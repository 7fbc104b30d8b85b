/* tools/harmonia/commands/pattern_report.c — table and CSV files of
 * `harmonia pattern`. Bandwidth as nccl-tests counts it: algbw = the bytes
 * of every message / the time, GB = 1e9 bytes; busbw = algbw x the bus
 * factor, 1 for point-to-point patterns (each byte crosses one link once;
 * nccl-tests' factors are for collectives). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/stats.h>

#include "commands/commands.h"
#include "commands/measure_setup.h"
#include "commands/pattern_report.h"
#include "commands/result_files.h"

/* The matrix is printed up to this many ranks (16 x 16 cells of bytes);
 * --matrix gathers it at any count (O(P^2) bytes on rank 0: 128 MiB at
 * 4096 ranks). */
enum { MATRIX_MAX_RANKS = 16 };

typedef struct row {
    int done;
    char measured[32];
    cli_pattern_cell_t cell;
    hm_measure_summary_t s; /* valid and discarded repetitions */
    double start_call_s;    /* median over the valid ones; NaN: not timed (a baseline) */
    hm_measure_end_t end;
    int partial; /* fewer valid than --nrep */
} row_t;

struct cli_pattern_report {
    const cli_config_t *cfg;
    hm_experiment_t *e;
    cli_pattern_shape_t shape;
    int size;
    size_t nrows;
    row_t *rows;          /* root */
    uint64_t *matrix;     /* root, size x size, or NULL */
    int matrix_taken;     /* every rank: cli_pattern_report_matrix was called */
    int matrix_rc;        /* every rank: how gathering it went (HM_OK or HM_E*) */
    char matrix_why[160]; /* the sentence when it failed */
    int several_measured; /* a row times something else than the pattern */
    size_t matrix_size_bytes;
    char note[256];
};

/* CommBench's model of a node's bandwidth across nodes (§5.2.1) for the
 * pattern's k senders per group; NAN without --nic-bw. */
static double node_model_gbps(const cli_pattern_report_t *rep)
{
    const cli_config_t *cfg = rep->cfg;
    if (!(cfg->nic_bw_gbps > 0)) return NAN;
    return cfg->gpus_per_nic
               ? hm_pattern_model_packed(cfg->nic_bw_gbps, rep->shape.k, cfg->gpus_per_nic)
               : hm_pattern_model_round_robin(cfg->nic_bw_gbps, rep->shape.k, cfg->nics);
}

/* How many nodes' worth algbw counts (uni 1, bi 2, omni n); 1 for a
 * pattern without groups. */
static double model_links(const cli_pattern_report_t *rep)
{
    hm_direction_t d;
    if (!rep->shape.direction[0] || hm_direction_find(rep->shape.direction, &d) != HM_OK) return 1;
    double x = hm_pattern_model_directions(d, rep->shape.n);
    return isnan(x) ? 1 : x;
}

/* The model in the table's convention: every message's bytes. */
static double model_gbps(const cli_pattern_report_t *rep)
{
    return node_model_gbps(rep) * model_links(rep);
}

int cli_pattern_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                            const cli_pattern_shape_t *shape, size_t nrows,
                            cli_pattern_report_t **out)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    cli_pattern_report_t *rep = calloc(1, sizeof *rep);
    int rc = rep ? HM_OK : HM_ENOMEM;
    hm_factors_t *f = hm_experiment_factors(e);
    if (rep) {
        rep->cfg = cfg;
        rep->e = e;
        rep->shape = *shape;
        rep->nrows = nrows;
        MPI_Comm_size(comm, &rep->size);
        cli_fit_note(hm_experiment_fit(e), rep->note, sizeof rep->note);
        if (rank == 0 && !(rep->rows = calloc(nrows ? nrows : 1, sizeof *rep->rows)))
            rc = HM_ENOMEM;
    }
    if (rc == HM_OK) rc = hm_factors_set(f, "pattern", "%s", shape->pattern);
    if (rc == HM_OK) rc = hm_factors_set(f, "direction", "%s", shape->direction);
    if (rc == HM_OK) rc = hm_factors_set(f, "groups", "%d", shape->n);
    if (rc == HM_OK) rc = hm_factors_set(f, "group_size", "%d", shape->g);
    if (rc == HM_OK) rc = hm_factors_set(f, "k", "%d", shape->k);
    if (rc == HM_OK) rc = hm_factors_set(f, "backend", "%s", shape->backend);
    if (rc == HM_OK)
        rc = hm_factors_set(f, "window", "%ld", cfg->pattern_window ? cfg->pattern_window : 1L);
    if (rc == HM_OK && cfg->nic_bw_gbps > 0)
        rc = hm_factors_set(f, "model_GBps", "%g (%s, nic-bw %g GB/s, k %d: %g a node; x %g, %s)",
                            model_gbps(rep),
                            cfg->gpus_per_nic ? "packed, eq. 1" : "round-robin, eq. 2",
                            cfg->nic_bw_gbps, shape->k, node_model_gbps(rep), model_links(rep),
                            "uni 1, bi 2, omni n: the nodes' links algbw counts");
    if (rc == HM_OK && cfg->pattern_file[0])
        rc = hm_factors_set(f, "pattern_file", "%s", cfg->pattern_file);
    if (rc == HM_OK && cfg->pattern_file[0])
        rc = hm_factors_set(f, "file_element_bytes", "%ld",
                            cfg->file_element_bytes ? cfg->file_element_bytes : 1L);
    *out = rep;
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EFAILED, hm_strerror(rc));
    if (rc != HM_OK) return rc;
    return cli_experiment_files(e, comm, HM_RESULTS_PATTERN, HM_RESULTS_PATTERN_RAW);
}

/* bytes over the median time in GB/s; NaN without either. */
static double gbps(unsigned long long bytes, const row_t *row)
{
    double median_s = row->s.global.median;
    return median_s > 0 && bytes ? (double)bytes / median_s * 1e-9 : NAN;
}

static double algbw_gbps(const row_t *row)
{
    return gbps(row->cell.bytes, row);
}

/* Bandwidth per node (CommBench's Fig. 12): the busiest node's bytes in
 * and out; NaN where no message crosses nodes or for a baseline. */
static double node_gbps(const row_t *row)
{
    return gbps(row->cell.node_bytes, row);
}

/* The shape's columns, the same in every row. */
static void set_shape(hm_results_row_t *r, const cli_pattern_shape_t *shape)
{
    hm_results_row_set_string(r, HM_COL_PATTERN_PATTERN, shape->pattern);
    hm_results_row_set_string(r, HM_COL_PATTERN_DIRECTION, shape->direction);
    hm_results_row_set_int64(r, HM_COL_PATTERN_GROUPS, shape->n);
    hm_results_row_set_int64(r, HM_COL_PATTERN_GROUP_SIZE, shape->g);
    hm_results_row_set_int64(r, HM_COL_PATTERN_K, shape->k);
    hm_results_row_set_string(r, HM_COL_PATTERN_BACKEND, shape->backend);
}

/* The figures of a row: counts, times and bandwidths. */
static void set_figures(hm_results_row_t *r, const row_t *row)
{
    hm_results_row_set_int64(r, HM_COL_PATTERN_VALID, row->s.valid);
    hm_results_row_set_int64(r, HM_COL_PATTERN_INVALID, row->s.discarded);
    if (row->cell.wrong >= 0)
        hm_results_row_set_int64(r, HM_COL_PATTERN_WRONG_BYTES, row->cell.wrong);
    else
        hm_results_row_set_string(r, HM_COL_PATTERN_WRONG_BYTES, ""); /* not validated */
    hm_results_row_set_double(r, HM_COL_PATTERN_MIN_S, row->s.global.min);
    hm_results_row_set_double(r, HM_COL_PATTERN_MEDIAN_S, row->s.global.median);
    hm_results_row_set_double(r, HM_COL_PATTERN_MAX_S, row->s.global.max);
    hm_results_row_set_double(r, HM_COL_PATTERN_MEAN_S, row->s.global.mean);
    hm_results_row_set_double(r, HM_COL_PATTERN_START_CALL_MEDIAN_S, row->start_call_s);
    hm_results_row_set_double(r, HM_COL_PATTERN_ALGBW_GBPS, algbw_gbps(row));
    /* bus factor 1 (header) */
    hm_results_row_set_double(r, HM_COL_PATTERN_BUSBW_GBPS, algbw_gbps(row));
    if (row->cell.node_bytes)
        hm_results_row_set_int64(r, HM_COL_PATTERN_NODE_BYTES, (int64_t)row->cell.node_bytes);
    else
        hm_results_row_set_string(r, HM_COL_PATTERN_NODE_BYTES, "");
    hm_results_row_set_double(r, HM_COL_PATTERN_NODE_GBPS, node_gbps(row));
    hm_results_row_set_double(r, HM_COL_PATTERN_DISCARDED_MEDIAN_S, row->s.discarded_median_s);
    hm_results_row_set_int64(r, HM_COL_PATTERN_CONDITIONAL, row->s.conditional);
}

/* A failed row shows when the file is closed, as any failed write. */
static void write_summary(cli_pattern_report_t *rep, const row_t *row, size_t order,
                          const char *procsync)
{
    hm_csv_t *csv = hm_experiment_summary(rep->e);
    hm_results_row_t *r = NULL;
    if (!csv || hm_results_row_create(HM_RESULTS_PATTERN, &r) != HM_OK) return;
    set_shape(r, &rep->shape);
    hm_results_row_set_string(r, HM_COL_PATTERN_MEASURED, row->measured);
    hm_results_row_set_int64(r, HM_COL_PATTERN_SIZE_BYTES, (int64_t)row->cell.size_bytes);
    hm_results_row_set_int64(r, HM_COL_PATTERN_MESSAGES, row->cell.messages);
    hm_results_row_set_int64(r, HM_COL_PATTERN_BYTES, (int64_t)row->cell.bytes);
    set_figures(r, row);
    hm_results_row_set_int64(r, HM_COL_PATTERN_ORDER, (int64_t)order);
    hm_results_row_set_string(r, HM_COL_PATTERN_PROCSYNC, procsync);
    hm_results_row_set_string(r, HM_COL_PATTERN_END, hm_measure_end_name(row->end));
    hm_results_row_put(r, csv);
    hm_results_row_free(r);
    hm_csv_checkpoint(csv);
}

/* The raw file's op: the pattern, striping:STEP, or the baseline's name. */
static void raw_op(const cli_pattern_report_t *rep, const row_t *row, char *op, size_t len)
{
    if (strcmp(row->measured, "pattern") == 0)
        snprintf(op, len, "%s", rep->shape.pattern);
    else if (strncmp(row->measured, "MPI_", 4) == 0)
        snprintf(op, len, "%s", row->measured);
    else
        snprintf(op, len, "%s:%s", rep->shape.pattern, row->measured);
}

static void write_raw(cli_pattern_report_t *rep, const row_t *row, const hm_measure_result_t *r)
{
    hm_csv_t *raw = hm_experiment_raw(rep->e);
    if (!raw) return;
    char op[96];
    raw_op(rep, row, op, sizeof op);
    hm_measure_write_raw(raw, HM_RESULTS_PATTERN_RAW, op, row->cell.size_bytes, r);
    hm_csv_checkpoint(raw);
}

int cli_pattern_report_add(cli_pattern_report_t *rep, size_t index, size_t order,
                           const cli_pattern_cell_t *cell, const hm_measure_result_t *r)
{
    row_t *row = &rep->rows[index];
    int rc = hm_measure_summarize(r, &row->s);
    hm_stats_summary_t calls = {0};
    calls.median = NAN;
    if (rc == HM_OK && r->call_s)
        rc = hm_stats_summarize_flagged(r->call_s, r->valid, 1, (size_t)r->n, &calls);
    if (rc != HM_OK) return rc;
    row->start_call_s = calls.median;
    row->done = 1;
    row->cell = *cell;
    snprintf(row->measured, sizeof row->measured, "%s", cell->measured);
    row->cell.measured = row->measured;
    row->end = r->end;
    row->partial = r->nvalid < rep->cfg->nrep;
    rep->several_measured |= strcmp(row->measured, "pattern") != 0;
    cli_progress(hm_experiment_summary(rep->e), hm_experiment_raw(rep->e), (long)order + 1,
                 (long)rep->nrows, "sizes");
    write_summary(rep, row, order, r->procsync);
    write_raw(rep, row, r);
    return HM_OK;
}

void cli_pattern_report_matrix(cli_pattern_report_t *rep, MPI_Comm comm, const hm_plan_t *plan,
                               size_t size_bytes)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if ((rep->size > MATRIX_MAX_RANKS && !rep->cfg->matrix[0]) || rep->matrix_taken) return;
    rep->matrix_taken = 1;
    rep->matrix_size_bytes = size_bytes;
    uint64_t *m = rank == 0 ? calloc((size_t)rep->size * (size_t)rep->size, sizeof *m) : NULL;
    /* Rank 0 alone allocates P^2 counts: every rank learns whether it could
     * before gathering into them. */
    int ok = rank != 0 || m;
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    rep->matrix_rc = ok ? hm_plan_matrix(plan, m) : HM_ENOMEM;
    if (!ok)
        snprintf(rep->matrix_why, sizeof rep->matrix_why,
                 "--matrix: no memory on rank 0 for %d x %d byte counts", rep->size, rep->size);
    else if (rep->matrix_rc != HM_OK)
        snprintf(rep->matrix_why, sizeof rep->matrix_why, "--matrix: %s", hm_last_error());
    if (rep->matrix_rc == HM_OK && rank == 0)
        rep->matrix = m;
    else
        free(m);
}

static int is_file(const cli_pattern_report_t *rep)
{
    return strcmp(rep->shape.pattern, "file") == 0;
}

/* The pattern as the table's title and the matrix's name it: "symmetric
 * bi (n 2 groups x g 2 ranks, k 2)", or "file m.csv" (a file has no
 * groups). */
static void pattern_shape(const cli_pattern_report_t *rep, char *buf, size_t len)
{
    const cli_pattern_shape_t *s = &rep->shape;
    if (is_file(rep)) {
        const char *slash = strrchr(rep->cfg->pattern_file, '/');
        snprintf(buf, len, "file %.150s", slash ? slash + 1 : rep->cfg->pattern_file);
    } else {
        snprintf(buf, len, "%s%s%s (n %d groups x g %d ranks, k %d)", s->pattern,
                 s->direction[0] ? " " : "", s->direction, s->n, s->g, s->k);
    }
}

/* Which matrix: "at 8 B", "the translate step, at 1048576 B", "at the
 * file's sizes". */
static void matrix_where(const cli_pattern_report_t *rep, char *buf, size_t len)
{
    if (is_file(rep))
        snprintf(buf, len, "at the file's sizes");
    else
        snprintf(buf, len, "%sat %zu B",
                 strcmp(rep->shape.pattern, "striping") == 0 ? "the translate step, " : "",
                 rep->matrix_size_bytes);
}

/* What the matrix is of, the figure's title: "symmetric bi (n 2 groups x
 * g 2 ranks, k 2), at 8 B", "file m.csv, at the file's sizes". */
static void matrix_of(const cli_pattern_report_t *rep, char *buf, size_t len)
{
    char where[96], shape[220];
    matrix_where(rep, where, sizeof where);
    pattern_shape(rep, shape, sizeof shape);
    snprintf(buf, len, "%.219s, %.95s", shape, where);
}

/* The matrix's non-zero cells, a row each (a pattern file: src, dst,
 * bytes). */
static int put_matrix_rows(const cli_pattern_report_t *rep, hm_csv_t *csv)
{
    hm_results_row_t *r = NULL;
    int rc = hm_results_row_create(HM_RESULTS_PATTERN_MATRIX, &r);
    for (int s = 0; rc == HM_OK && s < rep->size; s++)
        for (int d = 0; rc == HM_OK && d < rep->size; d++) {
            uint64_t b = rep->matrix[(size_t)s * (size_t)rep->size + (size_t)d];
            if (!b) continue;
            hm_results_row_set_int64(r, HM_COL_PATTERN_MATRIX_SRC, s);
            hm_results_row_set_int64(r, HM_COL_PATTERN_MATRIX_DST, d);
            hm_results_row_set_int64(r, HM_COL_PATTERN_MATRIX_BYTES, (int64_t)b);
            rc = hm_results_row_put(r, csv);
        }
    hm_results_row_free(r);
    return rc;
}

/* Root: the matrix as a pattern file with the run's factors (--matrix);
 * HM_OK, or a status with the sentence in why. */
static int write_matrix(const cli_pattern_report_t *rep)
{
    const hm_factors_t *run = hm_experiment_factors(rep->e);
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    int rc = hm_factors_create(&f);
    for (size_t i = 0; rc == HM_OK && i < hm_factors_count(run); i++) {
        const char *key, *value;
        if (hm_factors_at(run, i, &key, &value) == HM_OK) rc = hm_factors_set(f, key, "%s", value);
    }
    char of[320]; /* 219 + 2 + 95 */
    matrix_of(rep, of, sizeof of);
    if (rc == HM_OK) rc = hm_factors_set(f, "matrix_of", "%s", of);
    /* A file's pattern has its own byte counts: no size to name. */
    if (rc == HM_OK && strcmp(rep->shape.pattern, "file") != 0)
        rc = hm_factors_set(f, "matrix_size_bytes", "%zu", rep->matrix_size_bytes);
    if (rc == HM_OK) rc = hm_results_csv_open(rep->cfg->matrix, f, HM_RESULTS_PATTERN_MATRIX, &csv);
    if (rc == HM_OK) rc = put_matrix_rows(rep, csv);
    if (csv) rc = rc == HM_OK ? hm_csv_close(csv) : (hm_csv_abort(csv), rc);
    hm_factors_free(f);
    if (rc != HM_OK) hm_error_set(HM_EINVAL, "--matrix: %s", hm_last_error());
    return rc;
}

static void print_matrix(const cli_pattern_report_t *rep)
{
    if (!rep->matrix || rep->size > MATRIX_MAX_RANKS) return;
    char where[96];
    matrix_where(rep, where, sizeof where);
    printf("bytes from rank (row) to rank (column), %s:\n", where);
    printf("%6s", "");
    for (int d = 0; d < rep->size; d++) printf(" %9d", d);
    printf("\n");
    for (int s = 0; s < rep->size; s++) {
        printf("%6d", s);
        for (int d = 0; d < rep->size; d++) {
            uint64_t b = rep->matrix[(size_t)s * (size_t)rep->size + (size_t)d];
            if (b)
                printf(" %9llu", (unsigned long long)b);
            else
                printf(" %9s", ".");
        }
        printf("\n");
    }
}

/* The note of a row: partial and/or conditional, or "". One word either
 * way: scripts split the table on blanks, and "partial, conditional" (a
 * busy machine's row) ended their reading of it. */
static const char *row_note(const row_t *row)
{
    if (row->partial && row->s.conditional) return "partial,conditional";
    return row->partial ? "partial" : row->s.conditional ? "conditional" : "";
}

/* Under the table: what a partial and a conditional row are, when some is. */
static void print_notes(const cli_pattern_report_t *rep)
{
    int partial = 0, conditional = 0;
    for (size_t i = 0; i < rep->nrows; i++) {
        partial |= rep->rows[i].done && rep->rows[i].partial;
        conditional |= rep->rows[i].done && rep->rows[i].s.conditional;
    }
    if (partial)
        printf("PARTIAL: a row with fewer valid repetitions than --nrep %ld: its attempts (or "
               "their budget on a busy machine) ran out\n",
               rep->cfg->nrep);
    if (conditional)
        printf("CONDITIONAL: more than half of a row's attempts were discarded; its figures "
               "hold for the undisturbed starts only (disc_med_us: the discarded ones' median)\n");
}

static void print_table(const cli_pattern_report_t *rep)
{
    static const char *const cols[] = {
        "size_B",   "messages",   "bytes",      "valid",     "discarded", "time_us",    "avg_us",
        "start_us", "algbw_GBps", "busbw_GBps", "node_GBps", "#wrong",    "disc_med_us"};
    int per_node = 0;
    for (size_t i = 0; i < rep->nrows; i++) per_node |= rep->rows[i].cell.node_bytes > 0;
    hm_table_t *t = NULL;
    if (hm_table_create(&t) != HM_OK) return;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
        if (!strcmp(cols[c], "node_GBps") && !per_node) continue; /* no message crosses nodes */
        hm_table_add_column(t, cols[c], HM_ALIGN_RIGHT);
        if (c == 0 && rep->several_measured) hm_table_add_column(t, "measured", HM_ALIGN_LEFT);
    }
    int model = rep->cfg->nic_bw_gbps > 0, notes = 0;
    if (model) hm_table_add_column(t, "model_GBps", HM_ALIGN_RIGHT);
    for (size_t i = 0; i < rep->nrows; i++) notes |= rep->rows[i].done && *row_note(&rep->rows[i]);
    if (notes) hm_table_add_column(t, "note", HM_ALIGN_LEFT);
    for (size_t i = 0; i < rep->nrows; i++) {
        const row_t *row = &rep->rows[i];
        if (!row->done) continue;
        if (is_file(rep))
            hm_table_add_cell(t, "file"); /* each message has the file's size */
        else
            hm_table_add_cellf(t, "%zu", row->cell.size_bytes);
        if (rep->several_measured) hm_table_add_cell(t, row->measured);
        hm_table_add_cellf(t, "%lld", row->cell.messages);
        hm_table_add_cellf(t, "%llu", row->cell.bytes);
        hm_table_add_cellf(t, "%ld", row->s.valid);
        hm_table_add_cellf(t, "%ld", row->s.discarded);
        hm_table_add_number(t, "%.2f", row->s.global.median * 1e6);
        hm_table_add_number(t, "%.2f", row->s.global.mean * 1e6);
        hm_table_add_number(t, "%.2f", row->start_call_s * 1e6);
        hm_table_add_number(t, "%.3f", algbw_gbps(row));
        hm_table_add_number(t, "%.3f", algbw_gbps(row));
        if (per_node) hm_table_add_number(t, "%.3f", node_gbps(row));
        if (row->cell.wrong >= 0)
            hm_table_add_cellf(t, "%lld", row->cell.wrong);
        else
            hm_table_add_cell(t, "n/a");
        hm_table_add_number(t, "%.2f", row->s.discarded_median_s * 1e6);
        if (model) hm_table_add_number(t, "%.3f", model_gbps(rep));
        if (notes) hm_table_add_cell(t, row_note(row));
    }
    char shape[300], window[64] = "";
    pattern_shape(rep, shape, sizeof shape);
    if (rep->cfg->pattern_window > 1)
        snprintf(window, sizeof window, " (each message %ld times in flight, --window)",
                 rep->cfg->pattern_window);
    printf("pattern %s%s, backend %s, on %d ranks%s, --sync %s: medians of max end - min start "
           "(avg: their mean; start: the slowest rank's start calls); algbw = bytes of every "
           "message / time (GB = 1e9 B), busbw = algbw (bus factor 1: point to point)%s\n",
           shape, window, rep->shape.backend, rep->size, rep->note, rep->cfg->sync,
           per_node ? "; node = the busiest node's bytes out + in / time (CommBench Fig. 12)" : "");
    hm_table_print(t, stdout);
    hm_table_free(t);
    print_notes(rep);
}

int cli_pattern_report_close(cli_pattern_report_t *rep, MPI_Comm comm)
{
    int rank, rc = HM_OK;
    MPI_Comm_rank(comm, &rank);
    if (!rep) return HM_OK;
    if (rank == 0 && rep->rows) {
        print_table(rep);
        print_matrix(rep);
    }
    if (rep->cfg->matrix[0] && rep->matrix_rc != HM_OK) {
        rc = rep->matrix_rc;
        hm_error_set(HM_EINVAL, "%s", rep->matrix_why);
    }
    if (rank == 0 && rep->matrix && rep->cfg->matrix[0]) rc = write_matrix(rep);
    fflush(stdout);
    free(rep->matrix);
    free(rep->rows);
    free(rep);
    return cli_agree(comm, rc, hm_last_error());
}
