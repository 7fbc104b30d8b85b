/* src/output/atomic_file.c — files that appear under their final name only
 * complete. Content goes to a temporary file beside the target (same
 * directory, so rename(2) is atomic: a reader, or a crash, sees either the
 * old file or the new one, never a part of it). Checkpoints publish a synced
 * copy of what was written so far; commit publishes the temporary itself.
 *
 * Temporaries are unnamed (O_TMPFILE) where the file system allows: a
 * process killed outright (SIGKILL, the OOM killer, a launcher that does not
 * wait for its ranks' handlers) then leaves nothing behind. An unnamed file
 * gets a hidden name only for the moment between linkat(2) and rename(2). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "output/output_impl.h"
#include "common/error_set.h"

/* The stream's buffer: stdio's default is the file system's block (4 KiB
 * here), a write(2) each; a merged trace of 0.9 GB took 214 k of them. */
enum { ERROR_LEN = 1024, TMP_BASE_MAX = 200, STREAM_BUFFER_BYTES = 256 * 1024 };

struct hm_afile {
    char *path; /* final name */
    char *dir;  /* its directory: temporaries live there, and it is synced */
    char *base; /* final name without the directory */
    char *tmp;  /* named temporary being written; NULL: an unnamed one */
    FILE *stream;
    char *buffer; /* the stream's, freed after it is closed */
    /* What is published differs from what was written in one place: the
     * patch_len bytes at patch_at read patch (NULL: no difference). */
    off_t patch_at;
    size_t patch_len;
    char *patch;
    char error[ERROR_LEN];
};

/* The cause of a write that failed inside stdio: a stream whose error
 * flag a full buffer's write set earlier reports it at the next fflush
 * with errno 0, and "Input/output error" hid a full disk (issue 31). The
 * file system says whether it is full. */
static int lost_cause(const hm_afile_t *af)
{
    struct statvfs vfs;
    int fd = af->stream ? fileno(af->stream) : -1;
    if (fd >= 0 && fstatvfs(fd, &vfs) == 0 && vfs.f_bavail == 0) return ENOSPC;
    return EIO;
}

/* Record "cannot write PATH: what: strerror(err)" on the handle and as the
 * thread's last error, and return HM_EIO with errno = err, as the failing
 * call left it. */
static int fail(hm_afile_t *af, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(hm_afile_t *af, int err, const char *fmt, ...)
{
    if (err == 0) err = lost_cause(af);
    int n = snprintf(af->error, sizeof af->error, "cannot write %s: ", af->path);
    if (n > 0 && (size_t)n < sizeof af->error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(af->error + n, sizeof af->error - (size_t)n, fmt, ap);
        va_end(ap);
    }
    size_t used = strlen(af->error);
    snprintf(af->error + used, sizeof af->error - used, ": %s", strerror(err));
    hm__error_set(HM_EIO, "%s", af->error);
    errno = err;
    return HM_EIO;
}

/* The process umask, read without changing it (umask(2) can only be read by
 * setting it, which would race with other threads creating files). */
static mode_t current_umask(void)
{
    unsigned mask = 022;
    char line[128];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) break;
    if (f) fclose(f);
    return (mode_t)mask;
}

/* A temporary's name for a message. */
static const char *tmp_label(const char *tmp)
{
    return tmp ? tmp : "an unnamed temporary file";
}

/* Remove a temporary file and drop it from the registry. */
static void remove_temp(const char *tmp)
{
    hm__output_temp_forget(tmp);
    unlink(tmp);
}

/* The hidden name of a temporary beside the target, with XXXXXX to fill:
 * ".NAME.tmp.HOST.PID.XXXXXX" (the host and pid tell a later run whether
 * its writer is gone). */
static char *temp_template(const hm_afile_t *af)
{
    char host[256];
    hm__output_host(host, sizeof host);
    return hm__output_format("%s/.%.*s.tmp.%s.%ld.XXXXXX", af->dir, TMP_BASE_MAX, af->base, host,
                             (long)getpid());
}

/* An unnamed file in the target's directory, open for reading and writing
 * with the mode a plain fopen would give; -1 where the file system (or a
 * kernel without O_TMPFILE) cannot, or /proc, which names it later, is
 * missing: the caller then makes a named one. */
static int open_unnamed(const hm_afile_t *af)
{
    if (access("/proc/self/fd", X_OK) != 0) return -1;
    return open(af->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
}

/* Replace the XXXXXX ending name with letters drawn from a per-call seed. */
static void fill_template(char *name, unsigned long seed)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char *x = name + strlen(name) - 6;
    for (int i = 0; i < 6; i++, seed /= 62) x[i] = letters[seed % 62];
}

/* Give the unnamed file fd a fresh hidden name (registered: a signal
 * handler removes it), to be renamed over the target at once. */
static int name_unnamed(hm_afile_t *af, int fd, char **named)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    *named = temp_template(af);
    if (!*named) return hm__error_nomem(__func__);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long seed = (unsigned long)now.tv_nsec * 2654435761UL ^ (unsigned long)getpid();
    for (int attempt = 0; attempt < 100; attempt++, seed = seed * 6364136223846793005UL + 1) {
        fill_template(*named, seed >> 16);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, *named, AT_SYMLINK_FOLLOW) == 0) {
            hm__output_temp_register(*named);
            return HM_OK;
        }
        if (errno != EEXIST) break;
    }
    int st = fail(af, errno, "naming a temporary file as %s", *named);
    free(*named), *named = NULL;
    return st;
}

/* A new temporary beside the target, *fd open for reading and writing:
 * unnamed (*tmp NULL) where possible, else hidden under a name from
 * temp_template, in the registry that a signal handler empties. mkstemp
 * makes it 0600: give it the mode a plain fopen would have given. */
static int make_temp(hm_afile_t *af, char **tmp, int *fd)
{
    *tmp = NULL;
    if ((*fd = open_unnamed(af)) >= 0) return HM_OK;
    *tmp = temp_template(af);
    if (!*tmp) return hm__error_nomem(__func__);
    *fd = mkostemp(*tmp, O_CLOEXEC);
    if (*fd < 0) {
        int st = fail(af, errno, "creating temporary file %s", *tmp);
        free(*tmp), *tmp = NULL;
        return st;
    }
    hm__output_temp_register(*tmp);
    if (fchmod(*fd, 0666 & ~current_umask()) != 0) {
        int err = errno;
        close(*fd);
        remove_temp(*tmp);
        int st = fail(af, err, "setting the mode of %s", *tmp);
        free(*tmp), *tmp = NULL;
        return st;
    }
    return HM_OK;
}

/* Split path (a link resolved) into directory and base name ("x.csv" lives
 * in "."). */
static int split_path(hm_afile_t *af, const char *path)
{
    af->path = hm__output_resolve(path);
    if (!af->path)
        return hm__error_set(HM_ENOMEM, "%s: cannot resolve %s: %s", __func__, path,
                             strerror(errno));
    path = af->path;
    const char *slash = strrchr(path, '/');
    af->base = strdup(slash ? slash + 1 : path);
    if (!slash)
        af->dir = strdup(".");
    else
        af->dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
    return af->path && af->base && af->dir ? HM_OK : hm__error_nomem(__func__);
}

static void release(hm_afile_t *af)
{
    int err = errno; /* cleanup must not hide the error being reported */
    if (af->stream) fclose(af->stream);
    free(af->buffer);
    if (af->tmp) remove_temp(af->tmp);
    free(af->tmp);
    free(af->patch);
    free(af->path);
    free(af->dir);
    free(af->base);
    free(af);
    errno = err;
}

/* The handle's sentence stays the thread's last error: the handle is gone
 * when the caller looks. Other failures set their own sentence. */
static int keep_error(const hm_afile_t *af, int st)
{
    return st == HM_EIO && af->error[0] ? hm__error_set(st, "%s", af->error) : st;
}

static int open_temp_stream(hm_afile_t *af)
{
    int fd;
    int st = make_temp(af, &af->tmp, &fd);
    if (st != HM_OK) return st;
    af->stream = fdopen(fd, "w");
    if (!af->stream) {
        int err = errno;
        close(fd);
        return fail(af, err, "opening a stream on %s", tmp_label(af->tmp));
    }
    /* Without the memory, stdio's own buffer does: slower, not wrong. */
    af->buffer = malloc(STREAM_BUFFER_BYTES);
    if (af->buffer) setvbuf(af->stream, af->buffer, _IOFBF, STREAM_BUFFER_BYTES);
    return HM_OK;
}

int hm_afile_open(const char *path, hm_afile_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!path) return hm__error_null(__func__, "path");
    int st = hm_afile_check(path);
    if (st != HM_OK) return st;
    hm_afile_t *af = calloc(1, sizeof *af);
    if (!af) return hm__error_nomem(__func__);
    st = split_path(af, path);
    if (st == HM_OK) hm__output_remove_stale(af->dir, af->base);
    if (st == HM_OK) st = open_temp_stream(af);
    if (st != HM_OK) {
        keep_error(af, st);
        release(af);
        return st;
    }
    *out = af;
    return HM_OK;
}

FILE *hm_afile_stream(hm_afile_t *af)
{
    if (!af) hm__error_null(__func__, "af");
    return af ? af->stream : NULL;
}

const char *hm_afile_path(const hm_afile_t *af)
{
    if (!af) hm__error_null(__func__, "af");
    return af ? af->path : "";
}

const char *hm_afile_error(const hm_afile_t *af)
{
    if (!af) hm__error_null(__func__, "af");
    return af ? af->error : "";
}

/* Make a rename in the directory survive a crash. File systems that cannot
 * sync a directory (EINVAL) have nothing to sync. */
static int sync_dir(hm_afile_t *af)
{
    int fd = open(af->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return fail(af, errno, "opening directory %s", af->dir);
    int rc = fsync(fd), err = errno;
    close(fd);
    if (rc != 0 && err != EINVAL) return fail(af, err, "syncing directory %s", af->dir);
    return HM_OK;
}

/* Push the stream's buffer to the temporary; a write error reported earlier
 * by the stream (disk full) makes it fail too. */
static int flush_stream(hm_afile_t *af)
{
    errno = 0;
    if (fflush(af->stream) != 0 || ferror(af->stream))
        return fail(af, errno, "writing %s", tmp_label(af->tmp));
    return HM_OK;
}

int hm__afile_overwrite(hm_afile_t *af, off_t offset, const void *bytes, size_t len)
{
    int st = flush_stream(af);
    for (size_t done = 0; st == HM_OK && done < len;) {
        ssize_t n = pwrite(fileno(af->stream), (const char *)bytes + done, len - done,
                           offset + (off_t)done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return fail(af, n < 0 ? errno : EIO, "rewriting %s", tmp_label(af->tmp));
        done += (size_t)n;
    }
    return st;
}

int hm__afile_patch(hm_afile_t *af, off_t offset, size_t len, const char *text)
{
    char *copy = text ? strdup(text) : NULL;
    if (text && !copy) return hm__error_nomem(__func__);
    free(af->patch);
    af->patch = copy;
    af->patch_at = offset;
    af->patch_len = len;
    return HM_OK;
}

/* Copy the bytes [in_off, end) of in to out from out_off; copy_file_range
 * where the kernel can (reflinks, no user-space copy), read/write
 * otherwise. */
static int copy_range(int in, off_t in_off, off_t end, int out, off_t out_off)
{
    while (in_off < end) {
        ssize_t n = copy_file_range(in, &in_off, out, &out_off, (size_t)(end - in_off), 0);
        if (n > 0) continue;
        if (n == 0) return errno = EIO, -1; /* shorter than fstat said */
        if (errno == EINTR) continue;
        if (errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP) return -1;
        break;
    }
    char buf[1 << 16];
    while (in_off < end) {
        size_t want = (size_t)(end - in_off) < sizeof buf ? (size_t)(end - in_off) : sizeof buf;
        ssize_t n = pread(in, buf, want, in_off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n == 0 ? (errno = EIO, -1) : -1;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = pwrite(out, buf + done, (size_t)(n - done), out_off);
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) return -1;
            done += w, out_off += w;
        }
        in_off += n;
    }
    return 0;
}

/* The content as published: what was written, with the patch in place. */
static int copy_content(const hm_afile_t *af, int in, int out, off_t len)
{
    if (!af->patch || af->patch_at + (off_t)af->patch_len > len)
        return copy_range(in, 0, len, out, 0);
    size_t n = strlen(af->patch);
    off_t after = af->patch_at + (off_t)af->patch_len;
    if (copy_range(in, 0, af->patch_at, out, 0) != 0) return -1;
    ssize_t w = pwrite(out, af->patch, n, af->patch_at);
    if (w != (ssize_t)n) {
        if (w >= 0) errno = EIO;
        return -1;
    }
    return copy_range(in, after, len, out, af->patch_at + (off_t)n);
}

/* A file replaced keeps its owner, group and mode (hm_afile_adopt). */
static int keep_attributes(hm_afile_t *af, int fd)
{
    int err = 0;
    if (hm_afile_adopt(fd, af->path) != HM_OK) err = errno;
    return err ? fail(af, err, "keeping the owner and mode of %s", af->path) : HM_OK;
}

/* Name an unnamed temporary (fd still open) so it can be renamed; a named
 * one keeps its name. */
static int ensure_named(hm_afile_t *af, int fd, char **tmp)
{
    return *tmp ? HM_OK : name_unnamed(af, fd, tmp);
}

/* Fill the checkpoint copy, sync, name and close it, and publish it under
 * the final name. *copy is its name once it has one. */
static int publish_copy(hm_afile_t *af, char **copy, int fd, off_t len)
{
    int st = HM_OK;
    if (copy_content(af, fileno(af->stream), fd, len) != 0)
        st = fail(af, errno, "copying %s to %s", tmp_label(af->tmp), tmp_label(*copy));
    if (st == HM_OK) st = keep_attributes(af, fd);
    if (st == HM_OK && fsync(fd) != 0) st = fail(af, errno, "syncing %s", tmp_label(*copy));
    if (st == HM_OK) st = ensure_named(af, fd, copy);
    int err = errno;
    if (close(fd) != 0 && st == HM_OK)
        st = fail(af, errno, "closing %s", *copy);
    else if (st != HM_OK)
        errno = err; /* close must not hide the first error */
    if (st == HM_OK && rename(*copy, af->path) != 0) st = fail(af, errno, "renaming %s", *copy);
    if (st == HM_OK) hm__output_temp_forget(*copy);
    return st;
}

int hm_afile_checkpoint(hm_afile_t *af)
{
    if (!af) return hm__error_null(__func__, "af");
    struct stat sb;
    int st = flush_stream(af);
    if (st != HM_OK) return st;
    if (fstat(fileno(af->stream), &sb) != 0)
        return fail(af, errno, "reading the size of %s", tmp_label(af->tmp));
    char *copy;
    int fd;
    if ((st = make_temp(af, &copy, &fd)) != HM_OK) return st;
    st = publish_copy(af, &copy, fd, sb.st_size);
    if (st != HM_OK && copy) {
        int err = errno;
        remove_temp(copy);
        errno = err;
    }
    free(copy);
    return st == HM_OK ? sync_dir(af) : st;
}

/* Sync, name and close the temporary, then rename it to the final name. */
static int publish_temp(hm_afile_t *af)
{
    int st = flush_stream(af);
    if (st != HM_OK) return st;
    if ((st = keep_attributes(af, fileno(af->stream))) != HM_OK) return st;
    if (fsync(fileno(af->stream)) != 0) return fail(af, errno, "syncing %s", tmp_label(af->tmp));
    if ((st = ensure_named(af, fileno(af->stream), &af->tmp)) != HM_OK) return st;
    FILE *stream = af->stream;
    af->stream = NULL;
    if (fclose(stream) != 0) return fail(af, errno, "closing %s", af->tmp);
    if (rename(af->tmp, af->path) != 0) return fail(af, errno, "renaming %s", af->tmp);
    hm__output_temp_forget(af->tmp);
    free(af->tmp), af->tmp = NULL;
    return sync_dir(af);
}

int hm_afile_commit(hm_afile_t *af)
{
    if (!af) return hm__error_null(__func__, "af");
    /* A patched content is published as a checkpoint is; the temporary
     * goes with the handle. */
    int st = af->patch ? hm_afile_checkpoint(af) : publish_temp(af);
    if (st != HM_OK) keep_error(af, st);
    release(af);
    return st;
}

void hm_afile_abort(hm_afile_t *af)
{
    if (af) release(af);
}
