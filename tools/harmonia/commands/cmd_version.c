/* tools/harmonia/commands/cmd_version.c — `harmonia version`. MPI_Get_library_version may be
 * called before MPI_Init (MPI 3.0 §8.1.1), so no launcher is needed. */
#include <string.h>

#include <harmonia/version.h>

#include "commands/commands.h"

int hm_cmd_version(hm_cli_config_t *cfg, MPI_Comm comm)
{
    (void)cfg, (void)comm;
    if (hm_cli_launcher_rank() != 0) return HM_EXIT_OK; /* print once under a launcher */
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
    return HM_EXIT_OK;
}
