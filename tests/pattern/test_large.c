/* tests/pattern/test_large.c — a 3 GiB message at 2 ranks with the mpi
 * backend: above MPI's int count, so it travels in 1 GiB chunks that both
 * ends cut the same way. Rank 0 writes a distinct marker around every
 * chunk boundary and at both ends; rank 1 must find each at its offset
 * (a chunk dropped, doubled or shifted moves them). Skipped, and said so,
 * where the machine has less than 8 GiB available (3 GiB on each side,
 * and room for the rest of the suite). */
#include <stdio.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "testutil.h"

#define GIB ((size_t)1 << 30)
static const size_t BYTES = 3 * GIB;

static size_t available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    return (size_t)kb * 1024;
}

/* The marker offsets: both ends and each side of every GiB boundary. */
static size_t marker_at(int k)
{
    static const size_t at[] = {0, GIB - 1, GIB, 2 * GIB - 1, 2 * GIB, 3 * GIB - 1};
    return at[k];
}
enum { NMARKERS = 6 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (hm_test_skip_if(MPI_COMM_WORLD, available_bytes() < 8 * GIB,
                        "less than 8 GiB of memory available for a 3 GiB message")) {
        MPI_Finalize();
        return HM_TEST_SKIPPED;
    }
    hm_buffer_t *out = NULL, *in = NULL;
    hm_plan_t *plan = NULL;
    int rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, rank == 0 ? BYTES : 0, &out);
    if (rc == HM_OK)
        rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, rank == 1 ? BYTES : 0, &in);
    if (rc == HM_OK) rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find("mpi"), &plan);
    if (rc == HM_OK) rc = hm_plan_add(plan, out, 0, in, 0, BYTES, 0, 1);
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    HM_CHECK(rc == HM_OK, "a plan of one %zu-byte message commits (%s)", BYTES,
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK && rank == 0)
        for (int k = 0; k < NMARKERS; k++)
            ((unsigned char *)hm_buffer_data(out))[marker_at(k)] = (unsigned char)(0xa0 + k);
    if (rc == HM_OK) rc = hm_plan_start(plan);
    if (rc == HM_OK) rc = hm_plan_wait(plan);
    HM_CHECK(rc == HM_OK && hm_plan_total_bytes(plan) == BYTES, "3 GiB moved (%s)",
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK && rank == 1) {
        const unsigned char *b = hm_buffer_data(in);
        int found = 0;
        for (int k = 0; k < NMARKERS; k++) found += b[marker_at(k)] == 0xa0 + k;
        /* Between the markers the buffer stayed zero: nothing else moved. */
        int zero = b[1] == 0 && b[GIB + 1] == 0 && b[3 * GIB - 2] == 0;
        HM_CHECK(found == NMARKERS && zero, "every marker at its offset (%d of %d), zeros between",
                 found, NMARKERS);
    }
    hm_plan_free(plan);
    hm_buffer_free(in);
    hm_buffer_free(out);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
