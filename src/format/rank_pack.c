/* rank_pack.c: reading node packs (rank_pack.h): a directory's packs checked and indexed once
 * (kept while the directory is unchanged), a member found by name, a stream over its bytes, and
 * the one listing of a recording's rank files, loose or packed. A rank of a replay keeps only
 * its own members (mpirr_pack_cache_per_rank): every rank holding every name would be O(ranks)
 * memory in each of them. A pack is untrusted input: every
 * offset, length and name of its index is checked before use, and any fault is one line naming
 * the pack and what was expected. */
#include "rank_pack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file_io.h"
#include "local_files.h"
#include "rank_pack_layout.h"
#include "reserve.h"
#include "varint.h"

/* One member of one of the directory's packs. */
struct packed {
    char *name;
    uint64_t offset, length, checksum;
    int pack;
};

/* The packs of the directory read last (one recording at a time is the tools' way). */
static struct {
    pthread_mutex_t lock;
    int valid;
    char dir[4096];
    dev_t dev;
    ino_t ino;
    struct timespec mtime, ctime;
    int rank;   /* -1: every member; else only that rank's (per-rank mode) */
    int npacks; /* packs read (per-rank mode stops at the first holding the rank's files) */
    struct packed *m;
    size_t n, cap;
    char err[1024]; /* the damage found, or "" */
} cache = {.lock = PTHREAD_MUTEX_INITIALIZER, .rank = -1};
static int per_rank; /* mpirr_pack_cache_per_rank */

static void cache_clear(void)
{
    for (size_t i = 0; i < cache.n; i++) free(cache.m[i].name);
    free(cache.m);
    cache.m = NULL;
    cache.n = cache.cap = 0;
    cache.npacks = 0;
    cache.err[0] = '\0';
    cache.valid = 0;
}

/* A name from a pack, made safe for a message: printable ASCII, at most 64 bytes. */
static void printable(const uint8_t *s, size_t n, char out[72])
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < 64; i++) out[k++] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
    if (n > 64) memcpy(out + k, "...", 3), k += 3;
    out[k] = '\0';
}

/* A member's name as it may stand in a directory: a rank file's name, nothing else. */
static int member_name_ok(const uint8_t *s, size_t n)
{
    char name[MPIRR_PACK_NAME_MAX + 1];
    if (n == 0 || n > MPIRR_PACK_NAME_MAX || memchr(s, '\0', n) || memchr(s, '/', n)) return 0;
    memcpy(name, s, n);
    name[n] = '\0';
    return strcmp(name, ".") && strcmp(name, "..") && mpirr_local_rank_of(name) >= 0;
}

/* The damage found in the pack at path: one line, kept in the cache; -1. */
__attribute__((format(printf, 2, 3))) static int bad(const char *path, const char *fmt, ...)
{
    char what[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(cache.err, sizeof cache.err, "%s: %s", path, what);
    return -1;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t at)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)at);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
        at += (uint64_t)r;
    }
    return 0;
}

static int add_member(const uint8_t *name, size_t len, uint64_t off, uint64_t n, uint64_t sum,
                      int pack)
{
    char rank_file[MPIRR_PACK_NAME_MAX + 1]; /* (checked: at most that long) */
    memcpy(rank_file, name, len);
    rank_file[len] = '\0';
    if (cache.rank >= 0 && mpirr_local_rank_of(rank_file) != cache.rank) return 0;
    if (mpirr_reserve((void **)&cache.m, &cache.cap, cache.n + 1, sizeof *cache.m)) return -1;
    char *s = malloc(len + 1);
    if (!s) return -1;
    memcpy(s, name, len);
    s[len] = '\0';
    cache.m[cache.n++] = (struct packed){s, off, n, sum, pack};
    return 0;
}

/* The index's entries, checked against the pack's layout, into the cache. */
static int read_index(const char *path, const uint8_t *ix, uint64_t len, uint32_t count,
                      uint64_t members_end, int pack)
{
    uint64_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (len - at < PK_ENTRY_FIXED)
            return bad(path, "the index ends inside entry %u of %u", i, count);
        uint64_t off = mpirr_get_u64(ix + at + PK_E_OFFSET), n = mpirr_get_u64(ix + at + PK_E_LENGTH);
        uint64_t sum = mpirr_get_u64(ix + at + PK_E_CHECKSUM);
        size_t nlen = (size_t)ix[at + PK_E_NAME_LEN] | (size_t)ix[at + PK_E_NAME_LEN + 1] << 8;
        at += PK_ENTRY_FIXED;
        if (len - at < nlen)
            return bad(path, "the index ends inside entry %u's name (of %u entries)", i, count);
        const uint8_t *name = ix + at;
        at += nlen;
        char shown[72];
        printable(name, nlen, shown);
        if (!member_name_ok(name, nlen))
            return bad(path, "member %u's name \"%s\" is not a rank file's name (expected "
                       "rank-N.SUFFIX or sync-N-T.SUFFIX, no '/')", i, shown);
        if (off < PK_HEADER_BYTES || off > members_end || n > members_end - off)
            return bad(path, "member %s claims bytes %llu to %llu, expected them between the "
                       "header (byte %u) and the index (byte %llu)", shown, (unsigned long long)off,
                       (unsigned long long)(off + n), (unsigned)PK_HEADER_BYTES,
                       (unsigned long long)members_end);
        if (add_member(name, nlen, off, n, sum, pack)) return bad(path, "out of memory");
    }
    if (at != len) return bad(path, "the index holds more than its %u entries", count);
    return 0;
}

/* Checks the pack open at fd (node ordinal k) and adds its members. */
static int read_pack(const char *path, int fd, int k)
{
    struct stat st;
    if (fstat(fd, &st)) return bad(path, "%s", strerror(errno));
    uint64_t size = (uint64_t)st.st_size;
    uint8_t h[PK_HEADER_BYTES], t[PK_TRAILER_BYTES];
    if (size < PK_HEADER_BYTES + PK_TRAILER_BYTES || pread_all(fd, h, sizeof h, 0) ||
        pread_all(fd, t, sizeof t, size - PK_TRAILER_BYTES))
        return bad(path, "%llu bytes, not a whole pack (at least %u: truncated?)",
                   (unsigned long long)size, (unsigned)(PK_HEADER_BYTES + PK_TRAILER_BYTES));
    if (memcmp(h, PK_MAGIC, 8)) return bad(path, "not an mpirr node pack (bad magic)");
    if (mpirr_get_u64(h + PK_H_CHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, h, PK_H_CHECK))
        return bad(path, "damaged header (checksum mismatch)");
    if (mpirr_get_u32(h + PK_H_VERSION) != MPIRR_PACK_VERSION)
        return bad(path, "pack version %u, expected %u", mpirr_get_u32(h + PK_H_VERSION),
                   (unsigned)MPIRR_PACK_VERSION);
    if (mpirr_get_u32(h + PK_H_ORDINAL) != (uint32_t)k)
        return bad(path, "holds node %u's pack, expected node %d's",
                   mpirr_get_u32(h + PK_H_ORDINAL), k);
    mpirr_run_id id;
    if (mpirr_run_id_get_checked(h + PK_H_RUN_ID, &id))
        return bad(path, "damaged run id (check mismatch)");
    if (mpirr_run_id_check(path, &id, NULL, cache.err, sizeof cache.err)) return -1;
    if (memcmp(t + PK_T_MAGIC, PK_END_MAGIC, 8))
        return bad(path, "no pack trailer at its end (truncated, or cut off while written)");
    uint64_t ix_off = mpirr_get_u64(t + PK_T_INDEX_OFFSET), ix_len = mpirr_get_u64(t + PK_T_INDEX_LENGTH);
    uint32_t count = mpirr_get_u32(t + PK_T_COUNT);
    uint64_t ix_end = size - PK_TRAILER_BYTES;
    if (ix_off < PK_HEADER_BYTES || ix_off > ix_end || ix_len != ix_end - ix_off)
        return bad(path, "the trailer puts the index at byte %llu, expected it to end where the "
                   "trailer begins (byte %llu)", (unsigned long long)ix_off,
                   (unsigned long long)ix_end);
    if (ix_len > PK_INDEX_MAX || count > ix_len / PK_ENTRY_FIXED)
        return bad(path, "an index of %llu bytes cannot hold %u entries",
                   (unsigned long long)ix_len, count);
    uint8_t *ix = malloc(ix_len ? ix_len : 1);
    if (!ix) return bad(path, "out of memory");
    int rc = pread_all(fd, ix, ix_len, ix_off) ? bad(path, "cannot read the index")
             : mpirr_get_u64(t + PK_T_INDEX_CHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, ix, ix_len)
                 ? bad(path, "damaged index (checksum mismatch)")
                 : read_index(path, ix, ix_len, count, ix_off, k);
    free(ix);
    return rc;
}

static void pack_path(char *buf, size_t n, const char *dir, int k)
{
    int len = snprintf(buf, n, "%s/", dir);
    snprintf(buf + len, n - (size_t)len, MPIRR_PACK_NAME_FMT, k);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct packed *)a)->name, ((const struct packed *)b)->name);
}

/* Whether a directory's times say for sure that it is unchanged while they are: a change within
 * the file system's clock tick of the last one (coarse: a few milliseconds) can leave them as
 * they were, so the packs of a directory changed in the last two seconds are read again at
 * every use (what git does with racily clean index entries). */
static int settled(const struct stat *st)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now)) return 0;
    const struct timespec *last = st->st_ctim.tv_sec > st->st_mtim.tv_sec ? &st->st_ctim : &st->st_mtim;
    return now.tv_sec - last->tv_sec > 2;
}

/* Reads every pack of dir into the cache (unless it holds them already): every member (rank
 * -1), or rank's only, from the packs up to the first that holds any. Under the lock. */
static void load_dir(const char *dir, int rank)
{
    struct stat st;
    if (stat(dir, &st)) {
        cache_clear(); /* no directory: no packs; the readers say what is missing */
        return;
    }
    if (cache.valid && !strcmp(cache.dir, dir) && cache.dev == st.st_dev && cache.ino == st.st_ino &&
        !memcmp(&cache.mtime, &st.st_mtim, sizeof st.st_mtim) &&
        !memcmp(&cache.ctime, &st.st_ctim, sizeof st.st_ctim) && (cache.rank < 0 || cache.rank == rank))
        return;
    cache_clear();
    cache.rank = rank;
    snprintf(cache.dir, sizeof cache.dir, "%s", dir);
    cache.dev = st.st_dev;
    cache.ino = st.st_ino;
    cache.mtime = st.st_mtim;
    cache.ctime = st.st_ctim;
    cache.valid = settled(&st);
    char path[4200];
    for (int k = 0; !cache.err[0]; k++) {
        pack_path(path, sizeof path, dir, k);
        int fd = mpirr_open_regular(path, cache.err, sizeof cache.err);
        if (fd < 0) {
            if (errno == ENOENT) cache.err[0] = '\0';
            break;
        }
        cache.npacks = k + 1;
        read_pack(path, fd, k);
        close(fd);
        if (rank >= 0 && cache.n) break; /* a rank's files are all in its node's pack */
    }
    if (cache.err[0] || !cache.n) return;
    qsort(cache.m, cache.n, sizeof *cache.m, by_name);
    for (size_t i = 1; i < cache.n; i++) {
        if (strcmp(cache.m[i - 1].name, cache.m[i].name)) continue;
        char a[4200], b[4200];
        pack_path(a, sizeof a, dir, cache.m[i - 1].pack);
        pack_path(b, sizeof b, dir, cache.m[i].pack);
        if (!strcmp(a, b))
            snprintf(cache.err, sizeof cache.err, "%s: holds %s twice (expected each rank file "
                     "once)", a, cache.m[i].name);
        else
            snprintf(cache.err, sizeof cache.err, "%s: holds %s, which %s holds too (expected "
                     "each rank file in one pack)", b, cache.m[i].name, a);
        return;
    }
}

int mpirr_pack_lookup(const char *path, mpirr_pack_member *m, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    const char *name = slash ? slash + 1 : path;
    pthread_mutex_lock(&cache.lock);
    load_dir(dir, per_rank ? mpirr_local_rank_of(name) : -1);
    int rc = 0;
    if (cache.err[0]) {
        snprintf(err, errlen, "%s", cache.err);
        rc = -1;
    } else if (cache.n) {
        struct packed key = {.name = (char *)name};
        const struct packed *p = bsearch(&key, cache.m, cache.n, sizeof *cache.m, by_name);
        if (p) {
            pack_path(m->pack, sizeof m->pack, dir, p->pack);
            m->offset = p->offset;
            m->length = p->length;
            m->checksum = p->checksum;
            rc = 1;
        }
    }
    pthread_mutex_unlock(&cache.lock);
    return rc;
}

int mpirr_pack_count(const char *dir)
{
    pthread_mutex_lock(&cache.lock);
    load_dir(dir, -1);
    int n = cache.npacks;
    pthread_mutex_unlock(&cache.lock);
    return n;
}

void mpirr_pack_cache_per_rank(int on)
{
    __atomic_store_n(&per_rank, on, __ATOMIC_RELAXED);
}

size_t mpirr_pack_cache_members(void)
{
    pthread_mutex_lock(&cache.lock);
    size_t n = cache.n;
    pthread_mutex_unlock(&cache.lock);
    return n;
}

void mpirr_pack_cache_free(void)
{
    pthread_mutex_lock(&cache.lock);
    cache_clear();
    cache.dir[0] = '\0';
    cache.rank = -1;
    pthread_mutex_unlock(&cache.lock);
}

/* FNV-1a 64 of n bytes of fd from at; -1 with errno if they cannot all be read. */
static int checksum_of(int fd, uint64_t at, uint64_t n, uint64_t *sum)
{
    uint8_t buf[1 << 16];
    uint64_t h = MPIRR_FNV64_OFFSET;
    while (n) {
        size_t k = n < sizeof buf ? (size_t)n : sizeof buf;
        if (pread_all(fd, buf, k, at)) {
            if (!errno) errno = EIO;
            return -1;
        }
        h = mpirr_fnv64(h, buf, k);
        at += k;
        n -= k;
    }
    *sum = h;
    return 0;
}

/* ---- a member as a stream (fopencookie over pread) ---- */
struct member_stream {
    int fd;
    uint64_t offset, length, pos;
};

static ssize_t member_read(void *c, char *buf, size_t n)
{
    struct member_stream *s = c;
    if (s->pos >= s->length) return 0;
    if (n > s->length - s->pos) n = (size_t)(s->length - s->pos);
    ssize_t r;
    do r = pread(s->fd, buf, n, (off_t)(s->offset + s->pos));
    while (r < 0 && errno == EINTR);
    if (r > 0) s->pos += (uint64_t)r;
    return r;
}

static int member_seek(void *c, off64_t *at, int whence)
{
    struct member_stream *s = c;
    int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)s->pos
                   : whence == SEEK_END ? (int64_t)s->length : -1;
    if (base < 0 || (*at < 0 && -*at > base)) {
        errno = EINVAL;
        return -1;
    }
    s->pos = (uint64_t)(base + *at);
    *at = (off64_t)s->pos;
    return 0;
}

static int member_close(void *c)
{
    struct member_stream *s = c;
    int rc = close(s->fd);
    free(s);
    return rc;
}

FILE *mpirr_pack_member_open(const char *path, const mpirr_pack_member *m, char *err,
                             size_t errlen)
{
    int fd = mpirr_open_regular(m->pack, err, errlen);
    if (fd < 0) return NULL;
    uint64_t sum = 0;
    int e = checksum_of(fd, m->offset, m->length, &sum) ? errno : sum != m->checksum ? EINVAL : 0;
    struct member_stream *s = e ? NULL : malloc(sizeof *s);
    FILE *f = NULL;
    if (s) {
        *s = (struct member_stream){fd, m->offset, m->length, 0};
        f = fopencookie(s, "rb", (cookie_io_functions_t){member_read, NULL, member_seek, member_close});
        if (!f) free(s);
    }
    if (f) return f;
    if (!e) e = errno ? errno : ENOMEM;
    if (e == EINVAL)
        snprintf(err, errlen, "%s (in %s): damaged member (its bytes do not match the pack "
                 "index's checksum)", path, m->pack);
    else
        snprintf(err, errlen, "%s (in %s): %s", path, m->pack, strerror(e));
    close(fd);
    errno = e;
    return NULL;
}

int mpirr_pack_same_as_loose(const char *path, int fd, const mpirr_pack_member *m, char *err,
                             size_t errlen)
{
    struct stat st;
    uint64_t sum = 0;
    if (!fstat(fd, &st) && (uint64_t)st.st_size == m->length &&
        !checksum_of(fd, 0, m->length, &sum) && sum == m->checksum)
        return 0;
    snprintf(err, errlen, "%s: differs from its copy in %s (a rank file both loose and packed "
             "must be the same bytes, as an interrupted `mpirr pack` leaves it)", path, m->pack);
    return -1;
}

/* ---- the listing ---- */
void mpirr_name_list_free(mpirr_name_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int name_add(mpirr_name_list *l, const char *name)
{
    if (mpirr_reserve((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return -1;
    if (!(l->v[l->n] = strdup(name))) return -1;
    l->n++;
    return 0;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A loose rank file: its name says so, and it is a regular file (never a link). */
static int loose_rank_file(const char *dir, const struct dirent *e)
{
    if (mpirr_local_rank_of(e->d_name) < 0) return 0;
    if (e->d_type != DT_UNKNOWN) return e->d_type == DT_REG;
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    return !lstat(path, &st) && S_ISREG(st.st_mode);
}

int mpirr_rank_files_list(const char *dir, mpirr_name_list *out, size_t *packed, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        snprintf(err, errlen, "cannot read %s: %s", dir, strerror(e));
        errno = e;
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));)
        if (loose_rank_file(dir, e)) rc = name_add(out, e->d_name);
    closedir(d);
    pthread_mutex_lock(&cache.lock);
    load_dir(dir, -1);
    if (cache.err[0]) snprintf(err, errlen, "%s", cache.err);
    else if (packed) *packed = cache.n;
    for (size_t i = 0; !rc && !cache.err[0] && i < cache.n; i++) rc = name_add(out, cache.m[i].name);
    if (rc) snprintf(err, errlen, "out of memory listing %s", dir);
    int e = rc ? ENOMEM : cache.err[0] ? EINVAL : 0;
    pthread_mutex_unlock(&cache.lock);
    if (e) {
        mpirr_name_list_free(out);
        errno = e;
        return -1;
    }
    if (out->n) qsort(out->v, out->n, sizeof *out->v, by_string);
    size_t k = 0; /* a name both loose and packed once */
    for (size_t i = 0; i < out->n; i++) {
        if (k && !strcmp(out->v[k - 1], out->v[i])) {
            free(out->v[i]);
            continue;
        }
        out->v[k++] = out->v[i];
    }
    out->n = k;
    return 0;
}
