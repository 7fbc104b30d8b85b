/* src/analysis/compare.c — is B different from A? Per (op, size,
 * processes), or cell of overlap and processes, the Wilcoxon rank-sum test
 * of A's samples against B's [Hunold & Carpen-Amarie 2016, Sec. 6.2], on
 * per-mpirun values where the sides have them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis_impl.h"
#include "common/error_set.h"

/* Two groups of one cell differ in their sync, or else in their progress. */
int hm_analysis_side_check(hm_analysis_side_t *s)
{
    char name[256];
    if (!s) return hm__error_null(__func__, "side");
    hm_analysis_groups_sort(&s->groups);
    for (size_t k = 1; k < s->groups.n; k++) {
        const hm_analysis_group_t *x = &s->groups.g[k - 1], *y = &s->groups.g[k];
        if (hm__analysis_cell_cmp(x, y) != 0) continue;
        hm__analysis_group_name(x, name, sizeof name);
        if (strcmp(x->sync, y->sync))
            return hm__error_set(HM_EINVAL,
                                 "%s holds %s under more than one sync (%s, %s); give compare one "
                                 "sync per side",
                                 s->path, name, x->sync, y->sync);
        return hm__error_set(HM_EINVAL,
                             "%s holds %s under more than one progress configuration (%s; %s); "
                             "give compare one per side",
                             s->path, name, x->progress ? x->progress : "",
                             y->progress ? y->progress : "");
    }
    return HM_OK;
}

/* Append a group to a list of at most 4 shown, counting the rest. */
static void list_key(char *buf, size_t len, size_t *count, const hm_analysis_group_t *g)
{
    char name[256];
    if ((*count)++ >= 4) return;
    size_t used = strlen(buf);
    hm__analysis_group_name(g, name, sizeof name);
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

static void list_end(char *buf, size_t len, size_t count)
{
    size_t used = strlen(buf);
    if (count == 0) snprintf(buf, len, "none");
    if (count > 4) snprintf(buf + used, len - used, " and %zu more", count - 4);
}

/* Both groups lists are sorted by key: one merge finds what only one has. */
int hm_analysis_compare_check(const hm_analysis_side_t *a, const hm_analysis_side_t *b)
{
    char only_a[1024] = "", only_b[1024] = "";
    size_t na = 0, nb = 0, i = 0, j = 0;
    if (!a) return hm__error_null(__func__, "a");
    if (!b) return hm__error_null(__func__, "b");
    /* A per-mpirun file of bench may not say its metric (it reads as
     * global): the program compares what the files say. Overlap's say. */
    const hm_analysis_group_t *ga = a->groups.n ? &a->groups.g[0] : NULL;
    const hm_analysis_group_t *gb = b->groups.n ? &b->groups.g[0] : NULL;
    if (ga && gb && ga->metric != gb->metric &&
        (hm_analysis_group_is_overlap(ga) || hm_analysis_group_is_overlap(gb)))
        return hm__error_set(HM_EINVAL, "A (%s) holds samples of metric %s, B (%s) of metric %s",
                             a->path, hm_results_metric_name(ga->metric), b->path,
                             hm_results_metric_name(gb->metric));
    while (i < a->groups.n || j < b->groups.n) {
        int c = i == a->groups.n   ? 1
                : j == b->groups.n ? -1
                                   : hm__analysis_cell_cmp(&a->groups.g[i], &b->groups.g[j]);
        if (c < 0) list_key(only_a, sizeof only_a, &na, &a->groups.g[i++]);
        if (c > 0) list_key(only_b, sizeof only_b, &nb, &b->groups.g[j++]);
        if (c == 0) i++, j++;
    }
    if (na == 0 && nb == 0) return HM_OK;
    list_end(only_a, sizeof only_a, na);
    list_end(only_b, sizeof only_b, nb);
    int overlap = a->groups.n ? hm_analysis_group_is_overlap(&a->groups.g[0])
                              : b->groups.n && hm_analysis_group_is_overlap(&b->groups.g[0]);
    return hm__error_set(HM_EINVAL,
                         "A and B hold different groups (%s): only in A (%s): %s; only in B (%s): "
                         "%s",
                         overlap ? "cells, processes" : "op, size, processes", a->path, only_a,
                         b->path, only_b);
}

/* The paper reads "no stars" as "no evidence which is better" (Sec. 6.2).
 * A two-sided rejection is told by the medians, the figure printed beside
 * it (B's below A's: B faster, or B smaller for a ratio of overlap, which
 * is no speed); equal medians fall back on the direction of W (the rank sum
 * of A above or below its mean under H0). */
static hm_verdict_t verdict(hm_alternative_t alt, const hm_wilcoxon_t *t, double difference,
                            double half_nm, int time)
{
    if (!(t->p <= HM_ANALYSIS_LEVEL)) return HM_VERDICT_NO_EVIDENCE;
    if (alt == HM_ALT_LESS) return HM_VERDICT_A_SMALLER;
    if (alt == HM_ALT_GREATER) return HM_VERDICT_A_LARGER;
    int b_below = difference < 0 || (difference == 0 && t->w > half_nm);
    if (time) return b_below ? HM_VERDICT_B_FASTER : HM_VERDICT_B_SLOWER;
    return b_below ? HM_VERDICT_B_SMALLER : HM_VERDICT_B_LARGER;
}

/* Fig. 29: the largest per-run value over the smallest. */
static double repro(const hm_analysis_side_t *side, const hm_stats_summary_t *s)
{
    return !side->raw && s->min > 0 ? s->max / s->min : NAN;
}

/* The spread of the per-run values that a ratio of overlap can be read by. */
static double range(const hm_analysis_side_t *side, const hm_stats_summary_t *s)
{
    return side->raw ? NAN : s->max - s->min;
}

int hm_analysis_compare(const hm_analysis_side_t *a, const hm_analysis_side_t *b, size_t k,
                        hm_alternative_t alternative, hm_analysis_comparison_t *out)
{
    if (!a) return hm__error_null(__func__, "a");
    if (!b) return hm__error_null(__func__, "b");
    if (!out) return hm__error_null(__func__, "out");
    if (k >= a->groups.n || k >= b->groups.n)
        return hm__error_set(HM_EINVAL, "compare: no group %zu", k);
    const hm_analysis_group_t *ga = &a->groups.g[k], *gb = &b->groups.g[k];
    hm_stats_summary_t sa, sb;
    char name[256];
    hm__analysis_group_name(ga, name, sizeof name);
    if (ga->n == 0 || gb->n == 0)
        return hm__error_set(HM_EINVAL, "compare: %s has no samples", name);
    int rc = hm_stats_summarize(ga->x_s, ga->n, &sa);
    if (rc == HM_OK) rc = hm_stats_summarize(gb->x_s, gb->n, &sb);
    if (rc == HM_OK)
        rc = hm_stats_wilcoxon(ga->x_s, ga->n, gb->x_s, gb->n, alternative, &out->test);
    if (rc != HM_OK) return hm__error_set(rc, "compare: %s", hm_last_error());
    out->a = ga, out->b = gb;
    out->median_a_s = sa.median, out->median_b_s = sb.median;
    out->ratio = sa.median > 0 ? sb.median / sa.median : NAN;
    out->difference = sb.median - sa.median;
    out->repro_a = repro(a, &sa), out->repro_b = repro(b, &sb);
    out->range_a = range(a, &sa), out->range_b = range(b, &sb);
    out->verdict =
        verdict(alternative, &out->test, out->difference, 0.5 * (double)ga->n * (double)gb->n,
                hm_results_metric_is_time(ga->metric));
    /* A ratio against a reference that moved or missed its target is not
     * the ratio of the cell it is filed under: no side is read as better
     * (docs/overlap.md, "References that do not stand"). */
    if (ga->n_invalid_cell || gb->n_invalid_cell) out->verdict = HM_VERDICT_INVALID_CELL;
    return HM_OK;
}

/* HM_RESULTS_COMPARE_OVERLAP: the cell, then both sides' factors. */
static int write_row_overlap(hm_csv_t *csv, const hm_analysis_comparison_t *c)
{
    const hm_analysis_group_t *a = c->a, *b = c->b;
    hm_csv_put_string(csv, a->op);
    hm_csv_put_double(csv, a->comm_target_s);
    if (a->size_bytes >= 0)
        hm_csv_put_int64(csv, a->size_bytes);
    else
        hm_csv_put_double(csv, NAN);
    hm_csv_put_double(csv, a->comp_target_s);
    hm_csv_put_int64(csv, a->processes);
    hm_csv_put_string(csv, hm_results_metric_name(a->metric));
    hm_csv_put_string(csv, a->sync);
    hm_csv_put_string(csv, b->sync);
    hm_csv_put_string(csv, a->progress ? a->progress : "");
    hm_csv_put_string(csv, b->progress ? b->progress : "");
    hm_csv_put_int64(csv, (int64_t)a->n);
    hm_csv_put_int64(csv, (int64_t)b->n);
    const double x[] = {c->median_a_s, c->median_b_s, c->difference,
                        c->ratio,      c->test.w,     c->test.p};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) hm_csv_put_double(csv, x[i]);
    hm_csv_put_string(csv, hm_stats_stars(c->test.p));
    hm_csv_put_string(csv, hm_analysis_verdict_name(c->verdict));
    hm_csv_put_double(csv, c->range_a);
    hm_csv_put_double(csv, c->range_b);
    hm_csv_put_double(csv, c->repro_a);
    hm_csv_put_double(csv, c->repro_b);
    return hm_csv_end_row(csv);
}

int hm_analysis_comparison_write_row(hm_csv_t *csv, const hm_analysis_comparison_t *c)
{
    if (!csv) return hm__error_null(__func__, "csv");
    if (!c) return hm__error_null(__func__, "c");
    if (!c->a || !c->b)
        return hm__error_set(HM_EINVAL, "%s: c holds no groups (not filled by hm_analysis_compare)",
                             __func__);
    if (hm_analysis_group_is_overlap(c->a)) return write_row_overlap(csv, c);
    hm_csv_put_string(csv, c->a->op);
    hm_csv_put_int64(csv, c->a->size_bytes);
    hm_csv_put_int64(csv, c->a->processes);
    hm_csv_put_string(csv, c->a->sync);
    hm_csv_put_string(csv, c->b->sync);
    hm_csv_put_int64(csv, (int64_t)c->a->n);
    hm_csv_put_int64(csv, (int64_t)c->b->n);
    hm_csv_put_double(csv, c->median_a_s);
    hm_csv_put_double(csv, c->median_b_s);
    hm_csv_put_double(csv, c->ratio);
    hm_csv_put_double(csv, c->test.w);
    hm_csv_put_double(csv, c->test.p);
    hm_csv_put_string(csv, hm_stats_stars(c->test.p));
    hm_csv_put_string(csv, hm_analysis_verdict_name(c->verdict));
    hm_csv_put_double(csv, c->repro_a);
    hm_csv_put_double(csv, c->repro_b);
    return hm_csv_end_row(csv);
}
