/* tests/pattern/test_generators.c — the group generators, striping and the
 * edge utilities against edge lists written by hand from the definitions
 * in include/harmonia/pattern.h [Hidayetoglu et al. 2024, §4.2-4.3].
 *
 * Rank r is in group r / g at position r % g. Every message is B = 10
 * bytes, so that offsets read as region numbers: a sender's j-th
 * destination (in rank order) is its region j, at 10 j in buffer 0; a
 * receiver's j-th sender (in rank order) lands at 10 j in buffer 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "testutil.h"

enum { B = 10 };

/* An expected edge of a group pattern: buffers 0 -> 1, B bytes. */
typedef struct want {
    int src, dst;
    size_t sendoff, recvoff;
} want_t;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static hm_edges_t generate(const char *family, int n, int g, int k, hm_direction_t dir,
                           size_t bytes, int *rc)
{
    hm_edges_t e;
    hm_group_params_t p = {.n = n, .g = g, .k = k, .direction = dir, .bytes = bytes};
    *rc = hm_generator_edges(hm_generator_find(family), &p, &e);
    return e;
}

/* The generated list equals want, edge by edge, in (src, dst) order. */
static void expect(const char *family, int n, int g, int k, hm_direction_t dir, const want_t *want,
                   size_t nwant)
{
    int rc;
    hm_edges_t e = generate(family, n, g, k, dir, B, &rc);
    const char *d = hm_direction_name(dir);
    HM_CHECK(rc == HM_OK, "%s (%d, %d, %d) %s: generated (%d %s)", family, n, g, k, d, rc,
             rc ? hm_last_error() : "");
    if (rc != HM_OK) return;
    HM_CHECK(e.nranks == n * g && e.nbufs == 2, "%s (%d, %d, %d) %s: nranks %d = n g, nbufs %d = 2",
             family, n, g, k, d, e.nranks, e.nbufs);
    HM_CHECK(e.n == nwant, "%s (%d, %d, %d) %s: %zu edges, want %zu", family, n, g, k, d, e.n,
             nwant);
    for (size_t i = 0; i < e.n && i < nwant; i++) {
        const hm_edge_t *x = &e.edge[i];
        const want_t *w = &want[i];
        int same = x->src == w->src && x->dst == w->dst && x->sendbuf == 0 && x->recvbuf == 1 &&
                   x->sendoff == w->sendoff && x->recvoff == w->recvoff && x->bytes == B;
        HM_CHECK(same,
                 "%s (%d, %d, %d) %s: edge %zu is %d -> %d buf %d@%zu -> buf %d@%zu, %zu bytes; "
                 "want %d -> %d buf 0@%zu -> buf 1@%zu, %d bytes",
                 family, n, g, k, d, i, x->src, x->dst, x->sendbuf, x->sendoff, x->recvbuf,
                 x->recvoff, x->bytes, w->src, w->dst, w->sendoff, w->recvoff, B);
    }
    hm_edges_free(&e);
    HM_CHECK(e.edge == NULL && e.n == 0, "hm_edges_free leaves an empty list");
}

/* ---- two groups (Fig. 6: n = 2, g = 3; groups {0,1,2} and {3,4,5}) ---- */

static void test_two_groups(void)
{
    /* rail k = 1: the inter-node ping of §4.3.1, rank 0 to rank 3. */
    const want_t rail1[] = {{0, 3, 0, 0}};
    expect("rail", 2, 3, 1, HM_DIRECTION_UNI, rail1, N(rail1));
    /* rail k = 2: positions 0 and 1 each to their twin in group 1; one
     * destination and one sender each, so every offset is 0. */
    const want_t rail2[] = {{0, 3, 0, 0}, {1, 4, 0, 0}};
    expect("rail", 2, 3, 2, HM_DIRECTION_UNI, rail2, N(rail2));
    /* rail k = g: every position of group 0. */
    const want_t rail3[] = {{0, 3, 0, 0}, {1, 4, 0, 0}, {2, 5, 0, 0}};
    expect("rail", 2, 3, 3, HM_DIRECTION_UNI, rail3, N(rail3));

    /* asymmetric k = 1: one-to-g (rank 0 to 3, 4, 5, regions 0, 1, 2 of
     * its buffer 0); each receiver has one sender, slot 0. */
    const want_t asym1[] = {{0, 3, 0, 0}, {0, 4, 10, 0}, {0, 5, 20, 0}};
    expect("asymmetric", 2, 3, 1, HM_DIRECTION_UNI, asym1, N(asym1));
    /* asymmetric g = 3, k = 2: ranks 0 and 1 to all of group 1; every
     * receiver hears 0 first (slot 0, offset 0), then 1 (slot 1, 10). */
    const want_t asym2[] = {{0, 3, 0, 0},  {0, 4, 10, 0},  {0, 5, 20, 0},
                            {1, 3, 0, 10}, {1, 4, 10, 10}, {1, 5, 20, 10}};
    expect("asymmetric", 2, 3, 2, HM_DIRECTION_UNI, asym2, N(asym2));

    /* symmetric g = 3, k = 2: ranks 0, 1 to ranks 3, 4 only; 5 is idle. */
    const want_t sym2[] = {{0, 3, 0, 0}, {0, 4, 10, 0}, {1, 3, 0, 10}, {1, 4, 10, 10}};
    expect("symmetric", 2, 3, 2, HM_DIRECTION_UNI, sym2, N(sym2));
    /* k = g: asymmetric and symmetric converge (§4.3.1): all 9 pairs;
     * sender s sends region j to rank 3 + j, receiver 3 + j files sender
     * s in slot s. */
    const want_t full[] = {{0, 3, 0, 0},  {0, 4, 10, 0},  {0, 5, 20, 0},
                           {1, 3, 0, 10}, {1, 4, 10, 10}, {1, 5, 20, 10},
                           {2, 3, 0, 20}, {2, 4, 10, 20}, {2, 5, 20, 20}};
    expect("symmetric", 2, 3, 3, HM_DIRECTION_UNI, full, N(full));
    expect("asymmetric", 2, 3, 3, HM_DIRECTION_UNI, full, N(full));

    /* asymmetric g = 3, k = 2, bi (CommBench's: every message of uni
     * reversed): ranks 0, 1 to all of group 1, and all of group 1 back to
     * ranks 0, 1; rank 2 takes no part. Ranks 0, 1 hear 3, 4, 5 in slots
     * 0, 1, 2. */
    const want_t asym2bi[] = {{0, 3, 0, 0},   {0, 4, 10, 0},  {0, 5, 20, 0}, {1, 3, 0, 10},
                              {1, 4, 10, 10}, {1, 5, 20, 10}, {3, 0, 0, 0},  {3, 1, 10, 0},
                              {4, 0, 0, 10},  {4, 1, 10, 10}, {5, 0, 0, 20}, {5, 1, 10, 20}};
    expect("asymmetric", 2, 3, 2, HM_DIRECTION_BI, asym2bi, N(asym2bi));
    /* bi-mirror: the uni edges, then group 1 as the sender with the same
     * pair pattern: its positions 0, 1 (ranks 3, 4) to all three of group
     * 0. Rank 2 and 5 only receive. */
    const want_t asym2mirror[] = {{0, 3, 0, 0},   {0, 4, 10, 0},  {0, 5, 20, 0},  {1, 3, 0, 10},
                                  {1, 4, 10, 10}, {1, 5, 20, 10}, {3, 0, 0, 0},   {3, 1, 10, 0},
                                  {3, 2, 20, 0},  {4, 0, 0, 10},  {4, 1, 10, 10}, {4, 2, 20, 10}};
    expect("asymmetric", 2, 3, 2, HM_DIRECTION_BI_MIRROR, asym2mirror, N(asym2mirror));
    /* With two groups every ordered pair of groups is (0, 1) or (1, 0):
     * omni, each group in turn the first of the pair, is bi-mirror. */
    expect("asymmetric", 2, 3, 2, HM_DIRECTION_OMNI, asym2mirror, N(asym2mirror));
}

/* ---- three groups: the directions (Fig. 7) ---- */

static void test_directions(void)
{
    /* rail (3, 2, 2), Fig. 7: groups {0,1}, {2,3}, {4,5}. uni: group 0 to
     * groups 1 and 2; rank 0 sends region 0 to 2 and region 1 to 4. */
    const want_t uni[] = {{0, 2, 0, 0}, {0, 4, 10, 0}, {1, 3, 0, 0}, {1, 5, 10, 0}};
    expect("rail", 3, 2, 2, HM_DIRECTION_UNI, uni, N(uni));
    /* bi: also groups 1 and 2 back to group 0; rank 0 receives from 2
     * (slot 0) and 4 (slot 1, offset 10); rank 1 from 3 and 5 alike. */
    const want_t bi[] = {{0, 2, 0, 0}, {0, 4, 10, 0}, {1, 3, 0, 0},  {1, 5, 10, 0},
                         {2, 0, 0, 0}, {3, 1, 0, 0},  {4, 0, 0, 10}, {5, 1, 0, 10}};
    expect("rail", 3, 2, 2, HM_DIRECTION_BI, bi, N(bi));
    /* omni: every ordered pair of distinct groups. Each rank sends to its
     * twin in the two other groups (regions 0, 1) and receives from both
     * (slots 0, 1 in the order of the senders' ranks): rank 4 hears 0
     * then 2, so 2 -> 4 lands at 10. */
    const want_t omni[] = {{0, 2, 0, 0},  {0, 4, 10, 0},  {1, 3, 0, 0},  {1, 5, 10, 0},
                           {2, 0, 0, 0},  {2, 4, 10, 10}, {3, 1, 0, 0},  {3, 5, 10, 10},
                           {4, 0, 0, 10}, {4, 2, 10, 10}, {5, 1, 0, 10}, {5, 3, 10, 10}};
    expect("rail", 3, 2, 2, HM_DIRECTION_OMNI, omni, N(omni));

    /* rail (3, 3, 2) bi: groups {0,1,2}, {3,4,5}, {6,7,8}; positions 0, 1
     * only; position 2 (ranks 2, 5, 8) is idle. */
    const want_t rail332[] = {{0, 3, 0, 0}, {0, 6, 10, 0}, {1, 4, 0, 0},  {1, 7, 10, 0},
                              {3, 0, 0, 0}, {4, 1, 0, 0},  {6, 0, 0, 10}, {7, 1, 0, 10}};
    expect("rail", 3, 3, 2, HM_DIRECTION_BI, rail332, N(rail332));

    /* symmetric (3, 2, 1) omni: positions 0 only (ranks 0, 2, 4), all to
     * all; rank 2 receives from 0 (slot 0) then 4 (slot 1). */
    const want_t sym321[] = {{0, 2, 0, 0},   {0, 4, 10, 0}, {2, 0, 0, 0},
                             {2, 4, 10, 10}, {4, 0, 0, 10}, {4, 2, 10, 10}};
    expect("symmetric", 3, 2, 1, HM_DIRECTION_OMNI, sym321, N(sym321));

    /* asymmetric (3, 2, 1): rank 0 to all g ranks of the other groups. */
    const want_t asym_uni[] = {{0, 2, 0, 0}, {0, 3, 10, 0}, {0, 4, 20, 0}, {0, 5, 30, 0}};
    expect("asymmetric", 3, 2, 1, HM_DIRECTION_UNI, asym_uni, N(asym_uni));
    /* bi: uni reversed, every rank of groups 1 and 2 back to rank 0,
     * which hears 2, 3, 4, 5 in slots 0 to 3; rank 1 takes no part. */
    const want_t asym_bi[] = {{0, 2, 0, 0}, {0, 3, 10, 0}, {0, 4, 20, 0}, {0, 5, 30, 0},
                              {2, 0, 0, 0}, {3, 0, 0, 10}, {4, 0, 0, 20}, {5, 0, 0, 30}};
    expect("asymmetric", 3, 2, 1, HM_DIRECTION_BI, asym_bi, N(asym_bi));
    /* bi-mirror: position 0 of groups 1 and 2 (ranks 2, 4) to both ranks
     * of group 0; ranks 0 and 1 hear 2 (slot 0) then 4 (slot 1). */
    const want_t asym_mirror[] = {{0, 2, 0, 0}, {0, 3, 10, 0}, {0, 4, 20, 0}, {0, 5, 30, 0},
                                  {2, 0, 0, 0}, {2, 1, 10, 0}, {4, 0, 0, 10}, {4, 1, 10, 10}};
    expect("asymmetric", 3, 2, 1, HM_DIRECTION_BI_MIRROR, asym_mirror, N(asym_mirror));
    /* omni, harmonia's definition: each group in turn is the first group
     * of the pair, so ranks 0, 2, 4 each send to all 4 ranks outside their
     * group; every rank hears the two senders of the other groups. */
    const want_t asym_omni[] = {{0, 2, 0, 0},  {0, 3, 10, 0},  {0, 4, 20, 0},  {0, 5, 30, 0},
                                {2, 0, 0, 0},  {2, 1, 10, 0},  {2, 4, 20, 10}, {2, 5, 30, 10},
                                {4, 0, 0, 10}, {4, 1, 10, 10}, {4, 2, 20, 10}, {4, 3, 30, 10}};
    expect("asymmetric", 3, 2, 1, HM_DIRECTION_OMNI, asym_omni, N(asym_omni));
}

/* ---- g = 1: the MPI collective baselines of docs/pattern.md ---- */

static void test_collectives(void)
{
    /* Groups of one rank over P = 4 ranks, uni: rank 0 to ranks 1, 2, 3,
     * regions 0, 1, 2 (MPI_Scatter from root 0, without the root's own
     * block). The three families agree when g = k = 1. */
    const want_t scatter[] = {{0, 1, 0, 0}, {0, 2, 10, 0}, {0, 3, 20, 0}};
    expect("asymmetric", 4, 1, 1, HM_DIRECTION_UNI, scatter, N(scatter));
    expect("rail", 4, 1, 1, HM_DIRECTION_UNI, scatter, N(scatter));
    /* omni over P = 3: every rank to every other rank (MPI_Alltoall
     * without the self blocks). */
    const want_t alltoall[] = {{0, 1, 0, 0},   {0, 2, 10, 0}, {1, 0, 0, 0},
                               {1, 2, 10, 10}, {2, 0, 0, 10}, {2, 1, 10, 10}};
    expect("symmetric", 3, 1, 1, HM_DIRECTION_OMNI, alltoall, N(alltoall));
}

static void test_self(void)
{
    /* n = 1 is allowed for self; positions 0, 1 of the one group copy
     * region 0 of buffer 0 into region 0 of buffer 1. */
    const want_t one[] = {{0, 0, 0, 0}, {1, 1, 0, 0}};
    expect("self", 1, 3, 2, HM_DIRECTION_UNI, one, N(one));
    /* Position 0 of each of two groups of 2: ranks 0 and 2; the direction
     * has nothing to choose. */
    const want_t two[] = {{0, 0, 0, 0}, {2, 2, 0, 0}};
    expect("self", 2, 2, 1, HM_DIRECTION_UNI, two, N(two));
    expect("self", 2, 2, 1, HM_DIRECTION_OMNI, two, N(two));
}

/* ---- refusals name the parameter, the value and the limit ---- */

static void refuse(const char *family, int n, int g, int k, hm_direction_t dir, size_t bytes,
                   const char *words)
{
    int rc;
    hm_edges_t e = generate(family, n, g, k, dir, bytes, &rc);
    const char *why = hm_last_error();
    HM_CHECK(rc == HM_EINVAL && strstr(why, words) != NULL,
             "%s (%d, %d, %d, dir %d, %zu bytes) refused: %d \"%s\", want HM_EINVAL \"%s\"", family,
             n, g, k, (int)dir, bytes, rc, why, words);
    HM_CHECK(e.edge == NULL && e.n == 0, "%s refused: no edges left to free", family);
}

static void test_refusals(void)
{
    refuse("rail", 1, 3, 1, HM_DIRECTION_UNI, B, "n 1 is below 2");
    refuse("asymmetric", 0, 3, 1, HM_DIRECTION_UNI, B, "n 0 is below 2");
    refuse("self", 0, 3, 1, HM_DIRECTION_UNI, B, "n 0 is below 1");
    refuse("symmetric", 2, 0, 1, HM_DIRECTION_UNI, B, "g 0 is below 1");
    refuse("rail", 2, 3, 0, HM_DIRECTION_UNI, B, "k 0 is outside 1..g (g = 3)");
    refuse("rail", 2, 3, 4, HM_DIRECTION_UNI, B, "k 4 is outside 1..g (g = 3)");
    refuse("self", 2, 3, 4, HM_DIRECTION_UNI, B, "k 4 is outside 1..g (g = 3)");
    refuse("rail", 2, 3, 1, HM_DIRECTION_UNI, 0, "bytes 0 is below 1");
    refuse("rail", 2, 3, 1, (hm_direction_t)7, B,
           "direction 7 is not one of uni, bi, omni, bi-mirror, uni-in");
    /* 65536 x 65536 = 2^32 ranks do not fit in an int. */
    refuse("rail", 65536, 65536, 1, HM_DIRECTION_UNI, B, "n 65536 x g 65536 = 4294967296 ranks");
    /* Rank 0 sends 3 regions of SIZE_MAX / 2 bytes: the end of its buffer 0
     * is past SIZE_MAX. */
    refuse("asymmetric", 2, 3, 1, HM_DIRECTION_UNI, SIZE_MAX / 2, "overflows size_t");
    /* One region of SIZE_MAX / 2 bytes fits: the check is on the end of
     * the last region, not on the message. */
    int rc;
    hm_edges_t e = generate("rail", 2, 3, 1, HM_DIRECTION_UNI, SIZE_MAX / 2, &rc);
    HM_CHECK(rc == HM_OK && e.n == 1, "rail (2, 3, 1) with SIZE_MAX / 2 bytes: accepted (%d)", rc);
    hm_edges_free(&e);

    hm_group_params_t p = {.n = 2, .g = 1, .k = 1, .direction = HM_DIRECTION_UNI, .bytes = 1};
    rc = hm_generator_edges(NULL, &p, &e);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "gen"), "NULL generator refused: %d %s", rc,
             hm_last_error());
}

/* ---- registry ---- */

static void test_registry(void)
{
    static const char *const names[] = {"rail", "asymmetric", "symmetric", "self"};
    HM_CHECK(hm_generator_count() == 4, "4 generators (%zu)", hm_generator_count());
    for (size_t i = 0; i < 4; i++) {
        const hm_generator_t *gen = hm_generator_find(names[i]);
        HM_CHECK(gen && strcmp(hm_generator_name(gen), names[i]) == 0 &&
                     strcmp(hm_generator_name_at(i), names[i]) == 0,
                 "generator %zu is %s, found by its name", i, names[i]);
    }
    HM_CHECK(hm_generator_name_at(4) == NULL, "no fifth generator");
    HM_CHECK(hm_generator_find("fan") == NULL && hm_generator_find(NULL) == NULL,
             "unknown names are not found");
    char buf[64];
    hm_generator_names(buf, sizeof buf);
    HM_CHECK(strcmp(buf, "rail, asymmetric, symmetric, self") == 0, "names: \"%s\"", buf);
    /* Too short a buffer: whole names, then "...", never a name cut into
     * another ("uni-in" once read "uni-i" in a 32-byte list). */
    hm_generator_names(buf, 16);
    HM_CHECK(strcmp(buf, "rail, ...") == 0, "names in 16 bytes: \"%s\"", buf);
    hm_generator_names(buf, 4);
    HM_CHECK(strcmp(buf, "") == 0, "names in 4 bytes: \"%s\" (not \"rai\")", buf);

    static const char *const dirs[] = {"uni", "bi", "omni", "bi-mirror", "uni-in"};
    for (int d = 0; d < 5; d++) {
        hm_direction_t got = (hm_direction_t)-1;
        int rc = hm_direction_find(dirs[d], &got);
        HM_CHECK(rc == HM_OK && (int)got == d && strcmp(hm_direction_name(got), dirs[d]) == 0,
                 "direction %s is %d both ways", dirs[d], d);
    }
    int rc = hm_direction_find("sideways", NULL);
    HM_CHECK(rc == HM_ENOENT &&
                 strcmp(hm_last_error(),
                        "unknown direction \"sideways\" (known: uni, bi, omni, bi-mirror, "
                        "uni-in)") == 0,
             "unknown direction: %d \"%s\"", rc, hm_last_error());
}

/* ---- uni-in: CommBench's inbound ---- */

/* (src, dst) of edge i of e, as one number for comparing sets. */
static long long pair_key(const hm_edge_t *x, int nranks)
{
    return (long long)x->src * nranks + x->dst;
}

static int by_key(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The sorted (src, dst) keys of e, reversed first when reverse is set. */
static long long *keys_of(const hm_edges_t *e, int reverse)
{
    long long *k = malloc((e->n ? e->n : 1) * sizeof *k);
    for (size_t i = 0; k && i < e->n; i++) {
        hm_edge_t x = e->edge[i];
        if (reverse) x.src = e->edge[i].dst, x.dst = e->edge[i].src;
        k[i] = pair_key(&x, e->nranks);
    }
    if (k) qsort(k, e->n, sizeof *k, by_key);
    return k;
}

/* uni-in is every message of uni reversed, and bi is uni and uni-in, for
 * every family of two or more groups, at shapes where k < g (where
 * bi-mirror differs) and k = g. */
static void test_uni_in(void)
{
    static const char *const families[] = {"rail", "asymmetric", "symmetric"};
    static const int shapes[][3] = {{2, 2, 1}, {2, 3, 2}, {3, 2, 1}, {4, 2, 2}};
    for (size_t f = 0; f < N(families); f++)
        for (size_t s = 0; s < N(shapes); s++) {
            int n = shapes[s][0], g = shapes[s][1], k = shapes[s][2], r1, r2, r3;
            hm_edges_t uni = generate(families[f], n, g, k, HM_DIRECTION_UNI, B, &r1);
            hm_edges_t in = generate(families[f], n, g, k, HM_DIRECTION_UNI_IN, B, &r2);
            hm_edges_t bi = generate(families[f], n, g, k, HM_DIRECTION_BI, B, &r3);
            long long *ku = keys_of(&uni, 1), *ki = keys_of(&in, 0), *kb = keys_of(&bi, 0);
            long long *both = malloc(2 * (uni.n ? uni.n : 1) * sizeof *both);
            int ok =
                !r1 && !r2 && !r3 && ku && ki && kb && both && in.n == uni.n && bi.n == 2 * uni.n;
            for (size_t i = 0; ok && i < in.n; i++) ok = ki[i] == ku[i];
            for (size_t i = 0; ok && i < uni.n; i++)
                both[i] = pair_key(&uni.edge[i], uni.nranks), both[uni.n + i] = ku[i];
            if (ok) qsort(both, 2 * uni.n, sizeof *both, by_key);
            for (size_t i = 0; ok && i < bi.n; i++) ok = both[i] == kb[i];
            for (size_t i = 0; ok && i < in.n; i++) ok = in.edge[i].dst / g == 0;
            HM_CHECK(ok,
                     "%s (%d, %d, %d): uni-in is uni reversed (%zu of %zu edges), every message "
                     "to group 0, and bi is uni and uni-in (%zu edges)",
                     families[f], n, g, k, in.n, uni.n, bi.n);
            free(ku), free(ki), free(kb), free(both);
            hm_edges_free(&uni), hm_edges_free(&in), hm_edges_free(&bi);
        }
}

/* ---- hm_edges_node_bytes: the bandwidth per node's bytes ---- */

static void expect_node_bytes(const char *family, int n, int g, int k, hm_direction_t dir,
                              uint64_t want)
{
    int rc;
    hm_edges_t e = generate(family, n, g, k, dir, B, &rc);
    uint64_t got = rc == HM_OK ? hm_edges_node_bytes(&e, g) : 0;
    HM_CHECK(rc == HM_OK && got == want,
             "%s (%d, %d, %d) %s: %llu bytes through the busiest "
             "group, want %llu",
             family, n, g, k, hm_direction_name(dir), (unsigned long long)got,
             (unsigned long long)want);
    hm_edges_free(&e);
}

static void test_node_bytes(void)
{
    /* symmetric omni (4, 2, 2): 4 x 3 pairs of groups x 4 messages = 480
     * bytes; each group sends 3 x 4 and receives 3 x 4 messages: 240, that
     * is 2 / n of every message's bytes (CommBench's Fig. 12 per node). */
    expect_node_bytes("symmetric", 4, 2, 2, HM_DIRECTION_OMNI, 240);
    /* Two groups: uni, bi and uni-in put every byte through group 0. */
    expect_node_bytes("rail", 2, 3, 3, HM_DIRECTION_UNI, 30);
    expect_node_bytes("rail", 2, 3, 3, HM_DIRECTION_BI, 60);
    expect_node_bytes("asymmetric", 2, 3, 1, HM_DIRECTION_UNI_IN, 30);
    /* asymmetric uni (3, 2, 1): rank 0 to the 4 ranks of groups 1 and 2:
     * group 0 sends 40, each other group receives 20. */
    expect_node_bytes("asymmetric", 3, 2, 1, HM_DIRECTION_UNI, 40);
    /* self stays within its group; so does a pattern read with g = P. */
    expect_node_bytes("self", 2, 2, 2, HM_DIRECTION_UNI, 0);
    int rc;
    hm_edges_t e = generate("rail", 2, 2, 2, HM_DIRECTION_BI, B, &rc);
    HM_CHECK(hm_edges_node_bytes(&e, 4) == 0, "one group of 4: nothing crosses");
    HM_CHECK(hm_edges_node_bytes(&e, 0) == 0 && strstr(hm_last_error(), "g 0 is below 1"),
             "g 0 refused: \"%s\"", hm_last_error());
    hm_edges_free(&e);
}

/* ---- hm_edges_extent ---- */

static void expect_extent(const hm_edges_t *e, int rank, const size_t *want, const char *what)
{
    size_t got[4] = {99, 99, 99, 99};
    hm_edges_extent(e, rank, got);
    int same = 1;
    for (int b = 0; b < e->nbufs; b++) same &= got[b] == want[b];
    HM_CHECK(same && got[e->nbufs] == 99,
             "%s: rank %d extents %zu %zu %zu, want %zu %zu %zu (only nbufs written)", what, rank,
             got[0], got[1], e->nbufs > 2 ? got[2] : 0, want[0], want[1],
             e->nbufs > 2 ? want[2] : 0);
}

static void test_extent(void)
{
    /* A hand-made list with gaps: the extent is the end of the last
     * region, not the sum of the regions. */
    hm_edge_t list[] = {
        {.src = 0, .dst = 1, .sendbuf = 2, .recvbuf = 0, .sendoff = 100, .recvoff = 0, .bytes = 5},
        {.src = 1, .dst = 0, .sendbuf = 0, .recvbuf = 2, .sendoff = 7, .recvoff = 50, .bytes = 3},
        {.src = 0, .dst = 0, .sendbuf = 0, .recvbuf = 1, .sendoff = 0, .recvoff = 8, .bytes = 4},
    };
    hm_edges_t e = {.edge = list, .n = 3, .nranks = 3, .nbufs = 3};
    /* Rank 0: buffer 0 sends 0..4 (copy); buffer 1 receives 8..12 (copy);
     * buffer 2 sends 100..105 and receives 50..53: the larger end, 105. */
    expect_extent(&e, 0, (const size_t[]){4, 12, 105}, "hand list");
    /* Rank 1: buffer 0 receives 0..5 and sends 7..10: 10; 1 and 2 unused. */
    expect_extent(&e, 1, (const size_t[]){10, 0, 0}, "hand list");
    /* Rank 2 is in no edge. */
    expect_extent(&e, 2, (const size_t[]){0, 0, 0}, "hand list");

    /* asymmetric (2, 3, 2) bi-mirror, 10 bytes: rank 0 sends 3 regions
     * (30) and receives from 3 and 4 (20); rank 2 (position 2 >= k) only
     * receives from 3 and 4 (20); rank 4 sends 3 regions and receives from
     * 0, 1. */
    int rc;
    hm_edges_t a = generate("asymmetric", 2, 3, 2, HM_DIRECTION_BI_MIRROR, B, &rc);
    expect_extent(&a, 0, (const size_t[]){30, 20}, "asymmetric (2, 3, 2) bi-mirror");
    expect_extent(&a, 2, (const size_t[]){0, 20}, "asymmetric (2, 3, 2) bi-mirror");
    expect_extent(&a, 4, (const size_t[]){30, 20}, "asymmetric (2, 3, 2) bi-mirror");
    hm_edges_free(&a);
    /* bi: rank 0 sends 3 and hears 3 (30, 30); rank 4 sends 2 and hears 2
     * (20, 20); rank 2 takes no part. */
    a = generate("asymmetric", 2, 3, 2, HM_DIRECTION_BI, B, &rc);
    expect_extent(&a, 0, (const size_t[]){30, 30}, "asymmetric (2, 3, 2) bi");
    expect_extent(&a, 2, (const size_t[]){0, 0}, "asymmetric (2, 3, 2) bi");
    expect_extent(&a, 4, (const size_t[]){20, 20}, "asymmetric (2, 3, 2) bi");
    hm_edges_free(&a);
}

/* ---- striping ---- */

static int same_edge(const hm_edge_t *x, const hm_edge_t *w)
{
    return x->src == w->src && x->dst == w->dst && x->sendbuf == w->sendbuf &&
           x->recvbuf == w->recvbuf && x->sendoff == w->sendoff && x->recvoff == w->recvoff &&
           x->bytes == w->bytes;
}

/* Stripes of 11 bytes over g = 3: 11 / 3 = 3 and 11 % 3 = 2, so stripes
 * 0 and 1 are 4 bytes (at 0 and 4) and stripe 2 is 3 (at 8). */
static void test_striping_edges(void)
{
    hm_edges_t s[3];
    int rc = hm_striping_edges(3, 11, s);
    HM_CHECK(rc == HM_OK, "striping g = 3, 11 bytes (%d)", rc);
    if (rc != HM_OK) return;
    const hm_edge_t want[3][3] = {
        /* split: stripes 1, 2 from rank 0's buffer 0 to offset 0 of the
         * staging buffer of ranks 1, 2. */
        {{0, 1, 0, 2, 4, 0, 4}, {0, 2, 0, 2, 8, 0, 3}},
        /* translate: stripe 0 from rank 0 straight into rank 3's buffer 1;
         * stripes 1, 2 staging to staging, rank i to rank 3 + i. */
        {{0, 3, 0, 1, 0, 0, 4}, {1, 4, 2, 2, 0, 0, 4}, {2, 5, 2, 2, 0, 0, 3}},
        /* assemble: ranks 4, 5 into rank 3's buffer 1 at 4 and 8. */
        {{4, 3, 2, 1, 0, 4, 4}, {5, 3, 2, 1, 0, 8, 3}},
    };
    const size_t nwant[3] = {2, 3, 2};
    for (int t = 0; t < 3; t++) {
        HM_CHECK(s[t].n == nwant[t] && s[t].nranks == 6 && s[t].nbufs == 3,
                 "step %d: %zu edges (want %zu) over %d ranks (6), %d buffers (3)", t, s[t].n,
                 nwant[t], s[t].nranks, s[t].nbufs);
        for (size_t i = 0; i < s[t].n && i < nwant[t]; i++)
            HM_CHECK(same_edge(&s[t].edge[i], &want[t][i]),
                     "step %d edge %zu: %d -> %d buf %d@%zu -> buf %d@%zu, %zu bytes", t, i,
                     s[t].edge[i].src, s[t].edge[i].dst, s[t].edge[i].sendbuf, s[t].edge[i].sendoff,
                     s[t].edge[i].recvbuf, s[t].edge[i].recvoff, s[t].edge[i].bytes);
        hm_edges_free(&s[t]);
    }
}

/* The oracle: run the three steps on per-rank arrays sized by
 * hm_edges_extent and compare rank g's buffer 1 with rank 0's buffer 0.
 * The edges of one step run concurrently, so each step reads every source
 * before it writes any destination; every byte of the result must be
 * written exactly once. */
static void simulate_striping(int g, size_t bytes)
{
    hm_edges_t s[3];
    int rc = hm_striping_edges(g, bytes, s);
    HM_CHECK(rc == HM_OK, "striping g = %d, %zu bytes (%d %s)", g, bytes, rc,
             rc ? hm_last_error() : "");
    if (rc != HM_OK) return;
    int nranks = 2 * g;
    uint8_t *mem[8][3] = {{NULL}};
    size_t size[8][3] = {{0}};
    for (int r = 0; r < nranks; r++) {
        size_t ext[3] = {0, 0, 0};
        for (int t = 0; t < 3; t++) {
            size_t e[3];
            hm_edges_extent(&s[t], r, e);
            for (int b = 0; b < 3; b++)
                if (e[b] > ext[b]) ext[b] = e[b];
        }
        for (int b = 0; b < 3; b++) {
            size[r][b] = ext[b];
            mem[r][b] = calloc(ext[b] + 1, 1);
        }
    }
    /* Rank 0's send buffer and rank g's receive buffer hold the whole
     * message. */
    HM_CHECK(size[0][0] == bytes && size[g][1] == bytes, "g %d: extents %zu and %zu = %zu", g,
             size[0][0], size[g][1], bytes);
    for (size_t i = 0; i < bytes; i++) mem[0][0][i] = (uint8_t)(1 + (i * 7 + i / 251) % 251);

    unsigned *writes = calloc(bytes, sizeof *writes);
    int inside = 1;
    for (int t = 0; t < 3; t++) {
        uint8_t **tmp = calloc(s[t].n + 1, sizeof *tmp);
        for (size_t i = 0; i < s[t].n; i++) {
            const hm_edge_t *e = &s[t].edge[i];
            inside &= e->sendoff + e->bytes <= size[e->src][e->sendbuf];
            tmp[i] = malloc(e->bytes);
            memcpy(tmp[i], mem[e->src][e->sendbuf] + e->sendoff, e->bytes);
        }
        for (size_t i = 0; i < s[t].n; i++) {
            const hm_edge_t *e = &s[t].edge[i];
            inside &= e->recvoff + e->bytes <= size[e->dst][e->recvbuf];
            memcpy(mem[e->dst][e->recvbuf] + e->recvoff, tmp[i], e->bytes);
            if (e->dst == g && e->recvbuf == 1)
                for (size_t j = 0; j < e->bytes; j++) writes[e->recvoff + j]++;
            free(tmp[i]);
        }
        free(tmp);
    }
    int once = 1;
    for (size_t i = 0; i < bytes; i++) once &= writes[i] == 1;
    HM_CHECK(inside, "g %d, %zu bytes: every region inside its extent", g, bytes);
    HM_CHECK(once, "g %d, %zu bytes: every byte of the result written exactly once", g, bytes);
    HM_CHECK(memcmp(mem[g][1], mem[0][0], bytes) == 0,
             "g %d, %zu bytes: rank %d's buffer 1 is rank 0's buffer 0, byte for byte", g, bytes,
             g);
    free(writes);
    for (int r = 0; r < nranks; r++)
        for (int b = 0; b < 3; b++) free(mem[r][b]);
    for (int t = 0; t < 3; t++) hm_edges_free(&s[t]);
}

static void test_striping(void)
{
    test_striping_edges();
    /* g = 1: no split or assemble, one translate edge (rank 0 to 1). */
    hm_edges_t s[3];
    int rc = hm_striping_edges(1, 5, s);
    HM_CHECK(rc == HM_OK && s[0].n == 0 && s[1].n == 1 && s[2].n == 0 && s[1].edge[0].src == 0 &&
                 s[1].edge[0].dst == 1 && s[1].edge[0].bytes == 5,
             "g = 1: one edge 0 -> 1 of 5 bytes in step 1 (%d)", rc);
    for (int t = 0; t < 3; t++) hm_edges_free(&s[t]);

    /* Divisible (12 = 3 x 4, 2 x 6), not divisible (13: remainders 1 of 2
     * and 1 of 3; 14: remainder 2 of 3), one byte per stripe (bytes = g),
     * and a size that is not small against the stripes. */
    const size_t sizes[] = {12, 13, 14, 1000003};
    for (int g = 1; g <= 4; g++) {
        simulate_striping(g, (size_t)g);
        for (size_t i = 0; i < N(sizes); i++) simulate_striping(g, sizes[i]);
    }

    rc = hm_striping_edges(0, 10, s);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "g 0 is below 1"),
             "striping g = 0 refused: \"%s\"", hm_last_error());
    HM_CHECK(s[1].edge == NULL && s[1].n == 0, "refused: no edges");
    rc = hm_striping_edges(3, 2, s);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "bytes 2 is below g (g = 3)"),
             "striping 2 bytes over 3 refused: \"%s\"", hm_last_error());
}

int main(void)
{
    test_two_groups();
    test_directions();
    test_collectives();
    test_self();
    test_refusals();
    test_registry();
    test_uni_in();
    test_node_bytes();
    test_extent();
    test_striping();
    return hm_test_finish();
}
