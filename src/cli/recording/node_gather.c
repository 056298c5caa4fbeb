/* node_gather.c: see node_gather.h. A node placement file still in OUT/local is the only sign
 * that a node's files are not in the recording: it goes once the node's pack is in place under
 * its name (written whole under a temporary name first), and the local files only after it. */
#include "node_gather.h"

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
#include "local_gather.h"
#include "pack_recording.h"
#include "rank_pack.h"
#include "reserve.h"

struct nodes {
    mpirr_node_placement *v;
    size_t n, cap;
};

static void nodes_free(struct nodes *p)
{
    for (size_t i = 0; i < p->n; i++) mpirr_node_placement_free(&p->v[i]);
    free(p->v);
    memset(p, 0, sizeof *p);
}

struct nodes_read {
    struct nodes *p;
    const mpirr_manifest *m;
    int quiet, unreadable;
};

static int read_node(const char *name, const char *file, void *ctx)
{
    struct nodes_read *r = ctx;
    int node = mpirr_node_placement_node_of(name);
    if (node < 0) return 0; /* the per-rank placements: local_gather.c */
    char err[1024];
    mpirr_node_placement pl;
    if (mpirr_node_placement_read(file, node, &r->m->run_id, MPIRR_MAX_RANKS, &pl, err, sizeof err)) {
        if (!r->quiet) cli_error("%s", err);
        r->unreadable++;
        return 0;
    }
    if (mpirr_reserve((void **)&r->p->v, &r->p->cap, r->p->n + 1, sizeof *r->p->v)) {
        mpirr_node_placement_free(&pl);
        return -1;
    }
    r->p->v[r->p->n++] = pl;
    return 0;
}

/* The node placement files left in OUT/local (one that cannot be read is said unless quiet,
 * and skipped: it stays, so the recording stays pending). -1 if OUT/local cannot be listed for
 * another reason than being gone. */
static int list_nodes(const char *out, const mpirr_manifest *m, struct nodes *p, int quiet,
                      int *unreadable)
{
    memset(p, 0, sizeof *p);
    struct nodes_read r = {p, m, quiet, 0};
    int rc = local_placements_each(out, read_node, &r);
    *unreadable = r.unreadable;
    return rc;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct names {
    char **v;
    size_t n, cap;
};

static void names_free(struct names *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
}

/* The rank files of p's ranks in folder, sorted; every other entry refused in one line. The
 * number of problems (a file that may not go into the pack; a stray name does not stop it). */
static int node_files(const char *folder, const mpirr_node_placement *p, struct names *l,
                      int *blocking)
{
    DIR *d = opendir(folder);
    if (!d) {
        cli_error("gather: cannot read %s: %s", folder, strerror(errno));
        return ++*blocking;
    }
    int problems = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int rank = mpirr_local_rank_of(e->d_name);
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        struct stat st;
        if (rank < 0) {
            cli_error("gather: %s is not a rank file; left alone", path);
            problems++;
        } else if (!bsearch(&rank, p->ranks, p->nranks, sizeof *p->ranks, by_int)) {
            cli_error("gather: %s is a file of rank %d, which is not one of node %d's ranks "
                      "(local/node-%05d); left alone", path, rank, p->node, p->node);
            problems++;
        } else if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
            cli_error("gather: %s is not a regular file; node %d not packed", path, p->node);
            problems++, ++*blocking;
        } else if (mpirr_reserve((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v) ||
                   !(l->v[l->n] = strdup(e->d_name))) {
            cli_error("gather: out of memory");
            problems++, ++*blocking;
        } else {
            l->n++;
        }
    }
    closedir(d);
    if (l->n) qsort(l->v, l->n, sizeof *l->v, by_name);
    return problems;
}

/* Writes p's pack from folder into out, then removes its placement, then its local files. */
static int pack_node(const char *folder, const char *out, const mpirr_manifest *m,
                     const mpirr_node_placement *p)
{
    struct names l = {0};
    int blocking = 0, problems = node_files(folder, p, &l, &blocking);
    for (size_t i = 0; !blocking && i < p->nranks; i++) /* a log of another run: no pack */
        if (local_check_run_id(folder, p->ranks[i], m)) problems++, blocking++;
    char err[1024], path[PATH_MAX + 300];
    if (!blocking && mpirr_pack_write(out, folder, p->node, p->host, &m->run_id, l.v, l.n, err,
                                      sizeof err)) {
        cli_error("gather: %s", err);
        problems++, blocking++;
    }
    if (!blocking) {
        pack_test_kill_point("gather-packed");
        mpirr_node_placement_path(path, sizeof path, out, p->node);
        if (unlink(path) && errno != ENOENT) {
            cli_error("gather: cannot remove %s: %s", path, strerror(errno));
            problems++, blocking++;
        }
    }
    if (!blocking) pack_test_kill_point("gather-unplaced");
    for (size_t i = 0; !blocking && i < l.n; i++) {
        snprintf(path, sizeof path, "%s/%s", folder, l.v[i]);
        unlink(path); /* in the pack now: a copy left behind is only disk space */
    }
    names_free(&l);
    return problems;
}

static void this_host(char host[256])
{
    memset(host, 0, 256);
    gethostname(host, 255);
}

/* No node placement names folder, but out is packed: what a gather killed between removing the
 * placement and the local files leaves. Each file equal to its member in out's packs goes; any
 * other is refused and left. The number of problems. */
static int remove_leftovers(const char *folder, const char *out)
{
    DIR *d = opendir(folder);
    if (!d) return 0;
    int problems = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char local[PATH_MAX + 300], packed[PATH_MAX + 300], err[1024];
        snprintf(local, sizeof local, "%s/%s", folder, e->d_name);
        snprintf(packed, sizeof packed, "%s/%s", out, e->d_name);
        mpirr_pack_member pm;
        int fd = mpirr_local_rank_of(e->d_name) < 0 ? -1 : mpirr_open_regular(local, err, sizeof err);
        int same = fd >= 0 && mpirr_pack_lookup(packed, &pm, err, sizeof err) > 0 &&
                   !mpirr_pack_same_as_loose(local, fd, &pm, err, sizeof err);
        if (fd >= 0) close(fd);
        if (same && !unlink(local)) continue;
        cli_error("gather: %s is not a copy of a rank file in the packs of %s (the only files "
                  "left here once they are written, by a gather interrupted); left alone", local, out);
        problems++;
    }
    closedir(d);
    return problems;
}

int node_gather_here(const char *folder, const char *out, const mpirr_manifest *m)
{
    char host[256];
    this_host(host);
    struct nodes p;
    int unreadable, problems = -1;
    if (list_nodes(out, m, &p, 0, &unreadable)) {
        cli_error("gather: cannot read %s/" MPIRR_LOCAL_SUBDIR ": %s", out, strerror(errno));
        return 1;
    }
    for (size_t i = 0; i < p.n; i++) {
        if (strcmp(p.v[i].host, host) || strcmp(p.v[i].folder, folder)) continue;
        problems = (problems < 0 ? 0 : problems) + pack_node(folder, out, m, &p.v[i]);
    }
    nodes_free(&p);
    if (problems < 0 && mpirr_pack_count(out) > 0) problems = remove_leftovers(folder, out);
    if (problems >= 0) rmdir(folder); /* empty now unless something was left alone */
    return problems < 0 && unreadable ? unreadable : problems;
}

/* One srun over the hosts of the placements (from i on) that name folder and are not this
 * host: `srun --overlap -N<k> -n<k> --ntasks-per-node=1 -w H1,H2 mpirr gather --leave-manifest FOLDER
 * -o OUT`, each task gathering its own node; the manifest is completed here afterwards. */
static void srun_all(const struct nodes *p, const char *folder, const char *host, const char *out)
{
    size_t cap = 1, k = 0;
    for (size_t i = 0; i < p->n; i++) cap += strlen(p->v[i].host) + 1;
    char *hosts = calloc(cap, 1), nodes[32], tasks[32], buf[4096];
    if (!hosts) return;
    for (size_t i = 0; i < p->n; i++) {
        const char *h = p->v[i].host;
        if (strcmp(p->v[i].folder, folder) || !strcmp(h, host) || !mpirr_host_name_ok(h)) continue;
        int seen = 0; /* each host once */
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(p->v[j].host, h) && !strcmp(p->v[j].folder, folder);
        if (seen) continue;
        if (k) strcat(hosts, ",");
        strcat(hosts, h);
        k++;
    }
    snprintf(nodes, sizeof nodes, "-N%zu", k);
    snprintf(tasks, sizeof tasks, "-n%zu", k); /* not the job's task count, inherited */
    char *argv[] = {"srun", "--overlap", nodes, tasks, "--ntasks-per-node=1", "-w", hosts,
                    (char *)local_self_exe(), "gather", "--leave-manifest", (char *)folder, "-o",
                    (char *)out, NULL};
    if (k) child_capture(argv, buf, sizeof buf);
    free(hosts);
}

/* Gathers the placements of this host in-process, then (srun) the others' by folder. */
static void gather_pass(const char *out, const mpirr_manifest *m, const char *host, int srun)
{
    struct nodes p;
    int unreadable;
    if (list_nodes(out, m, &p, 1, &unreadable)) return;
    for (size_t i = 0; i < p.n; i++) {
        int seen = 0; /* each folder once: one call packs all its nodes */
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(p.v[j].folder, p.v[i].folder) &&
                                                      !strcmp(p.v[j].host, p.v[i].host);
        if (seen) continue;
        if (!strcmp(p.v[i].host, host)) node_gather_here(p.v[i].folder, out, m);
        else if (srun) srun_all(&p, p.v[i].folder, host, out);
    }
    nodes_free(&p);
}

void node_gather_all(const char *out, const mpirr_manifest *m, int srun)
{
    char host[256];
    this_host(host);
    gather_pass(out, m, host, 0);
    if (srun && getenv("SLURM_JOB_ID")) gather_pass(out, m, host, 1);
    struct nodes p; /* what srun did not gather (or without srun): ssh, host by host */
    int unreadable;
    if (list_nodes(out, m, &p, 1, &unreadable)) return;
    for (size_t i = 0; i < p.n; i++)
        if (strcmp(p.v[i].host, host)) local_gather_ssh(p.v[i].host, p.v[i].folder, out);
    nodes_free(&p);
}

/* "0-3, 8" into buf (cut short with "...": it is for a message). */
static void ranks_text(char *buf, size_t n, const mpirr_node_placement *p)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0, j; i < p->nranks && len + 24 < n; i = j) {
        for (j = i + 1; j < p->nranks && p->ranks[j] == p->ranks[j - 1] + 1; j++) {
        }
        len += (size_t)snprintf(buf + len, n - len, j - i > 1 ? "%s%d-%d" : "%s%d", i ? ", " : "",
                                p->ranks[i], p->ranks[j - 1]);
        if (j < p->nranks && len + 24 >= n) snprintf(buf + len, n - len, ", ...");
    }
}

int node_pending_report(const char *out, const mpirr_manifest *m, int quiet)
{
    struct nodes p;
    int unreadable;
    if (list_nodes(out, m, &p, quiet, &unreadable)) {
        if (!quiet) cli_error("cannot read %s/" MPIRR_LOCAL_SUBDIR ": %s", out, strerror(errno));
        return 1;
    }
    int left = unreadable;
    for (size_t i = 0; i < p.n; i++) {
        left += (int)p.v[i].nranks;
        if (quiet) continue;
        char ranks[256], cmd[PATH_MAX * 3];
        ranks_text(ranks, sizeof ranks, &p.v[i]);
        local_gather_command(cmd, sizeof cmd, p.v[i].host, p.v[i].folder, out);
        cli_error("rank files of node %d (rank%s %s) are still on %s in %s: run `%s`", p.v[i].node,
                  p.v[i].nranks > 1 ? "s" : "", ranks, p.v[i].host, p.v[i].folder, cmd);
    }
    nodes_free(&p);
    return left;
}
