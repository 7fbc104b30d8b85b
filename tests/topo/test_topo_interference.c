/* tests/topo/test_topo_interference.c — hm_interference_measure against a
 * competitor of known size.
 *
 * The truth: rank 0 and a CPU-bound child process are pinned to one CPU,
 * so the scheduler (CFS) gives each about half of it in slices of
 * milliseconds. The probe must then see rank 0 off its processor for at
 * least 30% of the probe (half, less 20 points for where the slices fall in
 * a 0.2 s probe; other load on that CPU only adds), an absence of at least
 * 0.5 ms (CFS's minimum granularity is 0.75 ms; here slices of 3-15 ms
 * were seen), at least one other runnable thread, and call the node busy.
 * Without the competitor nothing is asserted about the share (the suite may
 * run under load); the figures are printed.
 *
 * Also: a bad probe length is refused alike on every rank; a probe of 0
 * measures nothing; the job's ranks on the node are counted over the whole
 * job on a sub-communicator (the launcher's count), the sub-communicator's
 * own by hm_topo_node_ranks. One machine: every rank of the job is here. */
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/topo.h>

#include "testutil.h"

#define PROBE_S 0.2

static void check_refused(MPI_Comm comm)
{
    const double bad[] = {-1.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hm_interference_t it;
        int rc = hm_interference_measure(comm, bad[i], &it);
        HM_CHECK(rc == HM_EINVAL, "probe %g s: HM_EINVAL (%d)", bad[i], rc);
    }
    hm_interference_t it;
    int rc = hm_interference_measure(comm, 0.0, &it);
    HM_CHECK(rc == HM_OK && !it.measured && !it.busy, "probe 0 s: nothing measured (%d, %d)", rc,
             it.measured);
}

/* A child spinning on cpu; its pid (0 on failure). */
static pid_t spin_on(int cpu)
{
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
        for (volatile unsigned long x = 0;; x++) continue;
    }
    return pid > 0 ? pid : 0;
}

static void check_competitor(MPI_Comm comm, int rank)
{
    cpu_set_t saved, one;
    pid_t child = 0;
    int cpu = sched_getcpu();
    sched_getaffinity(0, sizeof saved, &saved);
    if (rank == 0) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof one, &one);
        child = spin_on(cpu);
        HM_CHECK(child > 0, "a competitor on CPU %d", cpu);
        usleep(20000); /* the child is running before the probe starts */
    }
    hm_interference_t it;
    int rc = hm_interference_measure(comm, PROBE_S, &it);
    if (child > 0) kill(child, SIGKILL), waitpid(child, NULL, 0);
    if (rank == 0) sched_setaffinity(0, sizeof saved, &saved);
    char line[512];
    hm_interference_describe(&it, line, sizeof line);
    HM_CHECK(rc == HM_OK && it.measured, "competitor: measured (%d): %s", rc, line);
    HM_CHECK(it.off_share >= 0.3, "competitor: off %.1f%% >= 30%%", 100 * it.off_share);
    HM_CHECK(it.longest_off_s >= 0.5e-3, "competitor: longest absence %.1f us >= 500 us",
             it.longest_off_s * 1e6);
    HM_CHECK(isnan(it.others_running) || it.others_running >= 1,
             "competitor: %.0f other runnable threads >= 1", it.others_running);
    HM_CHECK(it.busy, "competitor: busy");
    HM_CHECK(strstr(line, "busy (") == line, "described as busy: %s", line);
}

static void check_job_ranks(MPI_Comm world, int rank, int size)
{
    MPI_Comm half;
    MPI_Comm_split(world, rank % 2, rank, &half);
    int half_size, comm_ranks, job_ranks, p1, p2;
    MPI_Comm_size(half, &half_size);
    int rc1 = hm_topo_node_ranks(half, &comm_ranks, &p1);
    int rc2 = hm_topo_job_node_ranks(half, &job_ranks, &p2);
    HM_CHECK(rc1 == HM_OK && comm_ranks == half_size, "sub-communicator: %d of its ranks here",
             comm_ranks);
    HM_CHECK(rc2 == HM_OK && job_ranks == size, "sub-communicator: %d ranks of the job here (%d)",
             job_ranks, size);
    HM_CHECK(p1 == p2 && p1 == (int)sysconf(_SC_NPROCESSORS_ONLN), "%d processors", p1);
    hm_interference_t it;
    int rc = hm_interference_measure(half, 0.01, &it);
    HM_CHECK(rc == HM_OK && it.node_ranks == size && it.oversubscribed == (size > p1),
             "probe on the sub-communicator: %d ranks, oversubscribed %d", it.node_ranks,
             it.oversubscribed);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_refused(MPI_COMM_WORLD);
    hm_interference_t quiet;
    char line[512];
    if (hm_interference_measure(MPI_COMM_WORLD, PROBE_S, &quiet) == HM_OK && rank == 0) {
        hm_interference_describe(&quiet, line, sizeof line);
        hm_test_note("without a competitor: %s", line);
    }
    check_competitor(MPI_COMM_WORLD, rank);
    check_job_ranks(MPI_COMM_WORLD, rank, size);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
