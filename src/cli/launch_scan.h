/* launch_scan.h: reading a launcher's command line (mpirun/mpiexec of Open MPI or MPICH) for
 * the application it starts and the number of processes it asks for. */
#ifndef MPIRR_CLI_LAUNCH_SCAN_H
#define MPIRR_CLI_LAUNCH_SCAN_H

#include <limits.h>

struct launch_scan {
    int app;                 /* index of the (first) application word, -1 if none found */
    char app_path[PATH_MAX]; /* where it resolved to */
    long nprocs;             /* processes asked for, -1 if not given for every program */
    char np_text[128];       /* the options that said so, for messages: "-np 4" */
};

/* With has_launcher == 0, argv[0] is the application and one process is started. Otherwise
 * the launcher's options are skipped (the number of arguments each takes comes from a table;
 * unknown options are taken to have none) and the first word that is an existing executable
 * file (after PATH search, relative to base) is the application. MPMD command lines
 * ("-np 2 ./a : -np 2 ./b") add up their process counts. */
void launch_scan(int argc, char *const *argv, int has_launcher, const char *base,
                 struct launch_scan *out);

#endif
