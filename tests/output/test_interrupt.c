/* tests/output/test_interrupt.c — what survives an interruption
 * (docs/results.md, "Interrupted runs"): the factor "complete" of published
 * checkpoints and closed files, the removal of this process's temporaries
 * (what a SIGINT/SIGTERM handler calls), and the removal, by the next
 * writer of a target, of temporaries whose process is gone (SIGKILL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_test_interrupt_XXXXXX";

static const char *at(const char *name)
{
    return hm_test_path(dir, name);
}

/* The value of "# complete: " in path, or "(none)". */
static const char *complete_of(const char *path)
{
    static char value[256];
    char line[512];
    snprintf(value, sizeof value, "(none)");
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "# complete: %255[^\n]", value) == 1) break;
    if (f) fclose(f);
    return value;
}

/* Files in dir whose name starts with prefix. */
static int count_prefixed(const char *prefix)
{
    char cmd[800], buf[64] = "0";
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '^%s'", dir, prefix);
    FILE *p = popen(cmd, "r");
    if (p && fgets(buf, sizeof buf, p)) pclose(p);
    return atoi(buf);
}

static void row(hm_csv_t *csv, double x)
{
    hm_csv_put_double(csv, x);
    hm_csv_end_row(csv);
}

static void check_complete_factor(void)
{
    const char *cols[] = {"x"};
    hm_csv_t *csv = NULL;
    int st = hm_csv_open(at("run.csv"), NULL, cols, 1, &csv);
    HM_CHECK(st == HM_OK, "open (%s)", hm_last_error());
    if (st != HM_OK) return;
    row(csv, 1);
    hm_csv_checkpoint(csv);
    HM_CHECK(!strcmp(complete_of(at("run.csv")), "no (a checkpoint of a run in progress)"),
             "a checkpoint without progress: %s", complete_of(at("run.csv")));
    hm_csv_progress(csv, 1, 3, "experiments");
    hm_csv_checkpoint(csv);
    HM_CHECK(!strcmp(complete_of(at("run.csv")), "no (1 of 3 experiments)"), "after 1 of 3: %s",
             complete_of(at("run.csv")));
    row(csv, 2);
    hm_csv_progress(csv, 2, 3, "experiments");
    st = hm_csv_close(csv);
    HM_CHECK(st == HM_OK && !strcmp(complete_of(at("run.csv")), "no (2 of 3 experiments)"),
             "closed after 2 of 3: %s", complete_of(at("run.csv")));
    st = hm_csv_open(at("all.csv"), NULL, cols, 1, &csv);
    row(csv, 1);
    hm_csv_progress(csv, 1, 1, "experiments");
    hm_csv_checkpoint(csv);
    HM_CHECK(!strcmp(complete_of(at("all.csv")), "yes"), "a checkpoint after 1 of 1: %s",
             complete_of(at("all.csv")));
    hm_csv_close(csv);
    HM_CHECK(!strcmp(complete_of(at("all.csv")), "yes"), "closed: %s", complete_of(at("all.csv")));
    HM_CHECK(count_prefixed(".run.csv.tmp") + count_prefixed(".all.csv.tmp") == 0,
             "no temporary left after close");
}

/* What a SIGINT handler does: the temporaries go, the checkpoint stays. */
static void check_remove_temporaries(void)
{
    const char *cols[] = {"x"};
    hm_csv_t *a = NULL, *b = NULL;
    hm_csv_open(at("a.csv"), NULL, cols, 1, &a);
    hm_csv_open(at("b.csv"), NULL, cols, 1, &b);
    row(a, 1);
    hm_csv_checkpoint(a);
    int named = !hm_test_unnamed_files(dir);
    HM_CHECK(count_prefixed(".a.csv.tmp") == named && count_prefixed(".b.csv.tmp") == named,
             "one temporary per open file, %s", named ? "named" : "unnamed");
    hm_afile_remove_temporaries();
    HM_CHECK(count_prefixed(".a.csv.tmp") + count_prefixed(".b.csv.tmp") == 0,
             "hm_afile_remove_temporaries removed both");
    HM_CHECK(!strcmp(complete_of(at("a.csv")), "no (a checkpoint of a run in progress)"),
             "the checkpoint stays and says it is not complete");
    hm_csv_abort(a);
    hm_csv_abort(b);
}

/* Temporaries of a process that is gone (a child that exited) are removed
 * by the next writer of the same target; those of a live process, of
 * another host or of another target stay. */
static void check_stale(void)
{
    char host[256];
    gethostname(host, sizeof host);
    pid_t child = fork();
    if (child == 0) _exit(0);
    waitpid(child, NULL, 0);
    char dead[300], live[300], other_host[300], other_target[300];
    snprintf(dead, sizeof dead, ".t.csv.tmp.%s.%ld.AAAAAA", host, (long)child);
    snprintf(live, sizeof live, ".t.csv.tmp.%s.%ld.BBBBBB", host, (long)getpid());
    snprintf(other_host, sizeof other_host, ".t.csv.tmp.elsewhere-%s.%ld.CCCCCC", host,
             (long)child);
    snprintf(other_target, sizeof other_target, ".u.csv.tmp.%s.%ld.DDDDDD", host, (long)child);
    const char *names[] = {dead, live, other_host, other_target};
    for (int i = 0; i < 4; i++) fclose(fopen(at(names[i]), "w"));
    hm_afile_t *af = NULL;
    int st = hm_afile_open(at("t.csv"), &af);
    HM_CHECK(st == HM_OK && access(at(dead), F_OK) != 0, "the dead writer's temporary is gone");
    HM_CHECK(access(at(live), F_OK) == 0 && access(at(other_host), F_OK) == 0 &&
                 access(at(other_target), F_OK) == 0,
             "a live writer's, another host's and another target's stay");
    hm_afile_abort(af);
    for (int i = 1; i < 4; i++) unlink(at(names[i]));
}

int main(void)
{
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    check_complete_factor();
    check_remove_temporaries();
    check_stale();
    const char *names[] = {"run.csv", "all.csv", "a.csv"};
    for (int i = 0; i < 3; i++) unlink(at(names[i]));
    HM_CHECK(rmdir(dir) == 0, "no file left in %s", dir);
    char cmd[300]; /* what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
