/* src/analysis/compare.c — is B different from A? Per (op, size,
 * processes), the Wilcoxon rank-sum test of A's samples against B's
 * [Hunold & Carpen-Amarie 2016, Sec. 6.2], on per-mpirun values where the
 * sides have them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/analysis.h>

#include "common/error_set.h"

static int same_key(const hm_analysis_group_t *x, const hm_analysis_group_t *y)
{
    return x->size_bytes == y->size_bytes && x->processes == y->processes && !strcmp(x->op, y->op);
}

static int key_order(const hm_analysis_group_t *x, const hm_analysis_group_t *y)
{
    int c = strcmp(x->op, y->op);
    if (c) return c;
    if (x->size_bytes != y->size_bytes) return x->size_bytes < y->size_bytes ? -1 : 1;
    return (x->processes > y->processes) - (x->processes < y->processes);
}

int hm_analysis_side_check(hm_analysis_side_t *s)
{
    hm_analysis_groups_sort(&s->groups);
    for (size_t k = 1; k < s->groups.n; k++) {
        const hm_analysis_group_t *x = &s->groups.g[k - 1], *y = &s->groups.g[k];
        if (same_key(x, y))
            return hm_error_set(HM_EINVAL,
                                "%s holds %s %lld B at %ld processes under more than one sync "
                                "(%s, %s); give compare one sync per side",
                                s->path, x->op, x->size_bytes, x->processes, x->sync, y->sync);
    }
    return HM_OK;
}

/* Append a group to a list of at most 4 shown, counting the rest. */
static void list_key(char *buf, size_t len, size_t *count, const hm_analysis_group_t *g)
{
    if ((*count)++ >= 4) return;
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s %lld B at %ld processes", used ? ", " : "", g->op,
             g->size_bytes, g->processes);
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
    char only_a[512] = "", only_b[512] = "";
    size_t na = 0, nb = 0, i = 0, j = 0;
    while (i < a->groups.n || j < b->groups.n) {
        int c = i == a->groups.n   ? 1
                : j == b->groups.n ? -1
                                   : key_order(&a->groups.g[i], &b->groups.g[j]);
        if (c < 0) list_key(only_a, sizeof only_a, &na, &a->groups.g[i++]);
        if (c > 0) list_key(only_b, sizeof only_b, &nb, &b->groups.g[j++]);
        if (c == 0) i++, j++;
    }
    if (na == 0 && nb == 0) return HM_OK;
    list_end(only_a, sizeof only_a, na);
    list_end(only_b, sizeof only_b, nb);
    return hm_error_set(HM_EINVAL,
                        "A and B hold different groups (op, size, processes): only in A (%s): "
                        "%s; only in B (%s): %s",
                        a->path, only_a, b->path, only_b);
}

/* The paper reads "no stars" as "no evidence which is better" (Sec. 6.2).
 * A two-sided rejection is told by the medians' ratio, the figure printed
 * beside it; equal medians fall back on the direction of W (the rank sum of
 * A above or below its mean under H0). */
static hm_verdict_t verdict(hm_alternative_t alt, const hm_wilcoxon_t *t, double ratio,
                            double half_nm)
{
    if (!(t->p <= HM_ANALYSIS_LEVEL)) return HM_VERDICT_NO_EVIDENCE;
    if (alt == HM_ALT_LESS) return HM_VERDICT_A_SMALLER;
    if (alt == HM_ALT_GREATER) return HM_VERDICT_A_LARGER;
    if (ratio < 1) return HM_VERDICT_B_FASTER;
    if (ratio > 1) return HM_VERDICT_B_SLOWER;
    return t->w > half_nm ? HM_VERDICT_B_FASTER : HM_VERDICT_B_SLOWER;
}

/* Fig. 29: the largest per-run value over the smallest. */
static double repro(const hm_analysis_side_t *side, const hm_stats_summary_t *s)
{
    return !side->raw && s->min > 0 ? s->max / s->min : NAN;
}

int hm_analysis_compare(const hm_analysis_side_t *a, const hm_analysis_side_t *b, size_t k,
                        hm_alternative_t alternative, hm_analysis_comparison_t *out)
{
    if (k >= a->groups.n || k >= b->groups.n)
        return hm_error_set(HM_EINVAL, "compare: no group %zu", k);
    const hm_analysis_group_t *ga = &a->groups.g[k], *gb = &b->groups.g[k];
    hm_stats_summary_t sa, sb;
    if (ga->n == 0 || gb->n == 0)
        return hm_error_set(HM_EINVAL, "compare: %s %lld B at %ld processes has no samples", ga->op,
                            ga->size_bytes, ga->processes);
    int rc = hm_stats_summarize(ga->x_s, ga->n, &sa);
    if (rc == HM_OK) rc = hm_stats_summarize(gb->x_s, gb->n, &sb);
    if (rc == HM_OK)
        rc = hm_stats_wilcoxon(ga->x_s, ga->n, gb->x_s, gb->n, alternative, &out->test);
    if (rc != HM_OK) return hm_error_set(rc, "compare: %s", hm_strerror(rc));
    out->a = ga, out->b = gb;
    out->median_a_s = sa.median, out->median_b_s = sb.median;
    out->ratio = sa.median > 0 ? sb.median / sa.median : NAN;
    out->repro_a = repro(a, &sa), out->repro_b = repro(b, &sb);
    out->verdict =
        verdict(alternative, &out->test, out->ratio, 0.5 * (double)ga->n * (double)gb->n);
    return HM_OK;
}

int hm_analysis_comparison_write_row(hm_csv_t *csv, const hm_analysis_comparison_t *c)
{
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
