/* cmd_run.c: `mpirr run`: the command with the runtime loaded but nothing recorded, for
 * native runs with timing noise (--noise) that shake out message races. */
#include <limits.h>

#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "paths.h"
#include "run_opts.h"
#include "run_command.h"

int cmd_run(int argc, char **argv)
{
    struct opt_scan sc;
    struct run_opts ro;
    opt_init(&sc, "run", argc, argv);
    run_opts_init(&ro);
    int rc = run_opts_scan(&sc, &ro);
    if (rc == OPT_HELP)
        return help_for("run");
    int largc;
    char **largv;
    if (rc == OPT_BAD || opt_command_words(&sc, &largc, &largv) != 0)
        return CLI_EXIT_USAGE;

    char cwd[PATH_MAX];
    if (path_cwd(cwd, sizeof cwd) != 0)
        return CLI_EXIT_FAIL;
    struct session s = {.mode = "run", .wtime = -1, .noise = run_opts_noise(&ro)};
    rc = session_prepare(&s, largc, largv, cwd, ro.mpi);
    return rc ? rc : session_run(&s);
}
