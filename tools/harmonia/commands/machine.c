/* tools/harmonia/commands/machine.c — what other work on the machine took
 * from the ranks, for the commands that collect their factors themselves
 * (clock, timers, overlap impact): measured once at their start
 * (hm_interference_measure), said on stderr when busy, recorded in every
 * file they write. bench, skew, pattern and overlap get the same through
 * their experiment (measure_setup.c). */
#include <stdio.h>

#include <harmonia/topo.h>

#include "commands/commands.h"

int hm_cli_machine(MPI_Comm comm, const char *consequence, char *text, size_t len)
{
    hm_interference_t it;
    int rank, rc = hm_interference_measure(comm, HM_INTERFERENCE_PROBE_S, &it);
    MPI_Comm_rank(comm, &rank);
    if (rc != HM_OK) { /* the same on every rank: the probe reduces its figures */
        snprintf(text, len, "not measured (%s)", hm_strerror(rc));
        return hm_exit_status(rc);
    }
    hm_interference_describe(&it, text, len);
    if (rank == 0 && it.busy) {
        fprintf(stderr, "harmonia: the machine is %s: %s\n", text, consequence);
        fflush(stderr);
    }
    return HM_EXIT_OK;
}
