/* src/overlap/impact.c — the MPI impact ratio [Denis et al. 2022, §3.2.1,
 * eq. 2]: the compute kernel's time in a process that initialized MPI over
 * its time in one that never loaded it. The second process is the kernel
 * compiled without MPI (harmonia-compute), started by every rank on its own
 * processors at the same time, as the ranks then compute at once
 * themselves; both run the order calibrated to the target, the same number
 * of times, and each thread's median is compared with its own. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/overlap.h>
#include <harmonia/stats.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "overlap/overlap_private.h"

extern char **environ;

enum { MAX_REPS = 1000000 };

/* Per thread of this rank: its core and the two medians. */
typedef struct side {
    int threads;
    int *core;         /* hm_compute_core */
    double *without_s; /* median in the program without MPI */
    double *with_s;    /* median here */
    double *times;     /* scratch: threads x reps */
    int *child_core;   /* the core the program reported for each thread */
} side_t;

static double median(double *v, long n)
{
    hm_stats_sort(v, (size_t)n);
    return hm_stats_quantile_sorted(v, (size_t)n, 0.5);
}

static void medians(side_t *s, long reps, double *out)
{
    for (int t = 0; t < s->threads; t++) out[t] = median(s->times + (size_t)t * (size_t)reps, reps);
}

/* Rows "rep,thread,core,n,time_s,gflops" of the program's --csv output (rep
 * from 1) into s->times[thread][rep - 1]; every (rep, thread) once. */
static int parse_rows(FILE *f, side_t *s, long reps, int order, const char *program)
{
    char line[512];
    long rows = 0;
    while (fgets(line, sizeof line, f)) {
        long rep, thread, core, n;
        double t, gflops;
        if (line[0] == '#' ||
            sscanf(line, "%ld,%ld,%ld,%ld,%lf,%lf", &rep, &thread, &core, &n, &t, &gflops) != 6)
            continue;
        if (thread < 0 || thread >= s->threads || rep < 1 || rep > reps || n != order || !(t > 0))
            return hm__error_set(HM_EIO, "%.200s: unexpected row \"%.80s\"", program,
                                 strtok(line, "\n"));
        s->times[thread * reps + rep - 1] = t;
        s->child_core[thread] = (int)core;
        rows++;
    }
    if (rows != s->threads * reps)
        return hm__error_set(HM_EIO, "%.200s gave %ld rows, not %ld (%d threads x %ld runs)",
                             program, rows, s->threads * reps, s->threads, reps);
    return HM_OK;
}

/* The program's exit, as a sentence for the last error (127 and 126: the
 * shell found no such program, or could not execute it). */
static int child_status(int status, const char *program, int order, int threads)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return HM_OK;
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126))
        return hm__error_set(HM_EIO, "cannot run %.200s: %s", program,
                             WEXITSTATUS(status) == 127 ? "no such program"
                                                        : "not an executable program");
    if (WIFEXITED(status))
        return hm__error_set(HM_EIO, "%.200s --size %d --threads %d ended with status %d", program,
                             order, threads, WEXITSTATUS(status));
    return hm__error_set(HM_EIO, "%.200s --size %d --threads %d was killed by signal %d", program,
                         order, threads, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The reference must run with no MPI runtime on its cores, yet this process
 * cannot leave MPI: an asynchronous progress thread (MPICH's
 * MPIR_CVAR_ASYNC_PROGRESS=1, not bound to the rank's core) spins all
 * along, and slowed harmonia-compute as much as the kernel here (order 573
 * took 24 ms instead of ~9, impact 1.1 and 0.75 where the kernel here ran
 * at half speed). So the rank stops, every thread of it, while the program
 * runs: this shell waits until the rank (pid $1) is stopped, runs the
 * program, then continues the rank and exits with the program's status
 * (127, without a word, when there is no such program: the rank says it
 * once). */
static const char stop_and_run[] =
    "p=$1; shift; "
    "while ! grep -q '^State:[[:space:]]*T' /proc/$p/status 2>/dev/null; do "
    "[ -d /proc/$p ] || exit 125; sleep 0.001; done; "
    "if command -v \"$1\" >/dev/null 2>&1; then \"$@\"; s=$?; else s=127; fi; "
    "kill -CONT $p; exit $s";

/* An unlinked temporary file for the program's rows: the rank is stopped
 * while they are written, so no pipe could be drained. -1 on failure. */
static int scratch_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/harmonia-impact.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    return fd;
}

/* Run the program at this order, threads and runs, and read its times. The
 * child inherits the calling thread's binding, so it pins its threads to
 * the cores this rank's kernel uses. */
static int run_without_mpi(const char *program, int order, long reps, side_t *s)
{
    char a_pid[32], a_size[32], a_threads[32], a_reps[32];
    snprintf(a_pid, sizeof a_pid, "%ld", (long)getpid());
    snprintf(a_size, sizeof a_size, "%d", order);
    snprintf(a_threads, sizeof a_threads, "%d", s->threads);
    snprintf(a_reps, sizeof a_reps, "%ld", reps);
    char *argv[] = {"/bin/sh", "-c",   (char *)stop_and_run, "sh",      a_pid,    (char *)program,
                    "--size",  a_size, "--threads",          a_threads, "--reps", a_reps,
                    "--csv",   NULL};
    int status = 0, fd = scratch_file();
    pid_t pid;
    posix_spawn_file_actions_t fa;
    if (fd < 0) return hm__error_set(HM_EIO, "impact: no temporary file: %s", strerror(errno));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        close(fd);
        return hm__error_set(HM_EIO, "cannot run %.200s: /bin/sh: %s", program, strerror(rc));
    }
    kill(getpid(), SIGSTOP); /* until the shell's SIGCONT, the program done */
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    rc = child_status(status, program, order, s->threads);
    FILE *f = rc == HM_OK && lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "r") : NULL;
    if (rc == HM_OK)
        rc = f ? parse_rows(f, s, reps, order, program)
               : hm__error_set(HM_EIO, "impact: cannot read back the rows of %.200s", program);
    if (f)
        fclose(f);
    else
        close(fd);
    return rc;
}

/* The kernel here, reps times back to back, as the program runs it. */
static int run_with_mpi(hm_compute_t *c, long reps, side_t *s, double *per_thread)
{
    int rc = HM_OK;
    for (long r = 0; rc == HM_OK && r < reps; r++) {
        rc = hm_compute_run(c, per_thread);
        for (int t = 0; rc == HM_OK && t < s->threads; t++)
            s->times[(size_t)t * (size_t)reps + (size_t)r] = per_thread[t];
    }
    return rc;
}

/* Like for like: the program's thread t on the core of this kernel's. */
static int same_cores(const side_t *s, const char *program)
{
    for (int t = 0; t < s->threads; t++)
        if (s->child_core[t] != s->core[t])
            return hm__error_set(HM_EINTERNAL,
                                 "impact: thread %d ran on core %d in %.200s but on core %d here",
                                 t, s->child_core[t], program, s->core[t]);
    return HM_OK;
}

/* Collective: each rank calibrates its kernel; all take the largest order
 * (the ranks compute the same work, as in an overlap run) and the worst
 * outcome. */
static int calibrate(MPI_Comm comm, hm_compute_t *c, double target_s, hm_overlap_impact_t *out)
{
    hm_compute_calibration_t cal;
    int rc = hm__overlap_calibrate_comp_at(comm, c, target_s, 0, &cal);
    if (rc != HM_OK && rc != HM_EAGAIN) return rc; /* out of probes: the nearest order is kept */
    out->order = cal.n;
    out->outcome = cal.outcome;
    out->calibrated_s = cal.time_s;
    return HM_OK;
}

static int side_alloc(side_t *s, int threads, long reps)
{
    s->threads = threads;
    s->core = calloc((size_t)threads, sizeof *s->core);
    s->child_core = calloc((size_t)threads, sizeof *s->child_core);
    s->without_s = calloc((size_t)threads, sizeof *s->without_s);
    s->with_s = calloc((size_t)threads, sizeof *s->with_s);
    s->times = calloc((size_t)threads * (size_t)reps, sizeof *s->times);
    return s->core && s->child_core && s->without_s && s->with_s && s->times
               ? HM_OK
               : hm__error_set(HM_ENOMEM, "impact: out of memory");
}

static void side_free(side_t *s)
{
    free(s->core);
    free(s->child_core);
    free(s->without_s);
    free(s->with_s);
    free(s->times);
}

/* Both measurements of one rank, every phase started together and agreed. */
static int measure(MPI_Comm comm, hm_compute_t *c, const char *program, long reps, side_t *s)
{
    double *per_thread = malloc((size_t)s->threads * sizeof *per_thread);
    int rc = hm_agree(comm, per_thread ? HM_OK : hm__error_set(HM_ENOMEM, "impact: out of memory"));
    if (rc == HM_OK && MPI_Barrier(comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Barrier");
    if (rc == HM_OK) {
        rc = run_without_mpi(program, hm_compute_size(c), reps, s);
        if (rc == HM_OK) rc = same_cores(s, program);
        if (rc == HM_OK) medians(s, reps, s->without_s);
        rc = hm_agree(comm, rc);
    }
    if (rc == HM_OK && MPI_Barrier(comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Barrier");
    if (rc == HM_OK) {
        rc = run_with_mpi(c, reps, s, per_thread);
        if (rc == HM_OK) medians(s, reps, s->with_s);
        rc = hm_agree(comm, rc);
    }
    free(per_thread);
    return rc;
}

enum { FIELDS = 4 }; /* thread, core, without, with */

/* Root: every rank's rows, rank by rank; elsewhere the rank's own. */
static int gather_rows(MPI_Comm comm, const side_t *s, hm_overlap_impact_t *out)
{
    int rank, size, rc = HM_OK;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = s->threads * FIELDS, *counts = NULL, *displs = NULL, total = 0;
    double *send = malloc((size_t)mine * sizeof *send), *all = NULL;
    if (rank == 0) {
        counts = malloc((size_t)size * sizeof *counts);
        displs = malloc((size_t)size * sizeof *displs);
    }
    if (!send || (rank == 0 && (!counts || !displs))) rc = hm__error_nomem(__func__);
    for (int t = 0; rc == HM_OK && t < s->threads; t++) {
        double *v = send + (size_t)t * FIELDS;
        v[0] = t, v[1] = s->core[t], v[2] = s->without_s[t], v[3] = s->with_s[t];
    }
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Gather");
    if (rc == HM_OK && rank == 0) {
        for (int r = 0; r < size; r++) displs[r] = total, total += counts[r];
        all = malloc((size_t)(total ? total : 1) * sizeof *all);
        if (!all) rc = hm__error_nomem(__func__);
    }
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && MPI_Gatherv(send, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
                                   comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Gatherv");
    if (rc == HM_OK) {
        const double *v = rank == 0 ? all : send;
        size_t n = (size_t)(rank == 0 ? total : mine) / FIELDS;
        out->rows = calloc(n ? n : 1, sizeof *out->rows);
        if (!out->rows) rc = hm__error_set(HM_ENOMEM, "impact: out of memory");
        for (size_t i = 0, r = 0; rc == HM_OK && i < n; i++) {
            while (rank == 0 && r + 1 < (size_t)size && (int)(i * FIELDS) >= displs[r + 1]) r++;
            const double *x = v + i * FIELDS;
            out->rows[i] = (hm_overlap_impact_row_t){
                rank == 0 ? (int)r : rank, (int)x[0], (int)x[1], x[2], x[3], x[3] / x[2]};
        }
        out->nrows = rc == HM_OK ? n : 0;
    }
    free(send);
    free(all);
    free(counts);
    free(displs);
    return rc;
}

void hm_overlap_impact_free(hm_overlap_impact_t *r)
{
    if (!r) return;
    free(r->rows);
    r->rows = NULL;
    r->nrows = 0;
}

static int check_args(double target_s, long reps)
{
    if (!(target_s > 0) || !isfinite(target_s))
        return hm__error_set(HM_EINVAL, "impact: target %g s is not a time above 0", target_s);
    if (reps < 1 || reps > MAX_REPS)
        return hm__error_set(HM_EINVAL, "impact: %ld runs, not 1 to %d", reps, MAX_REPS);
    return HM_OK;
}

int hm_overlap_impact(MPI_Comm comm, hm_compute_t *compute, const char *compute_program,
                      double target_s, long reps, hm_overlap_impact_t *out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!compute) return hm__error_null(__func__, "compute");
    if (!out) return hm__error_null(__func__, "out");
    const char *program =
        compute_program && *compute_program ? compute_program : "harmonia-compute";
    side_t s = {0};
    *out = (hm_overlap_impact_t){.target_s = target_s, .reps = reps};
    int rc = hm_agree(comm, check_args(target_s, reps));
    if (rc == HM_OK) rc = hm_agree(comm, side_alloc(&s, hm_compute_threads(compute), reps));
    for (int t = 0; rc == HM_OK && t < s.threads; t++) s.core[t] = hm_compute_core(compute, t);
    if (rc == HM_OK) rc = calibrate(comm, compute, target_s, out);
    if (rc == HM_OK) rc = measure(comm, compute, program, reps, &s);
    if (rc == HM_OK) rc = gather_rows(comm, &s, out);
    side_free(&s);
    if (rc != HM_OK) hm_overlap_impact_free(out);
    return rc;
}
