/* launch_scan.h: reading a launcher's command line (mpirun/mpiexec of Open MPI or MPICH,
 * Slurm's srun) for the application it starts and the number of processes it asks for. */
#ifndef MPIRR_CLI_LAUNCH_SCAN_H
#define MPIRR_CLI_LAUNCH_SCAN_H

#include <limits.h>

#include "launcher.h"

/* What an option may do when mpirr runs a command line it did not get from the user (a
 * recording's, launch_allow.h decides): the values of some options are checked further. */
enum launcher_opt_trust {
    LOPT_UNTRUSTED = 0, /* can start something else, change what is preloaded, write files */
    LOPT_HARMLESS,      /* process counts, placement, binding, output format */
    LOPT_ENV_ASSIGN,    /* -x NAME[=VALUE], -genv/-env NAME VALUE: the name is checked */
    LOPT_ENV_LIST,      /* -genvlist/-envlist A,B: every name is checked */
    LOPT_EXPORT,        /* srun --export=ALL,NAME=VALUE,NAME: every name is checked */
    LOPT_MCA,           /* --mca NAME VALUE: the parameter name is checked */
    LOPT_HOSTS,         /* host names, which reach ssh's command line: checked */
    LOPT_HOSTFILE,      /* a file of host names: where it is is checked */
    LOPT_NODELIST,      /* srun -w: Slurm node names, or a file of them if it has a '/' */
    LOPT_BOOTSTRAP,     /* hydra -bootstrap/-launcher NAME: how it reaches hosts, checked */
};

/* Which process count an option's value is. */
enum launcher_opt_count {
    LCOUNT_NONE = 0,
    LCOUNT_PROCS,    /* the processes of the program: -np, -n, srun --ntasks */
    LCOUNT_NODES,    /* srun --nodes */
    LCOUNT_PER_NODE, /* srun --ntasks-per-node: with --nodes, the processes */
};

struct launcher_opt {
    /* Open MPI, MPICH: without leading dashes, both launchers accept -opt and --opt. srun: as
     * written ("-n", "--ntasks"), and its values may also be attached ("--ntasks=4", "-n4"). */
    const char *name;
    int nargs; /* 0 or 1 for srun */
    enum launcher_opt_count count;
    enum launcher_opt_trust trust;
};

/* One option word as it stands on a command line, with its values. */
struct launcher_opt_use {
    const struct launcher_opt *opt; /* NULL if unknown (then taken to have no value) */
    const char *args[2];            /* its values, NULL where the command line ends first */
    int words;                      /* the words it spans, itself included */
};

/* Reads the option at argv[i] (a word starting with '-') of launcher kind. 0, or -1 if the
 * command line ends before its values (u->args has NULLs). */
int launch_scan_option(enum launcher_kind kind, int argc, char *const *argv, int i,
                       struct launcher_opt_use *u);

struct launch_scan {
    int app;                 /* index of the (first) application word, -1 if none found */
    char app_path[PATH_MAX]; /* where it resolved to */
    long nprocs;             /* processes asked for, -1 if not given for every program */
    char np_text[128];       /* the options that said so, for messages: "-np 4" */
};

/* With kind LAUNCH_NONE, argv[0] is the application and one process is started. Otherwise
 * the launcher's options are skipped (the number of arguments each takes comes from a table;
 * unknown options are taken to have none) and the first word that is an existing executable
 * file (after PATH search, relative to base) is the application. MPMD command lines
 * ("-np 2 ./a : -np 2 ./b", srun's heterogeneous jobs too) add up their process counts. */
void launch_scan(int argc, char *const *argv, enum launcher_kind kind, const char *base,
                 struct launch_scan *out);

#endif
