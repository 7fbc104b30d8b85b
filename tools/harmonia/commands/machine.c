/* tools/harmonia/commands/machine.c — what other work on the machine took
 * from the ranks, for the commands that collect their factors themselves
 * (clock, timers, overlap impact): measured once at their start
 * (hm_interference_measure), said on stderr when busy, recorded in every
 * file they write. bench, skew, pattern and overlap get the same through
 * their experiment (measure_setup.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/topo.h>

#include "commands/commands.h"

/* The longest probe the variable may ask for: a probe is a start-up cost. */
#define PROBE_MAX_S 10.0

int cli_probe_s(double *probe_s)
{
    const char *v = getenv("HARMONIA_INTERFERENCE_PROBE_S");
    char *end = NULL;
    *probe_s = HM_INTERFERENCE_PROBE_S;
    if (!v) return HM_OK;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0 && x <= PROBE_MAX_S)) {
        hm_error_set(
            HM_EINVAL,
            "HARMONIA_INTERFERENCE_PROBE_S: \"%.40s\" is not a probe length (seconds, 0 to "
            "%g; 0: no probe)",
            v, PROBE_MAX_S);
        return HM_EINVAL;
    }
    *probe_s = x;
    return HM_OK;
}

const char *cli_crowded_caution(const hm_interference_t *it)
{
    if (!(it->measured && it->busy && it->oversubscribed)) return "";
    return "; more ranks than processors beside other work: the ranks wait whole scheduler "
           "slices for each other (an MPI library that yields while it waits gets little of a "
           "core), so this run may take a hundred times as long as on a quiet machine; at most "
           "one rank per processor avoids that";
}

int cli_machine(const cli_config_t *cfg, MPI_Comm comm, const char *consequence, char *text,
                size_t len)
{
    hm_interference_t it;
    int rank, rc = hm_interference_measure(comm, cfg->probe_s, &it);
    MPI_Comm_rank(comm, &rank);
    if (rc != HM_OK) { /* the same on every rank: the probe reduces its figures */
        snprintf(text, len, "not measured (%s)", hm_strerror(rc));
        return rc;
    }
    hm_interference_describe(&it, text, len);
    if (rank == 0 && it.busy) {
        fprintf(stderr, "harmonia: the machine is %s: %s%s\n", text, consequence,
                cli_crowded_caution(&it));
        fflush(stderr);
    }
    return HM_OK;
}
