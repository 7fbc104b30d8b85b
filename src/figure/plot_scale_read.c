/* src/figure/plot_scale_read.c — the files scale/run gathers (docs/scale.md):
 * clock, skew and bench summaries of many runs, each row with the process
 * count of its run in a "processes" column. They are drawn against the
 * process count instead of one run's axis. Values in microseconds, sync
 * durations in milliseconds. */
#include <math.h>
#include <stdio.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"
#include "figure/plot_input.h"

/* The index of column name, or -1 when the file has none. */
static long find(const hm__plot_read_t *c, const char *name)
{
    size_t i;
    return hm_csv_reader_find(c->r, name, &i) == HM_OK ? (long)i : -1;
}

int hm__plot_scale_file(const hm__plot_read_t *c)
{
    return find(c, "processes") >= 0;
}

/* Column col of the current row (named what in a message): a number, NaN
 * where the file says not measured; infinities are refused. */
static int cell(hm__plot_read_t *c, long col, const char *what, double *v)
{
    if (hm_csv_reader_double(c->r, (size_t)col, v) == HM_OK && !isinf(*v)) return HM_OK;
    hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not %s (column %s)", c->src->file,
                  hm_csv_reader_line(c->r), hm_csv_reader_cell(c->r, (size_t)col), what,
                  hm_csv_reader_column(c->r, (size_t)col));
    return HM_EINVAL;
}

/* The row's process count: a whole number >= 1. */
static int processes(hm__plot_read_t *c, long col, double *p)
{
    int rc = cell(c, col, "a process count", p);
    if (rc == HM_OK && !(*p >= 1 && *p == floor(*p))) {
        hm__error_set(HM_EINVAL, "%s:%zu: \"%s\" is not a process count (column processes)",
                      c->src->file, hm_csv_reader_line(c->r),
                      hm_csv_reader_cell(c->r, (size_t)col));
        rc = HM_EINVAL;
    }
    return rc;
}

static int add(hm__plot_read_t *c, hm__plot_fig_t f, const char *base, int variant, double p,
               double v)
{
    size_t s;
    if (isnan(v)) return HM_OK; /* not measured: nothing to draw */
    int rc = hm__plot_series(&c->fig[f], base, "", c->src, variant, &s);
    return rc == HM_OK ? hm__plot_add(&c->fig[f], s, p, v) : rc;
}

/* Columns (of the clock summary kind): clock_sync, after_s, offset_max_s,
 * offset_median_s, truth_known, true_max_s; duration_s by name. The
 * duration is repeated on every check row of a run: one sample each. The
 * error figure's variant is the check's time after synchronization, in
 * whole seconds; its value the largest |true error|, or |offset| where the
 * truth is not known. */
int hm__plot_read_clock_scale(hm__plot_read_t *c)
{
    long pcol = find(c, "processes"), dcol = find(c, "duration_s");
    int more, rc;
    double p, after, dur = NAN, off, known, truth;
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        const char *sync = hm__plot_text(c, 0);
        if ((rc = processes(c, pcol, &p)) != HM_OK) break;
        if ((rc = hm__plot_number(c, 1, &after)) != HM_OK ||
            (rc = hm__plot_check(c, 1, after >= 0 && after < 1e6, "a time in seconds")) != HM_OK)
            break;
        if (dcol >= 0 && (rc = cell(c, dcol, "a duration in seconds", &dur)) != HM_OK) break;
        if ((rc = hm__plot_number(c, 2, &off)) != HM_OK || (rc = hm__plot_number(c, 4, &known)) ||
            (rc = hm__plot_number(c, 5, &truth)) != HM_OK)
            break;
        if (after == 0 && (rc = add(c, HM_FIG_SCALE_DURATION, sync, 0, p, dur * 1e3)) != HM_OK)
            break;
        double err = known == 1 ? truth : off;
        rc = add(c, HM_FIG_SCALE_ERROR, sync, (int)lround(after), p, fabs(err) * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns (of the skew summary kind): method, skew_median_s, skew_p90_s,
 * skew_p99_s, skew_max_s, true_skew_median_s, ..p90, ..p99, ..max; cost_s
 * by name. Variants: 0 median, 1 p99 of the exit skew (true where known),
 * 2 the cost of one call. */
int hm__plot_read_skew_scale(hm__plot_read_t *c)
{
    long pcol = find(c, "processes"), ccol = find(c, "cost_s");
    int more, rc;
    double p, v[9], cost = NAN;
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = processes(c, pcol, &p)) != HM_OK) break;
        for (int k = 1; k < 9 && rc == HM_OK; k++) rc = hm__plot_number(c, k, &v[k]);
        if (rc == HM_OK && ccol >= 0) rc = cell(c, ccol, "a time in seconds", &cost);
        if (rc != HM_OK) break;
        double median = isnan(v[5]) ? v[1] : v[5], p99 = isnan(v[7]) ? v[3] : v[7];
        const char *method = hm__plot_text(c, 0);
        rc = add(c, HM_FIG_SCALE_SKEW, method, 0, p, median * 1e6);
        if (rc == HM_OK) rc = add(c, HM_FIG_SCALE_SKEW, method, 1, p, p99 * 1e6);
        if (rc == HM_OK) rc = add(c, HM_FIG_SCALE_SKEW, method, 2, p, cost * 1e6);
        if (rc != HM_OK) break;
    }
    return rc;
}

/* Columns (of the bench summary kind): op, size_bytes, sync, median_s (or
 * local_median_s). A series per operation, size and sync. */
int hm__plot_read_bench_scale(hm__plot_read_t *c)
{
    long pcol = find(c, "processes");
    int more, rc;
    double p, size, median;
    char base[160];
    while ((rc = hm__plot_next(c, &more)) == HM_OK && more) {
        if ((rc = processes(c, pcol, &p)) != HM_OK) break;
        if ((rc = hm__plot_number(c, 1, &size)) != HM_OK ||
            (rc = hm__plot_check(c, 1, size >= 0 && size == floor(size), "a size in bytes")) ||
            (rc = hm__plot_number(c, 3, &median)) != HM_OK)
            break;
        char name[32];
        hm__plot_size_name(name, sizeof name, size);
        snprintf(base, sizeof base, "%s %s B %s", hm__plot_text(c, 0), name, hm__plot_text(c, 2));
        if ((rc = add(c, HM_FIG_SCALE_BENCH, base, 0, p, median * 1e6)) != HM_OK) break;
    }
    return rc;
}
