/* run_command.c: handing the MPIRR_* contract to the ranks and running the command. */
#include "run_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "environment.h"
#include "launch_rewrite.h"
#include "manifest.h"
#include "run_scratch.h"
#include "runtime_lib.h"
#include "shell_quote.h"

int session_inspect(struct session *s, int argc, char **argv, const char *base)
{
    return launch_inspect(argc, argv, base, &s->li);
}

int session_prepare(struct session *s, int argc, char **argv, const char *base,
                    enum mpi_impl preferred)
{
    int rc = session_inspect(s, argc, argv, base);
    return rc ? rc : session_choose_runtime(s, preferred);
}

int session_choose_runtime(struct session *s, enum mpi_impl preferred)
{
    s->impl = launch_pick_impl(&s->li, preferred);
    if (s->impl == IMPL_UNKNOWN)
        return CLI_EXIT_USAGE;
    return runtime_lib_path(s->impl, s->runtime_lib, sizeof s->runtime_lib) ? CLI_EXIT_FAIL : 0;
}

/* Our runtime goes first so that its MPI symbols win; a preload the user already had stays. */
static char *preload_value(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (v)
        snprintf(v, n, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
    return v;
}

/* Prints the first lines the ranks wrote to the error file (often every rank reports the same
 * problem), then removes the file. */
static void relay_runtime_errors(const char *path, int private_errlog)
{
    enum { SHOWN = 4 };
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[2048];
    int n = 0;
    for (; fgets(line, sizeof line, f); n++)
        if (n < SHOWN)
            fputs(line, stderr);
    if (n > SHOWN)
        fprintf(stderr, "mpirr: (%d more lines from the ranks in %s)\n", n - SHOWN, path);
    fclose(f);
    if (n <= SHOWN)
        unlink(path);
    else if (private_errlog)
        run_scratch_keep(MPIRR_ERRLOG_NAME);
}

/* --dry-run: what child_run would do, as one shell line on stdout: the directory, the
 * variables a singleton gets in its environment, and the (rewritten) command. 0. */
static int print_command(const char *workdir, char **argv, const struct env_var *env, int nenv)
{
    if (workdir) {
        fputs("cd ", stdout);
        shell_print_command(stdout, 1, (char *const[]){(char *)workdir});
        fputs(" && ", stdout);
    }
    if (nenv)
        fputs("env ", stdout);
    for (int i = 0; i < nenv; i++) { /* NAME='value': the shell joins them into one word */
        printf("%s=", env[i].name);
        shell_print_command(stdout, 1, (char *const[]){(char *)env[i].value});
        fputc(' ', stdout);
    }
    int argc = 0;
    while (argv[argc])
        argc++;
    shell_print_command(stdout, argc, argv);
    fputc('\n', stdout);
    return fflush(stdout) ? CLI_EXIT_FAIL : 0;
}

int session_run(const struct session *s)
{
    struct env_var vars[16 + MPIRR_SETTING_COUNT];
    int n = 0;
    vars[n++] = (struct env_var){"MPIRR_MODE", s->mode};
    if (s->dir)
        vars[n++] = (struct env_var){"MPIRR_DIR", s->dir};
    if (s->record_mode)
        vars[n++] = (struct env_var){"MPIRR_RECORD_MODE", s->record_mode};
    if (s->run_id)
        vars[n++] = (struct env_var){"MPIRR_RUN_ID", s->run_id};
    if (s->wtime >= 0)
        vars[n++] = (struct env_var){"MPIRR_WTIME", s->wtime ? "1" : "0"};
    if (s->noise)
        vars[n++] = (struct env_var){"MPIRR_NOISE_US", s->noise};
    if (s->events)
        vars[n++] = (struct env_var){"MPIRR_EVENTS", "1"};
    if (s->no_exe_check)
        vars[n++] = (struct env_var){"MPIRR_EXE_CHECK", "0"};
    /* the tuning variables set in mpirr's environment (checked) reach remote ranks too */
    n += environment_passed(vars + n, MPIRR_SETTING_COUNT);
    char *preload = preload_value(s->runtime_lib);
    if (!preload) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    vars[n++] = (struct env_var){"LD_PRELOAD", preload};
    /* The runtime's one-line errors go to a file: a launcher tearing down a job after
     * MPI_Abort may drop the ranks' last stderr output, the file keeps it. A recording keeps
     * it; a replay has it in its private directory (run_scratch.h), which a dry run does not
     * make (the ranks of the printed command write to stderr). */
    char errlog[PATH_MAX + 32] = "";
    if (s->dir && !s->private_errlog) {
        snprintf(errlog, sizeof errlog, "%s/" MPIRR_ERRLOG_NAME, s->dir);
        if (!s->dry_run)
            unlink(errlog);
    } else if (s->dir && !s->dry_run &&
               run_scratch_path(MPIRR_ERRLOG_NAME, errlog, sizeof errlog)) {
        free(preload);
        return CLI_EXIT_FAIL;
    }
    if (errlog[0])
        vars[n++] = (struct env_var){"MPIRR_ERRLOG", errlog};
    if (s->control)
        vars[n++] = (struct env_var){"MPIRR_CONTROL", s->control};
    if (s->flip)
        vars[n++] = (struct env_var){"MPIRR_FLIP", s->flip};

    /* With a launcher the variables travel as its options and the launcher's own environment
     * is left alone; a singleton gets them in its environment. */
    int singleton = s->li.launcher == LAUNCH_NONE;
    int uncarried = launch_rewrite_uncarried(s->li.launcher, vars, n);
    char **argv = uncarried >= 0 ? NULL
                  : launch_rewrite(s->li.argc, s->li.argv, s->li.launcher, s->li.scan.app, vars, n);
    int status;
    if (uncarried >= 0) {
        cli_error("%s=%s has a comma, which srun's --export cannot carry to the ranks",
                  vars[uncarried].name, vars[uncarried].value);
        status = CLI_EXIT_USAGE;
    } else if (!argv) {
        cli_error("out of memory");
        status = CLI_EXIT_FAIL;
    } else if (s->dry_run) {
        status = print_command(s->workdir, argv, singleton ? vars : NULL, singleton ? n : 0);
    } else {
        struct child_spec c = {argv, s->workdir, singleton ? vars : NULL, singleton ? n : 0,
                               s->watch, s->watch_arg, s->stdin_null, !singleton};
        status = child_run(&c);
        if (status < 0)
            status = CLI_EXIT_FAIL;
    }
    launch_argv_free(argv);
    free(preload);
    if (errlog[0] && !s->dry_run)
        relay_runtime_errors(errlog, s->private_errlog);
    return status;
}
