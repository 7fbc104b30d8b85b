/* src/output/summary.c — what every rank reported (host name, binding),
 * summarized into a few factors that stay short at any scale. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "output/output_impl.h"

enum {
    HOSTS_LISTED_MAX = 8,   /* more distinct hosts are written as "N hosts" */
    PINNING_LIST_MAX = 256, /* a longer per-rank list becomes a count */
};

static int by_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A sorted copy of the n strings (the pointers, not the text). */
static const char **sorted_copy(const char *const *strings, size_t n)
{
    const char **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) return NULL;
    memcpy(sorted, strings, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_string);
    return sorted;
}

typedef struct host_stats {
    size_t distinct, ppn_min, ppn_max;
    uint64_t digest;
    size_t list_len; /* bytes of "a,b,c" */
} host_stats_t;

/* One pass over the sorted names: distinct names, the smallest and largest
 * number of ranks sharing one, and the digest of the distinct names. */
static host_stats_t host_stats(const char **sorted, size_t n)
{
    host_stats_t s = {0, SIZE_MAX, 0, HM_FNV1A_OFFSET, 0};
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && strcmp(sorted[i], sorted[i + run]) == 0) run++;
        s.distinct++;
        if (run < s.ppn_min) s.ppn_min = run;
        if (run > s.ppn_max) s.ppn_max = run;
        s.digest = hm__output_fnv1a(s.digest, sorted[i], strlen(sorted[i]));
        s.digest = hm__output_fnv1a(s.digest, "\n", 1);
        s.list_len += strlen(sorted[i]) + 1;
        i += run;
    }
    if (n == 0) s.ppn_min = 0;
    return s;
}

/* "a,b,c" of the distinct sorted names into a buffer of list_len bytes. */
static void host_list(const char **sorted, size_t n, char *out)
{
    char *p = out;
    *p = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(sorted[i], sorted[i - 1]) == 0) continue;
        if (p != out) *p++ = ',';
        size_t len = strlen(sorted[i]);
        memcpy(p, sorted[i], len + 1);
        p += len;
    }
}

static int set_host_factors(hm_factors_t *factors, const char **sorted, size_t n,
                            const host_stats_t *s)
{
    int st = hm_factors_set(factors, "nodes", "%zu", s->distinct);
    if (st == HM_OK && s->ppn_min == s->ppn_max)
        st = hm_factors_set(factors, "processes_per_node", "%zu", s->ppn_min);
    else if (st == HM_OK)
        st = hm_factors_set(factors, "processes_per_node", "%zu-%zu", s->ppn_min, s->ppn_max);
    if (st != HM_OK) return st;
    if (s->distinct > HOSTS_LISTED_MAX) {
        st = hm_factors_set(factors, "hosts", "%zu hosts", s->distinct);
    } else {
        char *list = malloc(s->list_len + 1);
        if (!list) return hm__error_nomem(__func__);
        host_list(sorted, n, list);
        st = hm_factors_set(factors, "hosts", "%s", list);
        free(list);
    }
    if (st != HM_OK) return st;
    return hm_factors_set(factors, "hosts_digest", "%016" PRIx64, s->digest);
}

int hm__output_summarize_hosts(hm_factors_t *factors, const char *const *hosts, size_t n)
{
    const char **sorted = sorted_copy(hosts, n);
    if (!sorted) return hm__error_nomem(__func__);
    host_stats_t s = host_stats(sorted, n);
    int st = set_host_factors(factors, sorted, n, &s);
    free(sorted);
    return st;
}

static int count_distinct(const char *const *strings, size_t n, size_t *distinct)
{
    *distinct = 0;
    const char **sorted = sorted_copy(strings, n);
    if (!sorted) return hm__error_nomem(__func__);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(sorted[i], sorted[i - 1]) != 0) ++*distinct;
    free(sorted);
    return HM_OK;
}

/* *out = "0:0 1:1 2:unbound" when that stays short, NULL when it would be
 * long. */
static int per_rank_list(const char *const *bindings, size_t n, char **out)
{
    char *list = calloc(PINNING_LIST_MAX + 1, 1);
    *out = NULL;
    if (!list) return hm__error_nomem(__func__);
    size_t used = 0;
    for (size_t r = 0; r < n; r++) {
        size_t room = PINNING_LIST_MAX + 1 - used;
        int len = snprintf(list + used, room, "%s%zu:%s", r ? " " : "", r, bindings[r]);
        if (len < 0 || (size_t)len >= room) {
            free(list);
            list = NULL;
            break;
        }
        used += (size_t)len;
    }
    *out = list;
    return HM_OK;
}

static int set_pinning_count(hm_factors_t *factors, const char *const *bindings, size_t n,
                             size_t unbound)
{
    size_t distinct;
    int st = count_distinct(bindings, n, &distinct);
    if (st != HM_OK) return st;
    if (unbound > 0)
        return hm_factors_set(factors, "pinning", "%zu distinct bindings, %zu ranks unbound",
                              distinct, unbound);
    return hm_factors_set(factors, "pinning", "%zu distinct bindings", distinct);
}

int hm__output_summarize_pinning(hm_factors_t *factors, const char *const *bindings, size_t n)
{
    size_t unbound = 0;
    for (size_t r = 0; r < n; r++) unbound += strcmp(bindings[r], "unbound") == 0;
    if (unbound == n) return hm_factors_set(factors, "pinning", "unbound");
    char *list;
    int st = per_rank_list(bindings, n, &list);
    if (st != HM_OK) return st;
    if (!list) return set_pinning_count(factors, bindings, n, unbound);
    st = hm_factors_set(factors, "pinning", "%s", list);
    free(list);
    return st;
}
