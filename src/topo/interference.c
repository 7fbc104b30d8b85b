/* src/topo/interference.c — what other work on a node takes from the ranks
 * of a job: a fixed-work-quantum probe on every rank (how long and how
 * often it was off its processor) and the node's run queue and load average
 * from /proc, taken while every rank of the probe keeps its core busy.
 *
 * A benchmark that assumes a core to itself measures the scheduler instead
 * when other processes compete: starts come late, deadlines are missed and
 * repetitions are discarded. The probe says so in numbers before anything
 * is measured, so that tolerances can follow the machine and result files
 * can record it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <harmonia/topo.h>

#include "common/comm_check.h"
#include "common/error_set.h"

/* Work of one quantum: a dependent chain of multiply-adds, ~0.3 us on the
 * 2-core test VM (a latency-bound chain: no core runs it much faster). The
 * quantum is timed, so its length sets only the probe's resolution, not
 * what it can see: an absence of a scheduler slice (ms) spans thousands. */
enum { QUANTUM_ITERATIONS = 256 };

/* A quantum that took longer than the fastest by more than this was
 * interrupted: 10 us is above what a timer tick or a device interrupt costs
 * (1-5 us here) and below a context switch to another process and back
 * (tens of us at the least; a CFS slice is ms). The hypervisor's own
 * preemptions of the VM (10-100 us) count: they take the core as surely. */
#define OFF_THRESHOLD_S 10e-6

/* The run queue is read this often during the probe (~5 us a read of
 * /proc/loadavg, outside the timed quanta). */
#define SAMPLE_EVERY_S 10e-3
enum { MAX_SAMPLES = 1024 };

/* Busy: some rank was off its processor this share of the probe, or other
 * runnable threads outnumbered the processors the job left free. 15 %: on
 * the quiet 2-core test VM a lone process lost 2-3 % (longest absence
 * 100-200 us: the hypervisor) and each of 2 ranks under mpirun 3-5 %
 * (longest ~1 ms: the launcher's and MPI's own threads waking), while two
 * CPU-bound processes beside them took 53-70 % (longest 5-15 ms, CFS
 * slices). docs/measure.md, "On a busy machine", has the figures. */
#define BUSY_OFF_SHARE 0.15

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One quantum of fixed work; the result keeps the compiler from dropping it. */
static double quantum(double x)
{
    for (int i = 0; i < QUANTUM_ITERATIONS; i++) x = x * 0.999999 + 1e-6;
    return x;
}

/* Runnable threads of the whole node now (the 4th field of /proc/loadavg,
 * "running/total"), and the 1-minute load average. -1 / NaN unreadable. */
static void read_loadavg(int *running, double *load1)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l1 = NAN, l5, l15;
    int run = -1, total;
    if (f) {
        if (fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &run, &total) != 5) l1 = NAN, run = -1;
        fclose(f);
    }
    *running = run;
    *load1 = l1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* What one rank saw. */
typedef struct local_probe {
    double off_s, longest_off_s, wall_s, quantum_min_s;
    int running_median; /* -1 unreadable */
    double load1;
} local_probe_t;

/* Spin through quanta for probe_s, timing each; read the run queue between
 * them. The absences are the quanta's excess over the fastest one. */
static int probe_local(double probe_s, local_probe_t *p)
{
    size_t cap = 1 << 16, n = 0;
    double *q = malloc(cap * sizeof *q), x = 1.0;
    int samples[MAX_SAMPLES], nsamples = 0;
    if (!q) return hm__error_nomem(__func__);
    double start = now_s(), end = start + probe_s, next_sample = start, t = start;
    while (t < end) {
        if (t >= next_sample && nsamples < MAX_SAMPLES) {
            double l1;
            read_loadavg(&samples[nsamples], &l1);
            nsamples += samples[nsamples] >= 0;
            next_sample = t + SAMPLE_EVERY_S;
            t = now_s();
        }
        x = quantum(x);
        double t1 = now_s();
        if (n == cap) {
            double *grown = realloc(q, 2 * cap * sizeof *q);
            if (!grown) break;
            q = grown, cap *= 2;
        }
        q[n++] = t1 - t;
        t = t1;
    }
    p->wall_s = now_s() - start + (x < 0 ? 1 : 0); /* x is never < 0: keeps the work */
    p->quantum_min_s = INFINITY;
    for (size_t i = 0; i < n; i++) p->quantum_min_s = fmin(p->quantum_min_s, q[i]);
    p->off_s = p->longest_off_s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double excess = q[i] - p->quantum_min_s;
        if (excess <= OFF_THRESHOLD_S) continue;
        p->off_s += excess;
        p->longest_off_s = fmax(p->longest_off_s, excess);
    }
    free(q);
    qsort(samples, (size_t)nsamples, sizeof *samples, cmp_int);
    p->running_median = nsamples ? samples[nsamples / 2] : -1;
    int ignored;
    read_loadavg(&ignored, &p->load1);
    return HM_OK;
}

/* Reduced over comm with MAX: [off share, longest off, others running,
 * load average, excess ranks over processors, ranks, processors]; the rank
 * with the largest share by MAXLOC. */
enum { R_SHARE, R_LONGEST, R_OTHERS, R_LOAD, R_COUNT };

static int reduce(MPI_Comm comm, const local_probe_t *p, int local_ranks, int node_ranks,
                  int processors, hm_interference_t *out)
{
    double mine[R_COUNT] = {
        p->wall_s > 0 ? p->off_s / p->wall_s : 0.0, p->longest_off_s,
        p->running_median >= 0 ? fmax(0.0, (double)(p->running_median - local_ranks)) : -1.0,
        isnan(p->load1) ? -1.0 : p->load1};
    double worst[R_COUNT];
    struct {
        double share;
        int rank;
    } share = {mine[R_SHARE], 0}, worst_share;
    int load[2] = {node_ranks - processors, node_ranks}, worst_load[2];
    MPI_Comm_rank(comm, &share.rank);
    if (MPI_Allreduce(mine, worst, R_COUNT, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS ||
        MPI_Allreduce(&share, &worst_share, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm) != MPI_SUCCESS ||
        MPI_Allreduce(load, worst_load, 1, MPI_2INT, MPI_MAXLOC, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    out->off_share = worst[R_SHARE];
    out->off_rank = worst_share.rank;
    out->longest_off_s = worst[R_LONGEST];
    out->others_running = worst[R_OTHERS] < 0 ? NAN : worst[R_OTHERS];
    out->load_avg = worst[R_LOAD] < 0 ? NAN : worst[R_LOAD];
    out->node_ranks = worst_load[1];
    out->processors = worst_load[1] - worst_load[0];
    return HM_OK;
}

/* Other runnable threads beyond the processors the job leaves free. */
static int others_compete(const hm_interference_t *it)
{
    int free_processors = it->processors > it->node_ranks ? it->processors - it->node_ranks : 0;
    return !isnan(it->others_running) && it->others_running > free_processors;
}

int hm_interference_measure(MPI_Comm comm, double probe_s, hm_interference_t *out)
{
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    memset(out, 0, sizeof *out);
    out->others_running = out->load_avg = NAN;
    if (!(probe_s >= 0) || !isfinite(probe_s))
        return hm__error_set(HM_EINVAL, "%s: probe_s %g is not a finite duration >= 0", __func__,
                             probe_s);
    int local_ranks = 1, node_ranks = 1, processors = 1;
    int rc = hm_topo_node_ranks(comm, &local_ranks, &processors);
    if (rc == HM_OK) rc = hm_topo_job_node_ranks(comm, &node_ranks, &processors);
    local_probe_t p = {0};
    p.running_median = -1;
    p.load1 = NAN;
    /* A simulated rank shares no core of this machine (SMPI). */
    int probing = !HM_SMPI && probe_s > 0 && rc == HM_OK;
    if (MPI_Barrier(comm) != MPI_SUCCESS) /* every rank spins at once */
        return hm__error_mpi(__func__, "MPI_Barrier");
    if (probing && probe_local(probe_s, &p) != HM_OK) probing = 0;
    int all = probing;
    if (MPI_Allreduce(&probing, &all, 1, MPI_INT, MPI_LAND, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    rc = reduce(comm, &p, local_ranks, node_ranks, processors, out);
    if (rc != HM_OK) return rc;
    out->measured = all;
    out->probe_s = all ? probe_s : 0.0;
    out->oversubscribed = out->node_ranks > out->processors;
    /* With more ranks than processors the ranks take each other's turns:
     * their absences are the job's own, and only other runnable threads
     * tell of other work. */
    out->busy =
        all && (others_compete(out) || (!out->oversubscribed && out->off_share >= BUSY_OFF_SHARE));
    return HM_OK;
}

void hm_interference_describe(const hm_interference_t *it, char *buf, size_t len)
{
    if (!it || !buf) {
        hm__error_null(__func__, it ? "buf" : "it");
        return;
    }
    if (!len) return;
    if (!it->measured) {
        snprintf(buf, len, "not measured (%d rank%s, %d processor%s)", it->node_ranks,
                 it->node_ranks == 1 ? "" : "s", it->processors, it->processors == 1 ? "" : "s");
        return;
    }
    char others[48] = "unreadable", load[24] = "unreadable";
    if (!isnan(it->others_running)) snprintf(others, sizeof others, "%.0f", it->others_running);
    if (!isnan(it->load_avg)) snprintf(load, sizeof load, "%.2f", it->load_avg);
    snprintf(buf, len,
             "%s (rank %d off its processor %.1f%% of a %.2f s probe, longest %.1f us; %s other "
             "runnable thread%s; load average %s; %d rank%s on %d processor%s)",
             it->busy ? "busy" : "quiet", it->off_rank, 100.0 * it->off_share, it->probe_s,
             it->longest_off_s * 1e6, others, it->others_running == 1 ? "" : "s", load,
             it->node_ranks, it->node_ranks == 1 ? "" : "s", it->processors,
             it->processors == 1 ? "" : "s");
}
