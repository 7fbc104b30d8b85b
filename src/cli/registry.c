/* src/cli/registry.c — the commands of the harmonia program. Adding a
 * command is one file and one entry here. */
#include <string.h>

#include "cli/commands.h"

#define COMMON_TIMER (HM_OPT_BIT(HM_OPT_TIMER) | HM_OPT_BIT(HM_OPT_TSC_GHZ))
#define COMMON_SYNTH (HM_OPT_BIT(HM_OPT_SYNTHETIC_CLOCK) | HM_OPT_BIT(HM_OPT_SEED))

static const hm_cli_command_t commands[] = {
    {"timers", "each time source: resolution, read overhead, monotonicity", 1,
     COMMON_TIMER | COMMON_SYNTH | HM_OPT_BIT(HM_OPT_PER_RANK) | HM_OPT_BIT(HM_OPT_OUTPUT) |
         HM_OPT_BIT(HM_OPT_HELP),
     "mpirun -n P harmonia timers [--timer NAME] [--per-rank] [--output FILE]",
     "Measures every time source on every rank: the smallest step it shows\n"
     "(resolution), the resolution it claims, the median cost of one read and\n"
     "whether it ever went backwards. Without --timer every source is listed, and\n"
     "one that cannot be used here (tsc without a constant, non-stop TSC) says why.\n"
     "The table shows the worst rank; --per-rank shows each rank.",
     "mpirun -n 2 harmonia timers --per-rank --output timers.csv", hm_cmd_timers},
    {"version", "version of harmonia and of the libraries it was built with", 0,
     HM_OPT_BIT(HM_OPT_HELP), "harmonia version",
     "Prints the version of harmonia, the MPI library, compiler and flags, GSL and\n"
     "hwloc it was built with.",
     "harmonia version", hm_cmd_version},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

const hm_cli_command_t *hm_cli_find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

size_t hm_cli_command_count(void)
{
    return NCOMMANDS;
}

const hm_cli_command_t *hm_cli_command_at(size_t i)
{
    return i < NCOMMANDS ? &commands[i] : NULL;
}
