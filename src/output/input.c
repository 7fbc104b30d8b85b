/* src/output/input.c — what an input may be: a regular file of a bounded
 * size, checked on the open descriptor before a byte is read. A path given
 * as an input can name anything: /dev/zero never ends (a pattern file read
 * from it grew to 3.5 GB in 8 s), a FIFO blocks until a writer comes, a
 * directory reads as an error deep in a parser. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "output/output_impl.h"

/* "3.5 GB" */
static void size_words(uint64_t bytes, char *buf, size_t len)
{
    static const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000 && u < 4) v /= 1000, u++;
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

/* The opened descriptor's verdict: HM_OK for a regular file within
 * max_bytes. */
static int check_kind(int fd, const char *path, const char *what, uint64_t max_bytes)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return hm__error_set(HM_EIO, "%s %s: %s", what, path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hm__error_set(HM_EINVAL, "%s %s is %s, not a regular file", what, path,
                             hm__output_kind_of(st.st_mode));
    if (max_bytes && (uint64_t)st.st_size > max_bytes) {
        char have[32], limit[32];
        size_words((uint64_t)st.st_size, have, sizeof have);
        size_words(max_bytes, limit, sizeof limit);
        return hm__error_set(HM_EINVAL, "%s %s is %s, above the limit of %s for a %s", what, path,
                             have, limit, what);
    }
    return HM_OK;
}

int hm_input_open(const char *path, const char *what, uint64_t max_bytes, FILE **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    if (!what) what = "input";
    /* O_NONBLOCK: opening a FIFO without a writer returns at once (it is
     * refused below); regular files ignore the flag. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return hm__error_set(errno == ENOENT ? HM_ENOENT : HM_EIO, "%s: %s", path, strerror(errno));
    int rc = check_kind(fd, path, what, max_bytes);
    if (rc == HM_OK && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        rc = hm__error_set(HM_EIO, "%s %s: %s", what, path, strerror(errno));
    FILE *f = rc == HM_OK ? fdopen(fd, "r") : NULL;
    if (rc == HM_OK && !f) rc = hm__error_set(HM_ENOMEM, "%s %s: out of memory", what, path);
    if (rc != HM_OK) {
        close(fd);
        return rc;
    }
    *out = f;
    return HM_OK;
}

int hm_input_skip_bom(FILE *f)
{
    if (!f) {
        hm__error_null(__func__, "f");
        return 0;
    }
    char head[3];
    long at = ftell(f);
    if (at < 0) return 0;
    if (fread(head, 1, 3, f) == 3 && !memcmp(head, HM_INPUT_BOM, 3)) return 1;
    clearerr(f);
    fseek(f, at, SEEK_SET);
    return 0;
}
