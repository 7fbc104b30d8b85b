/* src/output/local_facts.c — facts about the calling process and its node,
 * read where they live: hwloc, sysfs, the clock, the MPI library. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwloc.h>
#include <mpi.h>

#include "output/output_impl.h"

static void copy_text(char *buf, size_t len, const char *text)
{
    if (len == 0) return;
    snprintf(buf, len, "%s", text);
}

/* A process counts as unbound when it may run on every processor of the
 * machine that it is allowed to use (a cgroup limit is not a binding). */
static void describe_binding(hwloc_topology_t topo, hwloc_bitmap_t set, char *buf, size_t len)
{
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
        copy_text(buf, len, "unknown");
    } else if (hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topo), set)) {
        copy_text(buf, len, "unbound");
    } else if (hwloc_bitmap_list_snprintf(buf, len, set) < 0) {
        copy_text(buf, len, "unknown");
    }
}

void hm__output_binding(char *buf, size_t len)
{
    hwloc_topology_t topo;
    copy_text(buf, len, HM_SMPI ? "simulated" : "unknown");
    if (HM_SMPI || hwloc_topology_init(&topo) != 0) return;
    hwloc_bitmap_t set = NULL;
    if (hwloc_topology_load(topo) == 0 && (set = hwloc_bitmap_alloc()) != NULL)
        describe_binding(topo, set, buf, len);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
}

static int is_cpu_dir(const char *name)
{
    if (strncmp(name, "cpu", 3) != 0 || !isdigit((unsigned char)name[3])) return 0;
    for (const char *p = name + 3; *p; p++)
        if (!isdigit((unsigned char)*p)) return 0;
    return 1;
}

/* The governor of one cpu into gov (trimmed); 0 when unreadable. */
static int read_governor(const char *cpu, char *gov, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", cpu);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(gov, (int)len, f) != NULL;
    fclose(f);
    if (!ok) return 0;
    gov[strcspn(gov, " \t\r\n")] = '\0';
    return gov[0] != '\0';
}

/* Append gov to the comma list in buf unless it is already there. */
static void add_distinct(char *buf, size_t len, const char *gov)
{
    size_t glen = strlen(gov);
    for (const char *p = buf; *p;) {
        size_t n = strcspn(p, ",");
        if (n == glen && strncmp(p, gov, n) == 0) return;
        p += n + (p[n] == ',');
    }
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? "," : "", gov);
}

void hm__output_cpu_governor(char *buf, size_t len)
{
    if (len == 0) return;
    buf[0] = '\0';
    DIR *dir = opendir("/sys/devices/system/cpu");
    struct dirent *e;
    char gov[64];
    while (dir && (e = readdir(dir)) != NULL)
        if (is_cpu_dir(e->d_name) && read_governor(e->d_name, gov, sizeof gov))
            add_distinct(buf, len, gov);
    if (dir) closedir(dir);
    if (!buf[0]) copy_text(buf, len, "unreadable");
}

void hm__output_utc_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    if (len == 0) return;
    if (!gmtime_r(&now, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        copy_text(buf, len, "unknown");
}

void hm__output_mpi_library(char *buf, size_t len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    if (MPI_Get_library_version(version, &n) != MPI_SUCCESS) {
        copy_text(buf, len, "unknown");
        return;
    }
    version[n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    char *line = version + strspn(version, " \t\r\n");
    line[strcspn(line, "\r\n")] = '\0';
    size_t end = strlen(line);
    while (end > 0 && isspace((unsigned char)line[end - 1])) line[--end] = '\0';
    copy_text(buf, len, line[0] ? line : "unknown");
}
