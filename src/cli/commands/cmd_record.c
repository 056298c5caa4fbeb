/* cmd_record.c: `mpirr record`: prepares the recording directory, writes the manifest, runs
 * the command with the runtime recording every rank, and completes the manifest from the rank
 * logs afterwards (also after a crash or ^C: mpirr outlives the command). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "diag.h"
#include "elf_mpi.h"
#include "environment.h"
#include "libc_unrecorded.h"
#include "local_gather.h"
#include "manifest.h"
#include "number_parse.h"
#include "libc_sources.h"
#include "opts.h"
#include "pack_recording.h"
#include "paths.h"
#include "recdir.h"
#include "recording.h"
#include "run_opts.h"
#include "run_command.h"

enum { OPT_OUTPUT, OPT_LOCAL, OPT_PACK, OPT_MODE, OPT_CLOCK, OPT_NO_WTIME, OPT_WTIME_RES, OPT_EVENTS, OPT_FORCE,
       OPT_LIBC /* + group */ };

static const struct cli_opt record_opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"local", 0, 1, OPT_LOCAL},
    {"pack", 0, 0, OPT_PACK},
    {"mode", 0, 1, OPT_MODE},
    {"clock", 0, 1, OPT_CLOCK},
    {"no-wtime", 0, 0, OPT_NO_WTIME},
    {"wtime-resolution", 0, 1, OPT_WTIME_RES},
    {"events", 0, 0, OPT_EVENTS},
    {"force", 0, 0, OPT_FORCE},
    /* the libc groups (libc_sources.h): each option flips its MPIRR_LIBC_* default */
    {"no-libc-time", 0, 0, OPT_LIBC + MPIRR_LIBC_GROUP_TIME},
    {"no-libc-random", 0, 0, OPT_LIBC + MPIRR_LIBC_GROUP_RANDOM},
    {"libc-pid", 0, 0, OPT_LIBC + MPIRR_LIBC_GROUP_PID},
    {"libc-host", 0, 0, OPT_LIBC + MPIRR_LIBC_GROUP_HOST},
    RUN_OPTS_TABLE,
    {NULL, 0, 0, 0},
};

struct record_args {
    const char *dir; /* NULL: the default name */
    const char *local; /* --local DIR (or MPIRR_LOCAL_DIR), or NULL */
    const char *mode; /* MPIRR_RECORD_MODE, checked */
    int wtime, events, force;
    int pack; /* --pack: node packs once the run ended (pack_recording.h) */
    const char *wtime_resolution; /* as given, or NULL */
    struct run_opts run;
    int argc;
    char **argv;
};

/* A --no-libc-WORD or --libc-WORD option: the opposite of the group's default, passed to
 * the ranks through mpirr's environment like every MPIRR_* tuning variable. */
static void libc_switch(unsigned group)
{
    const mpirr_setting *s = &mpirr_settings[MPIRR_SET_LIBC_TIME + group];
    setenv(s->name, strcmp(s->dflt, "1") ? "1" : "0", 1);
}

/* --wtime-resolution N[ns|us|ms|s]: MPIRR_WTIME_UNIT_NS in mpirr's environment, which passes it
 * to the ranks like every MPIRR_* tuning variable. 0, or -1 after a message. */
static int wtime_resolution(const char *v)
{
    static const struct { const char *suffix; unsigned long long ns; } units[] = {
        {"", 1}, {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    uint64_t n = 0;
    const char *end = mpirr_parse_leading(v, UINT64_MAX, &n); /* no sign, no blank */
    const mpirr_setting *s = &mpirr_settings[MPIRR_SET_WTIME_UNIT_NS];
    for (size_t i = 0; end && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) || n == 0 || n > (unsigned long long)s->max / units[i].ns)
            continue;
        char ns[32];
        snprintf(ns, sizeof ns, "%llu", (unsigned long long)(n * units[i].ns));
        setenv(s->name, ns, 1);
        return 0;
    }
    cli_error("record: --wtime-resolution %s: expected a duration from 1ns to 1s, such as "
              "100ns, 1us or 1ms", v);
    return -1;
}

/* 0, OPT_HELP, or OPT_BAD (reported). */
static int parse(int argc, char **argv, struct record_args *a)
{
    struct opt_scan s;
    opt_init(&s, "record", argc, argv);
    a->dir = NULL;
    a->local = NULL;
    a->mode = mpirr_settings[MPIRR_SET_RECORD_MODE].dflt;
    a->wtime = 1;
    a->wtime_resolution = NULL;
    a->events = 0;
    a->force = 0;
    a->pack = 0;
    run_opts_init(&a->run);
    const char *v;
    for (int id; (id = opt_next(&s, record_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_BAD:
        case OPT_HELP: return id;
        case OPT_OUTPUT: a->dir = v; break;
        case OPT_LOCAL: a->local = v; break;
        case OPT_PACK: a->pack = 1; break;
        case OPT_MODE:
            if (environment_check_option("record", "mode", MPIRR_SET_RECORD_MODE, v) != 0)
                return OPT_BAD;
            a->mode = v;
            break;
        case OPT_CLOCK: /* races mode's timestamps (docs/races.md): the ranks read it */
            if (environment_check_option("record", "clock", MPIRR_SET_RACE_CLOCK, v) != 0)
                return OPT_BAD;
            setenv(mpirr_settings[MPIRR_SET_RACE_CLOCK].name, v, 1);
            break;
        case OPT_NO_WTIME: a->wtime = 0; break;
        case OPT_WTIME_RES:
            if (wtime_resolution(v)) return OPT_BAD;
            a->wtime_resolution = v;
            break;
        case OPT_EVENTS: a->events = 1; break;
        case OPT_FORCE: a->force = 1; break;
        default:
            if (id >= OPT_LIBC && id < OPT_LIBC + MPIRR_LIBC_GROUP_COUNT) {
                libc_switch(id - OPT_LIBC);
                break;
            }
            if (run_opts_apply(&a->run, "record", id, v) != 0)
                return OPT_BAD;
        }
    }
    if (!a->wtime && a->wtime_resolution) {
        cli_error("record: --wtime-resolution %s: MPI_Wtime is not recorded (--no-wtime)",
                  a->wtime_resolution);
        return OPT_BAD;
    }
    return opt_command_words(&s, &a->argc, &a->argv);
}

/* No rank wrote a log: the recording is empty whatever the program's exit status, so record
 * fails, saying why when the program shows it. The runtime opens a rank's log in its MPI_Init:
 * a rank whose MPI_Init went around the runtime leaves nothing. That happens to Fortran calls
 * the runtime has no entry point for: names other than gfortran's (fortran_wrappers.c for Open
 * MPI; with MPICH, mpif.h and `use mpi` call the C MPI_Init, `use mpi_f08` the runtime's
 * mpi_init_f08_: fortran_mpich_f08.c). */
static int report_no_logs(const char *dir, const struct session *s)
{
    char fortran[256];
    const char *app = s->li.scan.app >= 0 ? s->li.scan.app_path : NULL;
    int uses_fortran = app && elf_mpi_fortran(app, fortran, sizeof fortran);
    if (uses_fortran && s->impl == IMPL_OPENMPI)
        cli_error("no rank wrote a log into %s: no rank's MPI_Init reached the mpirr runtime; "
                  "%s calls MPI from Fortran through Open MPI's bindings (%s), of which the "
                  "runtime intercepts the names gfortran uses (mpi_init_, mpi_init_f08_, ...): "
                  "does the program call MPI_Init, and was it built with gfortran?",
                  dir, app, fortran);
    else if (uses_fortran && s->impl == IMPL_MPICH)
        cli_error("no rank wrote a log into %s: no rank's MPI_Init reached the mpirr runtime; "
                  "%s calls MPI from Fortran through MPICH's bindings (%s), whose MPI_Init the "
                  "runtime sees (mpif.h and `use mpi` call the C one, `use mpi_f08` reaches the "
                  "runtime's mpi_init_f08_ when built with gfortran): does the program call "
                  "MPI_Init?",
                  dir, app, fortran);
    else
        cli_error("no rank wrote a log into %s: no rank's MPI_Init reached the mpirr runtime "
                  "(the program never called MPI_Init, is linked statically against MPI, or "
                  "ended before)", dir);
    return CLI_EXIT_FAIL;
}

/* A program on GCC's OpenMP runtime: one warning line, as its own synchronizations are not
 * ordered. LLVM's libomp gets none: the runtime's OMPT tool orders its critical sections and
 * locks (docs/threads.md says what each runtime uses and what a replay keeps). */
static void warn_openmp(const struct session *s)
{
    char so[256];
    const char *app = s->li.scan.app >= 0 ? s->li.scan.app_path : NULL;
    enum elf_openmp omp = app ? elf_openmp(app, so, sizeof so) : ELF_OPENMP_NONE;
    if (omp == ELF_OPENMP_GNU)
        cli_error("warning: %s uses GCC's OpenMP runtime (%s), whose critical sections, locks "
                  "and dynamic schedules synchronize with atomics and futexes, not the pthread "
                  "calls mpirr orders: their order is not recorded and a replay may take "
                  "another (docs/threads.md)", app, so);
}

/* --local DIR: absolute (the ranks may start elsewhere) in MPIRR_LOCAL_DIR, which reaches every
 * rank like the other passed settings, and OUT/local ready for the ranks' placement files. 0, or
 * an exit status after a message. */
static int local_start(struct record_args *a, const char *cwd, const char *out, mpirr_manifest *m)
{
    if (!a->local) a->local = getenv("MPIRR_LOCAL_DIR");
    if (!a->local) return 0;
    if (!*a->local) {
        cli_error("record: --local needs a directory");
        return CLI_EXIT_USAGE;
    }
    int n = snprintf(m->local_dir, sizeof m->local_dir, "%s%s%s", a->local[0] == '/' ? "" : cwd,
                     a->local[0] == '/' ? "" : "/", a->local);
    if (n >= (int)sizeof m->local_dir - MPIRR_RUN_ID_DIGITS - 16) {
        cli_error("record: --local %s: the path is too long", a->local);
        return CLI_EXIT_USAGE;
    }
    setenv("MPIRR_LOCAL_DIR", m->local_dir, 1);
    /* --pack too: the ranks leave their files on their nodes, placed per node, and the
     * gathering writes one pack per node straight into the recording (node_gather.h) */
    setenv(mpirr_settings[MPIRR_SET_LOCAL_PACK].name, a->pack ? "1" : "0", 1);
    return local_prepare(out);
}

int cmd_record(int argc, char **argv)
{
    struct record_args a;
    int rc = parse(argc, argv, &a);
    if (rc == OPT_HELP)
        return help_for("record");
    if (rc)
        return CLI_EXIT_USAGE;

    char cwd[PATH_MAX];
    if (path_cwd(cwd, sizeof cwd) != 0)
        return CLI_EXIT_FAIL;
    struct session s = {.mode = "record", .record_mode = a.mode, .wtime = a.wtime,
                        .noise = run_opts_noise(&a.run), .events = a.events};
    if ((rc = session_prepare(&s, a.argc, a.argv, cwd, a.run.mpi)))
        return rc;
    warn_openmp(&s);

    char dir[PATH_MAX], default_dir[64];
    if (!a.dir) {
        recdir_default_name(default_dir, sizeof default_dir);
        a.dir = default_dir;
    }
    if ((rc = recdir_prepare(a.dir, a.force, dir, sizeof dir)))
        return rc;
    s.dir = dir;
    if (a.dir == default_dir) /* the user cannot know the name otherwise */
        cli_error("recording into %s", dir);

    mpirr_manifest m;
    mpirr_run_id run_id;
    char run_id_text[MPIRR_RUN_ID_DIGITS + 1];
    if (recording_new_run_id(&run_id)) return CLI_EXIT_FAIL;
    mpirr_run_id_text(&run_id, run_id_text);
    s.run_id = run_id_text;
    if (recording_manifest_start(&m, &run_id, a.mode, mpi_impl_name(s.impl), a.wtime, cwd, a.argc,
                                 a.argv) != 0 ||
        (rc = local_start(&a, cwd, dir, &m)) != 0 || recording_manifest_write(dir, &m) != 0) {
        mpirr_manifest_free(&m);
        return rc ? rc : CLI_EXIT_FAIL;
    }
    int status = session_run(&s);
    /* --local: whatever the ranks could not move themselves is fetched from their nodes now */
    if (m.local_dir[0]) m.local_pending = local_gather_all(dir, &m, s.li.launcher == LAUNCH_SRUN);
    recording_fill_from_logs(dir, &m);
    m.exit_status = status;
    if (m.nranks == 0 && status == 0)
        status = report_no_logs(dir, &s);
    /* A recording whose manifest is incomplete must not look like a success. */
    if ((recording_manifest_write(dir, &m) != 0 || m.local_pending) && status == 0)
        status = CLI_EXIT_FAIL;
    /* --pack: a whole recording only (a --local one with ranks still on their nodes is not;
     * with --local the gathering packed it) */
    if (a.pack && !m.local_dir[0] && m.nranks > 0 && !m.local_pending && pack_recording(dir, 1) &&
        status == 0)
        status = CLI_EXIT_FAIL;
    /* what a replay will give live values for: said now, while the run can be recorded again */
    struct libc_unrecorded unrecorded = {0};
    libc_unrecorded_from_logs(&unrecorded, dir, m.nranks);
    libc_unrecorded_print(&unrecorded, stderr);
    mpirr_manifest_free(&m);
    return status;
}
