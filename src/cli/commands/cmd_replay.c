/* cmd_replay.c: `mpirr replay DIR [-- COMMAND...]`: checks that the recording can be followed
 * by this command, then runs it (by default the recorded command, in the recorded directory,
 * if replay_trust.h accepts it) with the runtime steering every rank along the recording; or,
 * with --dry-run, prints what it would run. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "diag.h"
#include "mpi_impl.h"
#include "opts.h"
#include "paths.h"
#include "recording.h"
#include "replay_check.h"
#include "replay_control.h"
#include "replay_hold.h"
#include "replay_trust.h"
#include "run_opts.h"
#include "run_command.h"
#include "flip.h"
#include "launcher_timeouts.h"
#include "replay_session.h"
#include "replay_ui.h"
#include "verdict.h"

enum { OPT_DRY_RUN, OPT_NO_EXE_CHECK, OPT_STOP, OPT_BEFORE, OPT_AFTER, OPT_PAST, OPT_HOLD_SIGNAL,
       OPT_NO_HOLD_SIGNAL, OPT_FLIP, OPT_OUTPUT, OPT_FORCE, OPT_UI };

static const struct cli_opt replay_opts[] = {
    {"dry-run", 0, 0, OPT_DRY_RUN},
    {"no-exe-check", 0, 0, OPT_NO_EXE_CHECK},
    {"stop", 0, 1, OPT_STOP},
    {"before", 0, 0, OPT_BEFORE},
    {"after", 0, 0, OPT_AFTER},
    {"past", 0, 0, OPT_PAST},
    {"hold-on-signal", 0, 0, OPT_HOLD_SIGNAL},
    {"no-hold-on-signal", 0, 0, OPT_NO_HOLD_SIGNAL},
    {"flip", 0, 1, OPT_FLIP},
    {"output", 'o', 1, OPT_OUTPUT},
    {"force", 0, 0, OPT_FORCE},
    {"ui", 0, 0, OPT_UI},
    RUN_OPTS_TABLE,
    {NULL, 0, 0, 0},
};

struct replay_args {
    struct run_opts run;
    int dry_run;
    int exe_check; /* 0: --no-exe-check */
    const char *stop; /* --stop R:E or "crash": a session (replayctl/replay_session.h) */
    int after, past;
    /* 1: --hold-on-signal, 0: --no-hold-on-signal, -1: the default (held in a session with
     * --stop: a crash at the stopline keeps its evidence) */
    int hold_on_signal;
    const char *flip, *output; /* --flip R:E=SRC -o NEWDIR (explore/flip.h) */
    int force;
    int ui; /* --ui: the session's page (replayui/replay_ui.h) */
    const char *dir;
    int argc;     /* the command given after "--", or 0 for the recorded one */
    char **argv;
};

/* 0, OPT_HELP, or OPT_BAD (reported). */
/* One option into a (when_given: --before/--after seen). 0, or OPT_BAD/OPT_HELP. */
static int apply(struct replay_args *a, int id, const char *v, int *when_given)
{
    if (id == OPT_BAD || id == OPT_HELP)
        return id;
    if (id == OPT_DRY_RUN)
        a->dry_run = 1;
    else if (id == OPT_NO_EXE_CHECK)
        a->exe_check = 0;
    else if (id == OPT_STOP)
        a->stop = v;
    else if (id == OPT_BEFORE || id == OPT_AFTER)
        a->after = id == OPT_AFTER, *when_given = 1;
    else if (id == OPT_PAST)
        a->past = 1;
    else if (id == OPT_HOLD_SIGNAL || id == OPT_NO_HOLD_SIGNAL)
        a->hold_on_signal = id == OPT_HOLD_SIGNAL;
    else if (id == OPT_FLIP)
        a->flip = v;
    else if (id == OPT_OUTPUT)
        a->output = v;
    else if (id == OPT_FORCE)
        a->force = 1;
    else if (id == OPT_UI)
        a->ui = 1;
    else if (run_opts_apply(&a->run, "replay", id, v) != 0)
        return OPT_BAD;
    return 0;
}

/* Options go before or after DIR (mpirr replay DIR --stop 1:20), a command after "--".
 * 0, OPT_HELP, or OPT_BAD (reported). */
static int parse(int argc, char **argv, struct replay_args *a)
{
    struct opt_scan s;
    opt_init(&s, "replay", argc, argv);
    run_opts_init(&a->run);
    a->dry_run = 0;
    a->exe_check = 1;
    a->stop = NULL;
    a->after = a->past = 0;
    a->hold_on_signal = -1;
    a->flip = a->output = NULL;
    a->force = a->ui = 0;
    a->dir = NULL;
    int when_given = 0, rc;
    const char *v;
    for (int id; (id = opt_next(&s, replay_opts, &v)) != OPT_DONE || (!a->dir && !s.dashdash && s.i < argc);) {
        if (id == OPT_DONE) { /* an operand: the recording, once */
            a->dir = argv[s.i++];
            continue;
        }
        if ((rc = apply(a, id, v, &when_given)))
            return rc;
    }
    if ((when_given || a->past) && !a->stop) {
        cli_error("replay: --before, --after and --past qualify --stop R:E");
        return OPT_BAD;
    }
    if (a->ui && (a->flip || a->dry_run)) {
        cli_error("replay: --ui is the page of a session: it takes no --flip or --dry-run");
        return OPT_BAD;
    }
    if ((a->output || a->force) && !a->flip) {
        cli_error("replay: -o and --force name the recording of a flipped run (--flip R:E=SRC)");
        return OPT_BAD;
    }
    if (a->flip && (a->stop || a->hold_on_signal == 1 || a->dry_run)) {
        cli_error("replay: --flip records a new run; it does not take --stop, --hold-on-signal "
                  "or --dry-run");
        return OPT_BAD;
    }
    if (!a->dir) {
        cli_error("replay needs a recording directory (mpirr replay [options] DIR [-- COMMAND...])");
        return OPT_BAD;
    }
    a->argc = 0;
    a->argv = NULL;
    if (s.i == argc)
        return 0;
    /* Only "--" may end the options: a word there would otherwise be run as the command. */
    if (!s.dashdash) {
        cli_error("replay: unexpected '%s' after DIR (a command to run goes after --)", argv[s.i]);
        return OPT_BAD;
    }
    return opt_command_words(&s, &a->argc, &a->argv);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --flip: the ranks replay up to the flip's cut, then record the run into the new directory;
 * the command (argc, argv) runs in cwd. */
static int replay_flipped(const struct replay_args *a, const struct recording *r,
                          struct session *s, int argc, char **argv, const char *cwd)
{
    struct flip f;
    int rc = flip_prepare(&f, r, a->flip, a->output, a->force);
    if (!rc)
        rc = flip_start_manifest(&f, r, mpi_impl_name(s->impl), cwd, argc, argv);
    if (rc) {
        mpirr_manifest_free(&f.m);
        return rc;
    }
    s->flip = f.file;
    s->events = 1; /* the new run's races can be flipped in turn */
    return flip_finish(&f, session_run(s));
}

int cmd_replay(int argc, char **argv)
{
    struct replay_args a;
    int rc = parse(argc, argv, &a);
    if (rc == OPT_HELP)
        return help_for("replay");
    if (rc)
        return CLI_EXIT_USAGE;

    struct recording r;
    int recorded = a.argc == 0; /* run the manifest's command: replay_trust.h */
    if ((rc = recording_open(a.dir, &r)))
        return rc;
    /* how each rank's recording ended, read once as the logs are checked */
    struct recorded_end *ends = calloc((size_t)(r.m.nranks > 0 ? r.m.nranks : 0) + 1, sizeof *ends);
    if (!ends) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAIL;
    } else {
        rc = replay_check_logs(&r, recorded, ends);
    }
    if (rc) {
        free(ends);
        recording_close(&r);
        return rc;
    }
    /* The recorded command runs where it was recorded; a command given here runs here. */
    char cwd[PATH_MAX];
    const char *base = r.m.cwd, *workdir = r.m.cwd;
    if (!recorded) {
        if (path_cwd(cwd, sizeof cwd) != 0) {
            free(ends);
            recording_close(&r);
            return CLI_EXIT_FAIL;
        }
        base = cwd;
        workdir = NULL;
    } else if (!is_dir(r.m.cwd)) {
        cli_error("the recorded directory %s no longer exists (give the command after --)",
                  r.m.cwd);
        free(ends);
        recording_close(&r);
        return CLI_EXIT_USAGE;
    }
    struct session s = {.mode = "replay", .dir = r.dir, .wtime = -1,
                        .noise = run_opts_noise(&a.run), .workdir = workdir,
                        .dry_run = a.dry_run, .no_exe_check = !a.exe_check,
                        .private_errlog = 1};
    enum mpi_impl preferred = a.run.mpi != IMPL_UNKNOWN ? a.run.mpi : mpi_impl_parse(r.m.mpi);
    rc = recorded ? replay_trust_launcher(&r, base) : 0;
    if (!rc)
        rc = session_inspect(&s, recorded ? r.m.argc : a.argc, recorded ? r.m.argv : a.argv,
                             base);
    if (!rc && recorded)
        rc = replay_trust_program(&r, &s.li, base);
    if (!rc)
        rc = replay_check_launch(&r, &s.li, base, a.exe_check);
    if (!rc)
        rc = session_choose_runtime(&s, preferred);
    if (a.flip) {
        if (!rc)
            rc = replay_flipped(&a, &r, &s, recorded ? r.m.argc : a.argc,
                                recorded ? r.m.argv : a.argv, base);
        free(ends);
        recording_close(&r);
        return rc;
    }
    struct replay_hold hold, *held = NULL; /* ranks to be held where the recording ends */
    struct replay_session rs;
    struct replay_ui ui = {0};
    int have_rs = 0;
    if (!rc && !a.dry_run && !(rc = replay_hold_load(&r, ends, &hold)))
        held = &hold;
    /* Ranks held where their recording ends report in the hold log (mpirr writes what they
     * send: control_server.c); the session's watch ends the job once all have. */
    if (held && hold.expected > 0 && replay_hold_start(held))
        rc = CLI_EXIT_FAIL;
    if (!rc && !a.dry_run && !(rc = replay_session_open(&rs, &r, ends, held))) {
        have_rs = 1;
        s.control = rs.control.address;
        s.watch = replay_session_watch;
        s.watch_arg = &rs;
        if (a.stop || a.hold_on_signal == 1 || a.ui) {
            s.stdin_null = 1; /* mpirr's standard input carries the session's commands */
            /* a launcher's wall-clock limit kills ranks held for the debugger: say so */
            struct env_var none[1];
            launcher_timeouts_guard(none, 0, stderr);
            if (s.li.launcher != LAUNCH_NONE)
                launcher_timeouts_argv(s.li.launcher,
                                       s.li.scan.app >= 0 ? s.li.scan.app : s.li.argc, s.li.argv,
                                       stderr);
            /* --ui alone: the page needs ranks standing still to drive them from */
            rc = a.ui && !a.stop ? replay_session_first_stop_at_init(&rs)
                                 : replay_session_first_stop(&rs, a.stop, a.after, a.past);
            if (!rc && a.ui)
                rc = replay_ui_start(&ui, &rs, r.dir);
            if (a.hold_on_signal != 0)
                replay_control_set_flags(&rs.control, MPIRR_CTL_HOLD_ON_SIGNAL);
        }
    }
    if (!rc)
        rc = session_run(&s);
    /* Ended where the recording ends: say so, not what our SIGTERM did to the launcher. */
    if (held && hold.ended)
        rc = CLI_EXIT_HELD;
    else if (have_rs && rs.quit)
        rc = 0; /* the user ended the session */
    if (have_rs && !rs.quit && !(held && hold.ended) && rc != CLI_EXIT_USAGE) {
        switch (replay_verdict(&r, ends, &rs.control, rc, stderr)) {
        /* A divergence ends the replay with its own status, whatever the launcher's: Open
         * MPI's mpirun, ending the job the diverging rank aborted, was seen to crash (SIGSEGV
         * in PMIx_server_finalize) on a loaded machine. */
        case VERDICT_DIVERGED: rc = MPIRR_DIVERGENCE_EXIT; break;
        /* the program ran without the runtime (LD_PRELOAD refused it, or it never called
         * MPI_Init): a launcher's 0 must not read as a replay that went well */
        case VERDICT_NOT_REPLAYED: if (rc == 0) rc = CLI_EXIT_FAIL; break;
        case VERDICT_COMPARED: break;
        }
    }
    replay_ui_stop(&ui);
    if (have_rs)
        replay_session_close(&rs);
    if (held)
        replay_hold_finish(held);
    free(ends);
    recording_close(&r);
    return rc;
}
