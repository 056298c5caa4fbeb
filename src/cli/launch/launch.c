/* launch.c: inspecting a LAUNCH command before running it. */
#include "launch.h"

#include "diag.h"
#include "elf_mpi.h"
#include "launcher.h"

int launch_inspect(int argc, char **argv, const char *base, struct launch_info *li)
{
    li->argc = argc;
    li->argv = argv;
    if (argc <= 0 || !argv[0]) { /* a recording's manifest may hold no command at all */
        cli_error("no command to run");
        return CLI_EXIT_USAGE;
    }
    switch (launcher_detect(argv[0], base, &li->launcher)) {
    case LAUNCHER_NOT_FOUND:
        cli_error("cannot run '%s': command not found", argv[0]);
        return CLI_EXIT_NOEXEC;
    case LAUNCHER_FOUND:
        if (li->launcher == LAUNCH_NONE) {
            cli_error("'%s' looks like an MPI launcher but is not Open MPI's, MPICH's or "
                      "Slurm's srun", argv[0]);
            return CLI_EXIT_USAGE;
        }
        launch_scan(argc, argv, li->launcher, base, &li->scan);
        return 0;
    default:
        launch_scan(argc, argv, LAUNCH_NONE, base, &li->scan);
        return 0;
    }
}

enum mpi_impl launch_pick_impl(const struct launch_info *li, enum mpi_impl preferred)
{
    if (preferred != IMPL_UNKNOWN)
        return preferred;
    enum mpi_impl impl = li->scan.app >= 0 ? elf_mpi_impl(li->scan.app_path) : IMPL_UNKNOWN;
    if (impl == IMPL_UNKNOWN)
        impl = launcher_kind_impl(li->launcher);
    if (impl == IMPL_UNKNOWN)
        cli_error("cannot tell which MPI '%s' uses; pass --mpi (%s)",
                  li->scan.app >= 0 ? li->argv[li->scan.app] : li->argv[0],
                  mpi_impl_valid_names());
    return impl;
}
