/* tools/harmonia/commands/help.c — `harmonia help` and `--help`, built from the command and
 * option tables. */
#include <harmonia/version.h>

#include "commands/commands.h"

void cli_print_overview(FILE *f)
{
    fprintf(f, "harmonia %s — trustworthy MPI communication benchmarks\n\n", hm_version());
    fprintf(f, "usage: harmonia COMMAND [options]    (MPI commands run under mpirun/srun)\n\n"
               "commands:\n");
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command_t *c = cli_command_at(i);
        fprintf(f, "  %-10s %s%s\n", c->name, c->summary, c->uses_mpi ? " (MPI)" : "");
    }
    fprintf(f, "  %-10s %s\n\n", "help", "help of a command: harmonia help COMMAND");
    fprintf(f, "harmonia --version prints the version; harmonia help COMMAND or\n"
               "harmonia COMMAND --help documents every option with an example.\n");
}

void cli_print_command_help(FILE *f, const cli_command_t *c)
{
    char synopsis[1024];
    cli_expand_choices(c->synopsis, synopsis, sizeof synopsis);
    fprintf(f, "harmonia %s — %s\n\nusage: %s\n\n%s\n\noptions:\n", c->name, c->summary, synopsis,
            c->details);
    cli_print_options_help(f, c->options, c->option_help);
    fprintf(f, "\nexample:\n  %s\n", c->example);
}
