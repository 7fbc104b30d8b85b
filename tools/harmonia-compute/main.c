/* tools/harmonia-compute/main.c — the overlap layer's compute kernel in a
 * program that never loads MPI.
 *
 * The MPI impact ratio [Denis et al. 2022, §3.2.1, eq. 2] divides the
 * kernel's time in a process that initialized MPI by its time in one
 * without MPI, "the exact same computation code". This program is the second
 * process: it is compiled from the library's own kernel source
 * (src/overlap/compute_kernel.c), links neither MPI nor libharmonia, and
 * prints each thread's time of each repetition.
 *
 *   harmonia-compute --size N [--threads T] [--reps R] [--csv]
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap/compute_kernel.h"

enum { EXIT_USAGE = 2, MAX_REPS = 1000000 };

static const char usage[] =
    "usage: harmonia-compute --size N [--threads T] [--reps R] [--csv]\n"
    "\n"
    "Runs the compute kernel of harmonia's overlap layer without MPI: T threads,\n"
    "one per core, each timing one sequential dgemm of order N (OpenBLAS with one\n"
    "thread per call), R times. Prints each thread's time of each repetition in\n"
    "seconds, as an aligned table or, with --csv, as CSV; the lines starting with\n"
    "# say what ran.\n"
    "\n"
    "  --size N      matrix order, 1 to the largest whose three matrices per thread\n"
    "                fit in half of the memory (required)\n"
    "  --threads T   compute threads, 1 to the cores this process may run on;\n"
    "                0 = one per core (default); cores - 1 leaves a core free\n"
    "  --reps R      repetitions, 1 to 1000000 (default 5)\n"
    "  --csv         CSV: rep,thread,core,n,time_s,gflops\n"
    "  --help        this text\n"
    "\n"
    "example: harmonia-compute --size 300 --threads 2 --reps 3\n";

typedef struct options {
    long size, threads, reps;
    int csv, help;
    const char *given[3]; /* first value of --size, --threads, --reps */
} options_t;

/* One "harmonia-compute: error: ..." line on stderr; the usage status. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "harmonia-compute: error: %s\n", line);
    return EXIT_USAGE;
}

static int whole_number(const char *name, const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < INT_MIN || x > INT_MAX)
        return usage_error("--%s: \"%s\" is not a whole number (e.g. --%s 4)", name, v, name);
    *out = x;
    return 0;
}

/* The value of the option at argv[*i] ("--name VALUE" or "--name=VALUE"). */
static int take_value(int argc, char **argv, int *i, const char *name, const char *eq,
                      const char **value)
{
    if (eq)
        *value = eq + 1;
    else if (*i + 1 < argc)
        *value = argv[++*i];
    else
        return usage_error("--%s: a value is required (e.g. --%s 4)", name, name);
    return 0;
}

static int parse(int argc, char **argv, options_t *o)
{
    static const char *const valued[] = {"size", "threads", "reps"};
    long *dst[] = {&o->size, &o->threads, &o->reps};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) != 0)
            return usage_error("unexpected argument \"%s\" (see --help)", a);
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int k = -1;
        for (int j = 0; j < 3; j++)
            if (len == strlen(valued[j]) + 2 && strncmp(a + 2, valued[j], len - 2) == 0) k = j;
        if (k >= 0) {
            const char *v = NULL;
            if (take_value(argc, argv, &i, valued[k], eq, &v)) return EXIT_USAGE;
            if (o->given[k])
                return usage_error("--%s: given twice (\"%s\", then \"%s\")", valued[k],
                                   o->given[k], v);
            o->given[k] = v;
            if (whole_number(valued[k], v, dst[k])) return EXIT_USAGE;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(a, "--help") == 0) {
            o->help = 1;
        } else {
            return usage_error("unknown option \"%s\" (known: --size, --threads, --reps, --csv, "
                               "--help)",
                               a);
        }
    }
    return 0;
}

/* What the options alone can refuse, before any kernel exists. */
static int check_options(const options_t *o, int cores)
{
    if (!o->given[0]) return usage_error("--size is required: the matrix order, e.g. --size 500");
    if (o->size < 1) return usage_error("--size: %ld must be at least 1", o->size);
    if (o->threads < 0)
        return usage_error("--threads: %ld must be 0 (one per core) or 1 to %d (the cores this "
                           "process may run on)",
                           o->threads, cores);
    if (o->threads > cores)
        return usage_error("--threads: %ld is more than the %d core%s this process may run on",
                           o->threads, cores, cores == 1 ? "" : "s");
    if (o->reps < 1 || o->reps > MAX_REPS)
        return usage_error("--reps: %ld must be 1 to %d", o->reps, MAX_REPS);
    return 0;
}

static int runtime_error(const char *what, int status)
{
    fprintf(stderr, "harmonia-compute: error: %s\n", what);
    return status == HM_OK ? 0 : 1;
}

/* "# key: value" lines: what ran, for the reader and for a script that
 * compares this run with the same kernel under MPI. */
static void print_factors(const hm__compute_kernel_t *k, long reps)
{
    int threads = hm__compute_kernel_threads(k);
    printf("# program: harmonia-compute (no MPI)\n");
    printf("# kernel: dgemm, one per thread, one BLAS thread per call\n");
    printf("# blas: %s (%s)\n", hm__compute_kernel_blas(), hm__compute_kernel_dgemm_object());
    printf("# size: %d\n", hm__compute_kernel_size(k));
    printf("# threads: %d of %d cores\n", threads, hm__compute_kernel_cores_of(k));
    printf("# cores:");
    for (int t = 0; t < threads; t++) printf("%s%d", t ? "," : " ", hm__compute_kernel_core(k, t));
    printf("\n# reps: %ld\n", reps);
}

static void print_rep(const hm__compute_kernel_t *k, long rep, const double *times, int csv)
{
    double n = hm__compute_kernel_size(k);
    for (int t = 0; t < hm__compute_kernel_threads(k); t++) {
        double gflops = 2 * n * n * n / times[t] * 1e-9;
        if (csv)
            printf("%ld,%d,%d,%.0f,%.9g,%.6g\n", rep, t, hm__compute_kernel_core(k, t), n, times[t],
                   gflops);
        else
            printf("%5ld %7d %5d %8.0f %12.6g %9.3f\n", rep, t, hm__compute_kernel_core(k, t), n,
                   times[t], gflops);
    }
}

static int run(hm__compute_kernel_t *k, const options_t *o)
{
    double *times = calloc((size_t)hm__compute_kernel_threads(k), sizeof *times);
    if (!times) return runtime_error("out of memory", HM_ENOMEM);
    print_factors(k, o->reps);
    puts(o->csv ? "rep,thread,core,n,time_s,gflops"
                : "  rep  thread  core        n       time_s   GFLOP/s");
    int rc = HM_OK;
    for (long r = 1; rc == HM_OK && r <= o->reps; r++) {
        rc = hm__compute_kernel_run(k, times);
        if (rc == HM_OK) print_rep(k, r, times, o->csv);
    }
    free(times);
    fflush(stdout);
    return rc == HM_OK ? 0 : runtime_error(hm__compute_kernel_why(k), rc);
}

int main(int argc, char **argv)
{
    options_t o = {.size = 0, .threads = 0, .reps = 5};
    int cores, rc;
    if (parse(argc, argv, &o)) return EXIT_USAGE;
    if (o.help) return fputs(usage, stdout) == EOF;
    if (hm__compute_kernel_cores(&cores) != HM_OK)
        return runtime_error("hwloc cannot tell the cores of this process", HM_ENOTSUP);
    if (check_options(&o, cores)) return EXIT_USAGE;
    hm__compute_kernel_t *k;
    rc = hm__compute_kernel_create(o.threads ? (int)o.threads : cores, &k);
    if (rc != HM_OK) return runtime_error(hm__compute_kernel_why(NULL), rc);
    if (o.size > hm__compute_kernel_max_size(k)) {
        int threads = hm__compute_kernel_threads(k);
        rc = usage_error("--size: %ld is more than %d, the largest order whose three matrices per "
                         "thread fit in half of the memory with %d thread%s",
                         o.size, hm__compute_kernel_max_size(k), threads, threads == 1 ? "" : "s");
    } else if ((rc = hm__compute_kernel_set_size(k, (int)o.size)) != HM_OK) {
        rc = runtime_error(hm__compute_kernel_why(k), rc);
    } else {
        rc = run(k, &o);
    }
    hm__compute_kernel_free(k);
    return rc;
}
