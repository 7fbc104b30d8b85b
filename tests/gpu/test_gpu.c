/* tests/gpu/test_gpu.c — the gpu layer at 2, 3 and 4 ranks, with or
 * without a device (and with or without CUDA in the build):
 *   - the rank-to-device rule against cases worked out by hand, and its
 *     refusals, each sentence exactly;
 *   - the versions text: "built without CUDA", or the runtime's version
 *     as CUDA writes it (13000 -> "13.0");
 *   - without a device, hm_gpu_count and hm_gpu_select refuse with a
 *     sentence that says there is no GPU and why, the same status and
 *     sentence on every rank (rank 0's: the lowest failing rank);
 *   - with one, every rank gets a device inside the count, and the mapping
 *     on rank 0 names every rank once, grouped by host;
 *   - without one, the mapping still names every rank ("no GPU"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>

#include "testutil.h"

static void check_rule(void)
{
    static const struct {
        int node_rank, gpus_per_node, count, want;
    } cases[] = {
        {0, 0, 4, 0}, {5, 0, 4, 1}, {3, 0, 1, 0}, {5, 2, 4, 1},
        {4, 2, 4, 0}, {3, 3, 4, 0}, {7, 4, 4, 3}, {2, 1, 8, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int device = -1;
        int rc =
            hm_gpu_device_for(cases[i].node_rank, cases[i].gpus_per_node, cases[i].count, &device);
        HM_CHECK(rc == HM_OK && device == cases[i].want,
                 "node rank %d, %d GPUs per node, %d devices: GPU %d (want %d)", cases[i].node_rank,
                 cases[i].gpus_per_node, cases[i].count, device, cases[i].want);
    }
    int device;
    int rc = hm_gpu_device_for(0, 5, 4, &device);
    HM_CHECK(rc == HM_EINVAL &&
                 !strcmp(hm_last_error(), "5 GPUs per node: the node shows 4 (accepted: 0 to 4)"),
             "5 GPUs per node of 4 refused: %d \"%s\"", rc, hm_last_error());
    rc = hm_gpu_device_for(0, -1, 4, &device);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "-1 GPUs per node"),
             "-1 GPUs per node refused: %d \"%s\"", rc, hm_last_error());
    rc = hm_gpu_device_for(-1, 0, 4, &device);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), "node rank -1"),
             "node rank -1 refused: %d \"%s\"", rc, hm_last_error());
    rc = hm_gpu_device_for(0, 0, 0, &device);
    HM_CHECK(rc == HM_ENOTSUP && strstr(hm_last_error(), "no GPU"), "no device: %d \"%s\"", rc,
             hm_last_error());
}

static void check_versions(void)
{
    char text[256];
    hm_gpu_versions_t v;
    hm_gpu_versions(&v);
    hm_gpu_versions_text(text, sizeof text);
    if (!hm_gpu_built()) {
        HM_CHECK(!strcmp(text, "built without CUDA") && v.runtime == 0 && v.nccl == 0,
                 "no CUDA: \"%s\", runtime %d, NCCL %d", text, v.runtime, v.nccl);
        return;
    }
    char want[64];
    snprintf(want, sizeof want, "CUDA runtime %d.%d, ", v.runtime / 1000, v.runtime % 1000 / 10);
    HM_CHECK(v.runtime >= 1000 && !strncmp(text, want, strlen(want)),
             "runtime %d reads \"%s\" (want it to start \"%s\")", v.runtime, text, want);
    HM_CHECK((v.nccl > 0) == hm_gpu_nccl_built() && (v.nccl == 0 || strstr(text, "NCCL 2.")),
             "NCCL %d in \"%s\" (built with NCCL: %d)", v.nccl, text, hm_gpu_nccl_built());
}

/* Without a device every rank refuses alike; with one, every rank gets one. */
static int check_select(int rank, int size)
{
    int count = 0, device = -2;
    int have = hm_gpu_count(&count) == HM_OK;
    if (!have)
        HM_CHECK(count == 0 && !strncmp(hm_last_error(), "no GPU: ", 8),
                 "no device: count %d, \"%s\"", count, hm_last_error());
    int rc = hm_gpu_select(MPI_COMM_WORLD, 0, &device);
    char mine[512], first[512];
    snprintf(mine, sizeof mine, "%d %s", rc, rc == HM_OK ? "" : hm_last_error());
    memcpy(first, mine, sizeof first);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    HM_CHECK(!strcmp(mine, first), "every rank's status and sentence are rank 0's: \"%s\"", mine);
    if (!have)
        HM_CHECK(rc == HM_ENOTSUP && device == -1 &&
                     !strncmp(hm_last_error(), "rank 0: no GPU", 14),
                 "select without a device: %d, GPU %d, \"%s\"", rc, device, hm_last_error());
    else
        HM_CHECK(rc == HM_OK && device >= 0 && device < count, "rank %d of %d: GPU %d of %d", rank,
                 size, device, count);
    return rc == HM_OK ? device : -1;
}

static void check_mapping(int rank, int size, int device)
{
    char *text = NULL;
    int rc = hm_gpu_mapping(MPI_COMM_WORLD, device, &text);
    HM_CHECK(rc == HM_OK && (rank == 0) == (text != NULL), "mapping: %d, text on rank 0 only", rc);
    if (rank != 0 || !text) return;
    int lines = 1;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    HM_CHECK(lines == 1, "one host, one line: %d in \"%s\"", lines, text);
    const char *at = text;
    for (int r = 0; r < size; r++) {
        char want[64];
        snprintf(want, sizeof want, "rank %d -> %s", r, device >= 0 ? "GPU " : "no GPU");
        const char *found = strstr(at, want);
        HM_CHECK(found != NULL, "\"%s\" in order in \"%s\"", want, text);
        if (found) at = found + 1;
    }
    hm_test_note("%s\n", text);
    free(text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rule();
    check_versions();
    int device = check_select(rank, size);
    check_mapping(rank, size, device);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
