/* src/figure/plot_other_read.c — campaign, clock and skew files as series of
 * the figures. Values are drawn in microseconds. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "figure/plot_input.h"

static int finite_cell(hm__plot_read_t *c, int k, double *v, const char *what)
{
    int rc = hm__plot_number(c, k, v);
    return rc == HM_OK ? hm__plot_check(c, k, isfinite(*v), what) : rc;
}

/* A number, or NaN where the file says not measured / not known. */
static int number_or_nan(hm__plot_read_t *c, int k, double *v, const char *what)
{
    int rc = hm__plot_number(c, k, v);
    return rc == HM_OK ? hm__plot_check(c, k, !isinf(*v), what) : rc;
}

static int add(hm__plot_read_t *c, hm__plot_fig_t f, const char *base, const char *ranks,
               int variant, double x, double v)
{
    size_t s;
    int rc = hm__plot_series(&c->fig[f], base, ranks, c->src, variant, &s);
    return rc == HM_OK ? hm__plot_add(&c->fig[f], s, x, v) : rc;
}

/* A campaign's per-mpirun.csv, read by the reader compare uses: one box per
 * (op, sync, processes) and size, of the per-run medians. */
int hm__plot_read_permpirun(hm__plot_read_t *c)
{
    char base[160], ranks[32], procs[24];
    hm_results_permpirun_t ds = {0};
    int rc = hm_results_permpirun_read(c->src->file, &ds);
    if (rc != HM_OK && rc != HM_ENOMEM)
        rc = HM_EINVAL; /* sentence: set by hm_results_permpirun_read */
    int overlap = hm_results_metric_kind(ds.metric) == HM_RESULTS_OVERLAP_RAW;
    for (size_t i = 0; rc == HM_OK && i < ds.n; i++) {
        const hm_results_permpirun_row_t *row = &ds.rows[i];
        if (overlap) { /* a cell: its median over the run's kept repetitions */
            hm__plot_cell_t cell = {row->op,
                                    ds.metric,
                                    row->size_bytes,
                                    row->comm_target_s,
                                    row->comp_target_s,
                                    row->processes,
                                    row->cell_invalid};
            rc = hm__plot_add_cell(c, HM_FIG_OVERLAP_CAMPAIGN, &cell, &row->median_s, 1);
            continue;
        }
        snprintf(base, sizeof base, "%s %s", row->op, row->sync);
        snprintf(procs, sizeof procs, "%ld", row->processes);
        hm__plot_ranks(ranks, sizeof ranks, procs);
        rc = add(c, HM_FIG_CAMPAIGN, base, ranks, 0, (double)row->size_bytes, row->median_s * 1e6);
    }
    hm_results_permpirun_free(&ds);
    return rc;
}

/* Columns: clock_sync, after_s, offset_max_s, offset_median_s, truth_known,
 * true_max_s. Variants: 0 max offset, 1 median offset, 2 true max error. */
int hm__plot_read_clock_summary(hm__plot_read_t *c)
{
    int more, rc;
    double after, v[3], known;
    if (hm__plot_scale_file(c)) return hm__plot_read_clock_scale(c);
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = finite_cell(c, 1, &after, "a time in seconds")) != HM_OK) break;
        if ((rc = number_or_nan(c, 2, &v[0], "an offset in seconds")) != HM_OK) break;
        if ((rc = number_or_nan(c, 3, &v[1], "an offset in seconds")) != HM_OK) break;
        if ((rc = finite_cell(c, 4, &known, "0 or 1")) != HM_OK) break;
        if ((rc = number_or_nan(c, 5, &v[2], "an offset in seconds")) != HM_OK) break;
        for (int k = 0; k < 3 && rc == HM_OK; k++)
            if (!isnan(v[k]) && (k < 2 || known == 1))
                rc = add(c, HM_FIG_CLOCK, hm__plot_text(c, 0), "", k, after, fabs(v[k]) * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns: clock_sync, after_s, rank, offset_s, true_error_s: every rank's
 * signed offset (variant 0) and true error (1). Rank 0, the reference, has
 * no offset (NaN) and a true error only against the real clock. */
int hm__plot_read_clock_raw(hm__plot_read_t *c)
{
    int more, rc;
    double after, rank, v[2];
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = finite_cell(c, 1, &after, "a time in seconds")) != HM_OK) break;
        if ((rc = finite_cell(c, 2, &rank, "a rank")) != HM_OK) break;
        if ((rc = number_or_nan(c, 3, &v[0], "an offset in seconds")) != HM_OK) break;
        if ((rc = number_or_nan(c, 4, &v[1], "an offset in seconds")) != HM_OK) break;
        for (int k = 0; k < 2 && rc == HM_OK; k++)
            if (!isnan(v[k]))
                rc = add(c, HM_FIG_CLOCK_RANKS, hm__plot_text(c, 0), "", k, after, v[k] * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns: method, what, global_s, true_s; the rows of what = skew, one per
 * repetition. Variants: 0 global clock, 1 true clock (where known). */
int hm__plot_read_skew_raw(hm__plot_read_t *c)
{
    int more, rc;
    double v[2];
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if (strcmp(hm__plot_text(c, 1), "skew") != 0) continue;
        if ((rc = number_or_nan(c, 2, &v[0], "a skew in seconds")) != HM_OK) break;
        if ((rc = number_or_nan(c, 3, &v[1], "a skew in seconds")) != HM_OK) break;
        for (int k = 0; k < 2 && rc == HM_OK; k++)
            if (!isnan(v[k])) rc = add(c, HM_FIG_SKEW, hm__plot_text(c, 0), "", k, 0, v[k] * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns: method, then skew median, p90, p99, max on the global clock and
 * on the true one; x is the quantile's position 0..3. */
int hm__plot_read_skew_summary(hm__plot_read_t *c)
{
    int more, rc;
    double v;
    if (hm__plot_scale_file(c)) return hm__plot_read_skew_scale(c);
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        for (int k = 1; k <= 8 && rc == HM_OK; k++) {
            rc = number_or_nan(c, k, &v, "a skew in seconds");
            if (rc == HM_OK && !isnan(v))
                rc = add(c, HM_FIG_SKEW_QUANTILES, hm__plot_text(c, 0), "", k > 4, (k - 1) % 4,
                         v * 1e6);
        }
        if (rc != HM_OK) break;
    }
    return rc;
}

/* A cell's time on one axis: its target (column k), or, where the run had
 * none (an empty target: --sizes, ibarrier), what it
 * measured alone (column ref_k), flagged in *alone. */
static int axis_time(hm__plot_read_t *c, int k, int ref_k, double *t, int *alone)
{
    *alone = hm__plot_text(c, k)[0] == '\0';
    int col = *alone ? ref_k : k, rc = finite_cell(c, col, t, "a time in seconds");
    return rc == HM_OK ? hm__plot_check(c, col, *t > 0, "a time in seconds") : rc;
}

/* Columns: op, comm_target_s, comp_target_s, cell_valid, overhead,
 * comm_ratio, comp_slowdown, comm_ref_s, comp_ref_s; one cell per row, at
 * (comm, comp) in us: the targets, or the times measured alone where a
 * run had no target (HM_PLOT_OVERLAP_*_ALONE in the variant). A cell that
 * was not run (cell_valid 0) or has no ratio is NaN: drawn as invalid,
 * never as a value. Ratios: variant bit 0: 0 r_comm, 1 r_comp_slowdown. */
int hm__plot_read_overlap_summary(hm__plot_read_t *c)
{
    int more, rc, x_alone, y_alone;
    double x, y, valid, v[3];
    size_t s;
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = axis_time(c, 1, 7, &x, &x_alone)) != HM_OK ||
            (rc = axis_time(c, 2, 8, &y, &y_alone)) != HM_OK)
            break;
        if ((rc = finite_cell(c, 3, &valid, "0 or 1")) != HM_OK ||
            (rc = hm__plot_check(c, 3, valid == 0 || valid == 1, "0 or 1")) != HM_OK)
            break;
        for (int k = 0; k < 3 && rc == HM_OK; k++) {
            rc = number_or_nan(c, 4 + k, &v[k], "a ratio");
            if (rc == HM_OK && valid == 0) v[k] = NAN;
        }
        int axes =
            (x_alone ? HM_PLOT_OVERLAP_X_ALONE : 0) | (y_alone ? HM_PLOT_OVERLAP_Y_ALONE : 0);
        if (rc == HM_OK)
            rc =
                hm__plot_series(&c->fig[HM_FIG_OVERLAP], hm__plot_text(c, 0), "", c->src, axes, &s);
        if (rc == HM_OK) rc = hm__plot_add_xy(&c->fig[HM_FIG_OVERLAP], s, x * 1e6, y * 1e6, v[0]);
        for (int k = 0; k < 2 && rc == HM_OK; k++) {
            rc = hm__plot_series(&c->fig[HM_FIG_OVERLAP_RATIOS], hm__plot_text(c, 0), "", c->src,
                                 k | axes, &s);
            if (rc == HM_OK)
                rc = hm__plot_add_xy(&c->fig[HM_FIG_OVERLAP_RATIOS], s, x * 1e6, y * 1e6, v[1 + k]);
        }
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns: comp_target_s, rank, thread, impact; one sample per rank and
 * thread, a series per target (and file), at x = the target in us. */
int hm__plot_read_impact(hm__plot_read_t *c)
{
    int more, rc;
    double target, rank, thread, v;
    char base[64], ranks[32];
    size_t s;
    hm__plot_ranks(ranks, sizeof ranks, hm__plot_factor(c, "processes"));
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = finite_cell(c, 0, &target, "a time in seconds")) != HM_OK ||
            (rc = hm__plot_check(c, 0, target > 0, "a time in seconds")) != HM_OK)
            break;
        if ((rc = finite_cell(c, 1, &rank, "a rank")) != HM_OK ||
            (rc = hm__plot_check(c, 1, rank >= 0 && rank == floor(rank), "a rank")) != HM_OK)
            break;
        if ((rc = finite_cell(c, 2, &thread, "a thread")) != HM_OK ||
            (rc = hm__plot_check(c, 2, thread >= 0 && thread == floor(thread), "a thread")) !=
                HM_OK)
            break;
        if ((rc = finite_cell(c, 3, &v, "a ratio")) != HM_OK ||
            (rc = hm__plot_check(c, 3, v > 0, "a ratio above 0")) != HM_OK)
            break;
        snprintf(base, sizeof base, "computation %g us", target * 1e6);
        rc = hm__plot_series(&c->fig[HM_FIG_IMPACT], base, ranks, c->src, 0, &s);
        if (rc == HM_OK) rc = hm__plot_add(&c->fig[HM_FIG_IMPACT], s, target * 1e6, v);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* The factor key as a number of ranks into *n: 0 when the file has no
 * such factor; HM_EINVAL naming the file when it is not a whole number
 * from 1. */
static int ranks_factor(hm__plot_read_t *c, const char *key, int *n)
{
    const char *text = hm__plot_factor(c, key);
    char *end;
    *n = 0;
    if (!*text) return HM_OK;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (isdigit((unsigned char)text[0]) && !*end && !errno && v >= 1 && v <= INT_MAX) {
        *n = (int)v;
        return HM_OK;
    }
    return hm__error_set(HM_EINVAL, "%s: \"%s\" is not a number of ranks (factor %s)", c->src->file,
                         text, key);
}

/* Columns: src, dst, bytes; a pair given twice adds up (a plain pattern
 * file may; --matrix writes each once). One series per file, named after
 * what the matrix is of, at (x = receiver, y = sender), with the run's
 * process count and ranks per group (its groups' boundaries). */
int hm__plot_read_pattern_matrix(hm__plot_read_t *c)
{
    int more, rc, processes, group_size;
    double src, dst, bytes;
    const char *of = hm__plot_factor(c, "matrix_of");
    char base[160];
    size_t s;
    snprintf(base, sizeof base, "%.159s", *of ? of : c->src->stem);
    if ((rc = ranks_factor(c, "processes", &processes)) != HM_OK ||
        (rc = ranks_factor(c, "group_size", &group_size)) != HM_OK)
        return rc;
    rc = hm__plot_series(&c->fig[HM_FIG_MATRIX], base, "", c->src, 0, &s);
    if (rc == HM_OK) {
        c->fig[HM_FIG_MATRIX].s[s].processes = processes;
        c->fig[HM_FIG_MATRIX].s[s].group_size = group_size;
    }
    while (rc == HM_OK && (rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = finite_cell(c, 0, &src, "a rank")) != HM_OK ||
            (rc = hm__plot_check(c, 0, src >= 0 && src == floor(src), "a rank")) != HM_OK ||
            (rc = finite_cell(c, 1, &dst, "a rank")) != HM_OK ||
            (rc = hm__plot_check(c, 1, dst >= 0 && dst == floor(dst), "a rank")) != HM_OK ||
            (rc = finite_cell(c, 2, &bytes, "a byte count")) != HM_OK ||
            (rc = hm__plot_check(c, 2, bytes > 0 && bytes == floor(bytes),
                                 "a byte count above 0")) != HM_OK)
            break;
        rc = hm__plot_add_xy(&c->fig[HM_FIG_MATRIX], s, dst, src, bytes);
    }
    return rc;
}

/* Columns: pattern, direction, backend, measured, size_bytes, valid,
 * algbw_GBps; a series per pattern and what was measured (the pattern or
 * a baseline), a point per size. A size without a valid repetition, or
 * without bytes (algbw 0, empty), has no point: the axis is logarithmic,
 * and no figure shows a bandwidth that was not measured. */
int hm__plot_read_pattern_summary(hm__plot_read_t *c)
{
    int more, rc;
    double size, valid, algbw;
    char base[160], ranks[32];
    hm__plot_ranks(ranks, sizeof ranks, hm__plot_factor(c, "processes"));
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = hm__plot_size_cell(c, 4, &size)) != HM_OK ||
            (rc = finite_cell(c, 5, &valid, "a count")) != HM_OK ||
            (rc = hm__plot_check(c, 5, valid >= 0, "a count")) != HM_OK ||
            (rc = number_or_nan(c, 6, &algbw, "a bandwidth in GB/s")) != HM_OK ||
            (rc = hm__plot_check(c, 6, isnan(algbw) || algbw >= 0, "a bandwidth in GB/s")) != HM_OK)
            break;
        if (valid == 0 || isnan(algbw) || algbw == 0) continue;
        snprintf(base, sizeof base, "%.40s %.16s %.24s: %.60s", hm__plot_text(c, 0),
                 hm__plot_text(c, 1), hm__plot_text(c, 2), hm__plot_text(c, 3));
        if ((rc = add(c, HM_FIG_BANDWIDTH, base, ranks, 0, size, algbw)) != HM_OK) break;
    }
    return rc;
}
