/* src/output/temporaries.c — the hidden temporary files of atomic files
 * (atomic_file.c): a registry of those this process holds, so that a signal
 * handler can remove them (hm_afile_remove_temporaries), and the removal of
 * those a killed process left beside a target. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "output/output_impl.h"

/* A process holds at most two temporaries per open file (the file and a
 * checkpoint copy) and a command a few files: 32 is plenty. A temporary that
 * finds no slot is still removed on every path but a signal. */
enum { SLOTS = 32, SLOT_PATH = 4096 };

/* The only mutable state of the layer: written by the owning thread, read by
 * a signal handler, hence fixed buffers and a flag set after the path. */
static char slot_path[SLOTS][SLOT_PATH];
static volatile sig_atomic_t slot_used[SLOTS];

void hm__output_temp_register(const char *path)
{
    for (int i = 0; i < SLOTS; i++)
        if (!slot_used[i] && strlen(path) < SLOT_PATH) {
            memcpy(slot_path[i], path, strlen(path) + 1);
            slot_used[i] = 1;
            return;
        }
}

void hm__output_temp_forget(const char *path)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i] && strcmp(slot_path[i], path) == 0) {
            slot_used[i] = 0;
            return;
        }
}

void hm_afile_remove_temporaries(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i]) {
            unlink(slot_path[i]); /* async-signal-safe */
            slot_used[i] = 0;
        }
}

void hm__output_host(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0) snprintf(buf, len, "unknown");
    buf[len - 1] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == '/') *c = '_';
}

/* The pid in NAME ".BASE.tmp.HOST.PID.XXXXXX" when it starts with prefix
 * ".BASE.tmp.HOST.", else 0. */
static long temp_pid(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return 0;
    char *end;
    long pid = strtol(name + n, &end, 10);
    return *end == '.' && strlen(end) == 7 && pid > 0 ? pid : 0;
}

void hm__output_remove_stale(const char *dir, const char *base)
{
    char host[256], prefix[512], path[8192];
    hm__output_host(host, sizeof host);
    snprintf(prefix, sizeof prefix, ".%.200s.tmp.%s.", base, host);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        long pid = temp_pid(e->d_name, prefix);
        /* Only this host's processes can be asked whether they still run. */
        if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    if (d) closedir(d);
}
