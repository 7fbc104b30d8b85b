/* tests/timer/test_sources.c — every time source on every rank: usable,
 * resolution and read cost measured, monotonic where it claims to be; shared
 * sources read the same time on all ranks once the origin is agreed; tsc
 * ticks at the rate it was told; tsc refused cleanly without nonstop_tsc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/timer.h>

#include "testutil.h"

static int cpu_has_invariant_tsc(void)
{
    char line[8192];
    int ok = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc") &&
                 strstr(line, " rdtscp");
            break;
        }
    if (f) fclose(f);
#if !defined(__x86_64__)
    ok = 0;
#endif
    return ok;
}

/* Minimum over ping-pongs of (client reading - midpoint of the root's send
 * and receive readings): the clock difference seen through the smallest
 * round trip, *rtt_s (root only). */
static double pingpong_offset(hm_timer_t *t, MPI_Comm comm, int peer, double *rtt_s)
{
    int rank;
    double best_rtt = 1e9, best = 0;
    MPI_Comm_rank(comm, &rank);
    for (int i = 0; i < 50; i++) {
        double t0, t1, t2;
        if (rank == 0) {
            t0 = hm_timer_now(t);
            MPI_Send(&t0, 1, MPI_DOUBLE, peer, 0, comm);
            MPI_Recv(&t1, 1, MPI_DOUBLE, peer, 0, comm, MPI_STATUS_IGNORE);
            t2 = hm_timer_now(t);
            if (t2 - t0 < best_rtt) best_rtt = t2 - t0, best = t1 - 0.5 * (t0 + t2);
        } else if (rank == peer) {
            MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 0, comm, MPI_STATUS_IGNORE);
            t1 = hm_timer_now(t);
            MPI_Send(&t1, 1, MPI_DOUBLE, 0, 0, comm);
        }
    }
    *rtt_s = best_rtt;
    return best;
}

static void check_posix_clock(const char *name, hm_timer_t *t);

static void check_source(const char *name, MPI_Comm comm)
{
    int rank, size;
    hm_timer_t *t = NULL;
    hm_timer_quality_t q;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int rc = hm_timer_create(name, NULL, &t);
    const char *why = hm_last_error();
    if (!strcmp(name, "tsc") && !cpu_has_invariant_tsc()) {
        HM_CHECK(rc == HM_ENOTSUP, "tsc refused on a CPU without an invariant TSC: %s", why);
        return;
    }
    HM_CHECK(rc == HM_OK, "%s is usable here (%s)", name, why);
    if (rc != HM_OK) return;
    hm_timer_agree_origin(t, comm);
    hm_timer_measure(t, 100000, &q);
    HM_CHECK(q.resolution_s > 0 && q.resolution_s < 1e-3, "%s resolution %.3g ns > 0", name,
             q.resolution_s * 1e9);
    HM_CHECK(q.nominal_resolution_s > 0, "%s claims resolution %.3g ns", name,
             q.nominal_resolution_s * 1e9);
    /* The quick measurement result files record (20000 reads): the smallest
     * step is a minimum, so fewer reads find about the same one; a factor 4
     * either way leaves room for a preempted batch without accepting the
     * nominal 1 ns of a source that steps by tens. */
    double quick = hm_timer_measured_resolution(t);
    HM_CHECK(quick >= q.resolution_s / 4 && quick <= q.resolution_s * 4,
             "%s measured resolution %.3g ns (quick), %.3g ns (100000 reads)", name, quick * 1e9,
             q.resolution_s * 1e9);
    /* vDSO clock reads cost ~20-60 ns here and a syscall ~1 us in a slow VM;
     * 10 us per read would be a broken measurement. */
    HM_CHECK(q.overhead_s > 0 && q.overhead_s < 1e-5, "%s read overhead %.1f ns", name,
             q.overhead_s * 1e9);
    if (q.monotonic_claimed)
        HM_CHECK(q.decreases == 0,
                 "%s claims monotonicity and never went back in 100000 reads "
                 "(%ld decreases)",
                 name, q.decreases);
    /* Shared sources read the same time on every rank of one machine once the
     * origin is agreed; Open MPI's MPI_Wtime has a per-process origin. */
    for (int peer = 1; peer < size && strcmp(name, "wtime") != 0; peer++) {
        double rtt_s = 0;
        double off = rank == 0 || rank == peer ? pingpong_offset(t, comm, peer, &rtt_s) : 0;
        hm_test_idle_barrier(comm);
        /* One clock read by both: the peer's reading falls between the
         * root's send and receive readings, so the offset lies within half
         * the round trip (plus a step of the source either way). Different
         * origins would be seconds apart. A fixed 50 us failed under load,
         * when every one of the 50 round trips was preempted (198 us). */
        double bound_s = 0.5 * rtt_s + 2 * q.resolution_s;
        if (rank == 0)
            HM_CHECK(fabs(off) <= bound_s,
                     "%s: rank %d reads the root's time (%.2f us apart, within half the best "
                     "round trip %.2f us)",
                     name, peer, off * 1e6, rtt_s * 1e6);
    }
    check_posix_clock(name, t);
    hm_timer_free(t);
}

/* The clock_gettime sources read in place (hm_timer_posix_clock) give
 * hm_timer_now's values: a read between two of hm_timer_now's lies
 * between them (monotonic sources: exactly; realtime can be stepped, so
 * it only within 1 ms); the others (and a synthetic monotonic) say
 * HM_ENOENT. */
static void check_posix_clock(const char *name, hm_timer_t *t)
{
    int id = -7;
    int64_t origin_s = -7;
    int rc = hm_timer_posix_clock(t, &id, &origin_s);
    int posix =
        !strcmp(name, "monotonic") || !strcmp(name, "monotonic_raw") || !strcmp(name, "realtime");
    if (!posix) {
        HM_CHECK(rc == HM_ENOENT && id == -7, "%s is not a POSIX clock read in place: %s", name,
                 hm_last_error());
        return;
    }
    clockid_t want = !strcmp(name, "monotonic")       ? CLOCK_MONOTONIC
                     : !strcmp(name, "monotonic_raw") ? CLOCK_MONOTONIC_RAW
                                                      : CLOCK_REALTIME;
    HM_CHECK(rc == HM_OK && id == (int)want, "%s is clock %d read in place (%d)", name, (int)want,
             id);
    if (rc != HM_OK) return;
    struct timespec ts;
    double before = hm_timer_now(t);
    clock_gettime((clockid_t)id, &ts);
    double mid = hm_timer_posix_reading(&ts, origin_s), after = hm_timer_now(t);
    double slack = strcmp(name, "realtime") ? 0 : 1e-3;
    HM_CHECK(mid >= before - slack && mid <= after + slack,
             "%s read in place: %.9f between %.9f and %.9f", name, mid, before, after);
    hm_timer_t *syn = NULL;
    hm_timer_options_t o = {.synthetic = 1, .seed = 3};
    o.spec.offset_s = 1e-3, o.spec.drift = 1e-5;
    if (strcmp(name, "monotonic") || hm_timer_create(name, &o, &syn) != HM_OK) return;
    HM_CHECK(hm_timer_posix_clock(syn, &id, &origin_s) == HM_ENOENT,
             "a synthetic monotonic timer is not read in place: %s", hm_last_error());
    hm_timer_free(syn);
}

/* The TSC frequency read from the system must be the real rate: compare
 * with CLOCK_MONOTONIC over 200 ms. NTP slews monotonic by at most 500 ppm;
 * a wrong frequency source would be off by percents. */
static void check_tsc_rate(void)
{
    hm_timer_t *tsc = NULL, *mono = NULL;
    if (!cpu_has_invariant_tsc() || hm_timer_create("tsc", NULL, &tsc) != HM_OK) return;
    hm_timer_create("monotonic_raw", NULL, &mono);
    double a0 = hm_timer_now(tsc), b0 = hm_timer_now(mono);
    usleep(200000);
    double a1 = hm_timer_now(tsc), b1 = hm_timer_now(mono);
    double ratio = (a1 - a0) / (b1 - b0);
    HM_CHECK(ratio > 0.999 && ratio < 1.001, "tsc seconds / monotonic_raw seconds = %.6f", ratio);
    hm_timer_free(tsc), hm_timer_free(mono);
}

static void check_refusals(void)
{
    char path[] = "/tmp/hm_cpuinfo_XXXXXX";
    const char *why = hm_last_error();
    hm_timer_t *t = NULL;
    int rc = hm_timer_create("sundial", NULL, &t);
    HM_CHECK(rc == HM_ENOENT && strstr(why, "known: wtime, monotonic"),
             "unknown source refused: %s", why);
    int fd = mkstemp(path);
    dprintf(fd, "processor\t: 0\nflags\t\t: fpu tsc constant_tsc rdtscp\n");
    close(fd);
    hm_timer_options_t fake = {.cpuinfo_path = path};
    rc = hm_timer_create("tsc", &fake, &t);
    HM_CHECK(rc == HM_ENOTSUP && strstr(why, "lacks nonstop_tsc") && t == NULL,
             "tsc without nonstop_tsc refused: %s", why);
    hm_timer_options_t o = {.tsc_ghz = 2.0, .cpuinfo_path = path};
    rc = hm_timer_create("tsc", &o, &t);
    HM_CHECK(rc == HM_ENOTSUP, "--tsc-ghz does not make a stopping TSC usable: %s", why);
    unlink(path);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (size_t i = 0; i < hm_timer_count(); i++) check_source(hm_timer_name_at(i), MPI_COMM_WORLD);
    check_tsc_rate();
    check_refusals();
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
