/* launch.h: what a LAUNCH command is, as the commands need to know before running it: its
 * launcher (if any), the application it starts, the number of processes, and which MPI
 * runtime to preload. */
#ifndef MPIRR_CLI_LAUNCH_H
#define MPIRR_CLI_LAUNCH_H

#include "launch_scan.h"
#include "launcher.h"
#include "mpi_impl.h"

struct launch_info {
    int argc;
    char **argv;
    enum launcher_kind launcher; /* LAUNCH_NONE: argv[0] is the program (singleton) */
    struct launch_scan scan;
};

/* Fills li; relative names resolve against base. 0, or an exit status after reporting the
 * problem (the command does not exist; a launcher mpirr does not recognise). */
int launch_inspect(int argc, char **argv, const char *base, struct launch_info *li);

/* The runtime to preload: preferred if known; else the MPI library the application links;
 * else the launcher's (srun has none). IMPL_UNKNOWN after reporting that nothing tells. */
enum mpi_impl launch_pick_impl(const struct launch_info *li, enum mpi_impl preferred);

#endif
