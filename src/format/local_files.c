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
#include "reserve.h"

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

/* A placement's host and folder, as read: a host name, and DIR/mpirr-<id> absolute. */
static int place_ok(const char *path, const char *host, const char *folder, const mpirr_run_id *id,
                    char *err, size_t errlen)
{
    if (!mpirr_host_name_ok(host)) return bad(err, errlen, path, "no host name (letters, digits, '.', '-', '_')");
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX];
    mpirr_local_folder_name(id, name);
    const char *last = strrchr(folder, '/');
    if (folder[0] != '/' || !last || strcmp(last + 1, name) || strstr(folder, "/../"))
        return bad(err, errlen, path, "the folder is not an absolute DIR/mpirr-<this recording's run id>");
    return 0;
}

/* The text of the small file at path, NUL-terminated, after its first line, which must be
 * magic: malloc'ed, or NULL after one line in err. */
static char *read_text(const char *path, const char *magic, size_t max, char *err, size_t errlen)
{
    int fd = mpirr_open_regular(path, err, errlen);
    if (fd < 0) return NULL;
    char *text = malloc(max);
    size_t n = 0;
    ssize_t r = 0;
    while (text && n < max - 1 && (r = read(fd, text + n, max - 1 - n)) != 0) {
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        n += (size_t)r;
    }
    int e = errno;
    close(fd);
    if (!text) return bad(err, errlen, path, "out of memory"), NULL;
    const char *why = r < 0 ? strerror(e) : n == max - 1 ? "too long for a placement file"
                      : strncmp(text, magic, strlen(magic)) ? "not a placement file" : NULL;
    if (why) {
        free(text);
        bad(err, errlen, path, why);
        return NULL;
    }
    text[n] = 0;
    return text;
}

/* Splits off the line at *line (cut at its '\n'); NULL after one line in err if it has none. */
static char *next_line(char **line, const char *path, char *err, size_t errlen)
{
    char *l = *line, *end = strchr(l, '\n');
    if (!end) return bad(err, errlen, path, "its last line is cut off"), NULL;
    *end = 0;
    *line = end + 1;
    return l;
}

/* host or folder lines, copied when they fit: 1 if line was one of them */
static int host_or_folder(const char *line, char *host, size_t hn, char *folder, size_t fn)
{
    if (!strncmp(line, "host ", 5) && strlen(line + 5) < hn) strcpy(host, line + 5);
    else if (!strncmp(line, "folder ", 7) && strlen(line + 7) < fn) strcpy(folder, line + 7);
    else return 0;
    return 1;
}

#define PLACEMENT_MAGIC "mpirr-placement 1\n"
#define NODE_PLACEMENT_MAGIC "mpirr-node-placement 1\n"

int mpirr_placement_read(const char *path, int rank, const mpirr_run_id *id, mpirr_placement *p,
                         char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->rank = rank;
    p->pid = -1;
    char *text = read_text(path, PLACEMENT_MAGIC, 4600, err, errlen), *l;
    if (!text) return -1;
    int rc = 0;
    for (char *line = text + strlen(PLACEMENT_MAGIC); !rc && *line;) {
        if (!(l = next_line(&line, path, err, errlen))) rc = -1;
        else if (host_or_folder(l, p->host, sizeof p->host, p->folder, sizeof p->folder)) continue;
        else if (!strncmp(l, "pid ", 4)) p->pid = strtol(l + 4, NULL, 10);
        else rc = bad(err, errlen, path, "a line that is not host, folder or pid");
    }
    free(text);
    return rc ? rc : place_ok(path, p->host, p->folder, id, err, errlen);
}

int mpirr_node_placement_node_of(const char *name)
{
    return digits_after(name, "node-", 0);
}

void mpirr_node_placement_path(char *buf, size_t n, const char *out, int node)
{
    snprintf(buf, n, "%s/" MPIRR_LOCAL_SUBDIR "/node-%05d", out, node);
}

int mpirr_node_placement_write(const char *out, const mpirr_node_placement *p, char *err,
                               size_t errlen)
{
    char path[4200], *text = NULL;
    size_t len = 0;
    mpirr_node_placement_path(path, sizeof path, out, p->node);
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fprintf(f, NODE_PLACEMENT_MAGIC "host %s\nfolder %s\nranks ", p->host, p->folder);
        for (size_t i = 0, j; i < p->nranks; i = j) { /* ranges of consecutive ranks */
            for (j = i + 1; j < p->nranks && p->ranks[j] == p->ranks[j - 1] + 1; j++) {
            }
            fprintf(f, i ? ",%d" : "%d", p->ranks[i]);
            if (j - i > 1) fprintf(f, "-%d", p->ranks[j - 1]);
        }
        fputc('\n', f);
    }
    int fd = -1;
    if (!f || fclose(f) || (fd = mpirr_create_file(path, O_WRONLY)) < 0 ||
        mpirr_write_all(fd, text, len) || close(fd)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

void mpirr_node_placement_free(mpirr_node_placement *p)
{
    free(p->ranks);
    p->ranks = NULL;
    p->nranks = 0;
}

/* "A-B,C,...": ascending ranks below max into p. 0, or -1 after one line in err. */
static int parse_ranks(const char *s, int max, mpirr_node_placement *p, const char *path,
                       char *err, size_t errlen)
{
    size_t cap = 0;
    long last = -1;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || *s == '-' || *s == '+') break;
        if (*end == '-') {
            s = end + 1;
            b = strtol(s, &end, 10);
            if (end == s || *s == '-' || *s == '+') break;
        }
        if (a <= last || b < a || b >= max)
            return bad(err, errlen, path, "its ranks are not ascending ranges of ranks of the run");
        for (long r = a; r <= b; r++) {
            if (mpirr_reserve((void **)&p->ranks, &cap, p->nranks + 1, sizeof *p->ranks))
                return bad(err, errlen, path, "out of memory");
            p->ranks[p->nranks++] = (int)r;
        }
        last = b;
        s = end;
        if (*s == ',' && s[1]) s++;
        else if (*s) break;
    }
    if (*s || !p->nranks)
        return bad(err, errlen, path, "expected its ranks as ranges such as 0-3,8");
    return 0;
}

int mpirr_node_placement_read(const char *path, int node, const mpirr_run_id *id, int max_ranks,
                              mpirr_node_placement *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->node = node;
    char *text = read_text(path, NODE_PLACEMENT_MAGIC, 1 << 24, err, errlen), *l;
    if (!text) return -1;
    int rc = 0, have_ranks = 0;
    for (char *line = text + strlen(NODE_PLACEMENT_MAGIC); !rc && *line;) {
        if (!(l = next_line(&line, path, err, errlen))) rc = -1;
        else if (host_or_folder(l, p->host, sizeof p->host, p->folder, sizeof p->folder)) continue;
        else if (!strncmp(l, "ranks ", 6) && !have_ranks++)
            rc = parse_ranks(l + 6, max_ranks, p, path, err, errlen);
        else rc = bad(err, errlen, path, "a line that is not host, folder or ranks (once)");
    }
    free(text);
    if (!rc && !have_ranks) rc = bad(err, errlen, path, "no line of ranks");
    if (!rc) rc = place_ok(path, p->host, p->folder, id, err, errlen);
    if (rc) mpirr_node_placement_free(p);
    return rc;
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
