/* tests/output/test_target.c — what a result path may name (hm_afile_check,
 * docs/output.md): regular files and links to them, never a device, a FIFO,
 * a directory or a dangling link; and when two paths name one file
 * (hm_afile_same). The oracle is the file system itself: after each refusal
 * the target is still what it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_test_target_XXXXXX";

static const char *at(const char *name)
{
    return hm_test_path(dir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static mode_t type_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

/* Refused with HM_EINVAL, the sentence naming the path and what it is, and
 * the target untouched; hm_afile_open refuses it the same way. */
static void expect_refused(const char *path, const char *what)
{
    mode_t before = type_of(path);
    int st = hm_afile_check(path);
    HM_CHECK(st == HM_EINVAL && strstr(hm_last_error(), path) && strstr(hm_last_error(), what),
             "%s refused as %s: %d %s", path, what, st, hm_last_error());
    hm_afile_t *af = NULL;
    st = hm_afile_open(path, &af);
    HM_CHECK(st == HM_EINVAL && af == NULL && type_of(path) == before,
             "hm_afile_open refuses %s too and leaves it as it was (%d)", path, st);
}

static void check_kinds(void)
{
    write_text(at("regular.csv"), "old\n");
    HM_CHECK(hm_afile_check(at("regular.csv")) == HM_OK, "a regular file may be replaced");
    HM_CHECK(hm_afile_check(at("new.csv")) == HM_OK, "a new file may be created");
    HM_CHECK(mkfifo(at("fifo"), 0644) == 0, "mkfifo");
    expect_refused(at("fifo"), "a FIFO");
    HM_CHECK(mkdir(at("sub"), 0755) == 0, "mkdir");
    expect_refused(at("sub"), "a directory");
    expect_refused(at("sub/"), "names a directory");
    /* A device without needing root to make one: a link to /dev/null, which
     * is followed (and must stay /dev/null). */
    HM_CHECK(symlink("/dev/null", at("null-link")) == 0, "symlink");
    expect_refused(at("null-link"), "a character device");
    HM_CHECK(symlink("nowhere", at("dangling")) == 0, "symlink");
    expect_refused(at("dangling"), "a symbolic link to nothing");
    int st = hm_afile_check("/nonexistent-hm-dir/x.csv");
    HM_CHECK(st == HM_ENOENT && strstr(hm_last_error(), "does not exist"),
             "a missing directory: %d %s", st, hm_last_error());
}

/* A link to a regular file is followed: the file it points to gets the
 * content and the link stays a link. */
static void check_link_followed(void)
{
    HM_CHECK(symlink("regular.csv", at("link.csv")) == 0, "symlink");
    hm_afile_t *af = NULL;
    int st = hm_afile_open(at("link.csv"), &af);
    if (st == HM_OK) fputs("new\n", hm_afile_stream(af));
    if (st == HM_OK) st = hm_afile_commit(af);
    char buf[16] = "";
    FILE *f = fopen(at("regular.csv"), "r");
    if (f) {
        if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
        fclose(f);
    }
    HM_CHECK(st == HM_OK && strcmp(buf, "new\n") == 0 && type_of(at("link.csv")) == S_IFLNK,
             "written through the link (%d), target \"%s\", link kept", st, buf);
}

static void check_same(void)
{
    char dotted[600];
    snprintf(dotted, sizeof dotted, "%s/./regular.csv", dir);
    HM_CHECK(hm_afile_same(at("regular.csv"), dotted), "another spelling is the same file");
    HM_CHECK(hm_afile_same(at("link.csv"), at("regular.csv")), "a link is its target");
    HM_CHECK(!hm_afile_same(at("regular.csv"), at("new.csv")), "an absent file is another");
    snprintf(dotted, sizeof dotted, "%s/sub/../new.csv", dir);
    HM_CHECK(hm_afile_same(at("new.csv"), dotted), "two absent names in one directory");
    HM_CHECK(!hm_afile_same(at("new.csv"), at("other.csv")), "two absent names differ");
}

int main(void)
{
    umask(022);
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    check_kinds();
    check_link_followed();
    check_same();
    const char *names[] = {"regular.csv", "fifo", "null-link", "dangling", "link.csv"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(at(names[i]));
    rmdir(at("sub"));
    HM_CHECK(rmdir(dir) == 0, "no file left in %s", dir);
    char cmd[300]; /* what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
