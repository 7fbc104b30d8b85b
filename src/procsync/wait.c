/* src/procsync/wait.c — waiting for a deadline on the global clock. */
#include <sched.h>
#include <sys/sysinfo.h>
#include <time.h>

#include <harmonia/procsync.h>

/* Naps of at most 1 ms: the clock is re-read after each, so a long wait
 * cannot oversleep by more than one nap's wake-up latency beyond spin_s. */
enum { MAX_NAP_NS = 1000000 };

double hm_procsync_wait_until(hm_clock_t *global, double target_s, double spin_s, int yield)
{
    double now = hm_clock_now(global);
    for (double left; (left = target_s - now) > spin_s; now = hm_clock_now(global)) {
        double nap_s = left - spin_s;
        long nap_ns = nap_s * 1e9 < MAX_NAP_NS ? (long)(nap_s * 1e9) : MAX_NAP_NS;
        struct timespec ts = {0, nap_ns > 0 ? nap_ns : 1};
        nanosleep(&ts, NULL);
    }
    while (now < target_s) {
        if (yield) sched_yield();
        now = hm_clock_now(global);
    }
    return now;
}

int hm_procsync_oversubscribed(MPI_Comm comm)
{
    MPI_Comm node;
    int local = 1, over = 0, any = 0;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    over = local > get_nprocs();
    MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_MAX, comm);
    return any;
}
