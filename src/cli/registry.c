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
    {"clock", "synchronize clocks with one or more algorithms and check them", 1,
     COMMON_TIMER | COMMON_SYNTH | HM_OPT_BIT(HM_OPT_CLOCK_SYNC) | HM_OPT_BIT(HM_OPT_FITPOINTS) |
         HM_OPT_BIT(HM_OPT_EXCHANGES) | HM_OPT_BIT(HM_OPT_OFFSET) | HM_OPT_BIT(HM_OPT_DRIFT) |
         HM_OPT_BIT(HM_OPT_RECOMPUTE_INTERCEPT) | HM_OPT_BIT(HM_OPT_CHECK_AFTER) |
         HM_OPT_BIT(HM_OPT_SAMPLE) | HM_OPT_BIT(HM_OPT_RANKS_PER_NODE) |
         HM_OPT_BIT(HM_OPT_RANKS_PER_SOCKET) | HM_OPT_BIT(HM_OPT_OUTPUT) | HM_OPT_BIT(HM_OPT_RAW) |
         HM_OPT_BIT(HM_OPT_HELP),
     "mpirun -n P harmonia clock [--clock-sync LIST] [--check-after 0,1,5,10] [--sample F]",
     "Synchronizes the clocks with each algorithm of the comma-separated LIST in\n"
     "turn, fresh each time, and reports how long it took. Then, right after and\n"
     "after each wait of --check-after, it measures the offset of every rank's\n"
     "global clock against rank 0 by ping-pong (Check-Global-Clock, Hunold and\n"
     "Carpen-Amarie 2018, Alg. 6), as max and median; --sample measures a fraction\n"
     "of the ranks at scale. Where the truth is known (all ranks read one real\n"
     "clock, or --synthetic-clock), it also reports the true error of every rank's\n"
     "global clock. Offset-only algorithms (skampi, netgauge) show their drift\n"
     "error after a wait; drift-aware ones (jk, hca, hca2, hca3) should not.\n"
     "Algorithms: skampi, netgauge, jk, hca, hca2, hca3, prop; levels joined by +,\n"
     "outermost first (hca3+prop: hca3 between nodes, propagation inside a node).",
     "mpirun -n 4 harmonia clock --clock-sync hca3,skampi,hca3+prop --check-after 0,10 "
     "--synthetic-clock offset=1,drift=1e-4 --ranks-per-node 2",
     hm_cmd_clock},
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
