/* src/figure/plot_gnuplot.c — finding gnuplot, running it with a time limit,
 * the output and scratch directories of the figures. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/error.h>
#include <harmonia/output.h>

#include "common/error_set.h"
#include "figure/plot_gnuplot.h"

extern char **environ;

/* A figure takes gnuplot well under a second; a minute means it hangs (a
 * terminal waiting for input, a broken font setup), and the user should hear
 * about it rather than wait forever. */
#define GNUPLOT_LIMIT_S 60

int hm__plot_find_gnuplot(char *path, size_t len)
{
    const char *env = getenv("PATH");
    char *dirs = strdup(env && *env ? env : "/usr/bin:/bin");
    int found = 0;
    struct stat st;
    for (char *save = NULL, *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d && !found;
         d = strtok_r(NULL, ":", &save)) {
        if (d[0] != '/') continue; /* a relative PATH entry depends on where we stand */
        int n = snprintf(path, len, "%s/gnuplot", d);
        found = n > 0 && (size_t)n < len && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
                access(path, X_OK) == 0;
    }
    free(dirs);
    if (found) return HM_OK;
    return hm__error_set(HM_ENOENT, "plot: gnuplot not found in PATH (install gnuplot-nox)");
}

static int spawn(const char *gnuplot, const char *script, const char *err_path, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    char *argv[] = {(char *)gnuplot, "-d", (char *)script, NULL};
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc) return rc;
    /* -d: no ~/.gnuplot, so that every user gets the same figures. */
    rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!rc)
        rc = posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    /* Its own process group: a gnuplot that hangs is killed with whatever
     * it started (a viewer, a shell of a "system" command), which a kill of
     * its pid alone left running (issue 31). */
    posix_spawnattr_t at;
    int have_at = !rc && !(rc = posix_spawnattr_init(&at));
    if (!rc) rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    if (!rc) rc = posix_spawnattr_setpgroup(&at, 0);
    if (!rc) rc = posix_spawn(pid, gnuplot, &fa, &at, argv, environ);
    if (have_at) posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* Wait for pid at most limit_s seconds; then kill it. Returns its exit
 * status, or -1 when it was killed or died of a signal. */
static int wait_limited(pid_t pid, int limit_s)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    int status;
    for (long waited = 0;; waited++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (r < 0 && errno != EINTR) return -1;
        if (waited >= limit_s * 100L) break;
        nanosleep(&tick, NULL);
    }
    kill(-pid, SIGKILL); /* the group spawn made, gnuplot's children too */
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return -1;
}

/* The first non-blank line of gnuplot's stderr, where it says what failed. */
static void first_error_line(const char *err_path, char *line, size_t len)
{
    FILE *f = fopen(err_path, "r");
    line[0] = '\0';
    while (f && fgets(line, (int)len, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t^")]) break;
        line[0] = '\0';
    }
    if (f) fclose(f);
}

int hm__plot_run_gnuplot(const hm__plot_out_t *out, const char *script)
{
    char err_path[4200], line[512];
    pid_t pid;
    snprintf(err_path, sizeof err_path, "%s/gnuplot.err", out->tmpdir);
    int rc = spawn(out->gnuplot, script, err_path, &pid);
    if (rc) return hm__error_set(HM_EIO, "plot: cannot start %s: %s", out->gnuplot, strerror(rc));
    int status = wait_limited(pid, GNUPLOT_LIMIT_S);
    if (status == 0) return HM_OK;
    first_error_line(err_path, line, sizeof line);
    if (status < 0 && !line[0])
        snprintf(line, sizeof line, "killed or stopped after at most %d s", GNUPLOT_LIMIT_S);
    return hm__error_set(HM_EIO, "plot: gnuplot failed (exit %d): %s", status,
                         line[0] ? line : "no message");
}

/* The output directory: created when missing, with its parents. */
static int output_dir(const char *dir)
{
    struct stat st;
    if (!*dir) dir = ".";
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0) return HM_OK;
        return hm__error_set(HM_EINVAL, "\"%s\" is not a writable directory", dir);
    }
    if (hm_afile_make_dirs(dir) == HM_OK) return HM_OK;
    return HM_EINVAL; /* sentence: set by hm_afile_make_dirs */
}

static int scratch_dir(hm__plot_out_t *out)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out->tmpdir, sizeof out->tmpdir, "%s/harmonia-plot.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(out->tmpdir)) return HM_OK;
    int rc = hm__error_set(HM_EIO, "plot: cannot create a scratch directory %s: %s", out->tmpdir,
                           strerror(errno));
    out->tmpdir[0] = '\0';
    return rc;
}

/* gnuplot-nox has pngcairo on Debian; builds without cairo only have the
 * libgd png terminal, which draws no transparency but still works. */
static int has_pngcairo(const hm__plot_out_t *out)
{
    char script[4200];
    snprintf(script, sizeof script, "%s/probe.gp", out->tmpdir);
    FILE *f = fopen(script, "w");
    if (!f) return 0;
    fputs("set terminal pngcairo\n", f);
    if (fclose(f)) return 0;
    return hm__plot_run_gnuplot(out, script) == HM_OK;
}

int hm__plot_out_open(hm__plot_out_t *out)
{
    int rc = output_dir(out->dir);
    if (rc == HM_OK) rc = scratch_dir(out);
    if (rc == HM_OK && out->png) out->pngcairo = has_pngcairo(out);
    return rc;
}

void hm__plot_out_close(hm__plot_out_t *out)
{
    if (!out->tmpdir[0]) return;
    DIR *d = opendir(out->tmpdir);
    struct dirent *e;
    char path[4500];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", out->tmpdir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(out->tmpdir);
    out->tmpdir[0] = '\0';
}
