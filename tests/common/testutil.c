/* tests/common/testutil.c */
#include "testutil.h"

#include <harmonia/topo.h>

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int checks, failures;

static int my_rank(void)
{
    int up = 0, fin = 0, rank = -1;
    MPI_Initialized(&up);
    MPI_Finalized(&fin);
    if (up && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static void prefix(FILE *f)
{
    int r = my_rank();
    if (r >= 0) fprintf(f, "[rank %d] ", r);
}

void hm_test_check(int ok, const char *file, int line, const char *fmt, ...)
{
    FILE *f = ok ? stdout : stderr;
    va_list ap;
    checks++;
    if (!ok) failures++;
    prefix(f);
    fprintf(f, "%s: ", ok ? "ok" : "FAIL");
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    if (!ok) fprintf(f, "  (%s:%d)", file, line);
    fputc('\n', f);
    fflush(f);
}

void hm_test_note(const char *fmt, ...)
{
    va_list ap;
    prefix(stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

int hm_test_failures(void)
{
    return failures;
}

/* --- interference: what else ran on the machine when a precision test failed */

/* The first line of /proc/stat: every core's busy and total ticks. */
static int cpu_ticks(unsigned long long *busy, unsigned long long *all)
{
    unsigned long long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n < 4) return -1;
    /* user nice system idle iowait irq softirq steal (guest is inside user) */
    *busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    *all = *busy + v[3] + v[4];
    return 0;
}

/* CPU seconds used so far by this process, every thread. */
static double own_cpu_s(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u)) return 0;
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The window over which /proc/stat is sampled: long enough for its 10 ms
 * ticks to resolve a twentieth of a core, short enough not to delay a
 * failing suite. */
static const struct timespec window = {0, 200000000};

typedef struct {
    double load1, t0, t1;
    unsigned long long busy0, busy1;
    int running, ok;
} sample_t;

/* Start (after = 0) or end (after = 1) the sample of the whole machine. */
static void sample_machine(sample_t *s, int after)
{
    unsigned long long all;
    if (!after) {
        FILE *f = fopen("/proc/loadavg", "r");
        int total = 0;
        s->ok = f && fscanf(f, "%lf %*f %*f %d/%d", &s->load1, &s->running, &total) == 3;
        if (f) fclose(f);
        s->ok = s->ok && cpu_ticks(&s->busy0, &all) == 0;
        s->t0 = mono_s();
    } else {
        s->ok = s->ok && cpu_ticks(&s->busy1, &all) == 0;
        s->t1 = mono_s();
    }
}

/* The line, from the sample and the CPU seconds the test itself used in it. */
static void print_interference(const sample_t *s, double own_s)
{
    if (!s->ok) {
        printf("interference: not measured (/proc/loadavg or /proc/stat unreadable)\n");
        fflush(stdout);
        return;
    }
    long hz = sysconf(_SC_CLK_TCK);
    long procs = sysconf(_SC_NPROCESSORS_ONLN);
    double dt = s->t1 - s->t0;
    double other = ((double)(s->busy1 - s->busy0) / (double)(hz > 0 ? hz : 100) - own_s) / dt;
    if (other < 0) other = 0;
    printf("interference: load average %.2f (1 min), %d running of %ld processors, other "
           "processes used %.1f of %ld cores over %.1f s (/proc/stat)\n",
           s->load1, s->running, procs, other, procs, dt);
    fflush(stdout);
}

/* Set by CTest on the tests labelled precision (cmake/HarmoniaTesting.cmake). */
static int precision_test(void)
{
    const char *v = getenv("HM_TEST_PRECISION");
    return v && strcmp(v, "1") == 0;
}

void hm_test_print_interference(void)
{
    sample_t s;
    double own0 = own_cpu_s();
    sample_machine(&s, 0);
    nanosleep(&window, NULL);
    sample_machine(&s, 1);
    print_interference(&s, own_cpu_s() - own0);
}

/* Collective: every rank sleeps through the window (no rank polls MPI in
 * it), and the CPU all of them used is the test's own. */
static void interference_mpi(MPI_Comm comm)
{
    int rank;
    sample_t s = {0};
    double own, total = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    own = own_cpu_s();
    if (rank == 0) sample_machine(&s, 0);
    nanosleep(&window, NULL);
    if (rank == 0) sample_machine(&s, 1);
    own = own_cpu_s() - own;
    MPI_Reduce(&own, &total, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    if (rank == 0) print_interference(&s, total);
}

int hm_test_finish_mpi(MPI_Comm comm)
{
    int local[2] = {checks, failures}, total[2];
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, comm);
    if (rank == 0) printf("%d checks on all ranks, %d failed\n", total[0], total[1]);
    if (total[1] > 0 && precision_test()) {
        fflush(stdout);
        interference_mpi(comm);
    }
    return total[1] == 0 && total[0] > 0 ? 0 : 1;
}

int hm_test_skip_if(MPI_Comm comm, int cannot, const char *why)
{
    int rank, size, first;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = cannot ? rank : size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size) return 0;
    char text[512] = "";
    if (rank == first) snprintf(text, sizeof text, "%s", why);
    MPI_Bcast(text, (int)sizeof text, MPI_CHAR, first, comm);
    if (rank == 0) printf("skipped: %s\n", text);
    return 1;
}

int hm_test_finish(void)
{
    printf("%d checks, %d failed\n", checks, failures);
    fflush(stdout);
    if (failures > 0 && precision_test()) hm_test_print_interference();
    return failures == 0 && checks > 0 ? 0 : 1;
}

int hm_test_near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

double hm_test_clock_bound_s(MPI_Comm comm, double quiet_s)
{
    hm_interference_t itf;
    if (hm_interference_measure(comm, 0.05, &itf) != HM_OK || !itf.busy) return quiet_s;
    return fmax(quiet_s, 2 * itf.longest_off_s);
}

void hm_test_idle_barrier(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    struct timespec nap = {0, 1000000}; /* 1 ms: rare enough not to preempt the measured pair */
    MPI_Ibarrier(comm, &req);
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
        nanosleep(&nap, NULL);
}

const char *hm_test_path(const char *dir, const char *name)
{
    static char path[8][1024];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

const char *hm_test_write_file(const char *dir, const char *name, const char *text)
{
    const char *p = hm_test_path(dir, name);
    FILE *f = fopen(p, "w");
    if (f) fputs(text, f), fclose(f);
    return p;
}

int hm_test_unnamed_files(const char *dir)
{
    int fd = access("/proc/self/fd", X_OK) == 0 ? open(dir, O_TMPFILE | O_RDWR, 0600) : -1;
    if (fd >= 0) close(fd);
    return fd >= 0;
}

void hm_test_functional_experiment(hm_experiment_params_t *p)
{
    hm_experiment_params_default(p);
    p->late_given = 1;
    p->procsync_params.late_s = HM_TEST_FUNCTIONAL_LATE_S;
}

static int grequest_query(void *extra, MPI_Status *status)
{
    (void)extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int grequest_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int grequest_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

int hm_test_grequest_start(MPI_Request *req)
{
    return MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, NULL, req);
}
