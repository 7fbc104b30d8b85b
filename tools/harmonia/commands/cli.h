/* tools/harmonia/commands/cli.h — the harmonia program: commands and their entry point. */
#ifndef HM_CLI_H
#define HM_CLI_H

/* Run the program; returns the process exit status (0, 1 runtime failure,
 * 2 usage error, or the status of a program the command ran, passed on),
 * chosen here from the command's HM_* status and nowhere else. */
int cli_main(int argc, char **argv);
#endif
