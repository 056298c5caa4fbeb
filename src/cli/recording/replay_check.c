/* replay_check.c: the checks that make a replay fail early with a clear message instead of
 * diverging or hanging halfway through. */
#include "replay_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "elf_mpi.h"
#include "file_io.h"
#include "fingerprint.h"
#include "paths.h"
#include "rank_log.h"

/* Reads every record: damage found now is one clear line before anything runs, instead of a
 * rank dying halfway through the replay (after which a launcher may hang rather than end the
 * job). Decompression runs far faster than the replay itself. -1 on damage. */
static int read_through(mpirr_log_reader *rd)
{
    mpirr_record rec;
    int got;
    while ((got = mpirr_log_read(rd, &rec)) == 1)
        ;
    return got < 0 ? -1 : 0;
}

/* The header must say what the manifest says (recording_open has compared its rank with the
 * file name). With one_program, every rank must have run the executable whose fingerprint the
 * manifest records (replay_trust.h relies on the manifest's fingerprint; an edited manifest
 * would disagree with the logs). */
static int check_header(const struct recording *r, const char *path, const mpirr_log_header *h,
                        int one_program)
{
    if (h->nranks != r->m.nranks) {
        cli_error("%s: belongs to a run of %d ranks, the manifest says %d", path, h->nranks,
                  r->m.nranks);
        return CLI_EXIT_USAGE;
    }
    if (one_program && r->m.fingerprint && h->exe_fingerprint != r->m.fingerprint) {
        cli_error("%s: recorded by an executable with fingerprint %016" PRIx64 ", the manifest "
                  "says %016" PRIx64 "; to replay anyway, give the command explicitly: mpirr "
                  "replay %s -- COMMAND...", path, h->exe_fingerprint, r->m.fingerprint, r->name);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int check_log(const struct recording *r, int rank, int one_program,
                     struct recorded_end *end)
{
    char path[PATH_MAX + 32], err[1024];
    recording_log_path(path, sizeof path, r->dir, rank);
    if (!mpirr_file_present(path)) {
        cli_error("%s: missing (the recording has %d ranks)", path, r->m.nranks);
        return CLI_EXIT_USAGE;
    }
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!rd) {
        cli_error("%s", err); /* the reader's messages name the file */
        return CLI_EXIT_USAGE;
    }
    int rc = check_header(r, path, mpirr_log_reader_header(rd), one_program);
    if (!rc && read_through(rd) != 0) {
        cli_error("%s", mpirr_log_reader_error(rd));
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && end) {
        end->ending = mpirr_log_reader_ending(rd, &end->detail);
        end->events = mpirr_log_reader_events(rd);
        end->in_call = mpirr_log_reader_in_call(rd);
        end->hold_event = mpirr_log_reader_hold_event(rd);
    }
    mpirr_log_reader_close(rd);
    return rc;
}

int replay_check_logs(const struct recording *r, int one_program, struct recorded_end *ends)
{
    if (r->m.nranks <= 0) {
        cli_error("%s holds no rank logs: nothing to replay", r->name);
        return CLI_EXIT_USAGE;
    }
    for (int rank = 0; rank < r->m.nranks; rank++) {
        int rc = check_log(r, rank, one_program, ends ? &ends[rank] : NULL);
        if (rc)
            return rc;
    }
    return 0;
}

/* The recorded program behind a wrapper: a debugger or tool the launcher starts in front of it
 * (gdb -batch -ex run --args ./app, valgrind ./app, xterm -e gdb ./app, env X=1 ./app) is not
 * what the ranks run. The first word from the application on that is an ELF file with the
 * recorded fingerprint is the program; -1 if none is. */
static int recorded_word(const struct launch_info *li, const char *base, uint64_t fingerprint)
{
    for (int i = li->scan.app; i >= 0 && i < li->argc && strcmp(li->argv[i], ":"); i++) {
        char path[PATH_MAX];
        if (path_find_exec(li->argv[i], base, path, sizeof path) == 0 && elf_is_elf(path) &&
            mpirr_file_fingerprint(path) == fingerprint)
            return i;
    }
    return -1;
}

int replay_check_launch(const struct recording *r, const struct launch_info *li, const char *base,
                        int exe_check)
{
    const struct launch_scan *sc = &li->scan;
    /* Another MPI's launcher starts the ranks as unrelated singletons, each of which would say
     * "recorded with N ranks, this run has 1": say what is wrong once, before anything runs. */
    enum mpi_impl recorded = mpi_impl_parse(r->m.mpi);
    enum mpi_impl launcher = launcher_kind_impl(li->launcher); /* srun's is the program's */
    if (launcher != IMPL_UNKNOWN && recorded != IMPL_UNKNOWN && launcher != recorded) {
        cli_error("%s was recorded with %s, and %s is %s's launcher: its processes would not "
                  "join one %s job; replay with %s's launcher (e.g. %s)", r->name,
                  mpi_impl_title(recorded), li->argv[0], mpi_impl_title(launcher),
                  mpi_impl_title(recorded), mpi_impl_title(recorded),
                  mpi_impl_launcher_example(recorded));
        return CLI_EXIT_USAGE;
    }
    if (sc->nprocs >= 0 && sc->nprocs != r->m.nranks) {
        cli_error("%s was recorded with %d ranks, the command starts %ld (%s)", r->name,
                  r->m.nranks, sc->nprocs, sc->np_text[0] ? sc->np_text : "no launcher");
        return CLI_EXIT_USAGE;
    }
    /* A script (a wrapper that execs the program, an interpreter's script) is not what the
     * ranks fingerprinted; the runtime still checks /proc/self/exe in every rank. */
    if (!exe_check || sc->app < 0 || r->m.fingerprint == 0 || !elf_is_elf(sc->app_path))
        return 0;
    if (recorded_word(li, base, r->m.fingerprint) >= 0)
        return 0;
    cli_error("%s (%s) differs from the recorded executable %s (fingerprint %016" PRIx64
              " vs %016" PRIx64 "), and so does every later word of the command: replay needs "
              "the same program (--no-exe-check replays anyway)",
              li->argv[sc->app], sc->app_path, r->m.exe[0] ? r->m.exe : "", 
              mpirr_file_fingerprint(sc->app_path), r->m.fingerprint);
    return CLI_EXIT_USAGE;
}
