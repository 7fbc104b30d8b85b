/* src/output/target.c — what a result path may name, decided before anything
 * is measured or written (hm_afile_check), and whether two paths name one
 * file (hm_afile_same). Results replace their target whole, by rename(2):
 * that is right for a regular file and wrong for anything else (a device,
 * a FIFO, a directory would be replaced by a regular file, or the rename
 * would fail after the work), so only regular files are written. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "output/output_impl.h"

const char *hm__output_kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISREG(mode)) return "a regular file";
    return "not a regular file";
}

/* The directory of path ("." for a bare name), into dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

char *hm__output_resolve(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) return realpath(path, NULL);
    return strdup(path);
}

static int check_dir(const char *path, const char *file)
{
    char dir[PATH_MAX];
    struct stat st;
    dir_of(file, dir, sizeof dir);
    if (stat(dir, &st) != 0)
        return hm__error_set(HM_ENOENT, "\"%s\": directory \"%s\" does not exist", path, dir);
    if (!S_ISDIR(st.st_mode))
        return hm__error_set(HM_EINVAL, "\"%s\": \"%s\" is %s, not a directory", path, dir,
                             hm__output_kind_of(st.st_mode));
    if (access(dir, W_OK) != 0)
        return hm__error_set(HM_EINVAL, "\"%s\": directory \"%s\" is not writable", path, dir);
    return HM_OK;
}

int hm_afile_check(const char *path)
{
    struct stat st;
    if (!path) return hm__error_null(__func__, "path");
    if (!*path) return hm__error_set(HM_EINVAL, "an empty file name");
    if (path[strlen(path) - 1] == '/')
        return hm__error_set(HM_EINVAL, "\"%s\" names a directory, not a file", path);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) != 0)
        return hm__error_set(HM_EINVAL, "\"%s\" is a symbolic link to nothing (%s)", path,
                             strerror(errno));
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return hm__error_set(HM_EINVAL,
                             "\"%s\" is %s: results are written only to regular files, which "
                             "they replace whole",
                             path, hm__output_kind_of(st.st_mode));
    char *file = hm__output_resolve(path);
    if (!file) return hm__error_set(HM_ENOMEM, "resolving \"%s\": out of memory", path);
    int rc = check_dir(path, file);
    free(file);
    return rc;
}

int hm_afile_same(const char *a, const char *b)
{
    if (!a || !b) {
        hm__error_null(__func__, a ? "b" : "a");
        return 0;
    }
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb) return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Neither exists yet: the same name in the same directory. */
    char da[PATH_MAX], db[PATH_MAX];
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    dir_of(a, da, sizeof da);
    dir_of(b, db, sizeof db);
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0) return 0;
    return stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int hm_afile_make_dirs(const char *dir)
{
    char path[PATH_MAX];
    if (!dir) return hm__error_null(__func__, "dir");
    if (!*dir) return hm__error_set(HM_EINVAL, "no directory to create");
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return hm__error_set(HM_EINVAL, "cannot create \"%s\": %s", dir, strerror(ENAMETOOLONG));
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return hm__error_set(HM_EIO, "cannot create \"%s\": %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return hm__error_set(HM_EIO, "cannot create \"%s\": %s", dir, strerror(errno));
    return HM_OK;
}

/* As cp and editors keep them: a 0600 file came back 0644 and another
 * user's came back root's before (issue 31). The owner first: chown clears
 * the set-user-ID bits that the mode then restores. Only root may give a
 * file away: for anyone else a refused chown leaves the file theirs, with
 * the old mode, as cp -p does. */
int hm_afile_adopt(int fd, const char *target)
{
    if (!target) return hm__error_null(__func__, "target");
    struct stat old;
    if (stat(target, &old) != 0 || !S_ISREG(old.st_mode)) return HM_OK;
    if (fchown(fd, old.st_uid, old.st_gid) != 0 && errno != EPERM)
        return hm__error_set(HM_EIO, "keeping the owner of %s: %s", target, strerror(errno));
    if (fchmod(fd, old.st_mode & 07777) != 0)
        return hm__error_set(HM_EIO, "keeping the mode of %s: %s", target, strerror(errno));
    return HM_OK;
}
