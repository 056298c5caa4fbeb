/* launch_scan.c: the launcher option tables and the scan over a launcher's command line. One
 * table serves Open MPI and MPICH: their spellings do not conflict, and a wrong arity only
 * matters if the skipped word happens to be an executable file. srun has its own: its short
 * options mean other things (-c is cpus per task, -x excludes nodes) and take attached values. */
#include "launch_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "number_parse.h"
#include "paths.h"

/* Options not listed are assumed by the scan to take no argument, and are refused by
 * launch_allow. The trust column is that allow-list (docs/cli/replay.md lists it too): an
 * option is HARMLESS only if whatever its value, the same program starts with the same
 * environment and nothing is written outside the program's own output. */
#define COUNT(name, what) {name, 1, what, LOPT_HARMLESS}
#define SAFE(name, nargs) {name, nargs, LCOUNT_NONE, LOPT_HARMLESS}
#define UNSAFE(name, nargs) {name, nargs, LCOUNT_NONE, LOPT_UNTRUSTED}
#define CHECKED(name, nargs, trust) {name, nargs, LCOUNT_NONE, trust}
static const struct launcher_opt mpirun_opts[] = {
    /* process count */
    COUNT("np", LCOUNT_PROCS), COUNT("n", LCOUNT_PROCS), COUNT("c", LCOUNT_PROCS),
    /* environment and MCA parameters: their names are checked */
    CHECKED("x", 1, LOPT_ENV_ASSIGN), CHECKED("genv", 2, LOPT_ENV_ASSIGN),
    CHECKED("env", 2, LOPT_ENV_ASSIGN), CHECKED("genvlist", 1, LOPT_ENV_LIST),
    CHECKED("envlist", 1, LOPT_ENV_LIST), CHECKED("mca", 2, LOPT_MCA), CHECKED("gmca", 2, LOPT_MCA),
    /* hosts, and files of hosts (Open MPI's and MPICH's names) */
    CHECKED("H", 1, LOPT_HOSTS), CHECKED("host", 1, LOPT_HOSTS), CHECKED("hosts", 1, LOPT_HOSTS),
    CHECKED("hostfile", 1, LOPT_HOSTFILE), CHECKED("machinefile", 1, LOPT_HOSTFILE),
    CHECKED("default-hostfile", 1, LOPT_HOSTFILE), CHECKED("f", 1, LOPT_HOSTFILE),
    /* placement, binding, counts per node, output: Open MPI */
    SAFE("map-by", 1), SAFE("rank-by", 1), SAFE("bind-to", 1), SAFE("N", 1), SAFE("npernode", 1),
    SAFE("npersocket", 1), SAFE("cpus-per-proc", 1), SAFE("cpus-per-rank", 1), SAFE("stdin", 1),
    SAFE("timeout", 1), SAFE("oversubscribe", 0), SAFE("nooversubscribe", 0),
    SAFE("use-hwthread-cpus", 0), SAFE("report-bindings", 0), SAFE("display-map", 0),
    SAFE("display-allocation", 0), SAFE("tag-output", 0), SAFE("timestamp-output", 0),
    SAFE("merge-stderr-to-stdout", 0), SAFE("allow-run-as-root", 0), SAFE("nolocal", 0),
    SAFE("noprefix", 0), SAFE("q", 0), SAFE("quiet", 0), SAFE("v", 0), SAFE("verbose", 0),
    /* MPICH hydra: -rmk names how the batch system's host list is read */
    SAFE("ppn", 1), SAFE("binding", 1), SAFE("iface", 1), SAFE("gpus-per-proc", 1),
    SAFE("rmk", 1), SAFE("genvall", 0), SAFE("genvnone", 0), SAFE("envall", 0), SAFE("envnone", 0),
    SAFE("l", 0), SAFE("prepend-rank", 0), SAFE("print-all-exitcodes", 0),
    CHECKED("bootstrap", 1, LOPT_BOOTSTRAP), CHECKED("launcher", 1, LOPT_BOOTSTRAP),
    /* start something else, preload, or read commands from files: Open MPI */
    UNSAFE("prefix", 1), UNSAFE("path", 1), UNSAFE("wdir", 1), UNSAFE("app", 1),
    UNSAFE("launch-agent", 1), UNSAFE("preload-binary", 0), UNSAFE("s", 0),
    UNSAFE("preload-files", 1), UNSAFE("am", 1), UNSAFE("tune", 1),
    UNSAFE("output-filename", 1), UNSAFE("report-bindings-file", 1),
    /* MPICH hydra */
    UNSAFE("configfile", 1), UNSAFE("launcher-exec", 1), UNSAFE("bootstrap-exec", 1),
    UNSAFE("outfile-pattern", 1), UNSAFE("errfile-pattern", 1),
    {NULL, 0, LCOUNT_NONE, LOPT_UNTRUSTED},
};

/* Slurm's srun (its man page, 20.11 to 23.x). */
static const struct launcher_opt srun_opts[] = {
    COUNT("-n", LCOUNT_PROCS), COUNT("--ntasks", LCOUNT_PROCS), COUNT("-N", LCOUNT_NODES),
    COUNT("--nodes", LCOUNT_NODES), COUNT("--ntasks-per-node", LCOUNT_PER_NODE),
    /* resources, placement, binding, the job's name and limits, the MPI plugin */
    SAFE("-c", 1), SAFE("--cpus-per-task", 1), SAFE("-p", 1), SAFE("--partition", 1),
    SAFE("-t", 1), SAFE("--time", 1), SAFE("--time-min", 1), SAFE("--mpi", 1), SAFE("-J", 1),
    SAFE("--job-name", 1), SAFE("--cpu-bind", 1), SAFE("--mem-bind", 1), SAFE("-m", 1),
    SAFE("--distribution", 1), SAFE("-A", 1), SAFE("--account", 1), SAFE("-q", 1),
    SAFE("--qos", 1), SAFE("--reservation", 1), SAFE("-C", 1), SAFE("--constraint", 1),
    SAFE("--mem", 1), SAFE("--mem-per-cpu", 1), SAFE("--gres", 1), SAFE("-G", 1),
    SAFE("--gpus", 1), SAFE("--gpus-per-node", 1), SAFE("--gpus-per-task", 1), SAFE("--hint", 1),
    SAFE("--ntasks-per-core", 1), SAFE("--ntasks-per-socket", 1), SAFE("--threads-per-core", 1),
    SAFE("-x", 1), SAFE("--exclude", 1), SAFE("-W", 1), SAFE("--wait", 1), SAFE("--het-group", 1),
    SAFE("--open-mode", 1), SAFE("--exclusive", 0), SAFE("--overlap", 0), SAFE("--exact", 0),
    SAFE("-l", 0), SAFE("--label", 0), SAFE("-u", 0), SAFE("--unbuffered", 0), SAFE("-K", 0),
    SAFE("--kill-on-bad-exit", 0), SAFE("-v", 0), SAFE("--verbose", 0), SAFE("-Q", 0),
    SAFE("--quiet", 0), SAFE("-O", 0), SAFE("--overcommit", 0), SAFE("-s", 0),
    SAFE("--oversubscribe", 0), SAFE("-X", 0), SAFE("--disable-status", 0),
    SAFE("--propagate", 0),
    CHECKED("-w", 1, LOPT_NODELIST), CHECKED("--nodelist", 1, LOPT_NODELIST),
    CHECKED("--export", 1, LOPT_EXPORT),
    /* write or read files the user did not name (output, input, working directory), run other
     * programs (prologs, epilogs, a --multi-prog file, a container), copy files to the nodes */
    UNSAFE("-o", 1), UNSAFE("--output", 1), UNSAFE("-e", 1), UNSAFE("--error", 1),
    UNSAFE("-i", 1), UNSAFE("--input", 1), UNSAFE("-D", 1), UNSAFE("--chdir", 1),
    UNSAFE("--prolog", 1), UNSAFE("--epilog", 1), UNSAFE("--task-prolog", 1),
    UNSAFE("--task-epilog", 1), UNSAFE("--multi-prog", 0), UNSAFE("--bcast", 0),
    UNSAFE("--container", 1), UNSAFE("--uid", 1), UNSAFE("--gid", 1), UNSAFE("--wrap", 1),
    UNSAFE("--export-file", 1),
    {NULL, 0, LCOUNT_NONE, LOPT_UNTRUSTED},
};
#undef COUNT
#undef SAFE
#undef UNSAFE
#undef CHECKED

static const struct launcher_opt *find_mpirun_opt(const char *word)
{
    while (*word == '-')
        word++;
    for (const struct launcher_opt *o = mpirun_opts; o->name; o++)
        if (strcmp(o->name, word) == 0)
            return o;
    return NULL;
}

/* srun's "--name=value" and "-Xvalue" (a short option that takes one): *attached receives the
 * value, or NULL if the word is the option alone. */
static const struct launcher_opt *find_srun_opt(const char *word, const char **attached)
{
    *attached = NULL;
    int is_long = word[1] == '-';
    size_t len = is_long ? strcspn(word, "=") : strlen(word) > 2 ? 2 : strlen(word);
    for (const struct launcher_opt *o = srun_opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, word, len) == 0) {
            if (word[len] == '\0')
                return o;
            if (!is_long && o->nargs == 0)
                return NULL; /* "-lu": bundled flags mpirr does not take apart */
            *attached = word + len + is_long;
            return o;
        }
    return NULL;
}

int launch_scan_option(enum launcher_kind kind, int argc, char *const *argv, int i,
                       struct launcher_opt_use *u)
{
    const char *attached = NULL;
    u->opt = kind == LAUNCH_SRUN ? find_srun_opt(argv[i], &attached) : find_mpirun_opt(argv[i]);
    u->args[0] = u->args[1] = NULL;
    u->words = 1;
    if (!u->opt)
        return 0;
    if (attached) { /* "--exclusive=user": an optional value, which no table entry checks */
        u->args[0] = attached;
        return 0;
    }
    for (int k = 0; k < u->opt->nargs; k++) {
        if (i + 1 + k >= argc)
            return -1;
        u->args[k] = argv[i + 1 + k];
        u->words++;
    }
    return 0;
}

/* A process count from 1 to the most ranks a recording can name, or -1. */
static long parse_count(const char *s)
{
    int64_t v;
    return mpirr_parse_int(s, 1, MPIRR_MAX_RANKS, &v) ? -1 : (long)v;
}

/* Adds "-np 4" (or "--ntasks=4", a value attached to its word) to the counts shown, " : "
 * before the first count of each further program. */
static void note_count(struct launch_scan *out, const struct launcher_opt_use *u,
                       const char *word, int first)
{
    size_t len = strlen(out->np_text);
    const char *sep = !len ? "" : first ? " : " : " ";
    if (u->words == 1) /* attached */
        snprintf(out->np_text + len, sizeof out->np_text - len, "%s%s", sep, word);
    else
        snprintf(out->np_text + len, sizeof out->np_text - len, "%s%s %s", sep, word, u->args[0]);
}

/* The process count of one program from its options: the processes if given, else srun's
 * nodes times tasks per node; -1 if neither says. */
static long segment_count(const long counts[4])
{
    if (counts[LCOUNT_PROCS] >= 0)
        return counts[LCOUNT_PROCS];
    if (counts[LCOUNT_NODES] < 0 || counts[LCOUNT_PER_NODE] < 0)
        return -1;
    long n = counts[LCOUNT_NODES] * counts[LCOUNT_PER_NODE];
    return n <= MPIRR_MAX_RANKS ? n : -1;
}

/* Scans one program of the command line, from argv[i] to the next ":" (whose index it
 * returns, or argc). *np receives the program's process count, or -1 if not given. */
static int scan_segment(int argc, char *const *argv, int i, enum launcher_kind kind,
                        const char *base, struct launch_scan *out, long *np)
{
    long counts[4] = {-1, -1, -1, -1};
    int first = 1;
    for (; i < argc && strcmp(argv[i], ":") != 0; i++) {
        const char *w = argv[i];
        if (w[0] == '-') {
            struct launcher_opt_use u;
            launch_scan_option(kind, argc, argv, i, &u);
            if (u.opt && u.opt->count != LCOUNT_NONE && u.args[0]) {
                counts[u.opt->count] = parse_count(u.args[0]);
                note_count(out, &u, w, first);
                first = 0;
            }
            i += u.words - 1;
            continue;
        }
        char path[PATH_MAX];
        if (path_find_exec(w, base, path, sizeof path) != 0)
            continue; /* likely the argument of an option we do not know */
        if (out->app < 0) {
            out->app = i;
            strcpy(out->app_path, path);
        }
        /* The rest up to ":" are the application's own arguments. */
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        break;
    }
    *np = segment_count(counts);
    return i;
}

void launch_scan(int argc, char *const *argv, enum launcher_kind kind, const char *base,
                 struct launch_scan *out)
{
    out->app = -1;
    out->app_path[0] = '\0';
    out->np_text[0] = '\0';
    if (kind == LAUNCH_NONE) {
        out->nprocs = 1;
        if (argc > 0 && path_find_exec(argv[0], base, out->app_path, sizeof out->app_path) == 0)
            out->app = 0;
        return;
    }
    out->nprocs = 0;
    /* One pass per program; each returns on the ":" before the next, which i++ skips. */
    for (int i = 1; i < argc; i++) {
        long np;
        i = scan_segment(argc, argv, i, kind, base, out, &np);
        out->nprocs = np < 0 || out->nprocs < 0 ? -1 : out->nprocs + np;
    }
    if (argc <= 1)
        out->nprocs = -1;
}
