/* src/pattern/striping.c — striping of one point-to-point message over the
 * g ranks of two groups [Hidayetoglu et al. 2024, §4.2, Fig. 4, Listing 2]:
 * split (rank 0 to ranks 1..g-1), translate (rank i to rank g + i, every
 * rank of the group on its own path between the groups), assemble (ranks
 * g+1..2g-1 to rank g). Listing 2 cuts the message into stripes of d / g
 * and loses the last d % g bytes; here the first d % g stripes are one byte
 * longer, so that every byte travels and the stripes differ by one byte at
 * most. */
#include <limits.h>
#include <stdlib.h>

#include <harmonia/pattern.h>

#include "common/error_set.h"

enum { SEND = 0, RECV = 1, STAGE = 2 };

/* Stripe i: its offset in the message and its length. */
static void stripe(int i, int g, size_t bytes, size_t *off, size_t *len)
{
    size_t base = bytes / (size_t)g, rem = bytes % (size_t)g, ui = (size_t)i;
    *len = base + (ui < rem);
    *off = ui * base + (ui < rem ? ui : rem);
}

static int step_alloc(hm_edges_t *step, size_t n, int g)
{
    step->edge = n ? calloc(n, sizeof(hm_edge_t)) : NULL;
    step->n = n;
    step->nranks = 2 * g;
    step->nbufs = 3;
    if (n && !step->edge)
        return hm__error_set(HM_ENOMEM, "%zu edges of a striping step could not be allocated", n);
    return HM_OK;
}

static hm_edge_t edge(int src, int dst, int sendbuf, size_t sendoff, int recvbuf, size_t recvoff,
                      size_t bytes)
{
    return (hm_edge_t){.src = src,
                       .dst = dst,
                       .sendbuf = sendbuf,
                       .recvbuf = recvbuf,
                       .sendoff = sendoff,
                       .recvoff = recvoff,
                       .bytes = bytes};
}

int hm_striping_edges(int g, size_t bytes, hm_edges_t steps[3])
{
    if (!steps) return hm__error_set(HM_EINVAL, "hm_striping_edges: steps is NULL");
    for (int s = 0; s < 3; s++) steps[s] = (hm_edges_t){0};
    if (g < 1) return hm__error_set(HM_EINVAL, "g %d is below 1 (ranks per group)", g);
    if (g > INT_MAX / 2)
        return hm__error_set(HM_EINVAL, "g %d is above %d: the 2 x g ranks overflow int", g,
                             INT_MAX / 2);
    if (bytes < (size_t)g)
        return hm__error_set(HM_EINVAL, "bytes %zu is below g (g = %d): every stripe needs a byte",
                             bytes, g);
    size_t nsplit = (size_t)g - 1;
    int rc = step_alloc(&steps[0], nsplit, g);
    if (rc == HM_OK) rc = step_alloc(&steps[1], (size_t)g, g);
    if (rc == HM_OK) rc = step_alloc(&steps[2], nsplit, g);
    if (rc != HM_OK) {
        for (int s = 0; s < 3; s++) hm_edges_free(&steps[s]);
        return rc;
    }
    for (int i = 0; i < g; i++) {
        size_t off, len;
        stripe(i, g, bytes, &off, &len);
        if (i == 0) {
            /* Stripe 0 stays on the sending rank: straight to its place. */
            steps[1].edge[0] = edge(0, g, SEND, off, RECV, off, len);
            continue;
        }
        /* Staged at offset 0 of buffer 2 on both sides: one stripe each. */
        steps[0].edge[i - 1] = edge(0, i, SEND, off, STAGE, 0, len);
        steps[1].edge[i] = edge(i, g + i, STAGE, 0, STAGE, 0, len);
        steps[2].edge[i - 1] = edge(g + i, g, STAGE, 0, RECV, off, len);
    }
    return HM_OK;
}
