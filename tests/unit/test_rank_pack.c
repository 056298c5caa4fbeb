/* test_rank_pack.c: node packs (rank_pack.h). A pack written from loose files reads back through
 * mpirr_fopen_regular byte for byte, seekable, with the same sizes and listing as the loose
 * files; a loose copy must equal its member. A damaged or hostile pack (cut at every length,
 * every byte of its header, index and trailer flipped, a name with '/' or "..", a member twice,
 * members past the index) is one line naming the pack, never a crash, never a wrong byte. Packs
 * written from another folder (a node's, as `mpirr gather` does) read the same; in per-rank mode
 * (the runtime) the cache holds only the looked-up rank's members, and nothing once freed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "file_io.h"
#include "rank_pack.h"
#include "rank_pack_layout.h"
#include "varint.h"

static char dir[] = "/tmp/mpirr-pack.XXXXXX";
static const mpirr_run_id run_id = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};

enum { NFILES = 4 };
static char *const names[NFILES] = {"rank-00000.log", "rank-00000.tail", "rank-00001.events",
                                    "sync-00001-0002.log"};
static uint8_t *content[NFILES];
static size_t length[NFILES] = {70000, 0, 333, 5};

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void put(const char *name, const void *p, size_t n)
{
    char path[512];
    path_of(path, sizeof path, name);
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && mpirr_write_all(fd, p, n) == 0);
    close(fd);
}

static uint8_t *slurp(const char *name, size_t *n)
{
    char path[512];
    path_of(path, sizeof path, name);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*n + 1);
    CHECK(fread(p, 1, *n, f) == *n);
    fclose(f);
    return p;
}

/* Reads name through mpirr_fopen_regular: 0 when it is exactly content i (also after seeks). */
static int read_back(int i)
{
    char path[512], err[1024] = "";
    path_of(path, sizeof path, names[i]);
    FILE *f = mpirr_fopen_regular(path, err, sizeof err);
    if (!f) return fprintf(stderr, "%s\n", err), -1;
    uint64_t size = 0;
    int rc = mpirr_stream_size(f, &size) || size != length[i] ? -1 : 0;
    uint8_t *p = malloc(length[i] + 1);
    if (!rc && fread(p, 1, length[i] + 1, f) != length[i]) rc = -1;
    if (!rc && memcmp(p, content[i], length[i])) rc = -1;
    if (!rc && length[i] > 10) { /* seek into the middle, and from the end */
        uint8_t b;
        rc = fseek(f, (long)length[i] / 2, SEEK_SET) || fread(&b, 1, 1, f) != 1 ||
             b != content[i][length[i] / 2] || fseek(f, -3, SEEK_END) || ftell(f) != (long)length[i] - 3 ||
             fread(&b, 1, 1, f) != 1 || b != content[i][length[i] - 3] ? -1 : 0;
    }
    free(p);
    fclose(f);
    return rc;
}

static void write_loose(void)
{
    for (int i = 0; i < NFILES; i++) put(names[i], content[i], length[i]);
}

static void remove_loose(void)
{
    char path[512];
    for (int i = 0; i < NFILES; i++) {
        path_of(path, sizeof path, names[i]);
        unlink(path);
    }
}

static void test_round_trip(void)
{
    char err[1024] = "", path[512];
    write_loose();
    CHECK(mpirr_pack_write(dir, dir, 0, "node7", &run_id, names, NFILES, err, sizeof err) == 0);
    path_of(path, sizeof path, ".node-00000.pack.tmp");
    CHECK(access(path, F_OK) != 0); /* renamed into place */
    for (int i = 0; i < NFILES; i++) CHECK(read_back(i) == 0); /* loose and packed: the same */
    remove_loose();
    for (int i = 0; i < NFILES; i++) CHECK(read_back(i) == 0);
    mpirr_name_list l;
    size_t packed = 0;
    CHECK(mpirr_rank_files_list(dir, &l, &packed, err, sizeof err) == 0);
    CHECK(l.n == NFILES && packed == NFILES);
    for (size_t i = 0; i < l.n && i < NFILES; i++) CHECK(!strcmp(l.v[i], names[i])); /* sorted */
    mpirr_name_list_free(&l);
    CHECK(mpirr_pack_count(dir) == 1);
    path_of(path, sizeof path, "rank-00001.events");
    CHECK(mpirr_file_present(path) && mpirr_file_bytes(path) == length[2]);
    path_of(path, sizeof path, "rank-00002.log");
    CHECK(!mpirr_file_present(path) && mpirr_file_bytes(path) == 0);
    FILE *f = mpirr_fopen_regular(path, err, sizeof err);
    CHECK(!f && errno == ENOENT && strstr(err, "rank-00002.log"));
    /* a loose copy must be its member's bytes */
    put(names[2], content[2], length[2]);
    CHECK(read_back(2) == 0);
    content[2][7] ^= 1;
    put(names[2], content[2], length[2]);
    content[2][7] ^= 1;
    path_of(path, sizeof path, names[2]);
    f = mpirr_fopen_regular(path, err, sizeof err);
    CHECK(!f && errno == EINVAL && strstr(err, "differs from its copy in") && strstr(err, "node-00000.pack"));
    unlink(path);
}

/* Two packs written from a folder of their own (a node's local folder), one per rank. */
static void test_per_rank(void)
{
    char err[1024] = "", from[600], path[1200];
    snprintf(from, sizeof from, "%s/node", dir);
    CHECK(mkdir(from, 0700) == 0);
    path_of(path, sizeof path, "node-00000.pack"); /* the other tests' */
    unlink(path);
    for (int i = 0; i < NFILES; i++) { /* put() writes into dir: the files go to from */
        char loose[600];
        put(names[i], content[i], length[i]);
        path_of(loose, sizeof loose, names[i]);
        snprintf(path, sizeof path, "%s/%s", from, names[i]);
        CHECK(rename(loose, path) == 0);
    }
    CHECK(mpirr_pack_write(dir, from, 0, "node0", &run_id, names, 2, err, sizeof err) == 0);
    CHECK(mpirr_pack_write(dir, from, 1, "node1", &run_id, names + 2, 2, err, sizeof err) == 0);
    mpirr_pack_cache_per_rank(1);
    CHECK(read_back(2) == 0 && read_back(3) == 0);
    CHECK(mpirr_pack_cache_members() == 2); /* rank 1's only */
    CHECK(read_back(0) == 0 && read_back(1) == 0);
    CHECK(mpirr_pack_cache_members() == 2); /* rank 0's, from pack 0 alone */
    mpirr_pack_cache_per_rank(0);
    CHECK(read_back(0) == 0 && mpirr_pack_cache_members() == NFILES);
    CHECK(mpirr_pack_count(dir) == 2);
    mpirr_pack_cache_free();
    CHECK(mpirr_pack_cache_members() == 0);
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", from, names[i]);
        unlink(path);
    }
    rmdir(from);
    path_of(path, sizeof path, "node-00001.pack");
    unlink(path);
    path_of(path, sizeof path, "node-00000.pack");
    unlink(path);
}

/* With the pack's bytes p (n), every member either reads back exactly or fails with one line
 * naming the pack; the listing too. */
static int damaged_reads(const uint8_t *p, size_t n)
{
    put("node-00000.pack", p, n);
    char err[1024] = "", path[512];
    mpirr_name_list l;
    int refused = 0;
    if (mpirr_rank_files_list(dir, &l, NULL, err, sizeof err)) {
        CHECK(errno == EINVAL && strstr(err, "node-00000.pack: "));
        refused = 1;
    } else {
        mpirr_name_list_free(&l);
    }
    for (int i = 0; i < NFILES; i++) {
        path_of(path, sizeof path, names[i]);
        err[0] = '\0';
        FILE *f = mpirr_fopen_regular(path, err, sizeof err);
        if (f) { /* then it must be the member's true bytes */
            fclose(f);
            CHECK(read_back(i) == 0);
        } else {
            CHECK(strstr(err, "node-00000.pack") || (errno == ENOENT && strstr(err, names[i])));
            CHECK(!strchr(err, '\n'));
        }
    }
    return refused;
}

static void test_damage(void)
{
    size_t n;
    uint8_t *good = slurp("node-00000.pack", &n), *p = malloc(n);
    int refused = 0;
    int cuts = 0; /* every cut is refused (no trailer): each near the ends, some between */
    for (size_t cut = 0; cut < n; cut += cut < 300 || cut + 300 >= n ? 1 : 997, cuts++) {
        if (cut < n - 300 && cut + 997 >= n - 300) cut = n - 300;
        refused += damaged_reads(good, cut);
    }
    CHECK(refused == cuts && cuts > 600);
    uint64_t ix_off = mpirr_get_u64(good + n - PK_TRAILER_BYTES + PK_T_INDEX_OFFSET);
    for (size_t i = 0; i < n; i++) { /* header, index and trailer, and a few member bytes */
        if (i >= PK_HEADER_BYTES + 64 && i < ix_off && i % 1009) continue;
        memcpy(p, good, n);
        p[i] ^= 0x10;
        damaged_reads(p, n);
    }
    put("node-00000.pack", good, n);
    free(p);
    free(good);
}

/* A pack of crafted entries, its index and trailer checksums right: what only a hostile
 * writer makes. */
static void craft(const char *const *entry_names, const uint64_t *offs, const uint64_t *lens, int k)
{
    uint8_t buf[4096] = {0};
    memcpy(buf, PK_MAGIC, 8);
    mpirr_put_u32(buf + PK_H_VERSION, MPIRR_PACK_VERSION);
    mpirr_run_id_put_checked(buf + PK_H_RUN_ID, &run_id);
    mpirr_put_u64(buf + PK_H_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, buf, PK_H_CHECK));
    size_t at = PK_HEADER_BYTES + 100, ix = at; /* 100 member bytes (zeros) */
    for (int i = 0; i < k; i++) {
        size_t nl = strlen(entry_names[i]);
        mpirr_put_u64(buf + at + PK_E_OFFSET, offs[i]);
        mpirr_put_u64(buf + at + PK_E_LENGTH, lens[i]);
        uint8_t zero[100] = {0};
        mpirr_put_u64(buf + at + PK_E_CHECKSUM, mpirr_fnv64(MPIRR_FNV64_OFFSET, zero, lens[i] <= 100 ? lens[i] : 0));
        buf[at + PK_E_NAME_LEN] = (uint8_t)nl;
        memcpy(buf + at + PK_ENTRY_FIXED, entry_names[i], nl);
        at += PK_ENTRY_FIXED + nl;
    }
    mpirr_put_u64(buf + at + PK_T_INDEX_OFFSET, ix);
    mpirr_put_u64(buf + at + PK_T_INDEX_LENGTH, at - ix);
    mpirr_put_u32(buf + at + PK_T_COUNT, (uint32_t)k);
    mpirr_put_u64(buf + at + PK_T_INDEX_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, buf + ix, at - ix));
    memcpy(buf + at + PK_T_MAGIC, PK_END_MAGIC, 8);
    put("node-00000.pack", buf, at + PK_TRAILER_BYTES);
}

static void refused_as(const char *what)
{
    char err[1024] = "";
    mpirr_name_list l;
    int rc = mpirr_rank_files_list(dir, &l, NULL, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "node-00000.pack: ") && strstr(err, what));
    if (rc == -1 && !strstr(err, what)) fprintf(stderr, "  got: %s\n", err);
    if (!rc) mpirr_name_list_free(&l);
}

static void test_hostile(void)
{
    static const uint64_t off[2] = {PK_HEADER_BYTES, PK_HEADER_BYTES}, len[2] = {10, 10};
    static const char *ok[1] = {"rank-00000.log"};
    craft(ok, off, len, 1);
    char err[1024], path[512];
    mpirr_name_list l;
    CHECK(mpirr_rank_files_list(dir, &l, NULL, err, sizeof err) == 0 && l.n == 1);
    mpirr_name_list_free(&l);
    static const uint64_t past[1] = {PK_HEADER_BYTES + 95}, before[1] = {3}, huge[1] = {UINT64_MAX - 5};
    static const char *slash[1] = {"../x"}, *dots[1] = {".."}, *sub[1] = {"rank-00000.log/x"},
                      *other[1] = {"manifest"}, *twice[2] = {"rank-00000.log", "rank-00000.log"};
    static const struct {
        const char *const *names;
        const uint64_t *off, *len;
        int k;
        const char *refused_as;
    } hostile[] = {
        {slash, off, len, 1, "name \"../x\" is not a rank file's name"},
        {dots, off, len, 1, "is not a rank file's name"},
        {sub, off, len, 1, "is not a rank file's name"},
        {other, off, len, 1, "name \"manifest\" is not a rank file's name"},
        {twice, off, len, 2, "holds rank-00000.log twice"},
        {ok, past, len, 1, "claims bytes 223 to 233, expected them between the header (byte 128) "
                          "and the index (byte 228)"},
        {ok, before, len, 1, "claims bytes 3 to 13"},
        {ok, off, huge, 1, "claims bytes"},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        craft(hostile[i].names, hostile[i].off, hostile[i].len, hostile[i].k);
        refused_as(hostile[i].refused_as);
    }
    /* the same member in two packs */
    craft(ok, off, len, 1);
    path_of(path, sizeof path, "node-00000.pack");
    size_t n;
    uint8_t *p = slurp("node-00000.pack", &n);
    p[PK_H_ORDINAL] = 1;
    mpirr_put_u64(p + PK_H_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, p, PK_H_CHECK));
    put("node-00001.pack", p, n);
    char e2[1024] = "";
    CHECK(mpirr_rank_files_list(dir, &l, NULL, e2, sizeof e2) == -1 &&
          strstr(e2, "node-00001.pack: holds rank-00000.log, which") && strstr(e2, "node-00000.pack holds too"));
    /* a pack under another ordinal's name */
    put("node-00000.pack", p, n);
    refused_as("holds node 1's pack, expected node 0's");
    free(p);
    path_of(path, sizeof path, "node-00001.pack");
    unlink(path);
    path_of(path, sizeof path, "node-00000.pack");
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NFILES; i++) {
        content[i] = malloc(length[i] + 1);
        for (size_t k = 0; k < length[i]; k++) content[i][k] = (uint8_t)(test_rand(&s) >> (k % 3 ? 40 : 7));
    }
    test_round_trip();
    test_damage();
    test_hostile();
    test_per_rank();
    for (int i = 0; i < NFILES; i++) free(content[i]);
    rmdir(dir);
    return CHECK_DONE();
}
