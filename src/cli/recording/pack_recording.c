/* pack_recording.c: see pack_recording.h. The order is what makes a crash harmless: every pack
 * is written under a temporary name, fsync'ed and renamed (rank_pack_write.c), all of them
 * before the first loose file is unlinked; a file both loose and packed must equal its member
 * (rank_pack.h), so the recording reads the same at every step, and a second `mpirr pack`
 * removes the loose files a killed one left. */
#include "pack_recording.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "file_io.h"
#include "local_files.h"
#include "rank_log.h"
#include "rank_pack.h"
#include "recording.h"

void pack_test_kill_point(const char *step)
{
    const char *at = getenv("MPIRR_PACK_TEST_KILL");
    if (at && !strcmp(at, step)) raise(SIGKILL);
}

static int is_loose(const char *dir, const char *name)
{
    char path[PATH_MAX + 300];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return !lstat(path, &st) && S_ISREG(st.st_mode);
}

static int unlink_in(const char *dir, const char *name)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!unlink(path) || errno == ENOENT) return 0;
    cli_error("cannot remove %s: %s", path, strerror(errno));
    return -1;
}

/* A recording that has packs already: removes the loose files that equal their member (what a
 * killed `mpirr pack` leaves); a loose rank file in no pack is refused. */
static int finish_packed(const char *dir, const mpirr_name_list *names, int npacks, int quiet)
{
    char path[PATH_MAX + 300], err[1024];
    mpirr_pack_member m;
    size_t removed = 0;
    for (size_t i = 0; i < names->n; i++) {
        if (!is_loose(dir, names->v[i])) continue;
        snprintf(path, sizeof path, "%s/%s", dir, names->v[i]);
        if (mpirr_pack_lookup(path, &m, err, sizeof err) <= 0) {
            cli_error("%s is packed already, but %s is in none of its packs (expected every rank "
                      "file in a pack)", dir, names->v[i]);
            return CLI_EXIT_USAGE;
        }
        FILE *f = mpirr_fopen_regular(path, err, sizeof err); /* checks it equals its member */
        if (!f) {
            cli_error("%s", err);
            return CLI_EXIT_USAGE;
        }
        fclose(f);
        if (unlink_in(dir, names->v[i])) return CLI_EXIT_FAIL;
        removed++;
    }
    if (!quiet)
        printf("%s: packed already (%d pack%s)%s\n", dir, npacks, npacks == 1 ? "" : "s",
               removed ? ", the loose files an interrupted pack left removed" : "");
    return 0;
}

/* Whether a `mpirr pack` was killed while it wrote the packs: some are in place, others not yet,
 * and (as no loose file goes before every pack is in place) every rank file is still loose. */
static int killed_writing(const char *dir, const mpirr_name_list *names)
{
    char path[PATH_MAX + 300], err[1024];
    mpirr_pack_member m;
    int unpacked = 0;
    for (size_t i = 0; i < names->n; i++) {
        if (!is_loose(dir, names->v[i])) return 0;
        snprintf(path, sizeof path, "%s/%s", dir, names->v[i]);
        unpacked |= mpirr_pack_lookup(path, &m, err, sizeof err) == 0;
    }
    return unpacked;
}

/* Removes the packs, the last first: never a gap that would hide the packs after it. */
static int remove_packs(const char *dir, int npacks)
{
    char name[64];
    for (int k = npacks - 1; k >= 0; k--) {
        snprintf(name, sizeof name, MPIRR_PACK_NAME_FMT, k);
        if (unlink_in(dir, name)) return -1;
    }
    return 0;
}

/* The host each rank ran on, from its log's header ("" when it left no readable log). */
static char (*rank_hosts(const char *dir, int nranks))[MPIRR_PACK_HOST_BYTES]
{
    char (*host)[MPIRR_PACK_HOST_BYTES] = calloc((size_t)nranks, sizeof *host);
    char path[PATH_MAX + 32], err[1024];
    for (int r = 0; host && r < nranks; r++) {
        mpirr_log_path(path, sizeof path, dir, r, "log");
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd) continue;
        snprintf(host[r], sizeof host[r], "%s", mpirr_log_reader_header(rd)->host);
        mpirr_log_reader_close(rd);
    }
    return host;
}

/* Node ordinals by first rank, in rank order; ranks without a host last, a pack of their own. */
static int assign_nodes(char (*host)[MPIRR_PACK_HOST_BYTES], int nranks, int *node)
{
    int nodes = 0;
    for (int r = 0; r < nranks; r++) {
        node[r] = -1;
        if (!host[r][0]) continue;
        for (int q = 0; q < r && node[r] < 0; q++)
            if (!strcmp(host[q], host[r])) node[r] = node[q];
        if (node[r] < 0) node[r] = nodes++;
    }
    int hostless = 0;
    for (int r = 0; r < nranks; r++)
        if (node[r] < 0) node[r] = nodes, hostless = 1;
    return nodes + hostless;
}

/* Writes one pack per node from the names (sorted) and returns the number written, or -1. */
static int write_packs(const char *dir, const mpirr_run_id *id, const mpirr_name_list *names,
                       char (*host)[MPIRR_PACK_HOST_BYTES], const int *node, int nodes, int nranks)
{
    char **members = malloc((names->n ? names->n : 1) * sizeof *members), err[1024];
    if (!members) {
        cli_error("out of memory");
        return -1;
    }
    int written = 0;
    for (int k = 0; k < nodes; k++) {
        size_t n = 0;
        const char *node_host = "";
        for (size_t i = 0; i < names->n; i++) {
            int r = mpirr_local_rank_of(names->v[i]);
            if (r < 0 || r >= nranks || node[r] != k) continue;
            members[n++] = names->v[i];
            node_host = host[r];
        }
        if (!n) continue; /* a node whose ranks left no file at all */
        if (mpirr_pack_write(dir, dir, written, node_host, id, members, n, err, sizeof err)) {
            cli_error("%s", err);
            written = -1;
            break;
        }
        written++;
    }
    free(members);
    return written;
}

static int pack_loose(const struct recording *rec, const mpirr_name_list *names, int quiet)
{
    const char *dir = rec->dir;
    int nranks = rec->m.nranks;
    for (size_t i = 0; i < names->n; i++) { /* recording_open checked this: never trust it blind */
        int r = mpirr_local_rank_of(names->v[i]);
        if (r < 0 || r >= nranks) {
            cli_error("%s/%s: not a file of the recording's %d ranks", dir, names->v[i], nranks);
            return CLI_EXIT_USAGE;
        }
    }
    char(*host)[MPIRR_PACK_HOST_BYTES] = rank_hosts(dir, nranks);
    int *node = malloc((size_t)nranks * sizeof *node);
    if (!host || !node) {
        free(host);
        free(node);
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    int nodes = assign_nodes(host, nranks, node);
    int packs = write_packs(dir, &rec->m.run_id, names, host, node, nodes, nranks);
    free(host);
    free(node);
    if (packs < 0) return CLI_EXIT_FAIL;
    pack_test_kill_point("packed");
    for (size_t i = 0; i < names->n; i++) {
        if (unlink_in(dir, names->v[i])) return CLI_EXIT_FAIL;
        if (!i) pack_test_kill_point("unlinking");
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* the removals on disk too */
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    if (!quiet)
        printf("%s: %zu rank files of %d ranks in %d pack%s\n", dir, names->n, nranks, packs,
               packs == 1 ? "" : "s");
    return 0;
}

int pack_recording(const char *dir_arg, int quiet)
{
    struct recording rec;
    int rc = recording_open(dir_arg, &rec);
    if (rc) return rc;
    if (rec.m.exit_status < 0) {
        cli_error("%s: the recording is not finished (its manifest has no exit status: still "
                  "running, or its `mpirr record` was killed): expected a finished recording",
                  rec.dir);
        recording_close(&rec);
        return CLI_EXIT_USAGE;
    }
    mpirr_name_list names;
    char err[1024];
    if (mpirr_rank_files_list(rec.dir, &names, NULL, err, sizeof err)) {
        cli_error("%s", err);
        recording_close(&rec);
        return CLI_EXIT_USAGE;
    }
    int npacks = mpirr_pack_count(rec.dir);
    if (npacks && killed_writing(rec.dir, &names)) /* packed again from the loose files */
        rc = remove_packs(rec.dir, npacks) ? CLI_EXIT_FAIL : pack_loose(&rec, &names, quiet);
    else if (npacks) rc = finish_packed(rec.dir, &names, npacks, quiet);
    else if (!names.n) cli_error("%s holds no rank files to pack", rec.dir), rc = CLI_EXIT_USAGE;
    else rc = pack_loose(&rec, &names, quiet);
    mpirr_name_list_free(&names);
    recording_close(&rec);
    return rc;
}
