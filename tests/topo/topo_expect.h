/* tests/topo/topo_expect.h — check a topology against the layout it should
 * have, computed independently of the library. */
#ifndef HM_TOPO_EXPECT_H
#define HM_TOPO_EXPECT_H
#include <harmonia/topo.h>

/* Key of the node of every world rank when nodes are real: the lowest world
 * rank with the same processor name (one machine = one shared-memory node).
 * keys has one entry per world rank. Collective over MPI_COMM_WORLD. */
void topo_expect_host_keys(int *keys);

/* Key of the socket of every world rank when sockets are real: the logical
 * index of the hwloc package that covers the rank's CPU binding, -1 when
 * none does. Found by walking up from the object covering the binding,
 * not the way the library does it. Collective over MPI_COMM_WORLD. */
void topo_expect_package_keys(int *keys);

/* Check every communicator, count and index of topo (built over
 * MPI_COMM_WORLD) on the calling rank: ranks of equal node_key form a node,
 * ranks of a node with equal socket_key a socket, groups led and ordered by
 * their lowest world rank. */
void topo_expect_layout(const hm_topo_t *topo, const int *node_key, const int *socket_key);

/* Check that comm holds exactly the world ranks expected[0..n-1], in that
 * order; what names the communicator in the messages. */
void topo_expect_members(MPI_Comm comm, const int *expected, int n, const char *what);

/* Check that the description is the same on every rank of MPI_COMM_WORLD and
 * contains each of the given substrings (NULL-terminated list). */
void topo_expect_description(const hm_topo_t *topo, const char *const *parts);
#endif
