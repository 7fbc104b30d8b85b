/* tools/harmonia/main.c — the harmonia program. */
#include "commands/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
