/* replay_trust.c: the checks on a recorded command before mpirr runs it unasked
 * (replay_trust.h). The rank logs' own fingerprints are compared with the manifest's by
 * replay_check_logs. */
#include "replay_trust.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "elf_mpi.h"
#include "fingerprint.h"
#include "launch_allow.h"
#include "launcher.h"

/* One line: what was found, then how to replay anyway (with opts, the options that replay
 * needs then: " --no-exe-check" for a rebuilt program, which the command given explicitly
 * would otherwise be refused for next). Returns CLI_EXIT_USAGE. */
static int refuse(const struct recording *r, const char *opts, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(const struct recording *r, const char *opts, const char *fmt, ...)
{
    char what[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cli_error("%s/manifest: not running the recorded command: %s; to replay anyway, give the "
              "command explicitly: mpirr replay%s %s -- COMMAND...",
              r->name, what, opts, r->name);
    return CLI_EXIT_USAGE;
}

int replay_trust_launcher(const struct recording *r, const char *base)
{
    if (r->m.argc <= 0 || !r->m.argv || !r->m.argv[0])
        return refuse(r, "", "the manifest records no command (no 'arg' lines)");
    char real[PATH_MAX];
    const char *argv0 = r->m.argv[0];
    switch (launcher_origin(argv0, base, real, sizeof real)) {
    case LAUNCHER_ORIGIN_ELSEWHERE:
        return refuse(r, "", "its launcher %.300s (%.300s) is not the one your PATH finds under "
                         "that name", argv0, real);
    default:
        return 0; /* a missing command is launch_inspect's to report */
    }
}

int replay_trust_program(const struct recording *r, const struct launch_info *li,
                         const char *base)
{
    const struct launch_scan *sc = &li->scan;
    if (r->m.fingerprint == 0)
        return refuse(r, "", "the manifest records no fingerprint, so nothing shows the command "
                         "runs the recorded program");
    /* Without a program, every word is the launcher's: an --app FILE is named as such. */
    char why[600];
    const struct launch_reach reach = {base, r->dir};
    if (li->launcher != LAUNCH_NONE &&
        launch_allow_check(li->launcher, &reach, li->argc, li->argv,
                           sc->app >= 0 ? sc->app : li->argc, why, sizeof why))
        return refuse(r, "", "it %s", why);
    if (sc->app < 0)
        return refuse(r, "", "mpirr finds no program in it");
    const char *prog = li->argv[sc->app];
    if (!elf_is_elf(sc->app_path))
        return refuse(r, "", "it runs %.300s, which is not an executable program (a script?) "
                             "and so not the fingerprinted one", prog);
    uint64_t now = mpirr_file_fingerprint(sc->app_path);
    /* the recorded executable's own file, changed: a rebuild (a program elsewhere, such as a
     * shell an edited manifest runs, gets no hint to skip the check). The manifest has the
     * ranks' /proc/self/exe, canonical; the command's path is as typed (/tmp/x/./app). */
    char canon[PATH_MAX];
    int rebuilt = r->m.exe[0] && realpath(sc->app_path, canon) && strcmp(r->m.exe, canon) == 0;
    if (now != r->m.fingerprint)
        return refuse(r, rebuilt ? " --no-exe-check" : "", "it runs %.300s, whose fingerprint %016" PRIx64
                      " is not the recorded executable's %016" PRIx64 "%s", prog, now,
                      r->m.fingerprint, rebuilt ? " (rebuilt since?)" : "");
    if (elf_mpi_impl(sc->app_path) == IMPL_UNKNOWN)
        return refuse(r, "", "it runs %.300s, which does not link an MPI library itself (an "
                         "interpreter's fingerprint does not cover its script)", prog);
    return 0;
}
