/* test_placements.c: the placement files of `mpirr record --local` (local_files.h). A node's
 * placement (--pack) reads back with its ranks, written as ranges; a rank's still reads back. A
 * hostile node placement (ranks out of order, repeated, past the rank count, malformed; a host
 * that is not a host name, a folder of another run; a line twice, a cut-off line, not a
 * placement at all) is refused in one line naming the file, never a crash. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "file_io.h"
#include "local_files.h"

static char dir[] = "/tmp/mpirr-placements.XXXXXX";
static const mpirr_run_id run_id = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
static char folder[600];

static void test_round_trip(void)
{
    int ranks[] = {0, 1, 2, 3, 8, 10, 11};
    mpirr_node_placement p = {.node = 3, .ranks = ranks, .nranks = 7}, q;
    snprintf(p.host, sizeof p.host, "node-7.cluster");
    snprintf(p.folder, sizeof p.folder, "%s", folder);
    char err[1024] = "", path[700], text[200] = "";
    CHECK(mpirr_node_placement_write(dir, &p, err, sizeof err) == 0);
    mpirr_node_placement_path(path, sizeof path, dir, 3);
    CHECK(mpirr_node_placement_node_of(strrchr(path, '/') + 1) == 3);
    FILE *f = fopen(path, "r");
    CHECK(f && fread(text, 1, sizeof text - 1, f) > 0);
    if (f) fclose(f);
    CHECK(strstr(text, "\nranks 0-3,8,10-11\n") != NULL); /* ranges */
    CHECK(mpirr_node_placement_read(path, 3, &run_id, 12, &q, err, sizeof err) == 0);
    CHECK(q.nranks == 7 && !memcmp(q.ranks, ranks, sizeof ranks) && !strcmp(q.host, p.host) &&
          !strcmp(q.folder, folder));
    mpirr_node_placement_free(&q);
    CHECK(mpirr_node_placement_read(path, 3, &run_id, 11, &q, err, sizeof err) == -1); /* rank 11 of 11 */
    unlink(path);

    mpirr_placement r = {.rank = 5, .pid = 42}, s;
    snprintf(r.host, sizeof r.host, "node7");
    snprintf(r.folder, sizeof r.folder, "%s", folder);
    CHECK(mpirr_placement_write(dir, &r, err, sizeof err) == 0);
    mpirr_placement_path(path, sizeof path, dir, 5);
    CHECK(mpirr_placement_read(path, 5, &run_id, &s, err, sizeof err) == 0);
    CHECK(s.rank == 5 && s.pid == 42 && !strcmp(s.host, "node7") && !strcmp(s.folder, folder));
    unlink(path);
}

/* The text as a node placement file: refused in one line naming it. */
static void refused(const char *text)
{
    char path[700], err[1024] = "";
    snprintf(path, sizeof path, "%s/local/node-00000", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && mpirr_write_all(fd, text, strlen(text)) == 0);
    close(fd);
    mpirr_node_placement p;
    int rc = mpirr_node_placement_read(path, 0, &run_id, 64, &p, err, sizeof err);
    if (rc == 0) {
        fprintf(stderr, "accepted: %s", text);
        mpirr_node_placement_free(&p);
    }
    CHECK(rc == -1 && strncmp(err, path, strlen(path)) == 0 && !strchr(err, '\n'));
    unlink(path);
}

static void test_hostile(void)
{
    char head[800], text[1600];
    snprintf(head, sizeof head, "mpirr-node-placement 1\nhost node7\nfolder %s\n", folder);
    const char *bad_ranks[] = {"3,2", "0-3,3", "5-2", "", "1-", "-1", "1,,2", "1,", "abc", "0-64",
                               "64", "99999999999999999999", "+1", "1-+2", "0 1", "1-2-3", "2,1-3"};
    for (size_t i = 0; i < sizeof bad_ranks / sizeof *bad_ranks; i++) {
        snprintf(text, sizeof text, "%sranks %s\n", head, bad_ranks[i]);
        refused(text);
    }
    snprintf(text, sizeof text, "%sranks 1\nranks 2\n", head); /* twice */
    refused(text);
    snprintf(text, sizeof text, "%s", head); /* no ranks */
    refused(text);
    snprintf(text, sizeof text, "%sranks 1", head); /* cut off */
    refused(text);
    snprintf(text, sizeof text, "%spid 4\nranks 1\n", head); /* a rank placement's line */
    refused(text);
    snprintf(text, sizeof text, "mpirr-node-placement 1\nhost -oProxy\nfolder %s\nranks 1\n", folder);
    refused(text);
    snprintf(text, sizeof text, "mpirr-node-placement 1\nhost n1\nfolder /tmp/x/mpirr-00\nranks 1\n");
    refused(text);
    snprintf(text, sizeof text, "mpirr-node-placement 1\nhost n1\nfolder %s/../x\nranks 1\n", folder);
    refused(text);
    snprintf(text, sizeof text, "mpirr-placement 1\nhost node7\nfolder %s\npid 4\n", folder);
    refused(text); /* a rank's placement under a node's name */
    refused("");
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    char local[700], name[MPIRR_LOCAL_FOLDER_NAME_MAX];
    snprintf(local, sizeof local, "%s/local", dir);
    CHECK(mkdir(local, 0700) == 0);
    mpirr_local_folder_name(&run_id, name);
    snprintf(folder, sizeof folder, "/scratch/x/%s", name);
    test_round_trip();
    test_hostile();
    rmdir(local);
    rmdir(dir);
    return CHECK_DONE();
}
