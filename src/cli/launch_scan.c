/* launch_scan.c: the launcher option table and the scan over a launcher's command line. One
 * table serves Open MPI and MPICH: their spellings do not conflict, and a wrong arity only
 * matters if the skipped word happens to be an executable file. */
#include "launch_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

struct launcher_opt {
    const char *name; /* without leading dashes: both launchers accept -opt and --opt */
    int nargs;
    int is_np;        /* its argument is the number of processes */
};

static const struct launcher_opt launcher_opts[] = {
    /* process count */
    {"np", 1, 1}, {"n", 1, 1}, {"c", 1, 1},
    /* two arguments */
    {"mca", 2, 0}, {"gmca", 2, 0}, {"genv", 2, 0}, {"env", 2, 0},
    /* one argument: Open MPI */
    {"x", 1, 0}, {"H", 1, 0}, {"host", 1, 0}, {"hostfile", 1, 0}, {"machinefile", 1, 0},
    {"default-hostfile", 1, 0}, {"map-by", 1, 0}, {"rank-by", 1, 0}, {"bind-to", 1, 0},
    {"N", 1, 0}, {"npernode", 1, 0}, {"npersocket", 1, 0}, {"wdir", 1, 0}, {"path", 1, 0},
    {"prefix", 1, 0}, {"output-filename", 1, 0}, {"am", 1, 0}, {"tune", 1, 0},
    {"stdin", 1, 0}, {"timeout", 1, 0}, {"cpus-per-proc", 1, 0}, {"cpus-per-rank", 1, 0},
    {"preload-files", 1, 0}, {"app", 1, 0}, {"report-bindings-file", 1, 0},
    /* one argument: MPICH hydra */
    {"f", 1, 0}, {"hosts", 1, 0}, {"ppn", 1, 0}, {"genvlist", 1, 0}, {"envlist", 1, 0},
    {"configfile", 1, 0}, {"launcher", 1, 0}, {"launcher-exec", 1, 0}, {"bootstrap", 1, 0},
    {"bootstrap-exec", 1, 0}, {"iface", 1, 0}, {"binding", 1, 0}, {"rmk", 1, 0},
    {"gpus-per-proc", 1, 0}, {"outfile-pattern", 1, 0}, {"errfile-pattern", 1, 0},
    {NULL, 0, 0},
};

static const struct launcher_opt *find_opt(const char *word)
{
    while (*word == '-')
        word++;
    for (const struct launcher_opt *o = launcher_opts; o->name; o++)
        if (strcmp(o->name, word) == 0)
            return o;
    return NULL;
}

/* A positive process count, or -1. */
static long parse_count(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 ? v : -1;
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
            const struct launcher_opt *o = find_opt(w);
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
