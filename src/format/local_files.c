/* local_files.c: see local_files.h. mpirr_local_move_rank runs in signal handlers, so it and
 * what it calls build paths by hand and list the folder with getdents64 (opendir allocates). */
#include "local_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "file_io.h"

void mpirr_local_folder_name(const mpirr_run_id *id, char out[MPIRR_LOCAL_FOLDER_NAME_MAX])
{
    char digits[MPIRR_RUN_ID_DIGITS + 1];
    mpirr_run_id_text(id, digits);
    snprintf(out, MPIRR_LOCAL_FOLDER_NAME_MAX, MPIRR_LOCAL_FOLDER_PREFIX "%s", digits);
}

/* Five digits or more after prefix, then stop; the rank, or -1. */
static int digits_after(const char *name, const char *prefix, char stop)
{
    size_t k = strlen(prefix);
    if (strncmp(name, prefix, k)) return -1;
    long n = 0;
    int count = 0;
    for (const char *p = name + k; *p >= '0' && *p <= '9'; p++, count++) {
        n = n * 10 + (*p - '0');
        if (n > INT32_MAX) return -1;
    }
    if (count < 5 || name[k + (size_t)count] != stop) return -1;
    return (int)n;
}

int mpirr_local_rank_of(const char *name)
{
    int rank = digits_after(name, "rank-", '.');
    if (rank < 0) rank = digits_after(name, "sync-", '-');
    /* something after the separator, and no path in it */
    if (rank < 0 || strchr(name, '/')) return -1;
    return rank;
}

int mpirr_placement_rank_of(const char *name)
{
    return digits_after(name, "rank-", 0);
}

void mpirr_placement_path(char *buf, size_t n, const char *out, int rank)
{
    snprintf(buf, n, "%s/" MPIRR_LOCAL_SUBDIR "/rank-%05d", out, rank);
}

int mpirr_placement_write(const char *out, const mpirr_placement *p, char *err, size_t errlen)
{
    char path[4200], text[4500];
    mpirr_placement_path(path, sizeof path, out, p->rank);
    int len = snprintf(text, sizeof text, "mpirr-placement 1\nhost %s\nfolder %s\npid %ld\n",
                       p->host, p->folder, p->pid);
    int fd = mpirr_create_file(path, O_WRONLY);
    if (fd < 0 || mpirr_write_all(fd, text, (size_t)len) || close(fd)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return 0;
}

int mpirr_host_name_ok(const char *s)
{
    if (!*s || *s == '-') return 0; /* not an option to ssh or srun */
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "%s: %s", path, what);
    return -1;
}

int mpirr_placement_read(const char *path, int rank, const mpirr_run_id *id, mpirr_placement *p,
                         char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->rank = rank;
    p->pid = -1;
    int fd = mpirr_open_regular(path, err, errlen);
    if (fd < 0) return -1;
    char text[4600];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n < 0) return bad(err, errlen, path, strerror(errno));
    if ((size_t)n == sizeof text - 1) return bad(err, errlen, path, "too long for a placement file");
    text[n] = 0;
    if (strncmp(text, "mpirr-placement 1\n", 18)) return bad(err, errlen, path, "not a placement file");
    for (char *line = text + 18, *next; *line; line = next) {
        next = strchr(line, '\n');
        if (!next) return bad(err, errlen, path, "its last line is cut off");
        *next++ = 0;
        if (!strncmp(line, "host ", 5) && strlen(line + 5) < sizeof p->host)
            strcpy(p->host, line + 5);
        else if (!strncmp(line, "folder ", 7) && strlen(line + 7) < sizeof p->folder)
            strcpy(p->folder, line + 7);
        else if (!strncmp(line, "pid ", 4))
            p->pid = strtol(line + 4, NULL, 10);
        else
            return bad(err, errlen, path, "a line that is not host, folder or pid");
    }
    if (!mpirr_host_name_ok(p->host)) return bad(err, errlen, path, "no host name (letters, digits, '.', '-', '_')");
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX];
    mpirr_local_folder_name(id, name);
    const char *last = strrchr(p->folder, '/');
    if (p->folder[0] != '/' || !last || strcmp(last + 1, name) || strstr(p->folder, "/../"))
        return bad(err, errlen, path, "the folder is not an absolute DIR/mpirr-<this recording's run id>");
    return 0;
}

/* dst = a + "/" + prefix + b, or -1 if it does not fit (no snprintf: signal handlers). */
static int join(char *dst, size_t n, const char *a, const char *prefix, const char *b)
{
    size_t la = strlen(a), lp = strlen(prefix), lb = strlen(b);
    if (la + 1 + lp + lb + 1 > n) return -1;
    memcpy(dst, a, la);
    dst[la] = '/';
    memcpy(dst + la + 1, prefix, lp);
    memcpy(dst + la + 1 + lp, b, lb + 1);
    return 0;
}

struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* One pass over the listing of dir (open on from): moves what it can of rank's files; *left
 * counts the others. */
static void move_pass(int dir, const char *from, const char *to, int rank, int *left)
{
    char buf[4096] __attribute__((aligned(8)));
    char src[4400], tmp[4400], dst[4400];
    *left = 0;
    for (;;) {
        long got = syscall(SYS_getdents64, dir, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        for (long off = 0; off < got;) {
            struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + off);
            off += e->d_reclen;
            if (mpirr_local_rank_of(e->d_name) != rank) continue;
            if (join(src, sizeof src, from, "", e->d_name) ||
                join(tmp, sizeof tmp, to, ".", e->d_name) ||
                join(dst, sizeof dst, to, "", e->d_name) || strlen(tmp) + 8 > sizeof tmp) {
                ++*left;
                continue;
            }
            memcpy(tmp + strlen(tmp), ".moving", 8);
            if (mpirr_file_move(src, tmp, dst)) ++*left;
        }
    }
}

int mpirr_local_move_rank(const char *from, const char *to, int rank)
{
    int dir = open(from, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return -1;
    /* (removing an entry while listing affects only whether that entry is listed) */
    int left;
    move_pass(dir, from, to, rank, &left);
    close(dir);
    return left;
}
