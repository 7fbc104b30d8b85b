/* tests/output/test_input.c — what an input may be (hm_input_open, issue
 * 31 class 1): a regular file, or a link to one, within its size limit;
 * never a directory, a device or a FIFO, refused before a byte is read and
 * without waiting for a FIFO's writer. The oracle is the file system: each
 * case is made with the kind it tests, and a refused open leaves no
 * descriptor behind. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_test_input_XXXXXX";

static const char *at(const char *name)
{
    return hm_test_path(dir, name);
}

/* The lowest free descriptor: the same before and after a refusal when
 * nothing was left open. */
static int next_fd(void)
{
    int fd = dup(0);
    close(fd);
    return fd;
}

static void expect(const char *path, uint64_t max_bytes, int status, const char *words)
{
    int fd_before = next_fd();
    FILE *f = (FILE *)1;
    int st = hm_input_open(path, "test file", max_bytes, &f);
    HM_CHECK(st == status && f == NULL && strstr(hm_last_error(), path) &&
                 strstr(hm_last_error(), words) && next_fd() == fd_before,
             "%s: %d with \"%s\" (got %d: %s), nothing left open", path, status, words, st,
             hm_last_error());
}

static void check_regular(void)
{
    FILE *w = fopen(at("ok.csv"), "w");
    fputs("a,b\n1,2\n", w);
    fclose(w);
    FILE *f = NULL;
    char line[16] = "";
    int st = hm_input_open(at("ok.csv"), "test file", 8, &f);
    HM_CHECK(st == HM_OK && f && fgets(line, sizeof line, f) && !strcmp(line, "a,b\n"),
             "a regular file of 8 bytes at the limit of 8 opens and reads (%d: %s)", st,
             hm_last_error());
    if (f) fclose(f);
    HM_CHECK(symlink(at("ok.csv"), at("link.csv")) == 0, "symlink");
    st = hm_input_open(at("link.csv"), "test file", 0, &f);
    HM_CHECK(st == HM_OK && f, "a link to a regular file opens (%d)", st);
    if (f) fclose(f);
    expect(at("ok.csv"), 7, HM_EINVAL, "is 8 B, above the limit of 7 B for a test file");
}

static void check_refused(void)
{
    expect(at("missing.csv"), 0, HM_ENOENT, "No such file or directory");
    HM_CHECK(symlink(at("nowhere"), at("dangling.csv")) == 0, "symlink");
    expect(at("dangling.csv"), 0, HM_ENOENT, "No such file or directory");
    HM_CHECK(mkdir(at("adir"), 0755) == 0, "mkdir");
    expect(at("adir"), 0, HM_EINVAL, "is a directory, not a regular file");
    HM_CHECK(mkfifo(at("fifo"), 0644) == 0, "mkfifo");
    /* Without a writer: an open that waited would hang; the alarm ends
     * the test instead of the suite's timeout. */
    alarm(10);
    expect(at("fifo"), 0, HM_EINVAL, "is a FIFO, not a regular file");
    alarm(0);
    expect("/dev/zero", 0, HM_EINVAL, "is a character device, not a regular file");
    /* 2 GiB of holes: the size comes from fstat, nothing is read. */
    int fd = open(at("big.txt"), O_WRONLY | O_CREAT, 0644);
    HM_CHECK(fd >= 0 && ftruncate(fd, 2LL << 30) == 0, "a sparse file of 2 GiB");
    close(fd);
    expect(at("big.txt"), HM_INPUT_MAX_PATTERN_BYTES, HM_EINVAL,
           "is 2.1 GB, above the limit of 1.1 GB for a test file");
    FILE *f = NULL;
    HM_CHECK(hm_input_open(at("big.txt"), "test file", 0, &f) == HM_OK && f,
             "no limit (0): the large file opens");
    if (f) fclose(f);
    HM_CHECK(hm_input_open(NULL, "x", 0, &f) == HM_EINVAL && f == NULL && hm_last_error()[0],
             "a NULL path: HM_EINVAL with a sentence");
    HM_CHECK(hm_input_open(at("ok.csv"), "x", 0, NULL) == HM_EINVAL && hm_last_error()[0],
             "a NULL out: HM_EINVAL with a sentence");
}

int main(void)
{
    HM_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    check_regular();
    check_refused();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return hm_test_finish();
}
