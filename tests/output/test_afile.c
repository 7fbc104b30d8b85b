/* tests/output/test_afile.c — the atomic file itself: what the final name
 * holds after each step, file modes, and errors that name the path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_test_afile_XXXXXX";

static char *content(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f) return strcpy(buf, "(absent)");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* An old file stays until the first checkpoint replaces it; each checkpoint
 * publishes exactly what was written so far; commit publishes the rest. */
static void check_steps(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/steps.txt", dir);
    write_text(path, "old\n");
    hm_afile_t *af;
    int st = hm_afile_open(path, &af);
    HM_CHECK(st == HM_OK, "opened %s (%d %s)", path, st, hm_last_error());
    fputs("abc\n", hm_afile_stream(af));
    HM_CHECK(strcmp(content(path), "old\n") == 0, "before a checkpoint the old file stays: %s",
             content(path));
    st = hm_afile_checkpoint(af);
    HM_CHECK(st == HM_OK && strcmp(content(path), "abc\n") == 0,
             "checkpoint published \"abc\\n\": \"%s\" (%d)", content(path), st);
    fputs("def\n", hm_afile_stream(af));
    HM_CHECK(strcmp(content(path), "abc\n") == 0, "unpublished text is not visible");
    st = hm_afile_commit(af);
    HM_CHECK(st == HM_OK && strcmp(content(path), "abc\ndef\n") == 0,
             "commit published everything: \"%s\" (%d %s)", content(path), st, hm_last_error());
    struct stat sb;
    stat(path, &sb);
    HM_CHECK((sb.st_mode & 0777) == 0644, "mode under umask 022 is 0644 (got %03o)",
             (unsigned)(sb.st_mode & 0777));
    unlink(path);
}

/* Abort removes the temporary; an earlier checkpoint stays published. */
static void check_abort(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/abort.txt", dir);
    hm_afile_t *af;
    hm_afile_open(path, &af);
    fputs("kept\n", hm_afile_stream(af));
    hm_afile_checkpoint(af);
    fputs("lost\n", hm_afile_stream(af));
    hm_afile_abort(af);
    HM_CHECK(strcmp(content(path), "kept\n") == 0, "after abort the checkpoint stays: \"%s\"",
             content(path));
    unlink(path);
    hm_afile_open(path, &af);
    fputs("never\n", hm_afile_stream(af));
    hm_afile_abort(af);
    HM_CHECK(strcmp(content(path), "(absent)") == 0, "abort without checkpoint publishes nothing");
}

static void check_missing_dir(void)
{
    const char *path = "/nonexistent-hm-dir/sub/out.csv";

    hm_afile_t *af = NULL;
    int st = hm_afile_open(path, &af);
    HM_CHECK(st == HM_ENOENT && af == NULL, "open in a missing directory is HM_ENOENT (%d)", st);
    HM_CHECK(strstr(hm_last_error(), path) != NULL &&
                 strstr(hm_last_error(), "directory \"/nonexistent-hm-dir/sub\" does not exist"),
             "the message names the path and the directory: %s", hm_last_error());
    const char *cols[] = {"a"};
    hm_csv_t *csv = NULL;
    /* Leave another sentence as the last error, so that only hm_csv_open's
     * own can name the path below. */
    hm_csv_reader_t *other = NULL;
    hm_csv_reader_open("/nonexistent/harmonia-other.csv", &other);
    st = hm_csv_open(path, NULL, cols, 1, &csv);
    HM_CHECK(st == HM_ENOENT && strstr(hm_last_error(), path) != NULL, "hm_csv_open too: %d, %s",
             st, hm_last_error());
}

/* The final name is taken by a non-empty directory after the open (which
 * refuses one that is there already): rename fails, the error names the
 * path and keeps errno, and no temporary is left behind. */
static void check_rename_failure(void)
{
    char path[512], inner[600];
    snprintf(path, sizeof path, "%s/blocked", dir);
    snprintf(inner, sizeof inner, "%s/x", path);
    hm_afile_t *af;
    hm_afile_open(path, &af);
    mkdir(path, 0755);
    write_text(inner, "x");
    fputs("data\n", hm_afile_stream(af));
    int st = hm_afile_checkpoint(af), err = errno;
    HM_CHECK(st == HM_EIO && (err == EISDIR || err == ENOTEMPTY || err == EEXIST),
             "checkpoint over a directory: %d, errno %s", st, strerror(err));
    HM_CHECK(strstr(hm_afile_error(af), path) != NULL, "message names the path: %s",
             hm_afile_error(af));
    st = hm_afile_commit(af);
    err = errno;
    HM_CHECK(st == HM_EIO && (err == EISDIR || err == ENOTEMPTY || err == EEXIST) &&
                 strstr(hm_last_error(), path),
             "commit over a directory: %d, errno %s, %s", st, strerror(err), hm_last_error());
    unlink(inner);
    HM_CHECK(rmdir(path) == 0, "the blocking directory was left untouched");
}

/* A name without a directory lives in the current directory. */
static void check_relative(void)
{
    char cwd[512];
    if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0) return;
    hm_afile_t *af;
    int st = hm_afile_open("relative.txt", &af);
    if (st == HM_OK) fputs("rel\n", hm_afile_stream(af));
    if (st == HM_OK) st = hm_afile_commit(af);
    HM_CHECK(st == HM_OK && strcmp(content("relative.txt"), "rel\n") == 0,
             "relative name committed in the current directory (%d)", st);
    unlink("relative.txt");
    if (chdir(cwd) != 0) HM_CHECK(0, "back to %s", cwd);
}

/* A replaced file keeps its mode and owner (issue 31, class 2: a 0600 file
 * came back 0644, another user's came back root's), through a commit and
 * through checkpoints; a new file follows the umask. The owner is checked
 * where this process may give a file away (root). */
static void replace_with(const char *path, int checkpoint)
{
    hm_afile_t *af;
    int st = hm_afile_open(path, &af);
    fputs("new\n", hm_afile_stream(af));
    if (st == HM_OK && checkpoint) st = hm_afile_checkpoint(af);
    if (st == HM_OK)
        st = hm_afile_commit(af);
    else
        hm_afile_abort(af);
    HM_CHECK(st == HM_OK && !strcmp(content(path), "new\n"), "%s replaced (%d %s)", path, st,
             hm_last_error());
}

static void check_kept_attributes(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/kept.txt", dir);
    struct stat sb;
    for (int checkpoint = 0; checkpoint <= 1; checkpoint++) {
        const mode_t modes[] = {0600, 0640, 0755, 0444};
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            write_text(path, "old\n");
            chmod(path, modes[i]);
            replace_with(path, checkpoint);
            stat(path, &sb);
            HM_CHECK((sb.st_mode & 07777) == modes[i], "a %04o file stays %04o%s (got %04o)",
                     (unsigned)modes[i], (unsigned)modes[i],
                     checkpoint ? " through a checkpoint" : "", (unsigned)(sb.st_mode & 07777));
        }
        if (geteuid() == 0) {
            write_text(path, "old\n");
            HM_CHECK(chown(path, 12345, 23456) == 0, "chown");
            replace_with(path, checkpoint);
            stat(path, &sb);
            HM_CHECK(sb.st_uid == 12345 && sb.st_gid == 23456,
                     "another user's file stays theirs%s (owner %u:%u)",
                     checkpoint ? " through a checkpoint" : "", (unsigned)sb.st_uid,
                     (unsigned)sb.st_gid);
        }
        unlink(path);
    }
    umask(077);
    replace_with(path, 0);
    stat(path, &sb);
    HM_CHECK((sb.st_mode & 0777) == 0600, "a new file under umask 077 is 0600 (got %03o)",
             (unsigned)(sb.st_mode & 0777));
    umask(022);
    unlink(path);
}

int main(void)
{
    umask(022);
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    check_steps();
    check_abort();
    check_missing_dir();
    check_rename_failure();
    check_relative();
    check_kept_attributes();
    HM_CHECK(rmdir(dir) == 0, "no file left in %s", dir);
    char cmd[300]; /* what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
