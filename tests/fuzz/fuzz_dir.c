/* fuzz_dir.c: the fuzz targets' scratch recording directory (fuzz_dir.h). An input names its
 * files by an index into a fixed table rather than by text, so that mutations change contents
 * and choose among real recording files instead of inventing names. */
#include "fuzz_dir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum { FUZZ_RANKS = 4 };
static const char *const suffixes[] = {"log", "tail", "pending", "events", "events.tail"};
#define NSUFFIX (sizeof suffixes / sizeof *suffixes)

static char dir[64];

static void remove_dir(void)
{
    if (!dir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "fuzz: cannot remove %s\n", dir);
}

static void empty_dir(void)
{
    DIR *d = opendir(fuzz_dir());
    if (!d) abort();
    char path[512];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

const char *fuzz_dir(void)
{
    if (!dir[0]) {
        /* In memory where there is a roomy tmpfs: on a disk's file system, creating and
         * removing the files of every input is most of a run's time (ext4's inode bitmaps and
         * journal; fuzz_recording 700 -> 1,200 runs/s). A container's /dev/shm can be small. */
        struct statvfs fs;
        snprintf(dir, sizeof dir, "/dev/shm/mpirr-fuzz.XXXXXX");
        if (statvfs("/dev/shm", &fs) || (uint64_t)fs.f_bavail * fs.f_frsize < (256u << 20) ||
            !mkdtemp(dir)) {
            snprintf(dir, sizeof dir, "/tmp/mpirr-fuzz.XXXXXX");
            if (!mkdtemp(dir)) abort();
        }
        atexit(remove_dir);
    }
    return dir;
}

static void write_file(const char *name, const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
}

void fuzz_dir_put_one(const char *name, const uint8_t *data, size_t size)
{
    empty_dir();
    write_file(name, data, size);
}

void fuzz_dir_unpack(const uint8_t *data, size_t size)
{
    empty_dir();
    /* a file named again replaces its earlier contents: each is written once, with its last
     * contents (an input of zeros names the manifest thousands of times, and writing each
     * took the target down to a few hundred inputs a second) */
    enum { NFILES = 1 + FUZZ_RANKS * NSUFFIX };
    const uint8_t *from[NFILES] = {0};
    size_t length[NFILES] = {0};
    size_t at = 0;
    while (size - at >= 3) {
        unsigned id = data[at] % NFILES;
        size_t len = (size_t)data[at + 1] | (size_t)data[at + 2] << 8;
        at += 3;
        if (len > size - at) len = size - at;
        from[id] = data + at;
        length[id] = len;
        at += len;
    }
    for (unsigned id = 0; id < NFILES; id++) {
        if (!from[id]) continue;
        char name[64];
        if (id == 0) snprintf(name, sizeof name, "manifest");
        else snprintf(name, sizeof name, "rank-%05u.%s", (id - 1) / (unsigned)NSUFFIX,
                      suffixes[(id - 1) % NSUFFIX]);
        write_file(name, from[id], length[id]);
    }
}
