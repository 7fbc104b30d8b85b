/* tests/ops/test_ops_check.c — the registry (names, lookup) and what
 * hm_op_check and hm_op_prepare refuse: roots and peers outside the
 * communicator, pingpong on one rank, counts beyond an int, an allocation
 * that fails on one rank only (every rank must return HM_ENOMEM, none may
 * hang). */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <harmonia/ops.h>

#include "testutil.h"

static int rank, nprocs;

static const char *const all_names[] = {"bcast",
                                        "reduce",
                                        "allreduce",
                                        "alltoall",
                                        "alltoallv",
                                        "allgather",
                                        "gather",
                                        "scatter",
                                        "scan",
                                        "exscan",
                                        "reduce_scatter_block",
                                        "barrier",
                                        "ibcast",
                                        "ireduce",
                                        "iallreduce",
                                        "ialltoall",
                                        "ialltoallv",
                                        "iallgather",
                                        "igather",
                                        "iscatter",
                                        "iscan",
                                        "iexscan",
                                        "ireduce_scatter_block",
                                        "ibarrier",
                                        "pingpong"};
enum { NNAMES = sizeof all_names / sizeof all_names[0] };

static void registry(void)
{
    char list[1024];
    hm_op_names(list, sizeof list);
    HM_CHECK(hm_op_count() == NNAMES, "the registry holds %zu operations (expected %d)",
             hm_op_count(), NNAMES);
    for (int i = 0; i < NNAMES; i++) {
        const hm_op_t *op = hm_op_find(all_names[i]);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "%s, ", all_names[i]);
        int listed = strstr(list, quoted) || (i == NNAMES - 1 && strstr(list, all_names[i]));
        HM_CHECK(op && strcmp(hm_op_name(op), all_names[i]) == 0 && listed,
                 "\"%s\" is found (%s) and listed in \"%s\"", all_names[i], op ? "yes" : "no",
                 list);
        HM_CHECK(hm_op_is_nonblocking(op) == (all_names[i][0] == 'i'), "%s: nonblocking flag %d",
                 all_names[i], hm_op_is_nonblocking(op));
    }
    HM_CHECK(hm_op_find("allreduc") == NULL && hm_op_find("") == NULL && hm_op_find(NULL) == NULL,
             "unknown names (\"allreduc\", \"\", NULL) are not found");
    HM_CHECK(hm_op_is_rooted(hm_op_find("igather")) && !hm_op_is_rooted(hm_op_find("allgather")),
             "igather is rooted, allgather is not");
    HM_CHECK(hm_op_is_pingpong(hm_op_find("pingpong")) && !hm_op_is_pingpong(hm_op_find("bcast")),
             "pingpong (and only it) is a pingpong");
}

/* check(name, size, root, peer) on comm gives want and the last error
 * contains text; without text the check leaves no sentence of its own (the
 * one of an earlier failure stays). */
static void refused(const char *name, MPI_Comm comm, size_t size, int root, int peer, int want,
                    const char *text)
{
    hm_op_params_t par = {.root = root, .peer = peer};
    hm_op_check(NULL, comm, size, &par); /* leaves "hm_op_check: op is NULL" */
    int rc = hm_op_check(hm_op_find(name), comm, size, &par);
    const char *why = hm_last_error();
    HM_CHECK(rc == want &&
                 (text ? strstr(why, text) != NULL : strcmp(why, "hm_op_check: op is NULL") == 0),
             "check %s size %zu root %d peer %d: status %d (expected %d), \"%s\"", name, size, root,
             peer, rc, want, why);
}

static void checks(void)
{
    char text[128];
    snprintf(text, sizeof text, "root %d is outside the communicator (%d ranks)", nprocs, nprocs);
    refused("bcast", MPI_COMM_WORLD, 8, nprocs, 1, HM_EINVAL, text);
    refused("igather", MPI_COMM_WORLD, 8, -1, 1, HM_EINVAL, "root -1 is outside");
    refused("allreduce", MPI_COMM_WORLD, 8, nprocs, 1, HM_OK, NULL); /* root unused */
    refused("bcast", MPI_COMM_WORLD, 8, nprocs - 1, 0, HM_OK, NULL); /* peer unused */
    refused("pingpong", MPI_COMM_WORLD, 8, 0, 0, HM_EINVAL, "peer 0 is not a partner");
    snprintf(text, sizeof text, "peer %d is not a partner", nprocs);
    refused("pingpong", MPI_COMM_WORLD, 8, 0, nprocs, HM_EINVAL, text);
    refused("pingpong", MPI_COMM_WORLD, 8, 0, nprocs - 1, HM_OK, NULL);
    refused("pingpong", MPI_COMM_SELF, 8, 0, 1, HM_EINVAL,
            "pingpong needs at least 2 ranks (the communicator has 1)");
    refused("bcast", MPI_COMM_WORLD, (size_t)1 << 31, 0, 1, HM_EINVAL,
            "size 2147483648 bytes is 2147483648 bytes for bcast, more than an int count");
    refused("allreduce", MPI_COMM_WORLD, (size_t)1 << 31, 0, 1, HM_OK, NULL); /* 2^29 ints */
    refused("allreduce", MPI_COMM_WORLD, (size_t)1 << 33, 0, 1, HM_EINVAL, "size 8589934592");
    snprintf(text, sizeof text, "size 1073741824 bytes times %d ranks", nprocs);
    refused("alltoall", MPI_COMM_WORLD, (size_t)1 << 30, 0, 1, HM_EINVAL, text);
    refused("ialltoallv", MPI_COMM_WORLD, (size_t)1 << 30, 0, 1, HM_EINVAL, text);
    snprintf(text, sizeof text, "size 4294967296 bytes times %d ranks is %lld ints", nprocs,
             (1LL << 30) * nprocs); /* 2^30 ints per block */
    refused("reduce_scatter_block", MPI_COMM_WORLD, (size_t)1 << 32, 0, 1, HM_EINVAL, text);
    refused("barrier", MPI_COMM_WORLD, (size_t)1 << 40, 0, 1, HM_OK, NULL); /* size unused */
}

/* prepare refuses what check refuses, on every rank, before communicating. */
static void prepare_refuses(void)
{
    hm_op_params_t par = {.root = nprocs, .peer = 1};
    hm_op_instance_t *inst = (hm_op_instance_t *)&par;
    int rc = hm_op_prepare(hm_op_find("reduce"), MPI_COMM_WORLD, 8, &par, &inst);
    const char *why = hm_last_error();
    HM_CHECK(rc == HM_EINVAL && inst == NULL && strstr(why, "root"),
             "prepare reduce with root %d: status %d, instance %p, \"%s\"", nprocs, rc,
             (void *)inst, why);
}

#if !defined(__SANITIZE_ADDRESS__)
/* Bytes of address space this process maps now (0 when unknown). */
static rlim_t mapped_bytes(void)
{
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%llu", &pages) != 1) pages = 0;
    if (f) fclose(f);
    return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/* The last rank cannot allocate the 256 MiB + p x 256 MiB (>= 768 MiB) of
 * an allgather: its address space is limited to what it maps now plus
 * 384 MiB, so the send buffer fits and the receive buffer does not, leaving
 * MPI at least 128 MiB for the agreement that follows. Every rank must
 * return HM_ENOMEM with the same sentence. Run under Open MPI only: under
 * MPICH (ch4:ucx) the capped rank once died with SIGSEGV at a stack address
 * inside the agreement (1 CI rehearsal of 2; not reproduced in 72 runs), a
 * crash of the MPI library under an address-space cap, not of harmonia. */
#endif

static void nomem_agrees(void)
{
#if defined(__SANITIZE_ADDRESS__)
    hm_test_note("address sanitizer build: the allocation failure test is skipped");
#else
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    if (!strstr(lib, "Open MPI")) {
        hm_test_note("not Open MPI: the address-space cap test is skipped (see above)");
        return;
    }
    struct rlimit saved, low;
    char why[256] = "", first[256];
    hm_op_instance_t *inst = NULL;
    hm_op_params_t par = {.root = 0, .peer = 1};
    getrlimit(RLIMIT_AS, &saved);
    low = saved;
    low.rlim_cur = mapped_bytes() + ((rlim_t)384 << 20);
    if (rank == nprocs - 1 && low.rlim_cur < saved.rlim_cur) setrlimit(RLIMIT_AS, &low);
    int rc = hm_op_prepare(hm_op_find("allgather"), MPI_COMM_WORLD, (size_t)1 << 28, &par, &inst);
    snprintf(why, sizeof why, "%s", hm_last_error());
    if (rank == nprocs - 1) setrlimit(RLIMIT_AS, &saved);
    snprintf(first, sizeof first, "%s", why);
    MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    HM_CHECK(rc == HM_ENOMEM && inst == NULL && strcmp(why, first) == 0 &&
                 strstr(why, "could not allocate"),
             "allgather of 256 MiB with no address space on rank %d: status %d, \"%s\"", nprocs - 1,
             rc, why);
    hm_op_free(inst);
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    registry();
    checks();
    prepare_refuses();
    nomem_agrees();
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
