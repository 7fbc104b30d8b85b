/* tests/output/test_atomic.c — the final name of a result file only ever
 * holds a complete checkpoint or commit: writers are killed with SIGKILL at
 * varied instants, and readers look at the file while it is being written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "csv_read.h"
#include "testutil.h"

enum { LABEL_LEN = 1500, KILL_ROUNDS = 8 };
static const char *const columns[] = {"index", "value_s", "label"};
static char dir[] = "/tmp/hm_test_atomic_XXXXXX";

static void path_in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static double row_value(long i)
{
    return (double)i * 1e-3 + 1e-9;
}

/* Long labels with a comma and quotes: each row is ~1.5 KB, so checkpoints
 * copy megabytes and a kill can land in the middle of one. */
static void row_label(long i, char *buf)
{
    int n = snprintf(buf, LABEL_LEN, "row %ld, \"quoted\" ", i);
    memset(buf + n, 'a' + (int)(i % 26), LABEL_LEN - 1 - (size_t)n);
    buf[LABEL_LEN - 1] = '\0';
}

static int put_row(hm_csv_t *csv, long i)
{
    char label[LABEL_LEN];
    row_label(i, label);
    int st = hm_csv_put_int64(csv, i);
    if (st == HM_OK) st = hm_csv_put_double(csv, row_value(i));
    if (st == HM_OK) st = hm_csv_put_string(csv, label);
    return st == HM_OK ? hm_csv_end_row(csv) : st;
}

static hm_csv_t *open_csv(const char *path)
{
    hm_factors_t *f;
    hm_csv_t *csv = NULL;
    hm_factors_create(&f);
    hm_factors_set(f, "test", "atomic");
    hm_csv_open(path, f, columns, 3, &csv);
    hm_factors_free(f);
    return csv;
}

/* Child: rows forever, a checkpoint after each (the parent kills it). */
static void writer(const char *path, int pause_us)
{
    hm_csv_t *csv = open_csv(path);
    for (long i = 0; csv && i < 1000000; i++) {
        if (put_row(csv, i) != HM_OK || hm_csv_checkpoint(csv) != HM_OK) _exit(3);
        if (pause_us) usleep((useconds_t)pause_us);
    }
    _exit(2);
}

/* The file is a complete result: factor, header, rows 0..n-1 each intact,
 * every line ended by '\n'. Returns the number of rows (-1 if broken). */
static long check_complete(const char *path, const char *when)
{
    csv_doc_t doc;
    char why[256] = "";
    int rc = csv_read(path, &doc, why, sizeof why);
    const char *factor = csv_factor(&doc, "test");
    int ok = rc == 0 && doc.ends_in_newline && factor && strcmp(factor, "atomic") == 0 &&
             doc.ncolumns == 3 && strcmp(doc.header[2], "label") == 0 && doc.nrows >= 1;
    char label[LABEL_LEN];
    size_t bad = 0;
    for (size_t i = 0; ok && i < doc.nrows; i++) {
        row_label((long)i, label);
        bad += doc.row_cells[i] != 3 || strtol(doc.rows[i][0], NULL, 10) != (long)i ||
               strtod(doc.rows[i][1], NULL) != row_value((long)i) ||
               strcmp(doc.rows[i][2], label) != 0;
    }
    long rows = ok && !bad ? (long)doc.nrows : -1;
    if (rows < 0)
        HM_CHECK(0, "%s: %s is complete (%s; %zu rows, %zu bad, ends in newline %d)", when, path,
                 why, doc.nrows, bad, doc.ends_in_newline);
    csv_doc_free(&doc);
    return rows;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Wait up to 10 s for the writer's first checkpoint. */
static int wait_for(const char *path)
{
    for (int i = 0; i < 50000; i++) {
        if (exists(path)) return 1;
        usleep(200);
    }
    return 0;
}

/* Remove the hidden temporaries that a killed writer leaves beside name,
 * and count them. Any other hidden file would be a surprise. */
static int remove_leftovers(const char *name)
{
    char prefix[256], path[512];
    int n = 0;
    snprintf(prefix, sizeof prefix, ".%s.tmp.", name);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
        path_in_dir(path, sizeof path, e->d_name);
        n += unlink(path) == 0;
    }
    if (d) closedir(d);
    return n;
}

static int killed(pid_t pid)
{
    int status;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

/* SIGKILL at 0..~100 ms after the first checkpoint appeared; the writer does
 * not pause between rows, so most kills land inside a copy or rename. */
static void check_kill_rounds(void)
{
    long min_rows = -1, max_rows = 0;
    int all_killed = 1, all_complete = 1;
    for (int round = 0; round < KILL_ROUNDS; round++) {
        char name[64], path[512];
        snprintf(name, sizeof name, "kill%d.csv", round);
        path_in_dir(path, sizeof path, name);
        pid_t pid = fork();
        if (pid == 0) writer(path, 0);
        int seen = wait_for(path);
        usleep((useconds_t)(round * round * 2000));
        all_killed &= killed(pid) && seen;
        long rows = check_complete(path, "after SIGKILL");
        all_complete &= rows >= 1;
        if (min_rows < 0 || rows < min_rows) min_rows = rows;
        if (rows > max_rows) max_rows = rows;
        remove_leftovers(name);
        unlink(path);
    }
    HM_CHECK(all_killed, "%d writers killed by SIGKILL mid-way, after their file appeared",
             KILL_ROUNDS);
    HM_CHECK(all_complete, "every killed writer left a complete file: %ld to %ld rows", min_rows,
             max_rows);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* While a writer checkpoints, a reader sees only complete files whose row
 * count never goes down. The reader goes on for a second or until it has
 * watched 100 rows appear, so that it overlaps many checkpoints. */
static void check_concurrent_reader(void)
{
    char path[512];
    path_in_dir(path, sizeof path, "watched.csv");
    pid_t pid = fork();
    if (pid == 0) writer(path, 200);
    wait_for(path);
    long last = 0, reads = 0, broken = 0, backwards = 0, growths = 0;
    for (double start = now_s(); now_s() - start < 1.0 && last < 100; reads++) {
        long rows = check_complete(path, "while writing");
        broken += rows < 0;
        backwards += rows >= 0 && rows < last;
        growths += rows > last;
        if (rows > last) last = rows;
    }
    killed(pid);
    HM_CHECK(broken == 0 && backwards == 0 && growths >= 2,
             "%ld reads during checkpoints saw the file grow %ld times to %ld rows: %ld broken, "
             "%ld went backwards",
             reads, growths, last, broken, backwards);
    remove_leftovers("watched.csv");
    unlink(path);
}

/* Killed before its first checkpoint: nothing under the final name, and
 * the unfinished data sat in a temporary beside it, unnamed where the file
 * system allows. */
static void check_kill_before_checkpoint(void)
{
    char path[512];
    int ready[2];
    path_in_dir(path, sizeof path, "early.csv");
    if (pipe(ready) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        hm_csv_t *csv = open_csv(path);
        for (long i = 0; csv && i < 50; i++) put_row(csv, i);
        (void)!write(ready[1], "x", 1);
        pause();
        _exit(0);
    }
    char c;
    (void)!read(ready[0], &c, 1);
    int was_killed = killed(pid);
    HM_CHECK(was_killed && !exists(path), "writer killed before any checkpoint: %s %s", path,
             exists(path) ? "exists" : "does not exist");
    /* Unnamed temporaries vanish with their process; named ones stay for
     * the next writer to remove (test_interrupt.c). */
    int temps = remove_leftovers("early.csv"), named = !hm_test_unnamed_files(dir);
    HM_CHECK(temps == named, "its data was in %d hidden temporary .early.csv.tmp.* beside it (%d)",
             temps, named);
    close(ready[0]);
    close(ready[1]);
}

static void check_commit(void)
{
    char path[512];
    path_in_dir(path, sizeof path, "commit.csv");
    hm_csv_t *csv = open_csv(path);
    int bad = 0;
    for (long i = 0; i < 100; i++) {
        bad |= put_row(csv, i) != HM_OK;
        if (i % 10 == 9) bad |= hm_csv_checkpoint(csv) != HM_OK;
    }
    HM_CHECK(hm_csv_rows(csv) == 100 && !bad, "100 rows written, checkpoints every 10");
    int st = hm_csv_close(csv);
    HM_CHECK(st == HM_OK, "commit succeeded (%d %s)", st, hm_last_error());
    long rows = check_complete(path, "after commit");
    HM_CHECK(rows == 100, "committed file has all 100 rows (%ld)", rows);
    int temps = remove_leftovers("commit.csv");
    HM_CHECK(temps == 0, "no temporary left after commit (%d)", temps);
    unlink(path);
}

int main(void)
{
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    check_kill_rounds();
    check_concurrent_reader();
    check_kill_before_checkpoint();
    check_commit();
    HM_CHECK(rmdir(dir) == 0, "directory %s empty at the end", dir);
    char cmd[300]; /* what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
