/* tools/harmonia/commands/progress.c — one updating line on a terminal for
 * stages that run long: what is running, how far it got, and an estimate of
 * what is left. Never on a file or a pipe, where it would be noise. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign_run.h"
#include "commands/commands.h"

/* A stage shorter than this shows nothing; longer ones update at most every
 * UPDATE_S, which a reader follows and which costs nothing next to the work. */
static const double QUIET_S = 1.0, UPDATE_S = 0.25;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Open MPI's mpirun gives its local ranks a pseudo-terminal for stdout even
 * when its own stdout is a file or a pipe, and forwards what they write
 * there: stdout is a terminal only if the launcher's (the parent's) is one
 * too. Where that cannot be read, no progress is shown. */
static int parent_stdout_is_terminal(void)
{
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/1", (long)getppid());
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0) return 0;
    target[n] = '\0';
    return strncmp(target, "/dev/pts/", 9) == 0 || strncmp(target, "/dev/tty", 8) == 0;
}

/* A terminal on stderr, or on stdout where a launcher (Open MPI) gives the
 * ranks a pseudo-terminal for stdout only; MPICH's Hydra gives none. */
static FILE *terminal(void)
{
    if (isatty(STDERR_FILENO)) return stderr;
    return isatty(STDOUT_FILENO) && parent_stdout_is_terminal() ? stdout : NULL;
}

void cli_progress_init(cli_progress_t *p, int show)
{
    memset(p, 0, sizeof *p);
    p->out = show ? terminal() : NULL;
}

void cli_progress_stage(cli_progress_t *p, const char *what, const char *units)
{
    cli_progress_clear(p);
    snprintf(p->what, sizeof p->what, "%s", what);
    snprintf(p->units, sizeof p->units, "%s", units);
    p->start_s = now_s();
    p->last_s = 0;
}

void cli_progress_report(void *arg, double done, double total)
{
    cli_progress_t *p = arg;
    double t = now_s(), elapsed = t - p->start_s;
    if (!p->out || elapsed < QUIET_S || t - p->last_s < UPDATE_S || !(total > 0)) return;
    p->last_s = t;
    char spent[32], left[32] = "?";
    cli_campaign_format_duration(elapsed, spent, sizeof spent);
    if (done > 0) cli_campaign_format_duration(elapsed * (total - done) / done, left, sizeof left);
    fprintf(p->out, "\r\033[Kharmonia: %s: %.0f%% (%.0f of %.0f %s), %s elapsed, about %s left%s%s",
            p->what, 100.0 * done / total, done, total, p->units, spent, left,
            p->note[0] ? "; " : "", p->note);
    fflush(p->out);
    p->shown = 1;
}

void cli_progress_note(cli_progress_t *p, const char *note)
{
    snprintf(p->note, sizeof p->note, "%s", note ? note : "");
}

void cli_progress_clear(cli_progress_t *p)
{
    if (!p->shown) return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = 0;
}
