/* tools/harmonia/commands/cmd_version.c — `harmonia version`. MPI_Get_library_version may be
 * called before MPI_Init (MPI 3.0 §8.1.1), so no launcher is needed. */
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/version.h>

#include "commands/commands.h"

/* The GPU facts results record: versions, then each device this process
 * sees, or why it sees none. */
static void print_gpus(void)
{
    char versions[256];
    int count = 0;
    hm_gpu_versions_text(versions, sizeof versions);
    printf("  GPU:      %s\n", versions);
    if (!hm_gpu_built()) return;
    if (hm_gpu_count(&count) != HM_OK) {
        printf("            %s\n", hm_last_error());
        return;
    }
    for (int i = 0; i < count; i++) {
        hm_gpu_device_t d;
        if (hm_gpu_describe(i, &d) == HM_OK)
            printf("            GPU %d: %s [%s], %.1f GiB, compute capability %d.%d\n", i, d.name,
                   d.pci_bus_id, (double)d.memory_bytes / (1 << 30), d.cc_major, d.cc_minor);
    }
}

int cli_cmd_version(cli_config_t *cfg, MPI_Comm comm)
{
    (void)cfg, (void)comm;
    if (cli_launcher_rank() != 0) return HM_OK; /* print once under a launcher */
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0, minor = 0;
    hm_build_info_t b;
    hm_build_info(&b);
    MPI_Get_library_version(mpi, &len);
    MPI_Get_version(&major, &minor);
    mpi[strcspn(mpi, "\n")] = '\0';
    printf("harmonia %s\n", b.version);
    printf("  MPI:      %s (MPI %d.%d)\n", mpi, major, minor);
    printf("  compiler: %s, %s, flags: %s\n", b.compiler, b.build_type, b.cflags);
    printf("  GSL:      %s\n", b.gsl);
    printf("  hwloc:    API %u.%u.%u\n", b.hwloc_api >> 16, (b.hwloc_api >> 8) & 0xff,
           b.hwloc_api & 0xff);
    print_gpus();
    return HM_OK;
}
