/* tests/common/testutil.c */
#include "testutil.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

int hm_test_finish_mpi(MPI_Comm comm)
{
    int local[2] = {checks, failures}, total[2];
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, comm);
    if (rank == 0) printf("%d checks on all ranks, %d failed\n", total[0], total[1]);
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
    return failures == 0 && checks > 0 ? 0 : 1;
}

int hm_test_near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
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

int hm_test_unnamed_files(const char *dir)
{
    int fd = access("/proc/self/fd", X_OK) == 0 ? open(dir, O_TMPFILE | O_RDWR, 0600) : -1;
    if (fd >= 0) close(fd);
    return fd >= 0;
}
