/* launch_allow.h: whether a launcher command line that mpirr did not get from the user (the
 * one a recording's manifest names) may be run as it is: every launcher option is on an
 * allow-list of harmless ones (launch_scan.c's tables), the environment variables and MCA
 * parameters it sets cannot load code or redirect files, the host files it names are within
 * the recording's reach, and it starts one program only. A function of the words (and of the
 * host files named, which must exist), unit-tested in tests/unit/test_cli_launch.c. */
#ifndef MPIRR_CLI_LAUNCH_ALLOW_H
#define MPIRR_CLI_LAUNCH_ALLOW_H

#include <stddef.h>

#include "launcher.h"

/* Where the files a recorded command names may be: a host file only names hosts, but reading
 * a FIFO or a device would hang or never end, and a recording has no business pointing mpirr
 * at files elsewhere. So a host file is a regular file (after symlinks) inside the recorded
 * working directory (where the command runs and relative names resolve) or the recording. */
struct launch_reach {
    const char *cwd;    /* absolute */
    const char *recdir; /* absolute, or NULL */
};

/* argv[0] is a launcher of that kind and argv[app] the program it starts (launch_scan). 0 if
 * the words before the program are allowed and no ':' follows it; else the index of the
 * first word refused, with why (a phrase: "passes '--prefix /opt' to the launcher, which
 * ...") filled. */
int launch_allow_check(enum launcher_kind kind, const struct launch_reach *reach, int argc,
                       char *const *argv, int app, char *why, size_t n);

/* An environment variable a recorded command may set in the ranks: not one the dynamic
 * loader, libc or an MPI library reads to load code or find files (LD_*, PATH, *PATH,
 * GCONV_PATH, OMPI_*, PMIX_*, MPIR_CVAR_*, UCX_*, FI_*, MPIRR_* ...). */
int launch_allow_env_name(const char *name);

#endif
