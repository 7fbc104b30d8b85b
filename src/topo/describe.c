/* src/topo/describe.c — the one-line description of a topology for result
 * files, and the counts behind it (gathered at creation, so that describing
 * is local and prints the same line on every rank). */
#include <stdarg.h>
#include <stdio.h>

#include "common/error_set.h"
#include "topo/topo_impl.h"

enum { NBIND = HM_TOPO_BIND_UNKNOWN + 1 };

int hm__topo_summarize(hm_topo_t *t)
{
    hm__topo_summary_t *s = &t->summary;
    int node_size, socket_size, socket_rank;
    MPI_Comm_size(t->node, &node_size);
    MPI_Comm_size(t->socket, &socket_size);
    MPI_Comm_rank(t->socket, &socket_rank);
    /* Minima travel negated so that one MPI_MAX gives both ends. */
    int mx[8] = {node_size,   -node_size,   t->nsockets,  -t->nsockets,
                 socket_size, -socket_size, t->npackages, -t->npackages};
    int sum[1 + NBIND] = {socket_rank == 0};
    sum[1 + t->binding] = 1;
    if (MPI_Allreduce(MPI_IN_PLACE, mx, 8, MPI_INT, MPI_MAX, t->comm) != MPI_SUCCESS ||
        MPI_Allreduce(MPI_IN_PLACE, sum, 1 + NBIND, MPI_INT, MPI_SUM, t->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    s->node_size_max = mx[0];
    s->node_size_min = -mx[1];
    s->sockets_per_node_max = mx[2];
    s->sockets_per_node_min = -mx[3];
    s->socket_size_max = mx[4];
    s->socket_size_min = -mx[5];
    s->packages_max = mx[6];
    s->packages_min = -mx[7];
    s->nsockets_total = sum[0];
    for (int i = 0; i < NBIND; i++) s->nbind[i] = sum[1 + i];
    return HM_OK;
}

/* Appends to a fixed buffer; once full, further text is dropped. */
typedef struct line {
    char *buf;
    size_t len, used;
} line_t;

__attribute__((format(printf, 2, 3))) static void put(line_t *l, const char *fmt, ...)
{
    if (l->used + 1 >= l->len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->used, l->len - l->used, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    l->used = (size_t)n < l->len - l->used ? l->used + (size_t)n : l->len - 1;
}

/* "2" or "1-2" followed by the noun, plural unless exactly one. */
static void put_range(line_t *l, int lo, int hi, const char *noun)
{
    if (lo == hi)
        put(l, "%d %s%s", lo, noun, lo == 1 ? "" : "s");
    else
        put(l, "%d-%d %ss", lo, hi, noun);
}

static void put_hwloc(line_t *l, const hm__topo_summary_t *s)
{
    static const char *const what[NBIND] = {
        [HM_TOPO_BIND_PACKAGE] = "within one package",
        [HM_TOPO_BIND_NONE] = "unbound",
        [HM_TOPO_BIND_SPANS] = "bound across packages",
        [HM_TOPO_BIND_UNKNOWN] = "binding unknown to hwloc",
    };
    const char *sep = "; ";
    put(l, "real: hwloc, ");
    put_range(l, s->packages_min, s->packages_max, "package");
    for (int b = HM_TOPO_BIND_PACKAGE; b < NBIND; b++) {
        if (s->nbind[b] == 0) continue;
        put(l, "%s%d rank%s %s", sep, s->nbind[b], s->nbind[b] == 1 ? "" : "s", what[b]);
        sep = ", ";
    }
    int homeless =
        s->nbind[HM_TOPO_BIND_NONE] + s->nbind[HM_TOPO_BIND_SPANS] + s->nbind[HM_TOPO_BIND_UNKNOWN];
    if (homeless > 0) put(l, "; ranks without a package form one group per node");
}

void hm_topo_describe(const hm_topo_t *t, char *buf, size_t len)
{
    if (!t || !buf) {
        hm__error_null(__func__, t ? "buf" : "topo");
        return;
    }
    const hm__topo_summary_t *s = &t->summary;
    line_t l = {buf, len, 0};
    if (len == 0) return;
    buf[0] = '\0';
    put(&l, "%d node%s x ", t->nnodes, t->nnodes == 1 ? "" : "s");
    put_range(&l, s->node_size_min, s->node_size_max, "rank");
    if (t->opts.ranks_per_node > 0)
        put(&l, " (virtual: --ranks-per-node %d)", t->opts.ranks_per_node);
    else
        put(&l, " (real: MPI_COMM_TYPE_SHARED)");
    put(&l, "; %d socket%s, ", s->nsockets_total, s->nsockets_total == 1 ? "" : "s");
    if (s->sockets_per_node_min == s->sockets_per_node_max)
        put(&l, "%d", s->sockets_per_node_min);
    else
        put(&l, "%d-%d", s->sockets_per_node_min, s->sockets_per_node_max);
    put(&l, " per node x ");
    put_range(&l, s->socket_size_min, s->socket_size_max, "rank");
    if (t->opts.ranks_per_socket > 0) {
        put(&l, " (virtual: --ranks-per-socket %d)", t->opts.ranks_per_socket);
    } else {
        put(&l, " (");
        put_hwloc(&l, s);
        put(&l, ")");
    }
}
