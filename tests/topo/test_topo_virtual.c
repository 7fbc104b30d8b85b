/* tests/topo/test_topo_virtual.c — virtual nodes and sockets.
 *
 * Usage: test_topo_virtual RANKS_PER_NODE RANKS_PER_SOCKET (0 = real level).
 * Every communicator, count and index is checked against a layout computed
 * here from world ranks (virtual levels), processor names (real nodes) and
 * the hwloc package covering each rank's binding (real sockets). The cases
 * of the issue are also spelled out literally so that they read as the
 * specification: 4 ranks with --ranks-per-node 2, 3 ranks with
 * --ranks-per-node 2, 4 ranks with --ranks-per-node 2 --ranks-per-socket 1. */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/topo.h>

#include "testutil.h"
#include "topo_expect.h"

static int p, me;

static void members(MPI_Comm comm, const char *what, int n, int a, int b)
{
    const int want[2] = {a, b};
    topo_expect_members(comm, want, n, what);
}

static void null_comm(MPI_Comm comm, const char *what)
{
    HM_CHECK(comm == MPI_COMM_NULL, "%s is MPI_COMM_NULL on rank %d (got %s)", what, me,
             comm == MPI_COMM_NULL ? "null" : "a communicator");
}

/* 4 ranks, --ranks-per-node 2: nodes {0,1} and {2,3}, leaders {0,2}. */
static void case_four_by_two(const hm_topo_t *topo)
{
    int size;
    MPI_Comm_size(hm_topo_node_comm(topo), &size);
    HM_CHECK(size == 2, "4 ranks / 2 per node: node comm has 2 ranks (got %d)", size);
    members(hm_topo_node_comm(topo), "node comm of consecutive ranks", 2, me < 2 ? 0 : 2,
            me < 2 ? 1 : 3);
    if (me == 0 || me == 2)
        members(hm_topo_node_leaders_comm(topo), "node leaders comm = world ranks 0 and 2", 2, 0,
                2);
    else
        null_comm(hm_topo_node_leaders_comm(topo), "node leaders comm");
    HM_CHECK(hm_topo_nnodes(topo) == 2, "4 ranks / 2 per node: 2 nodes (got %d)",
             hm_topo_nnodes(topo));
}

/* 3 ranks, --ranks-per-node 2: nodes {0,1} and {2}. */
static void case_three_by_two(const hm_topo_t *topo)
{
    int size;
    MPI_Comm_size(hm_topo_node_comm(topo), &size);
    HM_CHECK(size == (me < 2 ? 2 : 1), "3 ranks / 2 per node: rank %d's node has %d (expected %d)",
             me, size, me < 2 ? 2 : 1);
    members(hm_topo_node_comm(topo), "node comm", me < 2 ? 2 : 1, me < 2 ? 0 : 2, 1);
    if (me != 1)
        members(hm_topo_node_leaders_comm(topo), "node leaders comm = world ranks 0 and 2", 2, 0,
                2);
    else
        null_comm(hm_topo_node_leaders_comm(topo), "node leaders comm");
    HM_CHECK(hm_topo_nnodes(topo) == 2, "3 ranks / 2 per node: 2 nodes (got %d)",
             hm_topo_nnodes(topo));
}

/* 4 ranks, --ranks-per-node 2 --ranks-per-socket 1: three levels. */
static void case_three_levels(const hm_topo_t *topo)
{
    MPI_Comm c[3];
    for (int l = 0; l < 3; l++) hm_topo_level_comm(topo, l, 3, &c[l]);
    if (me % 2 == 0)
        members(c[0], "level 0 of 3 (node leaders) = world ranks 0 and 2", 2, 0, 2);
    else
        null_comm(c[0], "level 0 of 3 (node leaders)");
    members(c[1], "level 1 of 3 (socket leaders of my node: every rank)", 2, me < 2 ? 0 : 2,
            me < 2 ? 1 : 3);
    members(c[2], "level 2 of 3 (my socket: only me)", 1, me, 0);
    HM_CHECK(hm_topo_nsockets(topo) == 2 && hm_topo_socket_index(topo) == me % 2,
             "2 sockets per node (got %d), my socket index %d (expected %d)",
             hm_topo_nsockets(topo), hm_topo_socket_index(topo), me % 2);
}

static void expected_keys(int rpn, int rps, int *node_key, int *socket_key)
{
    int *pkg = malloc(sizeof(int) * (size_t)p);
    topo_expect_host_keys(node_key);
    topo_expect_package_keys(pkg);
    for (int r = 0; r < p; r++) {
        if (rpn > 0) node_key[r] = r / rpn;
    }
    for (int r = 0; r < p; r++) {
        int node_rank = 0;
        for (int q = 0; q < r; q++) node_rank += node_key[q] == node_key[r];
        socket_key[r] = rps > 0 ? node_rank / rps : pkg[r];
    }
    free(pkg);
}

static void check_flags(const hm_topo_t *topo, int rpn, int rps, const int *socket_key)
{
    HM_CHECK(!hm_topo_node_is_virtual(topo) == !(rpn > 0), "nodes virtual: %d (rpn %d)",
             hm_topo_node_is_virtual(topo), rpn);
    HM_CHECK(!hm_topo_socket_is_virtual(topo) == !(rps > 0), "sockets virtual: %d (rps %d)",
             hm_topo_socket_is_virtual(topo), rps);
    if (rps > 0)
        HM_CHECK(hm_topo_binding(topo) == HM_TOPO_BIND_NOT_ASKED && hm_topo_package(topo) == -1,
                 "virtual sockets: hwloc not asked (binding %d, package %d)",
                 (int)hm_topo_binding(topo), hm_topo_package(topo));
    else
        HM_CHECK(hm_topo_package(topo) == socket_key[me],
                 "real sockets: package %d (hwloc covering object says %d), binding %d",
                 hm_topo_package(topo), socket_key[me], (int)hm_topo_binding(topo));
}

static void check_description(const hm_topo_t *topo, int rpn, int rps)
{
    char nodes[64], node_src[64], sock_src[64];
    snprintf(nodes, sizeof nodes, "%d node%s x ", hm_topo_nnodes(topo),
             hm_topo_nnodes(topo) == 1 ? "" : "s");
    if (rpn > 0)
        snprintf(node_src, sizeof node_src, "(virtual: --ranks-per-node %d)", rpn);
    else
        snprintf(node_src, sizeof node_src, "(real: MPI_COMM_TYPE_SHARED)");
    if (rps > 0)
        snprintf(sock_src, sizeof sock_src, "(virtual: --ranks-per-socket %d)", rps);
    else
        snprintf(sock_src, sizeof sock_src, "(real: hwloc, ");
    const char *parts[] = {nodes, node_src, sock_src, NULL};
    topo_expect_description(topo, parts);
}

/* The synthetic clock domain: a virtual node's ranks share the index of
 * their node (consecutive ranks, so my rank / rpn); without virtual nodes,
 * outside SMPI, every process is a node of its own, so its rank. */
static void check_clock_domain(int rpn)
{
    int domain = -1, want = rpn > 0 ? me / rpn : me;
    int rc = hm_topo_clock_domain(MPI_COMM_WORLD, rpn, &domain);
    HM_CHECK(rc == HM_OK && domain == want,
             "clock domain with --ranks-per-node %d on rank %d: %d (expected %d; %s)", rpn, me,
             domain, want, hm_strerror(rc));
    rc = hm_topo_clock_domain(MPI_COMM_WORLD, -1, &domain);
    HM_CHECK(rc == HM_EINVAL, "clock domain with ranks_per_node -1: %s (expected HM_EINVAL)",
             hm_strerror(rc));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int rpn = argc > 1 ? atoi(argv[1]) : 0, rps = argc > 2 ? atoi(argv[2]) : 0;
    hm_topo_options_t opts = {rpn, rps};
    hm_topo_t *topo = NULL;

    int rc = hm_topo_create(MPI_COMM_WORLD, &opts, &topo);
    HM_CHECK(rc == HM_OK, "create with --ranks-per-node %d --ranks-per-socket %d on %d ranks: %s",
             rpn, rps, p, hm_strerror(rc));
    if (rc == HM_OK) {
        char line[512];
        int *node_key = malloc(sizeof(int) * (size_t)p);
        int *socket_key = malloc(sizeof(int) * (size_t)p);
        hm_topo_describe(topo, line, sizeof line);
        if (me == 0) hm_test_note("topology: %s", line);
        expected_keys(rpn, rps, node_key, socket_key);
        topo_expect_layout(topo, node_key, socket_key);
        check_flags(topo, rpn, rps, socket_key);
        check_description(topo, rpn, rps);
        check_clock_domain(rpn);
        if (p == 4 && rpn == 2 && rps == 0) case_four_by_two(topo);
        if (p == 3 && rpn == 2) case_three_by_two(topo);
        if (p == 4 && rpn == 2 && rps == 1) case_three_levels(topo);
        free(node_key);
        free(socket_key);
        hm_topo_free(topo);
    }
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
