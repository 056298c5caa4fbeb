/* launch_scan.h: reading a launcher's command line (mpirun/mpiexec of Open MPI or MPICH) for
 * the application it starts and the number of processes it asks for. */
#ifndef MPIRR_CLI_LAUNCH_SCAN_H
#define MPIRR_CLI_LAUNCH_SCAN_H

#include <limits.h>

/* What an option may do when mpirr runs a command line it did not get from the user (a
 * recording's, launch_allow.h decides): the values of some options are checked further. */
enum launcher_opt_trust {
    LOPT_UNTRUSTED = 0, /* can start something else, change what is preloaded, write files */
    LOPT_HARMLESS,      /* process counts, placement, binding, output format */
    LOPT_ENV_ASSIGN,    /* -x NAME[=VALUE], -genv/-env NAME VALUE: the name is checked */
    LOPT_ENV_LIST,      /* -genvlist/-envlist A,B: every name is checked */
    LOPT_MCA,           /* --mca NAME VALUE: the parameter name is checked */
    LOPT_HOSTS,         /* host names, which reach ssh's command line: checked */
};

struct launcher_opt {
    const char *name; /* without leading dashes: both launchers accept -opt and --opt */
    int nargs;
    int is_np;        /* its argument is the number of processes */
    enum launcher_opt_trust trust;
};

/* The table entry of a launcher option word ("-np", "--mca"), or NULL if it is unknown. */
const struct launcher_opt *launch_scan_option(const char *word);

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
