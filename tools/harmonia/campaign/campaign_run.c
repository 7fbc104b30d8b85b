/* tools/harmonia/campaign/campaign_run.c — fork/exec of one run. The child stays in the
 * campaign's process group, so a Ctrl-C on the terminal reaches mpirun
 * directly; a signal sent to the campaign alone is passed on. waitpid is woken
 * every second by SIGALRM (installed without SA_RESTART) to redraw the
 * progress line and to notice a stop, so nothing polls. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/error.h>

#include "campaign/campaign_run.h"

/* The only mutable state: which stop signal arrived (async-signal-safe). */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static void on_alarm(int sig)
{
    (void)sig;
}

static void install(int sig, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: waitpid returns EINTR */
    sigaction(sig, &sa, NULL);
}

void cli_campaign_catch_signals(void)
{
    install(SIGINT, on_stop);
    install(SIGTERM, on_stop);
    install(SIGHUP, on_stop);
    install(SIGALRM, on_alarm);
}

void cli_campaign_default_signals(void)
{
    install(SIGINT, SIG_DFL);
    install(SIGTERM, SIG_DFL);
    install(SIGHUP, SIG_DFL);
    install(SIGALRM, SIG_DFL);
}

int cli_campaign_stop_signal(void)
{
    return stop_signal;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_campaign_format_duration(double s, char *buf, size_t len)
{
    long t = s > 0 && isfinite(s) ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* In the child: only async-signal-safe calls until exec. */
static void exec_child(char *const *argv, const char *log_path)
{
    int in = open("/dev/null", O_RDONLY),
        out = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0644);
    if (in < 0 || out < 0) _exit(127);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    close(in);
    close(out);
    execvp(argv[0], argv);
    const char *msg = "harmonia campaign: cannot run the command: ";
    const char *reason = strerror(errno);
    if (write(STDERR_FILENO, msg, strlen(msg)) < 0 ||
        write(STDERR_FILENO, argv[0], strlen(argv[0])) < 0 || write(STDERR_FILENO, ": ", 2) < 0 ||
        write(STDERR_FILENO, reason, strlen(reason)) < 0 || write(STDERR_FILENO, "\n", 1) < 0)
        _exit(127);
    _exit(127);
}

static void draw(const cli_campaign_progress_t *p, double elapsed_s)
{
    char el[32], eta[32] = "?";
    if (!p->terminal) return;
    cli_campaign_format_duration(elapsed_s, el, sizeof el);
    if (isfinite(p->mean_run_s)) {
        double left = p->mean_run_s - elapsed_s;
        cli_campaign_format_duration((left > 0 ? left : 0) + p->mean_run_s * (double)p->left, eta,
                                     sizeof eta);
    }
    fprintf(p->out, "\r\033[Kcampaign: run %ld/%ld running for %s, ETA %s", p->run, p->nruns, el,
            eta);
    fflush(p->out);
}

static int shell_status(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

/* Wait for pid; pass a stop on, escalating to SIGKILL after 10 s. */
static int wait_child(pid_t pid, const cli_campaign_progress_t *p, double start_s)
{
    int status = 0, passed = 0;
    double passed_at = 0;
    for (;;) {
        alarm(1);
        pid_t r = waitpid(pid, &status, 0);
        alarm(0);
        if (r == pid) return shell_status(status);
        if (r < 0 && errno != EINTR) return -1;
        if (stop_signal && !passed) {
            kill(pid, stop_signal);
            passed = 1;
            passed_at = now_s();
        } else if (passed && now_s() - passed_at > 10) {
            kill(pid, SIGKILL);
        }
        draw(p, now_s() - start_s);
    }
}

int cli_campaign_run_child(char *const *argv, const char *log_path,
                           const cli_campaign_progress_t *progress, int *exit_status,
                           double *duration_s)
{
    double start = now_s();
    fflush(NULL); /* nothing buffered is written twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        hm_error_set(HM_EINVAL, "cannot start a process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) exec_child(argv, log_path);
    draw(progress, 0);
    *exit_status = wait_child(pid, progress, start);
    *duration_s = now_s() - start;
    if (progress->terminal) fprintf(progress->out, "\r\033[K");
    return 0;
}
