/* launch_scan.c: the launcher option table and the scan over a launcher's command line. One
 * table serves Open MPI and MPICH: their spellings do not conflict, and a wrong arity only
 * matters if the skipped word happens to be an executable file. */
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
#define COUNT(name) {name, 1, 1, LOPT_HARMLESS}
#define SAFE(name, nargs) {name, nargs, 0, LOPT_HARMLESS}
#define UNSAFE(name, nargs) {name, nargs, 0, LOPT_UNTRUSTED}
static const struct launcher_opt launcher_opts[] = {
    /* process count */
    COUNT("np"), COUNT("n"), COUNT("c"),
    /* environment and MCA parameters: their names are checked */
    {"x", 1, 0, LOPT_ENV_ASSIGN}, {"genv", 2, 0, LOPT_ENV_ASSIGN}, {"env", 2, 0, LOPT_ENV_ASSIGN},
    {"genvlist", 1, 0, LOPT_ENV_LIST}, {"envlist", 1, 0, LOPT_ENV_LIST},
    {"mca", 2, 0, LOPT_MCA}, {"gmca", 2, 0, LOPT_MCA},
    {"H", 1, 0, LOPT_HOSTS}, {"host", 1, 0, LOPT_HOSTS}, {"hosts", 1, 0, LOPT_HOSTS},
    /* placement, binding, counts per node, output: Open MPI */
    SAFE("map-by", 1), SAFE("rank-by", 1), SAFE("bind-to", 1), SAFE("N", 1), SAFE("npernode", 1),
    SAFE("npersocket", 1), SAFE("cpus-per-proc", 1), SAFE("cpus-per-rank", 1), SAFE("stdin", 1),
    SAFE("timeout", 1), SAFE("oversubscribe", 0), SAFE("nooversubscribe", 0),
    SAFE("use-hwthread-cpus", 0), SAFE("report-bindings", 0), SAFE("display-map", 0),
    SAFE("display-allocation", 0), SAFE("tag-output", 0), SAFE("timestamp-output", 0),
    SAFE("merge-stderr-to-stdout", 0), SAFE("allow-run-as-root", 0), SAFE("nolocal", 0),
    SAFE("noprefix", 0), SAFE("q", 0), SAFE("quiet", 0), SAFE("v", 0), SAFE("verbose", 0),
    /* MPICH hydra */
    SAFE("ppn", 1), SAFE("binding", 1), SAFE("iface", 1), SAFE("gpus-per-proc", 1),
    SAFE("genvall", 0), SAFE("genvnone", 0), SAFE("envall", 0), SAFE("envnone", 0),
    SAFE("l", 0), SAFE("prepend-rank", 0), SAFE("print-all-exitcodes", 0),
    /* start something else, preload, or read commands or hosts from files: Open MPI */
    UNSAFE("prefix", 1), UNSAFE("path", 1), UNSAFE("wdir", 1), UNSAFE("app", 1),
    UNSAFE("launch-agent", 1), UNSAFE("preload-binary", 0), UNSAFE("s", 0),
    UNSAFE("preload-files", 1), UNSAFE("hostfile", 1), UNSAFE("machinefile", 1),
    UNSAFE("default-hostfile", 1), UNSAFE("am", 1), UNSAFE("tune", 1),
    UNSAFE("output-filename", 1), UNSAFE("report-bindings-file", 1),
    /* MPICH hydra */
    UNSAFE("f", 1), UNSAFE("configfile", 1), UNSAFE("launcher", 1), UNSAFE("launcher-exec", 1),
    UNSAFE("bootstrap", 1), UNSAFE("bootstrap-exec", 1), UNSAFE("rmk", 1),
    UNSAFE("outfile-pattern", 1), UNSAFE("errfile-pattern", 1),
    {NULL, 0, 0, LOPT_UNTRUSTED},
};
#undef COUNT
#undef SAFE
#undef UNSAFE

const struct launcher_opt *launch_scan_option(const char *word)
{
    while (*word == '-')
        word++;
    for (const struct launcher_opt *o = launcher_opts; o->name; o++)
        if (strcmp(o->name, word) == 0)
            return o;
    return NULL;
}

/* A process count from 1 to the most ranks a recording can name, or -1. */
static long parse_count(const char *s)
{
    int64_t v;
    return mpirr_parse_int(s, 1, MPIRR_MAX_RANKS, &v) ? -1 : (long)v;
}

static void note_np(struct launch_scan *out, const char *opt, const char *value)
{
    size_t len = strlen(out->np_text);
    snprintf(out->np_text + len, sizeof out->np_text - len, "%s%s %s", len ? " : " : "", opt,
             value);
}

/* Scans one program of the command line, from argv[i] to the next ":" (whose index it
 * returns, or argc). *np receives the program's process count, or -1 if not given. */
static int scan_segment(int argc, char *const *argv, int i, const char *base,
                        struct launch_scan *out, long *np)
{
    *np = -1;
    for (; i < argc && strcmp(argv[i], ":") != 0; i++) {
        const char *w = argv[i];
        if (w[0] == '-') {
            const struct launcher_opt *o = launch_scan_option(w);
            if (!o)
                continue; /* unknown option: assumed to take no argument */
            if (o->is_np && i + 1 < argc) {
                *np = parse_count(argv[i + 1]);
                note_np(out, w, argv[i + 1]);
            }
            i += o->nargs;
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
        return i;
    }
    return i;
}

void launch_scan(int argc, char *const *argv, int has_launcher, const char *base,
                 struct launch_scan *out)
{
    out->app = -1;
    out->app_path[0] = '\0';
    out->np_text[0] = '\0';
    if (!has_launcher) {
        out->nprocs = 1;
        if (argc > 0 && path_find_exec(argv[0], base, out->app_path, sizeof out->app_path) == 0)
            out->app = 0;
        return;
    }
    out->nprocs = 0;
    /* One pass per program; each returns on the ":" before the next, which i++ skips. */
    for (int i = 1; i < argc; i++) {
        long np;
        i = scan_segment(argc, argv, i, base, out, &np);
        out->nprocs = np < 0 || out->nprocs < 0 ? -1 : out->nprocs + np;
    }
    if (argc <= 1)
        out->nprocs = -1;
}
