/* launcher_timeouts.c: owns the one check a replay session makes, before launching, for launcher
 * settings that end a job whose ranks it holds while the user debugs (launcher_timeouts.h).
 * Measured on Open MPI 4.1.4 and MPICH 4.0.2 (docs/sessions-timeouts.md): a rank stopped for
 * up to 150 s (SIGSTOP), or held 40 s by an attached gdb, comes back and the job completes; the
 * only thing that kills a held job is the launcher's wall-clock limit, MPIEXEC_TIMEOUT (and Open
 * MPI's --timeout, which takes precedence over it). Both launchers read it from their own
 * environment, which the variables mpirr adds (-x / -genv) do not reach: mpirr can only say so.
 * Ranks on other hosts change nothing: the limit acts in the launcher on mpirr's host, and
 * Open MPI's orted on a remote node kept a rank held 50 s (40 s under gdb) alive. */
#include "launcher_timeouts.h"

#include <stdlib.h>
#include <string.h>

#include "launch_scan.h"

/* Open MPI: strtol, and a limit <= 0 fires at once (exit 110). MPICH: atoi, a negative limit is
 * none, 0 (or a value that does not parse) lets the job run but makes mpiexec exit 255. */
static void warn_mpiexec_timeout(const char *v, FILE *warn)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end != v && n > 0)
        fprintf(warn,
                "mpirr: MPIEXEC_TIMEOUT=%.32s is set: the launcher kills the job %ld s after it "
                "starts, held ranks or not (unset it to debug at leisure)\n",
                v, n);
    else if (end != v && n < 0)
        fprintf(warn,
                "mpirr: MPIEXEC_TIMEOUT=%.32s is set: Open MPI's mpirun ends the job at once "
                "with it (MPICH's mpiexec takes it as no limit): unset it\n",
                v);
    else
        fprintf(warn,
                "mpirr: MPIEXEC_TIMEOUT='%.32s' is set: Open MPI's mpirun ends the job at once "
                "with it and MPICH's mpiexec exits 255 even when the job succeeds: unset it\n",
                v);
}

int launcher_timeouts_guard(struct env_var *vars, int max, FILE *warn)
{
    /* No heartbeat or keepalive of either implementation breaks on a held rank (kernel TCP
     * keepalives are answered by the stopped process's kernel; UCX's keepalive, even at 1 s,
     * only checks that the peer exists), so there is nothing to add for the ranks. */
    (void)vars;
    (void)max;
    const char *v = getenv("MPIEXEC_TIMEOUT");
    if (v && warn)
        warn_mpiexec_timeout(v, warn);
    return 0;
}

/* The launcher options that are wall-clock limits (launch_scan.c's names). */
static int is_time_limit(const char *name)
{
    return !strcmp(name, "timeout") || !strcmp(name, "-t") || !strcmp(name, "--time");
}

void launcher_timeouts_argv(enum launcher_kind kind, int nopts, char *const *argv, FILE *warn)
{
    if (!warn)
        return;
    for (int i = 1; i < nopts && argv[i]; i++) {
        struct launcher_opt_use u = {NULL, {NULL, NULL}, 1};
        if (argv[i][0] == '-')
            launch_scan_option(kind, nopts, argv, i, &u);
        if (!u.opt || !is_time_limit(u.opt->name)) {
            i += u.words - 1;
            continue;
        }
        fprintf(warn,
                "mpirr: %s%s%.32s is on the launcher's command line: the launcher kills the job "
                "that long after it starts, held ranks or not (drop it to debug at leisure)\n",
                argv[i], u.words > 1 ? " " : "", u.words > 1 ? u.args[0] : "");
        return;
    }
}
