/* src/cli/main.c — the harmonia program. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return hm_cli_main(argc, argv);
}
