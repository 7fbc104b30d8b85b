/* tests/sync/drift/test_wtime.c — --timer wtime has a real offset to remove
 * even on one machine: Open MPI 4.1's MPI_Wtime has a per-process origin
 * (ranks here were 19-160 us apart). The offsets of the raw wtime clocks are
 * measured by ping-pong (hm_sync_check on the base clocks), then hca3 must
 * bring every rank within 1 us of rank 0 (shared-memory ping-pongs resolve
 * tens of nanoseconds; 1 us leaves room for a loaded machine). The raw
 * offset is reported, not asserted: under Open MPI it was 62-1873 us in most
 * runs here but 0.135 us in one, and MPICH's MPI_Wtime may show none; what
 * must hold is that whatever it is, it is gone after hca3. The truth is not
 * known for wtime, so the check reports it as such. */
#include <math.h>
#include <string.h>

#include <harmonia/sync.h>

#include "testutil.h"

int main(int argc, char **argv)
{
    int rank, size;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    hm_timer_t *timer = NULL;
    hm_clock_t *base = NULL, *global = NULL;
    hm_sync_check_t before = {0}, after = {0};
    hm_sync_params_t p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int len,
        open_mpi = MPI_Get_library_version(lib, &len) == MPI_SUCCESS && strstr(lib, "Open MPI");
    hm_timer_create("wtime", NULL, &timer);
    hm_timer_agree_origin(timer, MPI_COMM_WORLD);
    hm_clock_identity(timer, &base);
    hm_sync_check(MPI_COMM_WORLD, base, 50, NULL, -1, &before, NULL, NULL);
    hm_sync_params_default(&p);
    int rc = hm_sync_run(MPI_COMM_WORLD, "hca3", &p, base, &global, NULL);
    HM_CHECK(rc == HM_OK, "hca3 synchronizes wtime clocks (%s)", hm_last_error());
    if (rc == HM_OK) hm_sync_check(MPI_COMM_WORLD, global, 50, NULL, -1, &after, NULL, NULL);
    if (rank == 0) {
        hm_test_note("%s: wtime offsets against rank 0: before %.3f us, after hca3 %.3f us (max)",
                     open_mpi ? "Open MPI" : "MPICH", before.offset_max_s * 1e6,
                     after.offset_max_s * 1e6);
        HM_CHECK(after.offset_max_s <= 1e-6, "after hca3 every rank is within 1 us: %.3f us",
                 after.offset_max_s * 1e6);
        HM_CHECK(!after.truth_known, "the truth of wtime clocks is reported unknown");
    }
    hm_clock_free(global), hm_clock_free(base), hm_timer_free(timer);
    int st = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return st;
}
