/* src/overlap/rows.c — a cell of an overlap study as the rows of its result
 * files (HM_RESULTS_OVERLAP, HM_RESULTS_OVERLAP_RAW), and the rows of an
 * impact study (HM_RESULTS_IMPACT), written by column id
 * (hm_results_row_t), and its verdict in words: what every writer of those
 * files shares, the program's tables included. */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/overlap.h>

#include "common/error_set.h"

int hm_overlap_cell_conditional(const hm_overlap_cell_row_t *row)
{
    if (!row) return hm__error_null(__func__, "row"), 0;
    long attempts = row->s.nvalid + row->discarded;
    return attempts > 0 && (double)row->discarded > HM_MEASURE_CONDITIONAL_SHARE * (double)attempts;
}

/* A percentage of a relative deviation; NAN stays NAN (an empty cell). */
static double pct(double x)
{
    return 100.0 * x;
}

/* Why a reference does not stand, or "" when it does. */
static void ref_words(const char *side, const hm_overlap_ref_t *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->state == HM_OVERLAP_REF_OFF_TARGET)
        snprintf(buf, len, "%s reference %+.0f %% off target", side, pct(r->error));
    else if (r->state == HM_OVERLAP_REF_MOVED)
        snprintf(buf, len, "%s reference moved %+.0f %% during the grid", side, pct(r->moved));
}

void hm_overlap_cell_words(const hm_overlap_cell_row_t *row, char *buf, size_t len)
{
    if (!row || !buf) {
        hm__error_null(__func__, !row ? "row" : "buf");
        return;
    }
    const hm_overlap_verdict_t *v = &row->verdict;
    char comm[64], comp[64];
    if (v->valid) {
        snprintf(buf, len, "ok%s%s", row->partial ? ", partial" : "",
                 hm_overlap_cell_conditional(row) ? ", conditional" : "");
        return;
    }
    ref_words("comm", &row->comm, comm, sizeof comm);
    ref_words("comp", &row->comp, comp, sizeof comp);
    /* A calibration that failed names both outcomes first, and a side
     * that converged but does not stand follows. */
    if (v->state == HM_OVERLAP_REF_UNCALIBRATED)
        snprintf(buf, len, "INVALID (comm %s, comp %s%s%s%s%s)",
                 hm_overlap_outcome_name(row->comm.outcome),
                 hm_overlap_outcome_name(row->comp.outcome), comm[0] ? "; " : "", comm,
                 comp[0] ? "; " : "", comp);
    else
        snprintf(buf, len, "INVALID (%s%s%s)", comm, comm[0] && comp[0] ? "; " : "", comp);
}

static void set_estimate(hm_results_row_t *w, int column, const hm_overlap_estimate_t *x)
{
    /* The median, then its interval: the schema keeps the three together. */
    hm_results_row_set_double(w, column, x->median);
    hm_results_row_set_double(w, column + 1, x->ci_lo);
    hm_results_row_set_double(w, column + 2, x->ci_hi);
}

static void set_calibration(hm_results_row_t *w, const hm_overlap_cell_row_t *row)
{
    const hm_overlap_ref_t *cm = &row->comm, *cp = &row->comp;
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_TARGET_S, cm->target_s);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_SIZE_BYTES, (int64_t)cm->size);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_REF_S, cm->ref_s);
    hm_results_row_set_string(w, HM_COL_OVERLAP_COMM_CALIBRATION,
                              hm_overlap_outcome_name(cm->outcome));
    hm_results_row_set_int64(w, HM_COL_OVERLAP_COMM_PROBES, cm->probes);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_ERROR_PCT, pct(cm->error));
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_LOCAL_REF_S, cm->local_s);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_REF_END_S, cm->end_s);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMM_MOVED_PCT, pct(cm->moved));
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_TARGET_S, cp->target_s);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_MATRIX_ORDER, (int64_t)cp->size);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_REF_S, cp->ref_s);
    hm_results_row_set_string(w, HM_COL_OVERLAP_COMP_CALIBRATION,
                              hm_overlap_outcome_name(cp->outcome));
    hm_results_row_set_int64(w, HM_COL_OVERLAP_COMP_PROBES, cp->probes);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_CALIBRATED_S, cp->achieved_s);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_ERROR_PCT, pct(cp->error));
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_REF_END_S, cp->end_s);
    hm_results_row_set_double(w, HM_COL_OVERLAP_COMP_MOVED_PCT, pct(cp->moved));
}

static void set_results(hm_results_row_t *w, const hm_overlap_cell_row_t *row)
{
    char cell[160];
    hm_overlap_cell_words(row, cell, sizeof cell);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_CELL_VALID, row->verdict.valid);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_VALID, row->s.nvalid);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_INVALID, row->discarded);
    hm_results_row_set_double(w, HM_COL_OVERLAP_MEASURED_MEDIAN_S, row->s.measured_s.median);
    set_estimate(w, HM_COL_OVERLAP_OVERHEAD, &row->s.overhead);
    set_estimate(w, HM_COL_OVERLAP_COMP_SLOWDOWN, &row->s.comp_slowdown);
    set_estimate(w, HM_COL_OVERLAP_COMM_RATIO, &row->s.comm);
    hm_results_row_set_double(w, HM_COL_OVERLAP_OSU_PCT, row->s.osu_pct);
    hm_results_row_set_double(w, HM_COL_OVERLAP_IMB_PCT, row->s.imb_pct);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_ORDER, (int64_t)row->order);
    hm_results_row_set_string(w, HM_COL_OVERLAP_PROCSYNC, row->procsync);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_CONDITIONAL, hm_overlap_cell_conditional(row));
    hm_results_row_set_string(w, HM_COL_OVERLAP_CELL, cell);
}

int hm_overlap_write_summary_row(hm_csv_t *csv, const hm_overlap_cell_row_t *row)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!row) return hm__error_null(__func__, "row");
    hm_results_row_t *w = NULL;
    int rc = hm_results_row_create(HM_RESULTS_OVERLAP, &w);
    if (rc != HM_OK) return rc;
    hm_results_row_set_string(w, HM_COL_OVERLAP_OP, row->op);
    set_calibration(w, row);
    set_results(w, row);
    rc = hm_results_row_put(w, csv);
    hm_results_row_free(w);
    return rc;
}

/* Repetition i of r against the cell's references. */
static void set_repetition(hm_results_row_t *w, const hm_overlap_cell_row_t *row,
                           const hm_overlap_result_t *r, long i)
{
    hm_overlap_ratios_t q;
    hm_overlap_ratios(r->measured_s[i], r->max_comp_s[i], r->max_mpi_s[i], row->comp.ref_s,
                      row->comm.ref_s, row->comm.local_s, &q);
    hm_results_row_set_string(w, HM_COL_OVERLAP_RAW_OP, row->op);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_COMM_TARGET_S, row->comm.target_s);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_RAW_SIZE_BYTES, (int64_t)row->comm.size);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_COMP_TARGET_S, row->comp.target_s);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_RAW_ATTEMPT, i);
    hm_results_row_set_int64(w, HM_COL_OVERLAP_RAW_VALID, r->valid[i]);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_MEASURED_S, r->measured_s[i]);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_COMP_S, r->max_comp_s[i]);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_MPI_S, r->max_mpi_s[i]);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_OVERHEAD, q.overhead);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_COMP_SLOWDOWN, q.comp_slowdown);
    hm_results_row_set_double(w, HM_COL_OVERLAP_RAW_COMM_RATIO, q.comm);
}

int hm_overlap_write_raw_rows(hm_csv_t *csv, const hm_overlap_cell_row_t *row,
                              const hm_overlap_result_t *r, off_t **cell_valid_at)
{
    const char *null = !csv             ? "csv"
                       : !row           ? "row"
                       : !r             ? "r"
                       : !cell_valid_at ? "cell_valid_at"
                                        : NULL;
    if (null) return hm__error_null(__func__, null);
    hm_results_row_t *w = NULL;
    *cell_valid_at = NULL;
    int rc = hm_results_row_create(HM_RESULTS_OVERLAP_RAW, &w);
    if (rc == HM_OK && row->verdict.valid &&
        !(*cell_valid_at = malloc((size_t)(r->n ? r->n : 1) * sizeof **cell_valid_at)))
        rc = hm__error_set(HM_ENOMEM, "out of memory for the raw rows of a cell");
    for (long i = 0; rc == HM_OK && i < r->n; i++) {
        set_repetition(w, row, r, i);
        if (*cell_valid_at)
            hm_results_row_set_marked(w, HM_COL_OVERLAP_RAW_CELL_VALID, "1", &(*cell_valid_at)[i]);
        else
            hm_results_row_set_int64(w, HM_COL_OVERLAP_RAW_CELL_VALID, 0);
        rc = hm_results_row_put(w, csv);
    }
    hm_results_row_free(w);
    return rc;
}

int hm_overlap_unmark_raw_rows(hm_csv_t *csv, const hm_overlap_cell_row_t *row,
                               const off_t *cell_valid_at, long n)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!row) return hm__error_null(__func__, "row");
    int rc = HM_OK;
    for (long k = 0; cell_valid_at && !row->verdict.valid && rc == HM_OK && k < n; k++)
        if (cell_valid_at[k] >= 0) rc = hm_csv_overwrite(csv, cell_valid_at[k], "0");
    return rc;
}

int hm_overlap_impact_write_rows(hm_csv_t *csv, const hm_overlap_impact_t *r)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!r) return hm__error_null(__func__, "r");
    hm_results_row_t *w = NULL;
    int rc = hm_results_row_create(HM_RESULTS_IMPACT, &w);
    for (size_t i = 0; rc == HM_OK && i < r->nrows; i++) {
        const hm_overlap_impact_row_t *row = &r->rows[i];
        hm_results_row_set_double(w, HM_COL_IMPACT_COMP_TARGET_S, r->target_s);
        hm_results_row_set_int64(w, HM_COL_IMPACT_MATRIX_ORDER, r->order);
        hm_results_row_set_int64(w, HM_COL_IMPACT_RANK, row->rank);
        hm_results_row_set_int64(w, HM_COL_IMPACT_THREAD, row->thread);
        hm_results_row_set_int64(w, HM_COL_IMPACT_CORE, row->core);
        hm_results_row_set_double(w, HM_COL_IMPACT_WITHOUT_MPI_S, row->without_mpi_s);
        hm_results_row_set_double(w, HM_COL_IMPACT_WITH_MPI_S, row->with_mpi_s);
        hm_results_row_set_double(w, HM_COL_IMPACT_RATIO, row->impact);
        rc = hm_results_row_put(w, csv);
    }
    hm_results_row_free(w);
    return rc;
}
