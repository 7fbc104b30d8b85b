/* src/cli/dispatch.c — placeholder replaced below. */
#include "cli/cli.h"
int hm_cli_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    return 0;
}
