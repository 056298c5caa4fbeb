/* file_io.c: see file_io.h. */
#include "file_io.h"

#include "local_files.h"
#include "rank_pack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int mpirr_write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int mpirr_create_file(const char *path, int flags)
{
    return open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

/* Every page of the mapping is allocated before it is used: a store to a page of a sparse
 * shared mapping that the file system cannot back (a full disk) is a SIGBUS in the user's
 * program, while posix_fallocate reports ENOSPC here, where the caller can stop recording
 * instead. tmpfs, ext4 and xfs allocate for real; elsewhere glibc writes the zeros. */
void *mpirr_map_create(const char *path, size_t len, char *err, size_t errlen)
{
    int fd = mpirr_create_file(path, O_RDWR);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    int e = posix_fallocate(fd, 0, (off_t)len); /* an error number, not -1 */
    void *map = MAP_FAILED;
    if (!e) {
        map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) e = errno;
    }
    close(fd); /* the mapping keeps the file */
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
        unlink(path); /* ours (O_EXCL): nothing half-made stays in the recording */
        errno = e;
        return NULL;
    }
    return map;
}

int mpirr_map_grow(const char *path, void **map, size_t len, size_t new_len, char *err,
                   size_t errlen)
{
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    int e = fd < 0 ? errno : posix_fallocate(fd, 0, (off_t)new_len);
    if (fd >= 0) close(fd);
    void *moved = MAP_FAILED;
    if (!e) {
        moved = mremap(*map, len, new_len, MREMAP_MAYMOVE);
        if (moved == MAP_FAILED) e = errno;
    }
    if (e) {
        /* the file may be longer now: its new bytes are zeros, which readers accept */
        snprintf(err, errlen, "cannot grow %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    *map = moved;
    return 0;
}

int mpirr_file_move(const char *from, const char *tmp, const char *to)
{
    /* on one file system a rename is the whole move, and as safe */
    struct stat st;
    if (lstat(from, &st)) return -1;
    if (!S_ISREG(st.st_mode)) {
        errno = EINVAL;
        return -1;
    }
    if (!rename(from, to)) return 0;
    if (errno != EXDEV) return -1;
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    if (in < 0) return -1;
    unlink(tmp);
    int out = mpirr_create_file(tmp, O_WRONLY), e = out < 0 ? errno : 0;
    char buf[16384]; /* on the stack of a signal handler too: no allocation */
    while (!e) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            e = r < 0 ? errno : 0;
            break;
        }
        if (mpirr_write_all(out, buf, (size_t)r)) e = errno;
    }
    if (!e && fsync(out)) e = errno;
    if (out >= 0 && close(out) && !e) e = errno;
    close(in);
    if (!e && rename(tmp, to)) e = errno;
    if (e) {
        if (out >= 0) unlink(tmp);
        errno = e;
        return -1;
    }
    return unlink(from);
}

static const char *file_type_name(mode_t mode)
{
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

int mpirr_open_regular(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno; /* callers tell a missing file (ENOENT) from others */
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file (%s)", path, file_type_name(st.st_mode));
        close(fd);
        errno = EINVAL;
        return -1;
    }
    /* regular files ignore O_NONBLOCK for reads, but leave the descriptor as plain as any */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

/* Whether path names a rank file, which may be packed (the manifest and the rest never are). */
static int maybe_packed(const char *path)
{
    const char *slash = strrchr(path, '/');
    return mpirr_local_rank_of(slash ? slash + 1 : path) >= 0;
}

FILE *mpirr_fopen_regular(const char *path, char *err, size_t errlen)
{
    int fd = mpirr_open_regular(path, err, errlen);
    mpirr_pack_member m;
    if (fd < 0) {
        if (errno != ENOENT || !maybe_packed(path)) return NULL;
        int found = mpirr_pack_lookup(path, &m, err, errlen);
        if (found > 0) {
            if (errlen) err[0] = '\0'; /* the miss above is not the caller's error */
            return mpirr_pack_member_open(path, &m, err, errlen);
        }
        errno = found ? EINVAL : ENOENT; /* err: the pack's damage, or still "missing" */
        return NULL;
    }
    int found = maybe_packed(path) ? mpirr_pack_lookup(path, &m, err, errlen) : 0;
    if (found < 0 || (found > 0 && mpirr_pack_same_as_loose(path, fd, &m, err, errlen))) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

int mpirr_stream_size(FILE *f, uint64_t *size)
{
    struct stat st;
    if (fileno(f) >= 0) { /* a loose file: no seeking, which would drop the stream's buffer */
        if (fstat(fileno(f), &st)) return -1;
        *size = (uint64_t)st.st_size;
        return 0;
    }
    off_t at = ftello(f);
    if (at < 0 || fseeko(f, 0, SEEK_END)) return -1;
    off_t end = ftello(f);
    if (end < 0 || fseeko(f, at, SEEK_SET)) return -1;
    *size = (uint64_t)end;
    return 0;
}

int mpirr_file_present(const char *path)
{
    mpirr_pack_member m;
    char err[16];
    return !access(path, F_OK) || (maybe_packed(path) && mpirr_pack_lookup(path, &m, err, sizeof err));
}

uint64_t mpirr_file_bytes(const char *path)
{
    struct stat st;
    mpirr_pack_member m;
    char err[16];
    if (!stat(path, &st)) return (uint64_t)st.st_size;
    return maybe_packed(path) && mpirr_pack_lookup(path, &m, err, sizeof err) > 0 ? m.length : 0;
}
