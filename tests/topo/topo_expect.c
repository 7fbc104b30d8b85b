/* tests/topo/topo_expect.c */
#include "topo_expect.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int *ints(int n)
{
    return calloc((size_t)n, sizeof(int));
}

static int world_size(void)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

static int world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

void topo_expect_host_keys(int *keys)
{
    int p = world_size(), len;
    char *names = calloc((size_t)p, MPI_MAX_PROCESSOR_NAME);
    char mine[MPI_MAX_PROCESSOR_NAME] = {0};
    MPI_Get_processor_name(mine, &len);
    MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int r = 0; r < p; r++) {
        keys[r] = r;
        for (int q = 0; q < r; q++) {
            if (strcmp(names + (size_t)q * MPI_MAX_PROCESSOR_NAME,
                       names + (size_t)r * MPI_MAX_PROCESSOR_NAME) == 0) {
                keys[r] = q;
                break;
            }
        }
    }
    free(names);
}

static int my_package(void)
{
    hwloc_topology_t topo;
    int pkg = -1;
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
        hwloc_bitmap_and(set, set, hwloc_topology_get_topology_cpuset(topo));
        hwloc_obj_t obj =
            hwloc_bitmap_iszero(set) ? NULL : hwloc_get_obj_covering_cpuset(topo, set);
        if (obj && obj->type != HWLOC_OBJ_PACKAGE)
            obj = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, obj);
        if (obj && obj->type == HWLOC_OBJ_PACKAGE) pkg = (int)obj->logical_index;
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return pkg;
}

void topo_expect_package_keys(int *keys)
{
    int mine = my_package();
    MPI_Allgather(&mine, 1, MPI_INT, keys, 1, MPI_INT, MPI_COMM_WORLD);
}

static void format_list(char *buf, size_t len, const int *v, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%d", i ? "," : "", v[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

void topo_expect_members(MPI_Comm comm, const int *expected, int n, const char *what)
{
    char got_s[256], want_s[256];
    int size = 0;
    format_list(want_s, sizeof want_s, expected, n);
    if (comm == MPI_COMM_NULL) {
        HM_CHECK(0, "%s: is MPI_COMM_NULL (expected members %s)", what, want_s);
        return;
    }
    MPI_Comm_size(comm, &size);
    int *local = ints(size), *world = ints(size);
    MPI_Group g, gw;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &gw);
    for (int i = 0; i < size; i++) local[i] = i;
    MPI_Group_translate_ranks(g, size, local, gw, world);
    format_list(got_s, sizeof got_s, world, size);
    int same = size == n;
    for (int i = 0; same && i < n; i++) same = world[i] == expected[i];
    HM_CHECK(same, "%s: size %d, world ranks %s (expected size %d: %s)", what, size, got_s, n,
             want_s);
    MPI_Group_free(&g);
    MPI_Group_free(&gw);
    free(local);
    free(world);
}

/* The lowest world rank r with the same keys as rank `of` (the leader of its
 * group); socket keys are compared only when socket_key is not NULL. */
static int leader_of(int of, const int *node_key, const int *socket_key)
{
    for (int r = 0;; r++)
        if (node_key[r] == node_key[of] && (!socket_key || socket_key[r] == socket_key[of]))
            return r;
}

/* Members of my group, ascending; returns their number. */
static int group_of(int me, const int *node_key, const int *socket_key, int *out)
{
    int n = 0;
    for (int r = 0; r < world_size(); r++)
        if (leader_of(r, node_key, socket_key) == leader_of(me, node_key, socket_key)) out[n++] = r;
    return n;
}

/* Leaders (ascending) of the groups among the candidates; returns their number. */
static int leaders_among(const int *cand, int ncand, const int *node_key, const int *socket_key,
                         int *out)
{
    int n = 0;
    for (int i = 0; i < ncand; i++)
        if (leader_of(cand[i], node_key, socket_key) == cand[i]) out[n++] = cand[i];
    return n;
}

static int index_of(int v, const int *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return i;
    return -1;
}

static void expect_null(MPI_Comm comm, const char *what)
{
    HM_CHECK(comm == MPI_COMM_NULL, "%s: MPI_COMM_NULL on a rank that is not a leader (got %s)",
             what, comm == MPI_COMM_NULL ? "null" : "a communicator");
}

static void expect_levels(const hm_topo_t *topo)
{
    MPI_Comm c;
    int rc;
    rc = hm_topo_level_comm(topo, 0, 1, &c);
    HM_CHECK(rc == HM_OK && c == hm_topo_comm(topo), "level 0 of 1 is the parent (rc %d)", rc);
    const MPI_Comm two[2] = {hm_topo_node_leaders_comm(topo), hm_topo_node_comm(topo)};
    const MPI_Comm three[3] = {hm_topo_node_leaders_comm(topo), hm_topo_socket_leaders_comm(topo),
                               hm_topo_socket_comm(topo)};
    const char *two_n[2] = {"node leaders", "node"};
    const char *three_n[3] = {"node leaders", "socket leaders", "socket"};
    for (int l = 0; l < 2; l++) {
        rc = hm_topo_level_comm(topo, l, 2, &c);
        HM_CHECK(rc == HM_OK && c == two[l], "level %d of 2 is the %s comm (rc %d)", l, two_n[l],
                 rc);
    }
    for (int l = 0; l < 3; l++) {
        rc = hm_topo_level_comm(topo, l, 3, &c);
        HM_CHECK(rc == HM_OK && c == three[l], "level %d of 3 is the %s comm (rc %d)", l,
                 three_n[l], rc);
    }
}

void topo_expect_layout(const hm_topo_t *topo, const int *node_key, const int *socket_key)
{
    int p = world_size(), me = world_rank();
    int *all = ints(p), *node = ints(p), *nleaders = ints(p), *sock = ints(p);
    int *sleaders = ints(p);

    for (int r = 0; r < p; r++) all[r] = r;
    topo_expect_members(hm_topo_comm(topo), all, p, "parent comm");

    int nnode = group_of(me, node_key, NULL, node);
    int nnodes = leaders_among(all, p, node_key, NULL, nleaders);
    topo_expect_members(hm_topo_node_comm(topo), node, nnode, "node comm");
    if (me == node[0])
        topo_expect_members(hm_topo_node_leaders_comm(topo), nleaders, nnodes, "node leaders comm");
    else
        expect_null(hm_topo_node_leaders_comm(topo), "node leaders comm");
    HM_CHECK(hm_topo_nnodes(topo) == nnodes, "number of nodes %d (expected %d)",
             hm_topo_nnodes(topo), nnodes);
    HM_CHECK(hm_topo_node_index(topo) == index_of(node[0], nleaders, nnodes),
             "node index %d (expected %d)", hm_topo_node_index(topo),
             index_of(node[0], nleaders, nnodes));

    int nsock = group_of(me, node_key, socket_key, sock);
    int nsockets = leaders_among(node, nnode, node_key, socket_key, sleaders);
    topo_expect_members(hm_topo_socket_comm(topo), sock, nsock, "socket comm");
    if (me == sock[0])
        topo_expect_members(hm_topo_socket_leaders_comm(topo), sleaders, nsockets,
                            "socket leaders comm");
    else
        expect_null(hm_topo_socket_leaders_comm(topo), "socket leaders comm");
    HM_CHECK(hm_topo_nsockets(topo) == nsockets, "sockets in my node %d (expected %d)",
             hm_topo_nsockets(topo), nsockets);
    HM_CHECK(hm_topo_socket_index(topo) == index_of(sock[0], sleaders, nsockets),
             "socket index %d (expected %d)", hm_topo_socket_index(topo),
             index_of(sock[0], sleaders, nsockets));

    expect_levels(topo);
    free(all);
    free(node);
    free(nleaders);
    free(sock);
    free(sleaders);
}

void topo_expect_description(const hm_topo_t *topo, const char *const *parts)
{
    char mine[512], root[512];
    hm_topo_describe(topo, mine, sizeof mine);
    memcpy(root, mine, sizeof root);
    MPI_Bcast(root, sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
    HM_CHECK(strcmp(mine, root) == 0, "description same as rank 0's: \"%s\"", mine);
    for (int i = 0; parts[i]; i++)
        HM_CHECK(strstr(mine, parts[i]) != NULL, "description contains \"%s\": \"%s\"", parts[i],
                 mine);
}
