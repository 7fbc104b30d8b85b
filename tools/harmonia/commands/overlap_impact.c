/* tools/harmonia/commands/overlap_impact.c — `harmonia overlap impact`: the
 * MPI impact ratio [Denis et al. 2022, §3.2.1, eq. 2], the compute kernel's
 * time in a process that initialized MPI divided by its time in one that
 * never loaded it. The second process is harmonia-compute, the same kernel
 * source without MPI, started by every rank on its own processors at the
 * same time, as the ranks then compute at once themselves. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/output.h>
#include <harmonia/overlap.h>
#include <harmonia/stats.h>

#include "commands/commands.h"

extern char **environ;

enum { MAX_THREADS = 256 };

static double median(double *v, int n)
{
    hm_stats_sort(v, (size_t)n);
    return hm_stats_quantile_sorted(v, (size_t)n, 0.5);
}

/* harmonia-compute beside this program (build/ or bin/), else on PATH. */
static void compute_program(char *path, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, len, "%s/harmonia-compute", self);
            if (access(path, X_OK) == 0) return;
        }
    }
    snprintf(path, len, "harmonia-compute");
}

/* Rows "rep,thread,core,n,time_s,gflops" of harmonia-compute --csv (rep
 * from 1) into times[thread][rep - 1]. */
static int parse_rows(FILE *f, int threads, long reps, double *times)
{
    char line[512];
    long rows = 0;
    while (fgets(line, sizeof line, f)) {
        long rep, thread, core, n;
        double t, gflops;
        if (line[0] == '#' ||
            sscanf(line, "%ld,%ld,%ld,%ld,%lf,%lf", &rep, &thread, &core, &n, &t, &gflops) != 6)
            continue;
        if (thread < 0 || thread >= threads || rep < 1 || rep > reps) return HM_EINVAL;
        times[thread * reps + rep - 1] = t;
        rows++;
    }
    return rows == threads * reps ? HM_OK : HM_EINVAL;
}

/* Run harmonia-compute with the same order, threads and repetitions; this
 * rank's binding is the child's. Per-thread medians into without_s. */
static int run_without_mpi(int order, int threads, long reps, double *without_s, char *why,
                           size_t len)
{
    char program[4200], a_size[32], a_threads[32], a_reps[32];
    compute_program(program, sizeof program);
    snprintf(a_size, sizeof a_size, "%d", order);
    snprintf(a_threads, sizeof a_threads, "%d", threads);
    snprintf(a_reps, sizeof a_reps, "%ld", reps);
    char *argv[] = {program,  "--size", a_size,  "--threads", a_threads,
                    "--reps", a_reps,   "--csv", NULL};
    int fd[2], status = 0;
    pid_t pid;
    posix_spawn_file_actions_t fa;
    if (pipe(fd) != 0) return snprintf(why, len, "impact: no pipe"), HM_EIO;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    int rc = posix_spawnp(&pid, program, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        snprintf(why, len, "impact: cannot run %.200s: %s", program, strerror(rc));
        return HM_EIO;
    }
    double *times = calloc((size_t)threads * (size_t)reps, sizeof *times);
    FILE *f = fdopen(fd[0], "r");
    rc = times && f ? parse_rows(f, threads, reps, times) : HM_ENOMEM;
    if (f) fclose(f);
    waitpid(pid, &status, 0);
    if (rc == HM_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) rc = HM_EIO;
    if (rc != HM_OK)
        snprintf(why, len, "impact: %.200s --size %d --threads %d failed", program, order, threads);
    for (int t = 0; rc == HM_OK && t < threads; t++)
        without_s[t] = median(times + (size_t)t * (size_t)reps, (int)reps);
    free(times);
    return rc;
}

static int run_with_mpi(hm_compute_t *c, long reps, double *with_s)
{
    int threads = hm_compute_threads(c);
    double *times = malloc((size_t)threads * (size_t)reps * sizeof *times), per[MAX_THREADS];
    int rc = times ? HM_OK : HM_ENOMEM;
    for (long r = 0; rc == HM_OK && r < reps; r++) {
        rc = hm_compute_run(c, per);
        for (int t = 0; t < threads; t++) times[(size_t)t * (size_t)reps + (size_t)r] = per[t];
    }
    for (int t = 0; rc == HM_OK && t < threads; t++)
        with_s[t] = median(times + (size_t)t * (size_t)reps, (int)reps);
    free(times);
    return rc;
}

/* Root: one row per rank and thread. */
static void print_table(MPI_Comm comm, hm_compute_t *c, double target_s, const double *mine,
                        int threads)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double *all = rank == 0 ? malloc((size_t)size * 2 * MAX_THREADS * sizeof *all) : NULL;
    MPI_Gather(mine, 2 * MAX_THREADS, MPI_DOUBLE, all, 2 * MAX_THREADS, MPI_DOUBLE, 0, comm);
    if (rank != 0 || !all) return free(all);
    hm_table_t *t = NULL;
    const char *cols[] = {"rank",           "thread",      "target_us", "order",
                          "without_mpi_us", "with_mpi_us", "impact"};
    if (hm_table_create(&t) == HM_OK) {
        for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
            hm_table_add_column(t, cols[k], HM_ALIGN_RIGHT);
        for (int r = 0; r < size; r++)
            for (int th = 0; th < threads; th++) {
                const double *v = all + (size_t)r * 2 * MAX_THREADS;
                hm_table_add_cellf(t, "%d", r);
                hm_table_add_cellf(t, "%d", th);
                hm_table_add_cellf(t, "%g", target_s * 1e6);
                hm_table_add_cellf(t, "%d", hm_compute_size(c));
                hm_table_add_number(t, "%.1f", v[th] * 1e6);
                hm_table_add_number(t, "%.1f", v[MAX_THREADS + th] * 1e6);
                hm_table_add_number(t, "%.3f", v[MAX_THREADS + th] / v[th]);
            }
        hm_table_print(t, stdout);
        hm_table_free(t);
    }
    free(all);
}

/* Collective: one computation target. */
static int impact_at(const hm_cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c, double target_s)
{
    hm_compute_calib_params_t cp;
    hm_compute_calibration_t cal;
    double times[2 * MAX_THREADS] = {0};
    char why[512] = "";
    int threads = hm_compute_threads(c);
    hm_compute_calib_params_default(&cp);
    cp.target_s = target_s;
    hm_compute_calibrate(c, &cp, &cal, NULL);
    int order = cal.n;
    MPI_Allreduce(MPI_IN_PLACE, &order, 1, MPI_INT, MPI_MAX, comm);
    int rc = hm_compute_set_size(c, order);
    MPI_Barrier(comm);
    if (rc == HM_OK) rc = run_without_mpi(order, threads, cfg->nrep, times, why, sizeof why);
    if (hm_cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE, why) != HM_EXIT_OK)
        return HM_EXIT_FAILURE;
    MPI_Barrier(comm);
    rc = run_with_mpi(c, cfg->nrep, times + MAX_THREADS);
    if (hm_cli_agree(comm, rc == HM_OK ? HM_EXIT_OK : HM_EXIT_FAILURE,
                     rc == HM_OK ? "" : hm_last_error()) != HM_EXIT_OK)
        return HM_EXIT_FAILURE;
    print_table(comm, c, target_s, times, threads);
    return HM_EXIT_OK;
}

int hm_cli_overlap_impact(hm_cli_config_t *cfg, MPI_Comm comm, hm_compute_t *c)
{
    int rank, size, rc = HM_EXIT_OK;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (hm_compute_threads(c) > MAX_THREADS)
        return hm_cli_agree(comm, HM_EXIT_USAGE, "--threads: impact reports at most 256 threads");
    if (rank == 0)
        printf("MPI impact ratio on %d ranks (Denis et al. 2022, eq. 2): the kernel's median time "
               "per thread in this MPI process over its time in harmonia-compute, which never "
               "loads MPI (1: no impact)\n",
               size);
    for (int i = 0; i < cfg->ncomp_targets && rc == HM_EXIT_OK; i++)
        rc = impact_at(cfg, comm, c, cfg->comp_targets_s[i]);
    return rc;
}
