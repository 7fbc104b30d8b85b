/* src/pattern/generators.c — the group-to-group patterns of CommBench
 * [Hidayetoglu et al. 2024, §4.3, Fig. 6-7] as edge lists, and their
 * registry. Adding a family is a function and a line in the table.
 *
 * Rank r is in group r / g at position r % g. A family says, for a pair of
 * groups (A sending, B receiving), which positions of B position i < k of A
 * sends to: always one contiguous range [lo, hi). A direction says which
 * ordered pairs of groups communicate. Every edge list comes out ordered by
 * (src, dst): senders in rank order, each one's destinations in rank order,
 * so that a sender's region j of buffer 0 is its j-th destination, and a
 * counter per receiver, advanced in that order, gives the slot of each
 * message in the receiver's buffer 1 in the order of the senders' ranks. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "common/error_set.h"
#include "common/names.h"

/* Positions [*lo, *hi) of the receiving group that position i sends to. */
typedef void (*targets_fn)(int i, int g, int k, int *lo, int *hi);

struct hm_generator {
    const char *name;
    int (*edges)(const hm_group_params_t *p, hm_edges_t *out);
};

/* ---- families ---- */

static void rail_targets(int i, int g, int k, int *lo, int *hi)
{
    (void)g;
    (void)k;
    *lo = i;
    *hi = i + 1;
}

static void asymmetric_targets(int i, int g, int k, int *lo, int *hi)
{
    (void)i;
    (void)k;
    *lo = 0;
    *hi = g;
}

static void symmetric_targets(int i, int g, int k, int *lo, int *hi)
{
    (void)i;
    (void)g;
    *lo = 0;
    *hi = k;
}

/* ---- directions ---- */

static const char *const direction_names[] = {[HM_DIRECTION_UNI] = "uni",
                                              [HM_DIRECTION_BI] = "bi",
                                              [HM_DIRECTION_OMNI] = "omni",
                                              [HM_DIRECTION_BI_MIRROR] = "bi-mirror",
                                              [HM_DIRECTION_UNI_IN] = "uni-in"};
enum { NDIRECTIONS = sizeof direction_names / sizeof direction_names[0] };

static const char *direction_at(size_t i)
{
    return i < NDIRECTIONS ? direction_names[i] : NULL;
}

/* The groups [*lo, *hi) without skip that group a sends to with the
 * family's pattern (§4.3.2): uni (and bi, whose other half is uni
 * reversed, and uni-in, uni reversed), group 0 to every other group;
 * bi-mirror, also every other group to group 0; omni, every group to
 * every other group. */
static void receiving_groups(hm_direction_t dir, int n, int a, int *lo, int *hi, int *skip)
{
    *skip = -1;
    if (dir == HM_DIRECTION_OMNI) {
        *lo = 0, *hi = n, *skip = a;
    } else if (a == 0) {
        *lo = 1, *hi = n;
    } else if (dir == HM_DIRECTION_BI_MIRROR) {
        *lo = 0, *hi = 1;
    } else {
        *lo = 0, *hi = 0;
    }
}

/* ---- checks ---- */

static int check_params(const hm_group_params_t *p, int min_n, const char *family)
{
    if (p->n < min_n)
        return hm__error_set(HM_EINVAL, "n %d is below %d (%s needs %s)", p->n, min_n, family,
                             min_n == 1 ? "a group" : "two groups");
    if (p->g < 1) return hm__error_set(HM_EINVAL, "g %d is below 1 (ranks per group)", p->g);
    if (p->k < 1 || p->k > p->g)
        return hm__error_set(HM_EINVAL, "k %d is outside 1..g (g = %d)", p->k, p->g);
    if (p->bytes == 0)
        return hm__error_set(HM_EINVAL, "bytes 0 is below 1 (every message moves a byte)");
    if ((unsigned)p->direction >= NDIRECTIONS) {
        char known[128];
        hm__join_names(direction_at, NDIRECTIONS, known, sizeof known);
        return hm__error_set(HM_EINVAL, "direction %d is not one of %s", (int)p->direction, known);
    }
    if (p->n > INT_MAX / p->g)
        return hm__error_set(HM_EINVAL, "n %d x g %d = %lld ranks is above INT_MAX (%d)", p->n,
                             p->g, (long long)p->n * p->g, INT_MAX);
    return HM_OK;
}

static int alloc_edges(size_t n, int nranks, hm_edges_t *out)
{
    out->edge = NULL;
    out->n = 0;
    out->nranks = nranks;
    out->nbufs = 2;
    if (n > SIZE_MAX / sizeof(hm_edge_t))
        return hm__error_set(HM_EINVAL, "%zu edges do not fit in the address space", n);
    out->edge = malloc(n * sizeof(hm_edge_t));
    if (!out->edge && n > 0)
        return hm__error_set(HM_ENOMEM, "%zu edges (%zu bytes) could not be allocated", n,
                             n * sizeof(hm_edge_t));
    out->n = n;
    return HM_OK;
}

/* Turn the slots of every edge (regions counted in sendoff and recvoff)
 * into byte offsets, refusing a buffer whose end would not fit in size_t. */
static int slots_to_offsets(hm_edges_t *out, size_t bytes)
{
    size_t max_slot = 0;
    for (size_t e = 0; e < out->n; e++) {
        if (out->edge[e].sendoff > max_slot) max_slot = out->edge[e].sendoff;
        if (out->edge[e].recvoff > max_slot) max_slot = out->edge[e].recvoff;
    }
    if (out->n > 0 && max_slot + 1 > SIZE_MAX / bytes)
        return hm__error_set(HM_EINVAL, "bytes %zu x %zu regions of one buffer overflows size_t",
                             bytes, max_slot + 1);
    for (size_t e = 0; e < out->n; e++) {
        out->edge[e].sendoff *= bytes;
        out->edge[e].recvoff *= bytes;
    }
    return HM_OK;
}

/* ---- the group families ---- */

static int count_group_edges(const hm_group_params_t *p, targets_fn targets, size_t *count)
{
    size_t per_pair = 0, pairs = 0;
    for (int i = 0; i < p->k; i++) {
        int lo, hi;
        targets(i, p->g, p->k, &lo, &hi);
        per_pair += (size_t)(hi - lo);
    }
    for (int a = 0; a < p->n; a++) {
        int lo, hi, skip;
        receiving_groups(p->direction, p->n, a, &lo, &hi, &skip);
        pairs += (size_t)(hi - lo) - (skip >= lo && skip < hi);
    }
    if (p->direction == HM_DIRECTION_BI) pairs *= 2; /* uni, and uni reversed */
    if (__builtin_mul_overflow(pairs, per_pair, count))
        return hm__error_set(HM_EINVAL, "%zu pairs of groups x %zu edges per pair overflows size_t",
                             pairs, per_pair);
    return HM_OK;
}

static int by_src_dst(const void *pa, const void *pb)
{
    const hm_edge_t *a = pa, *b = pb;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    return (a->dst > b->dst) - (a->dst < b->dst);
}

/* The family's messages of the direction, each (src, dst) once, bi's
 * second half the first half reversed, uni-in's every message of uni
 * reversed (CommBench's inbound). */
static size_t pair_edges(const hm_group_params_t *p, targets_fn targets, hm_edge_t *edge)
{
    int g = p->g, nranks = p->n * g;
    size_t e = 0;
    for (int src = 0; src < nranks; src++) {
        int a = src / g, i = src % g;
        if (i >= p->k) continue;
        int blo, bhi, skip, plo, phi;
        receiving_groups(p->direction, p->n, a, &blo, &bhi, &skip);
        targets(i, g, p->k, &plo, &phi);
        for (int b = blo; b < bhi; b++)
            for (int j = plo; b != skip && j < phi; j++)
                edge[e++] = (hm_edge_t){.src = src, .dst = b * g + j, .bytes = p->bytes};
    }
    for (size_t f = 0, half = e; p->direction == HM_DIRECTION_BI && f < half; f++)
        edge[e++] = (hm_edge_t){.src = edge[f].dst, .dst = edge[f].src, .bytes = p->bytes};
    for (size_t f = 0; p->direction == HM_DIRECTION_UNI_IN && f < e; f++)
        edge[f] = (hm_edge_t){.src = edge[f].dst, .dst = edge[f].src, .bytes = p->bytes};
    return e;
}

/* Edges ordered by (src, dst); buffer 0 sends, buffer 1 receives; a
 * sender's regions follow its receivers' ranks, a receiver's its
 * senders'. */
static int group_edges(const hm_group_params_t *p, const char *family, targets_fn targets,
                       hm_edges_t *out)
{
    int rc = check_params(p, 2, family);
    if (rc != HM_OK) return rc;
    int nranks = p->n * p->g;
    size_t *slot = calloc(2 * (size_t)nranks, sizeof *slot); /* send, then receive */
    if (!slot)
        return hm__error_set(HM_ENOMEM, "a counter per rank (%d ranks) could not be allocated",
                             nranks);
    size_t count = 0, e = 0;
    rc = count_group_edges(p, targets, &count);
    if (rc == HM_OK) rc = alloc_edges(count, nranks, out);
    if (rc == HM_OK) {
        e = pair_edges(p, targets, out->edge);
        qsort(out->edge, e, sizeof *out->edge, by_src_dst);
    }
    for (size_t k = 0; rc == HM_OK && k < e; k++) {
        hm_edge_t *x = &out->edge[k];
        x->sendbuf = 0, x->recvbuf = 1;
        x->sendoff = slot[x->src]++;
        x->recvoff = slot[nranks + x->dst]++;
    }
    free(slot);
    if (rc == HM_OK && e != out->n)
        rc = hm__error_set(HM_EINTERNAL, "%s: %zu edges generated, %zu counted", family, e, out->n);
    if (rc == HM_OK) rc = slots_to_offsets(out, p->bytes);
    if (rc != HM_OK) hm_edges_free(out);
    return rc;
}

static int gen_rail(const hm_group_params_t *p, hm_edges_t *out)
{
    return group_edges(p, "rail", rail_targets, out);
}

static int gen_asymmetric(const hm_group_params_t *p, hm_edges_t *out)
{
    return group_edges(p, "asymmetric", asymmetric_targets, out);
}

static int gen_symmetric(const hm_group_params_t *p, hm_edges_t *out)
{
    return group_edges(p, "symmetric", symmetric_targets, out);
}

/* Positions i < k of every group copy region 0 of their buffer 0 into
 * region 0 of their buffer 1; the direction has nothing to choose. */
static int gen_self(const hm_group_params_t *p, hm_edges_t *out)
{
    int rc = check_params(p, 1, "self");
    if (rc != HM_OK) return rc;
    rc = alloc_edges((size_t)p->n * (size_t)p->k, p->n * p->g, out);
    if (rc != HM_OK) return rc;
    size_t e = 0;
    for (int a = 0; a < p->n; a++)
        for (int i = 0; i < p->k; i++) {
            int r = a * p->g + i;
            out->edge[e++] = (hm_edge_t){.src = r,
                                         .dst = r,
                                         .sendbuf = 0,
                                         .recvbuf = 1,
                                         .sendoff = 0,
                                         .recvoff = 0,
                                         .bytes = p->bytes};
        }
    return HM_OK;
}

/* ---- registry ---- */

static const hm_generator_t generators[] = {
    {"rail", gen_rail},
    {"asymmetric", gen_asymmetric},
    {"symmetric", gen_symmetric},
    {"self", gen_self},
};
enum { NGENERATORS = sizeof generators / sizeof generators[0] };

size_t hm_generator_count(void)
{
    return NGENERATORS;
}

const char *hm_generator_name_at(size_t i)
{
    return i < NGENERATORS ? generators[i].name : NULL;
}

const hm_generator_t *hm_generator_find(const char *name)
{
    if (!name) {
        hm__error_null(__func__, "name");
        return NULL;
    }
    for (size_t i = 0; i < NGENERATORS; i++)
        if (strcmp(generators[i].name, name) == 0) return &generators[i];
    return NULL;
}

void hm_generator_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_generator_name_at, NGENERATORS, buf, len);
}

const char *hm_generator_name(const hm_generator_t *gen)
{
    if (!gen) hm__error_null(__func__, "gen");
    return gen ? gen->name : NULL;
}

const char *hm_direction_name(hm_direction_t direction)
{
    return direction_at((size_t)direction);
}

int hm_direction_find(const char *name, hm_direction_t *out)
{
    char known[128]; /* every name fits: a cut list would hide the last */
    if (!name) return hm__error_null(__func__, "name");
    for (size_t i = 0; i < NDIRECTIONS; i++)
        if (strcmp(direction_names[i], name) == 0) {
            if (out) *out = (hm_direction_t)i; /* NULL: only a check of the name */
            return HM_OK;
        }
    hm__join_names(direction_at, NDIRECTIONS, known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown direction \"%s\" (known: %s)", name, known);
}

int hm_generator_edges(const hm_generator_t *gen, const hm_group_params_t *params, hm_edges_t *out)
{
    if (out) *out = (hm_edges_t){0};
    if (!gen) return hm__error_null(__func__, "gen");
    if (!params) return hm__error_null(__func__, "params");
    if (!out) return hm__error_null(__func__, "out");
    return gen->edges(params, out);
}
