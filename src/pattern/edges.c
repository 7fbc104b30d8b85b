/* src/pattern/edges.c — edge lists: what they own, the memory they need,
 * and how they become a plan's messages. */
#include <stdint.h>
#include <stdlib.h>

#include <harmonia/pattern.h>

#include "common/error_set.h"

void hm_edges_free(hm_edges_t *edges)
{
    if (!edges) return;
    free(edges->edge);
    edges->edge = NULL;
    edges->n = 0;
    edges->nranks = 0;
    edges->nbufs = 0;
}

/* The end of a region, saturated: an edge list read from a file may name
 * any offset, and an extent of SIZE_MAX is refused by the allocation that
 * follows, where a wrapped one would be silently too small. */
static size_t region_end(size_t off, size_t bytes)
{
    return bytes > SIZE_MAX - off ? SIZE_MAX : off + bytes;
}

static void grow(size_t *extent, int nbufs, int buf, size_t end)
{
    if (buf >= 0 && buf < nbufs && end > extent[buf]) extent[buf] = end;
}

void hm_edges_extent(const hm_edges_t *edges, int rank, size_t *extent)
{
    if (!edges || !extent) {
        hm__error_null(__func__, edges ? "extent" : "edges");
        return;
    }
    for (int b = 0; b < edges->nbufs; b++) extent[b] = 0;
    for (size_t i = 0; i < edges->n; i++) {
        const hm_edge_t *e = &edges->edge[i];
        if (e->src == rank)
            grow(extent, edges->nbufs, e->sendbuf, region_end(e->sendoff, e->bytes));
        if (e->dst == rank)
            grow(extent, edges->nbufs, e->recvbuf, region_end(e->recvoff, e->bytes));
    }
}

int hm_edges_add(const hm_edges_t *edges, hm_plan_t *plan, hm_buffer_t *const *bufs, int nbufs)
{
    if (!edges) return hm__error_null(__func__, "edges");
    if (!plan) return hm__error_null(__func__, "plan");
    if (!bufs) return hm__error_null(__func__, "bufs");
    if (nbufs < edges->nbufs)
        return hm__error_set(HM_EINVAL, "nbufs %d is below the %d buffers the edges name", nbufs,
                             edges->nbufs);
    for (size_t i = 0; i < edges->n; i++) {
        const hm_edge_t *e = &edges->edge[i];
        if (e->sendbuf < 0 || e->sendbuf >= nbufs || e->recvbuf < 0 || e->recvbuf >= nbufs)
            return hm__error_set(HM_EINVAL,
                                 "edge %zu (%d -> %d) names buffers %d and %d, outside 0..%d", i,
                                 e->src, e->dst, e->sendbuf, e->recvbuf, nbufs - 1);
        int rc = hm_plan_add(plan, bufs[e->sendbuf], e->sendoff, bufs[e->recvbuf], e->recvoff,
                             e->bytes, e->src, e->dst);
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

uint64_t hm_edges_node_bytes(const hm_edges_t *edges, int g)
{
    if (!edges) return hm__error_null(__func__, "edges"), 0;
    if (g < 1) return hm__error_set(HM_EINVAL, "%s: g %d is below 1", __func__, g), 0;
    int ngroups = (edges->nranks + g - 1) / g; /* the edges' ranks are 0 .. nranks - 1 */
    uint64_t *through = calloc(ngroups ? (size_t)ngroups : 1, sizeof *through), most = 0;
    if (!through) return hm__error_nomem(__func__), 0;
    /* A message between two groups leaves one and enters the other: each
     * counts it once (a node's NIC sends and receives at once). */
    for (size_t i = 0; i < edges->n; i++) {
        const hm_edge_t *e = &edges->edge[i];
        if (e->src / g == e->dst / g) continue;
        through[e->src / g] += e->bytes;
        through[e->dst / g] += e->bytes;
    }
    for (int q = 0; q < ngroups; q++)
        if (through[q] > most) most = through[q];
    free(through);
    return most;
}
