/* test_pending_grow: the files a rank maps are allocated before use, and the pending file
 * grows (docs/format.md, rank-NNNNN.pending): slots written before and after a growth all
 * read back; a file longer than its capacity by zeros (a death during a growth) is accepted,
 * by anything else it is damage; mpirr_map_create allocates every block (no sparse file,
 * so no SIGBUS on a full disk) and removes its file when it fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_io.h"
#include "pending_slots.h"
#include "rank_log.h"

#define CHECK(c)                                                                              \
    do {                                                                                      \
        if (!(c)) {                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);            \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static mpirr_record outcome(uint64_t event, int source)
{
    return (mpirr_record){.kind = MPIRR_REC_RECV_DONE, .call = 1, .event = event, .sub = 0,
                          .has_match = 1, .source = source, .tag = 7};
}

/* Loads path and checks it holds exactly the events in want (any order). */
static int loads(const char *path, const uint64_t *want, size_t n)
{
    mpirr_record *got = NULL;
    size_t ngot = 0;
    char err[512];
    int rc = mpirr_pending_load(path, NULL, &got, &ngot, err, sizeof err);
    if (rc != 1) {
        free(got);
        return 0;
    }
    int ok = ngot == n;
    for (size_t i = 0; ok && i < n; i++) {
        int found = 0;
        for (size_t k = 0; k < ngot; k++) found |= got[k].event == want[i] && got[k].tag == 7;
        ok = found;
    }
    free(got);
    return ok;
}

int main(void)
{
    char dir[] = "/tmp/mpirr-pending-XXXXXX", path[4200], err[512];
    CHECK(mkdtemp(dir));
    mpirr_log_path(path, sizeof path, dir, 0, "pending");

    mpirr_pending_slots *p = mpirr_pending_open(dir, 0, &(mpirr_run_id){{0}}, 126, err, sizeof err);
    CHECK(p);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size == PENDING_HEADER_BYTES + 126 * PENDING_SLOT_BYTES);
    CHECK(st.st_blocks * 512 >= st.st_size); /* allocated, not sparse */
    mpirr_record r = outcome(11, 1);
    mpirr_pending_set(p, 3, &r);
    r = outcome(12, 2);
    mpirr_pending_set(p, 125, &r);
    CHECK(mpirr_pending_grow(p, 252, err, sizeof err) == 0);
    CHECK(stat(path, &st) == 0 && st.st_size == PENDING_HEADER_BYTES + 252 * PENDING_SLOT_BYTES);
    CHECK(st.st_blocks * 512 >= st.st_size);
    r = outcome(13, 3);
    mpirr_pending_set(p, 251, &r);
    uint64_t three[] = {11, 12, 13};
    CHECK(loads(path, three, 3)); /* slots from before and after the growth */
    mpirr_pending_clear(p, 125);
    uint64_t two[] = {11, 13};
    CHECK(loads(path, two, 2));
    mpirr_pending_close(p, 0);

    /* A death between extending the file and storing the capacity: zeros past it are fine. */
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    CHECK(ftruncate(fd, PENDING_HEADER_BYTES + 504 * PENDING_SLOT_BYTES) == 0);
    CHECK(loads(path, two, 2));
    /* Anything else past the capacity means the capacity itself is wrong: damage. */
    uint8_t one = 1;
    CHECK(pwrite(fd, &one, 1, PENDING_HEADER_BYTES + 400 * PENDING_SLOT_BYTES) == 1);
    mpirr_record *got = NULL;
    size_t ngot = 0;
    CHECK(mpirr_pending_load(path, NULL, &got, &ngot, err, sizeof err) == -1);
    CHECK(strstr(err, "size does not match its capacity"));
    /* A capacity larger than the file: damage. */
    CHECK(ftruncate(fd, PENDING_HEADER_BYTES + 200 * PENDING_SLOT_BYTES) == 0);
    CHECK(mpirr_pending_load(path, NULL, &got, &ngot, err, sizeof err) == -1);
    close(fd);
    unlink(path);

    /* A failed map leaves no file behind; an existing file is refused untouched. */
    char mpath[4200];
    snprintf(mpath, sizeof mpath, "%s/map", dir);
    void *m = mpirr_map_create(mpath, 8192, err, sizeof err);
    CHECK(m);
    CHECK(stat(mpath, &st) == 0 && st.st_blocks * 512 >= 8192);
    CHECK(!mpirr_map_create(mpath, 8192, err, sizeof err) && errno == EEXIST);
    CHECK(stat(mpath, &st) == 0); /* still there: not ours to remove */
    unlink(mpath);
    CHECK(!mpirr_map_create(mpath, (size_t)1 << 62, err, sizeof err)); /* cannot be allocated */
    CHECK(stat(mpath, &st) != 0 && errno == ENOENT);
    rmdir(dir);
    puts("ok: pending file growth, zero-extended files, allocated maps");
    return 0;
}
