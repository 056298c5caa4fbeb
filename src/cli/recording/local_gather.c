/* local_gather.c: see local_gather.h. A placement file that is still in OUT/local is the only
 * sign that a rank's files are not in the recording: a rank removes its own once its files are
 * moved, gather removes those of the ranks it moved. */
#include "local_gather.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "diag.h"
#include "file_io.h"
#include "local_files.h"
#include "node_gather.h"
#include "rank_log.h"
#include "remote_shell.h"
#include "reserve.h"
#include "settings.h"
#include "shell_quote.h"
#include "strlist.h"

struct placements {
    mpirr_placement *v;
    size_t n, cap;
};

static void subdir(char *buf, size_t n, const char *out)
{
    snprintf(buf, n, "%s/" MPIRR_LOCAL_SUBDIR, out);
}

int local_prepare(const char *out)
{
    char path[PATH_MAX];
    subdir(path, sizeof path, out);
    if (mkdir(path, 0777) && errno != EEXIST) {
        cli_error("cannot create %s: %s", path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    DIR *d = opendir(path);
    if (!d) {
        cli_error("cannot read %s: %s", path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        char file[PATH_MAX + 300];
        if (mpirr_placement_rank_of(e->d_name) < 0 && mpirr_node_placement_node_of(e->d_name) < 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (unlink(file) && errno != ENOENT) {
            cli_error("cannot remove %s: %s", file, strerror(errno));
            rc = CLI_EXIT_FAIL;
        }
    }
    closedir(d);
    return rc;
}

int local_placements_each(const char *out, int (*each)(const char *name, const char *file,
                                                      void *ctx), void *ctx)
{
    char path[PATH_MAX], file[PATH_MAX + 300];
    subdir(path, sizeof path, out);
    DIR *d = opendir(path);
    if (!d) return errno == ENOENT ? 0 : -1;
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        rc = each(e->d_name, file, ctx);
    }
    closedir(d);
    return rc;
}

static int by_place(const void *a, const void *b)
{
    const mpirr_placement *x = a, *y = b;
    int c = strcmp(x->host, y->host);
    if (!c) c = strcmp(x->folder, y->folder);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

struct placements_read {
    struct placements *p;
    const mpirr_run_id *id;
    int quiet;
};

static int read_placement(const char *name, const char *file, void *ctx)
{
    struct placements_read *r = ctx;
    struct placements *p = r->p;
    int rank = mpirr_placement_rank_of(name);
    if (rank < 0) return 0;
    if (mpirr_reserve((void **)&p->v, &p->cap, p->n + 1, sizeof *p->v)) return -1;
    char err[1024];
    mpirr_placement *pl = &p->v[p->n++];
    if (mpirr_placement_read(file, rank, r->id, pl, err, sizeof err)) {
        if (!r->quiet) cli_error("%s", err);
        pl->host[0] = pl->folder[0] = 0;
    }
    return 0;
}

/* The placement files left in OUT/local, sorted by host and folder; one that cannot be read
 * is said (unless quiet) and kept with no host. -1 if OUT/local cannot be listed for another
 * reason than being gone. */
static int list_placements(const char *out, const mpirr_run_id *id, struct placements *p, int quiet)
{
    memset(p, 0, sizeof *p);
    struct placements_read r = {p, id, quiet};
    int rc = local_placements_each(out, read_placement, &r);
    if (p->n) qsort(p->v, p->n, sizeof *p->v, by_place);
    return rc;
}

const char *local_self_exe(void)
{
    static char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = 0;
    return n > 0 ? path : "mpirr";
}

static int same_place(const mpirr_placement *a, const mpirr_placement *b)
{
    return !strcmp(a->host, b->host) && !strcmp(a->folder, b->folder);
}

void local_gather_command(char *buf, size_t n, const char *host, const char *folder,
                          const char *out)
{
    FILE *f = fmemopen(buf, n, "w");
    if (!f) {
        buf[0] = 0;
        return;
    }
    char *words[] = {(char *)host, (char *)local_self_exe(), "gather", (char *)folder,
                     "-o", (char *)out, NULL};
    fprintf(f, "%s ", remote_shell_setting());
    shell_print_command(f, 6, words);
    fclose(f);
    buf[n - 1] = 0;
}

int local_pending_report(const char *out, const mpirr_manifest *m, int quiet)
{
    struct placements p;
    if (list_placements(out, &m->run_id, &p, quiet)) {
        cli_error("cannot read %s/" MPIRR_LOCAL_SUBDIR ": %s", out, strerror(errno));
        free(p.v);
        return 1;
    }
    for (size_t i = 0, j; !quiet && i < p.n; i = j) {
        char ranks[256] = "", num[16], cmd[PATH_MAX * 3];
        for (j = i; j < p.n && same_place(&p.v[i], &p.v[j]); j++) {
            snprintf(num, sizeof num, "%d", p.v[j].rank);
            strlist_append(ranks, sizeof ranks, num);
        }
        if (!p.v[i].host[0]) continue; /* said by list_placements */
        local_gather_command(cmd, sizeof cmd, p.v[i].host, p.v[i].folder, out);
        cli_error("rank files of rank%s %s are still on %s in %s: run `%s`", j - i > 1 ? "s" : "",
                  ranks, p.v[i].host, p.v[i].folder, cmd);
    }
    int left = (int)p.n + node_pending_report(out, m, quiet);
    free(p.v);
    if (!left) { /* complete: no folder of placements stays behind */
        char path[PATH_MAX];
        subdir(path, sizeof path, out);
        rmdir(path);
    }
    return left;
}

int local_check_run_id(const char *folder, int rank, const mpirr_manifest *m)
{
    char path[PATH_MAX + 64], err[1024];
    mpirr_log_path(path, sizeof path, folder, rank, "log");
    if (access(path, F_OK)) return 0; /* killed before its log: its other files say little */
    unsigned before = mpirr_run_id_refusals();
    mpirr_run_id_expect(&m->run_id);
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (rd) mpirr_log_reader_close(rd);
    if (mpirr_run_id_refusals() == before) return 0; /* damage is for the readers to say */
    cli_error("gather: %s; rank %d's files left in %s", err, rank, folder);
    return -1;
}

/* Moves one file (name checked) of folder into out. 0, or -1 after one line. */
static int move_one(const char *folder, const char *name, const char *out)
{
    char src[PATH_MAX + 300], tmp[PATH_MAX + 320], dst[PATH_MAX + 300];
    snprintf(src, sizeof src, "%s/%s", folder, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.moving", out, name);
    snprintf(dst, sizeof dst, "%s/%s", out, name);
    struct stat st;
    if (lstat(src, &st) || !S_ISREG(st.st_mode)) {
        cli_error("gather: %s is not a regular file; left alone", src);
        return -1;
    }
    if (mpirr_file_move(src, tmp, dst)) {
        cli_error("gather: cannot move %s to %s: %s", src, dst, strerror(errno));
        return -1;
    }
    return 0;
}

/* One pass over folder: moves the files of the ranks not refused. The number of problems. */
static int move_folder(const char *folder, const char *out, const mpirr_manifest *m)
{
    DIR *d = opendir(folder);
    if (!d) {
        cli_error("gather: cannot read %s: %s", folder, strerror(errno));
        return 1;
    }
    int problems = 0;
    int refused[64], nrefused = 0; /* ranks whose log is another recording's */
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int rank = mpirr_local_rank_of(e->d_name), skip = 0;
        if (rank < 0) {
            cli_error("gather: %s/%s is not a rank file; left alone", folder, e->d_name);
            problems++;
            continue;
        }
        for (int i = 0; i < nrefused; i++) skip |= refused[i] == rank;
        if (skip) continue;
        if (local_check_run_id(folder, rank, m)) {
            if (nrefused < 64) refused[nrefused++] = rank;
            problems++;
            continue;
        }
        problems += move_one(folder, e->d_name, out) != 0;
    }
    closedir(d);
    return problems;
}

/* Removes the placement files of this host's ranks in folder that have no file left there. */
static void unplace(const char *folder, const char *out, const mpirr_manifest *m)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    struct placements p;
    if (list_placements(out, &m->run_id, &p, 1) == 0)
        for (size_t i = 0; i < p.n; i++) {
            if (strcmp(p.v[i].host, host) || strcmp(p.v[i].folder, folder)) continue;
            int left = 0;
            DIR *d = opendir(folder);
            for (struct dirent *e; d && (e = readdir(d));) left |= mpirr_local_rank_of(e->d_name) == p.v[i].rank;
            if (d) closedir(d);
            if (left) continue;
            char path[PATH_MAX];
            mpirr_placement_path(path, sizeof path, out, p.v[i].rank);
            unlink(path);
        }
    free(p.v);
}

int local_gather_here(const char *folder, const char *out, const mpirr_manifest *m)
{
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX];
    mpirr_local_folder_name(&m->run_id, name);
    const char *last = strrchr(folder, '/');
    if (!last || strcmp(last + 1, name)) {
        cli_error("gather: %s is not the node-local folder of the recording in %s (it would "
                  "be named %s: the run id in %s/manifest)", folder, out, name, out);
        return 1;
    }
    int packed = node_gather_here(folder, out, m); /* --local --pack: this node's pack */
    if (packed >= 0) return packed;
    /* (POSIX: removing an entry while listing affects only whether that entry is listed) */
    int problems = move_folder(folder, out, m);
    unplace(folder, out, m);
    rmdir(folder); /* empty now unless something was left alone */
    return problems;
}

/* Runs "mpirr gather FOLDER -o OUT" on p's host over srun (when asked) or ssh; whether it
 * worked is told by the placement files afterwards. */
static void gather_remote(const mpirr_placement *p, const char *out, int srun)
{
    char buf[4096];
    if (!mpirr_host_name_ok(p->host)) return; /* a placement file's host: named by local_pending_report */
    if (srun && getenv("SLURM_JOB_ID")) {
        char *argv[] = {"srun", "--overlap", "-N1", "-n1", "-w", (char *)p->host,
                        (char *)local_self_exe(), "gather", (char *)p->folder, "-o", (char *)out, NULL};
        child_capture(argv, buf, sizeof buf);
        struct stat st;
        char path[PATH_MAX];
        mpirr_placement_path(path, sizeof path, out, p->rank);
        if (lstat(path, &st)) return; /* gathered */
    }
    local_gather_ssh(p->host, p->folder, out);
}

void local_gather_ssh(const char *host, const char *folder, const char *out)
{
    char cmd[PATH_MAX * 3], buf[4096];
    FILE *f = fmemopen(cmd, sizeof cmd, "w");
    if (!f) return;
    char *words[] = {(char *)local_self_exe(), "gather", (char *)folder, "-o", (char *)out, NULL};
    shell_print_command(f, 5, words); /* ssh hands the remote shell one string */
    fclose(f);
    cmd[sizeof cmd - 1] = 0;
    char err[400];
    char **argv = remote_shell_argv(host, NULL, cmd, err, sizeof err);
    if (!argv) {
        cli_error("gather: %s", err);
        return;
    }
    child_capture(argv, buf, sizeof buf);
    remote_shell_free(argv);
}

int local_gather_all(const char *out, const mpirr_manifest *m, int srun)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    node_gather_all(out, m, srun);
    struct placements p;
    if (list_placements(out, &m->run_id, &p, 1) == 0)
        for (size_t i = 0; i < p.n; i++) {
            if (!p.v[i].host[0] || (i && same_place(&p.v[i], &p.v[i - 1]))) continue;
            if (!strcmp(p.v[i].host, host)) local_gather_here(p.v[i].folder, out, m);
            else gather_remote(&p.v[i], out, srun);
        }
    free(p.v);
    /* A rank the launcher killed between moving its files out and removing the node's folder
     * (the last rank to leave removes it) leaves it empty and no placement file: on this
     * host the folder goes if it is empty (rmdir removes nothing else). */
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX], folder[sizeof m->local_dir + sizeof name + 1];
    mpirr_local_folder_name(&m->run_id, name);
    snprintf(folder, sizeof folder, "%s/%s", m->local_dir, name);
    rmdir(folder);
    return local_pending_report(out, m, 0);
}
