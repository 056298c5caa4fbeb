/* test_event_trace.c: the event history's writer and reader (event_trace.h) without MPI:
 * every field survives the round trip; log2 time deltas against the reconstructed clock keep
 * the reconstruction within its bound on a long run instead of drifting; repeated phases
 * compress to almost nothing; a writer killed without closing leaves every record readable
 * (mapped tail) and one still writing can be read at any moment; truncated and corrupted files
 * give every record before the damage and then a clear error, never a crash; a history or
 * tail of another recording (run id) is refused naming it, and version 1 histories (no run
 * id) still read. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call_ids.h"
#include "check.h"
#include "event_trace.h"
#include "rma_fields.h"
#include "time_coder.h"
#include "varint.h"

static char dir[] = "/tmp/mpirr-evtest.XXXXXX";
/* The recording the histories belong to: writer_id is what open_writer writes. */
static const mpirr_run_id run_a = {{0x81, 0xc0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4}};
static const mpirr_run_id run_b = {{0x3f, 0x9a, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4}};
static mpirr_run_id writer_id = {{0x81, 0xc0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4}};

static mpirr_ev_writer *open_writer(int rank, size_t stage, int exact)
{
    mpirr_ev_params p = {.rank = rank, .nranks = 4, .tick_shift = 0, .exact = exact,
                         .stage_bytes = stage, .base_ns = 1000, .run_id = writer_id};
    char err[512];
    mpirr_ev_writer *w = mpirr_evw_open(dir, &p, err, sizeof err);
    if (!w) fprintf(stderr, "%s\n", err);
    return w;
}

/* A deterministic pseudo-random call record number i (times exact, in ns from base 1000). */
static void make_call(mpirr_event *e, uint64_t i, uint64_t *t, uint64_t *rng, mpirr_ev_item *items)
{
    static const unsigned kinds[] = {MPIRR_ID_MPI_Send, MPIRR_ID_MPI_Irecv, MPIRR_ID_MPI_Waitall,
                                     MPIRR_ID_MPI_Sendrecv, MPIRR_ID_MPI_Bcast, MPIRR_ID_MPI_Startall};
    memset(e, 0, sizeof *e);
    e->kind = kinds[test_rand(rng) % 6];
    e->event = i + 1 + (i % 97 == 96); /* an occasional jump in numbering */
    e->site = (uint32_t)(test_rand(rng) % 5);
    e->fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES;
    e->comm = (uint32_t)(test_rand(rng) % 3);
    e->peer = (int32_t)(test_rand(rng) % 8) - 3;
    e->tag = (int32_t)(test_rand(rng) % 100) - 1;
    e->bytes = test_rand(rng) % 100000;
    /* what each slot was posted with: half the completions below receive exactly that (a
     * size code 0), half something else (reset with each trace: every trace is the same) */
    static uint64_t posted[4];
    if (i == 0) memset(posted, 0, sizeof posted);
    if (e->kind == MPIRR_ID_MPI_Irecv) {
        e->fields |= MPIRR_EVF_REQ;
        e->req = (uint32_t)(test_rand(rng) % 4);
        posted[e->req] = e->bytes;
    }
    if (e->kind == MPIRR_ID_MPI_Sendrecv) {
        e->fields |= MPIRR_EVF_RPEER | MPIRR_EVF_MATCH | MPIRR_EVF_RC;
        e->rpeer = -1;
        e->rtag = 7;
        e->src = 2;
        e->mtag = 7;
        e->got = i & 1 ? e->bytes : 12;
        e->rc = 15;
    }
    if (e->kind == MPIRR_ID_MPI_Bcast) {
        e->fields |= MPIRR_EVF_ROOT | MPIRR_EVF_NEWCOMM;
        e->root = 0;
        e->newcomm = 9;
    }
    if (e->kind == MPIRR_ID_MPI_Waitall || e->kind == MPIRR_ID_MPI_Startall) {
        e->fields |= e->kind == MPIRR_ID_MPI_Waitall ? MPIRR_EVF_DONE : MPIRR_EVF_START;
        e->nitems = (uint32_t)(test_rand(rng) % 4);
        for (uint32_t k = 0; k < e->nitems; k++)
            items[k] = (mpirr_ev_item){(uint32_t)k, k & 1 ? MPIRR_EVI_RECV : 0, k & 1 ? 3 : 0,
                                       k & 1 ? 5 : 0, k & 1 ? (i & 2 ? posted[k] : 64) : 0};
        e->items = items;
    }
    *t += test_rand(rng) % 5000;
    e->x_begin = *t;
    *t += test_rand(rng) % 3000;
    e->x_end = *t;
}

/* The time codes of a record encoded alone, for mpirr_ev_decode (arg: the codes' byte). */
static int one_time(void *arg, uint32_t site, unsigned *cb, unsigned *ce)
{
    (void)site;
    const uint8_t *t = arg;
    *cb = t[0] & 15;
    *ce = t[0] >> 4;
    return 1;
}

static int same_call(const mpirr_event *a, const mpirr_event *b)
{
    if (a->kind != b->kind || a->event != b->event || a->site != b->site ||
        (a->fields & ~(uint32_t)MPIRR_EVF_EXACT) != (b->fields & ~(uint32_t)MPIRR_EVF_EXACT) ||
        a->comm != b->comm || a->peer != b->peer || a->tag != b->tag || a->bytes != b->bytes ||
        a->req != b->req || a->rpeer != b->rpeer || a->rtag != b->rtag || a->src != b->src ||
        a->mtag != b->mtag || a->got != b->got || a->rc != b->rc || a->root != b->root ||
        a->newcomm != b->newcomm || a->nitems != b->nitems)
        return 0;
    for (uint32_t k = 0; k < a->nitems; k++)
        if (memcmp(&a->items[k], &b->items[k], sizeof a->items[k])) return 0;
    return 1;
}

enum { N = 20000 };
static mpirr_event written[N];
static mpirr_ev_item written_items[N][4];

/* Writes N records (plus definitions) as rank 0; closes cleanly unless die. */
static void write_trace(int rank, size_t stage, int die)
{
    mpirr_ev_writer *w = open_writer(rank, stage, 1);
    CHECK(w != NULL);
    if (!w) return;
    int32_t ranks[4] = {0, 1, 2, 3};
    mpirr_event def = {.kind = MPIRR_EVK_COMM, .comm = 0, .newcomm = UINT32_MAX, .nranks = 4,
                       .ranks = ranks};
    CHECK(mpirr_evw_append(w, &def) == 0);
    mpirr_event mod = {.kind = MPIRR_EVK_MODULE, .addr = 0x400000, .got = 0x1000, .bytes = 0x9000,
                       .path = "/usr/bin/app"};
    CHECK(mpirr_evw_append(w, &mod) == 0);
    uint64_t t = 1000, rng = 42;
    for (uint64_t i = 0; i < N; i++) {
        make_call(&written[i], i, &t, &rng, written_items[i]);
        mpirr_event copy = written[i];
        CHECK(mpirr_evw_append(w, &copy) == 0);
        if (i == N / 2) CHECK(mpirr_evw_flush(w) == 0);
    }
    if (die) _exit(0); /* killed: no close, no flush */
    CHECK(mpirr_evw_close(w, 1) == 0);
}

/* Reads rank's trace; returns how many call records matched written[] in order, and whether
 * the reader ended cleanly (1), cut off (0), or with an error (-1). */
static uint64_t read_trace(int rank, int *how, char *err, size_t errlen)
{
    char e2[512];
    mpirr_ev_reader *r = mpirr_evr_open(dir, rank, e2, sizeof e2);
    if (!r) {
        snprintf(err, errlen, "%s", e2);
        *how = -2;
        return 0;
    }
    mpirr_event e;
    uint64_t i = 0;
    int got, defs = 0;
    while ((got = mpirr_evr_next(r, &e)) == 1) {
        if (e.kind == MPIRR_EVK_COMM) {
            CHECK(e.nranks == 4 && e.ranks[3] == 3 && e.newcomm == UINT32_MAX);
            defs++;
            continue;
        }
        if (e.kind == MPIRR_EVK_MODULE) {
            CHECK(e.addr == 0x400000 && e.got == 0x1000 && e.bytes == 0x9000 &&
                  !strcmp(e.path, "/usr/bin/app"));
            defs++;
            continue;
        }
        if (i >= N || !same_call(&e, &written[i])) {
            fprintf(stderr, "record %llu differs\n", (unsigned long long)i);
            CHECK(0);
            break;
        }
        /* exact times came back, relative to the base */
        CHECK(e.x_begin == written[i].x_begin - 1000 && e.x_end == written[i].x_end - 1000);
        i++;
    }
    *how = got < 0 ? -1 : mpirr_evr_clean(r);
    if (got < 0) snprintf(err, errlen, "%s", mpirr_evr_error(r));
    mpirr_evr_close(r);
    return i;
}

static void test_round_trip(void)
{
    int how;
    char err[700] = "";
    write_trace(0, 4096, 0);
    CHECK(read_trace(0, &how, err, sizeof err) == N);
    CHECK(how == 1);
    char tail[600];
    mpirr_ev_path(tail, sizeof tail, dir, 0, 1);
    CHECK(access(tail, F_OK) != 0); /* a clean close leaves no tail */
}

/* A writer killed without closing: the chunks plus the mapped tail hold every record. */
static void test_killed_writer(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        write_trace(1, 64 << 10, 1);
        _exit(1);
    }
    int st;
    waitpid(pid, &st, 0);
    int how;
    char err[700] = "";
    CHECK(read_trace(1, &how, err, sizeof err) == N);
    CHECK(how == 0); /* cut off, not an error */
}

/* A reader of a trace that is still being written sees every record appended so far, those
 * compressed by a flush and those only staged, as a cut-off history; later readers see more. */
static void test_growing(void)
{
    mpirr_ev_writer *w = open_writer(6, 4096, 0);
    CHECK(w != NULL);
    if (!w) return;
    uint64_t t = 1000, rng = 9, seen_before = 0;
    for (uint64_t i = 0; i < 3000; i++) {
        mpirr_event e;
        mpirr_ev_item items[4];
        make_call(&e, i, &t, &rng, items);
        e.event = i + 1;
        CHECK(mpirr_evw_append(w, &e) == 0);
        if (i == 1000) CHECK(mpirr_evw_flush(w) == 0); /* the debugger's mpirr_flush() */
        if (i % 700 == 0) {
            char err[512];
            mpirr_ev_reader *r = mpirr_evr_open(dir, 6, err, sizeof err);
            CHECK(r != NULL);
            if (!r) continue;
            mpirr_event got;
            uint64_t n = 0;
            int rc;
            while ((rc = mpirr_evr_next(r, &got)) == 1) n++;
            CHECK(rc == 0 && !mpirr_evr_clean(r)); /* still running: cut off, not damaged */
            CHECK(n == i + 1 && n > seen_before);
            seen_before = n;
            mpirr_evr_close(r);
        }
    }
    CHECK(mpirr_evw_close(w, 1) == 0);
}

static off_t file_size(const char *p)
{
    struct stat s;
    return stat(p, &s) ? -1 : s.st_size;
}

static int copy_prefix(const char *from, const char *to, off_t n)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int rc = a && b ? 0 : -1;
    for (off_t i = 0; a && b && i < n; i++) {
        int c = fgetc(a);
        if (c == EOF) break;
        fputc(c, b);
    }
    if (a) fclose(a);
    if (b) fclose(b);
    return rc;
}

/* Every prefix of a finished trace reads as a prefix of its records, then says it was
 * truncated; cuts inside the header fail to open with a message naming the file. */
static void test_truncated(void)
{
    char src[600], dst[600];
    mpirr_ev_path(src, sizeof src, dir, 0, 0);
    mpirr_ev_path(dst, sizeof dst, dir, 2, 0);
    off_t size = file_size(src);
    uint64_t prev = 0;
    /* a file of another rank is refused, naming the file */
    CHECK(copy_prefix(src, dst, size) == 0);
    int how0;
    char err0[700] = "";
    read_trace(2, &how0, err0, sizeof err0);
    CHECK(how0 == -2 && strstr(err0, dst) && strstr(err0, "expected rank 2"));
    mpirr_ev_path(dst, sizeof dst, dir, 0, 0);
    char keep[700];
    snprintf(keep, sizeof keep, "%s.whole", src);
    CHECK(rename(src, keep) == 0);
    for (off_t cut = 0;; cut = cut + (cut < 200 ? 7 : 211) < size ? cut + (cut < 200 ? 7 : 211) : size) {
        CHECK(copy_prefix(keep, dst, cut) == 0);
        int how;
        char err[700] = "";
        uint64_t got = read_trace(0, &how, err, sizeof err);
        if (cut < 80) { /* the header */
            CHECK(how == -2 && strstr(err, "rank-00000.events"));
        } else {
            /* the writer finished (no tail): a short file is a truncated one, unless only the
             * end of the zstd frame is missing (every record, the end record too, is there) */
            CHECK((how == -1 && strstr(err, "truncated")) || (how == 1 && got == N));
            CHECK(got >= prev); /* longer prefixes give at least as many records */
            prev = got;
        }
        if (cut == size) break;
    }
    CHECK(prev == N);
    CHECK(rename(keep, src) == 0);
}

/* A flipped byte in a chunk: every record before that chunk comes back, then one line
 * naming the file, the rank and the last good event. */
static void test_corrupted(void)
{
    char path[600];
    mpirr_ev_path(path, sizeof path, dir, 0, 0);
    off_t size = file_size(path);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    off_t at = size / 2;
    unsigned char c;
    CHECK(pread(fd, &c, 1, at) == 1);
    c ^= 0x40;
    CHECK(pwrite(fd, &c, 1, at) == 1);
    int how;
    char err[700] = "";
    uint64_t got = read_trace(0, &how, err, sizeof err);
    CHECK(how == -1);
    CHECK(got > 0 && got < N);
    CHECK(strstr(err, "rank-00000.events") && strstr(err, "rank 0") && strstr(err, "after event"));
    c ^= 0x40;
    CHECK(pwrite(fd, &c, 1, at) == 1);
    close(fd);
    /* a garbage file is refused at the header */
    FILE *f = fopen(path, "wb");
    fputs("this is not an event history, just some text that is long enough to have a header", f);
    fclose(f);
    got = read_trace(0, &how, err, sizeof err);
    CHECK(how == -2 && strstr(err, "not an mpirr event history"));
}

/* The header's flags (docs/format.md: at byte 24, the header's FNV-1a 64 at 56) announce the
 * encodings a reader must know: one it does not know is refused as a newer mpirr's, and a
 * block coded with TC_V3 in a history that does not announce it (flag 8) is damage. */
static void set_flags(const char *path, uint32_t flags)
{
    unsigned char h[80];
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0 && pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h);
    memcpy(h + 24, &flags, 4);
    uint64_t check = mpirr_fnv64(MPIRR_FNV64_OFFSET, h, 72);
    memcpy(h + 72, &check, 8);
    CHECK(pwrite(fd, h, sizeof h, 0) == (ssize_t)sizeof h);
    close(fd);
}

static void test_header_flags(void)
{
    char path[600], err[700] = "";
    int how;
    uint32_t flags;
    write_trace(9, 4096, 0);
    mpirr_ev_path(path, sizeof path, dir, 9, 0);
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && pread(fd, &flags, 4, 24) == 4);
    close(fd);
    CHECK((flags & 8) && (flags & 16));
    set_flags(path, flags | 32);
    CHECK(read_trace(9, &how, err, sizeof err) == 0);
    CHECK(how == -2 && strstr(err, "newer mpirr"));
    set_flags(path, flags & ~8u);
    CHECK(read_trace(9, &how, err, sizeof err) == 0);
    CHECK(how == -1 && strstr(err, "rank-00009.events") && strstr(err, "kind"));
    set_flags(path, flags);
    CHECK(read_trace(9, &how, err, sizeof err) == N && how == 1);
}

/* Opening rank's history: refused (want_refused) naming the file with suffix ("events" or
 * "events.tail") as another recording's, or read whole (cut off when killed). */
static void expect_open(int rank, int tail, int want_refused, int killed)
{
    char named[600], err[700] = "";
    mpirr_ev_path(named, sizeof named, dir, rank, tail);
    unsigned refused = mpirr_run_id_refusals();
    int how;
    uint64_t n = read_trace(rank, &how, err, sizeof err);
    if (want_refused) {
        CHECK(how == -2 && mpirr_run_id_refusals() == refused + 1);
        CHECK(strstr(err, named) == err && strstr(err, " belongs to another recording (run id "));
    } else {
        CHECK(n == N && how == !killed && mpirr_run_id_refusals() == refused);
        if (n != N || how != !killed) fprintf(stderr, "rank %d: %llu records, how %d: %s\n", rank, (unsigned long long)n, how, err);
    }
}

/* Rewrites rank's finished history as version 1 wrote it: a 64-byte header, no run id. */
static void make_v1(int rank)
{
    char path[600];
    mpirr_ev_path(path, sizeof path, dir, rank, 0);
    FILE *f = fopen(path, "rb");
    long size = file_size(path);
    unsigned char *b = malloc((size_t)size);
    CHECK(f && b && fread(b, 1, (size_t)size, f) == (size_t)size);
    if (f) fclose(f);
    if (!b) return;
    uint32_t one = 1;
    memcpy(b + 8, &one, 4);
    memmove(b + 64, b + 80, (size_t)size - 80);
    uint64_t check = mpirr_fnv64(MPIRR_FNV64_OFFSET, b, 56);
    memcpy(b + 56, &check, 8);
    f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, (size_t)size - 16, f) == (size_t)size - 16);
    if (f) fclose(f);
    free(b);
}

/* Histories of recordings A and B: each reads with its own id expected (or none); A's with
 * B's tail, or with B's id expected, is refused naming the file. A version 1 history has no
 * id: it reads in a recording without one and is refused in A. */
static void test_run_ids(void)
{
    pid_t pid[2];
    for (int k = 0; k < 2; k++) { /* killed writers: the tails stay */
        writer_id = k ? run_b : run_a;
        if ((pid[k] = fork()) == 0) {
            write_trace(10 + k, 4096, 1);
            _exit(1);
        }
        waitpid(pid[k], NULL, 0);
    }
    writer_id = run_a;
    expect_open(10, 0, 0, 1);
    expect_open(11, 0, 0, 1);
    char err[700];
    mpirr_ev_reader *r = mpirr_evr_open(dir, 10, err, sizeof err);
    CHECK(r && mpirr_evr_info(r)->version == MPIRR_EVENTS_VERSION &&
          mpirr_run_id_equal(&mpirr_evr_info(r)->run_id, &run_a));
    mpirr_evr_close(r);
    mpirr_run_id_expect(&run_a);
    expect_open(10, 0, 0, 1);
    expect_open(11, 0, 1, 1);
    mpirr_run_id_expect(NULL);

    char from[600], to[600];
    mpirr_ev_path(from, sizeof from, dir, 11, 1);
    mpirr_ev_path(to, sizeof to, dir, 10, 1);
    CHECK(copy_prefix(from, to, file_size(from)) == 0);
    expect_open(10, 1, 1, 1);
    mpirr_run_id_expect(&run_a);
    expect_open(10, 1, 1, 1);
    mpirr_run_id_expect(NULL);

    write_trace(12, 4096, 0);
    make_v1(12);
    expect_open(12, 0, 0, 0);
    mpirr_run_id_expect(&(mpirr_run_id){{0}});
    expect_open(12, 0, 0, 0);
    r = mpirr_evr_open(dir, 12, err, sizeof err);
    CHECK(r && mpirr_evr_info(r)->version == 1 && mpirr_run_id_is_none(&mpirr_evr_info(r)->run_id));
    mpirr_evr_close(r);
    mpirr_run_id_expect(&run_a);
    expect_open(12, 0, 1, 0);
    mpirr_run_id_expect(NULL);
}

/* Reads rank's history back: n records, the reconstructed clock never ahead of the real one
 * (checked) and behind it by worst ticks at most. Returns the reader, still open (NULL: none). */
static mpirr_ev_reader *read_lag(int rank, uint64_t *n, uint64_t *worst)
{
    char err[512];
    mpirr_ev_reader *r = mpirr_evr_open(dir, rank, err, sizeof err);
    CHECK(r != NULL);
    *n = *worst = 0;
    mpirr_event e;
    while (r && mpirr_evr_next(r, &e) == 1) {
        CHECK(e.t_begin <= e.x_begin && e.t_end <= e.x_end);
        uint64_t eb = e.x_begin - e.t_begin, ee = e.x_end - e.t_end;
        *worst = eb > *worst ? eb : *worst;
        *worst = ee > *worst ? ee : *worst;
        ++*n;
    }
    return r;
}

/* The reconstructed clock: always at or before the real one, and behind it by less than the
 * largest gap between consecutive timestamps (or the one-tick slack), however long the run
 * (p2d2 section 2.2: deltas against the reconstructed time correct themselves). */
static void test_time_bound(void)
{
    mpirr_ev_writer *w = open_writer(3, 0, 1);
    CHECK(w != NULL);
    if (!w) return;
    uint64_t rng = 7, t = 1000, maxgap = 0;
    enum { LONG = 1000000 };
    for (uint64_t i = 0; i < LONG; i++) {
        /* long stretches of constant small gaps (3 ticks), which a log2 code underestimates
         * every time, with occasional bursts */
        uint64_t g1 = i % 1000 < 990 ? 3 : test_rand(&rng) % 100000;
        uint64_t g2 = i % 1000 < 990 ? 3 : test_rand(&rng) % 1000;
        maxgap = g1 > maxgap ? g1 : maxgap;
        maxgap = g2 > maxgap ? g2 : maxgap;
        mpirr_event e = {.kind = MPIRR_ID_MPI_Send, .event = i + 1};
        t += g1;
        e.x_begin = t;
        t += g2;
        e.x_end = t;
        CHECK(mpirr_evw_append(w, &e) == 0);
    }
    CHECK(mpirr_evw_close(w, 1) == 0);
    uint64_t n, worst;
    mpirr_ev_reader *r = read_lag(3, &n, &worst);
    if (!r) return;
    CHECK(n == LONG);
    CHECK(worst < (maxgap > MPIRR_EV_TIME_SLACK ? maxgap : MPIRR_EV_TIME_SLACK));
    printf("time: %llu records, worst reconstruction error %llu ticks, largest gap %llu ticks\n",
           (unsigned long long)n, (unsigned long long)worst, (unsigned long long)maxgap);
    const mpirr_ev_info *info = mpirr_evr_info(r);
    printf("time: %llu raw bytes, %llu compressed (%.3f bytes/event)\n",
           (unsigned long long)info->raw_bytes, (unsigned long long)info->compressed_bytes,
           (double)info->compressed_bytes / (double)n);
    mpirr_evr_close(r);
}

/* The one-tick slack does not add up: calls whose gaps are 0 or 1 tick, for a long run, keep
 * the reconstructed clock within one tick of the real one (each slack step is taken against
 * the reconstructed time, so a second tick behind is always coded). */
static void test_time_slack(void)
{
    mpirr_ev_writer *w = open_writer(7, 0, 1);
    CHECK(w != NULL);
    if (!w) return;
    uint64_t rng = 11, t = 1000;
    enum { N = 100000 };
    for (uint64_t i = 0; i < N; i++) {
        mpirr_event e = {.kind = MPIRR_ID_MPI_Isend, .event = i + 1, .site = (uint32_t)(i % 4)};
        t += test_rand(&rng) % 2;
        e.x_begin = t;
        t += test_rand(&rng) % 2;
        e.x_end = t;
        CHECK(mpirr_evw_append(w, &e) == 0);
    }
    CHECK(mpirr_evw_close(w, 1) == 0);
    uint64_t n, worst;
    mpirr_ev_reader *r = read_lag(7, &n, &worst);
    if (!r) return;
    CHECK(n == N);
    CHECK(worst <= MPIRR_EV_TIME_SLACK);
    printf("time slack: %llu records of 0-1 tick gaps, worst error %llu ticks\n",
           (unsigned long long)n, (unsigned long long)worst);
    mpirr_evr_close(r);
}

/* Every time-coder model round-trips every code, escapes and runs of zeros (TC_V3's one
 * decision) included, across blocks that share the model: TC_V3 is what the writer uses,
 * TC_V1 and TC_V2 what older histories hold. */
static void test_time_coder(void)
{
    enum { RECS = 20000 };
    uint8_t *syms = malloc(3 * RECS), *out = malloc(tc_bound(3 * RECS));
    uint32_t *sites = malloc(RECS * sizeof *sites);
    unsigned *cbs = malloc(RECS * sizeof *cbs), *ces = malloc(RECS * sizeof *ces);
    uint64_t rng = 5;
    size_t n = 0;
    for (int k = 0; k < RECS; k++) {
        unsigned cb = test_rand(&rng) % 7 ? (unsigned)(test_rand(&rng) % 4) : (unsigned)(test_rand(&rng) % 65);
        unsigned ce = (unsigned)(test_rand(&rng) % (k % 50 ? 6 : 65));
        if (k % 3 == 0 && k % 1000 < 900) cb = ce = 0; /* the time step's calls: no tick */
        cbs[k] = cb;
        ces[k] = ce;
        sites[k] = (uint32_t)(test_rand(&rng) % 200);
        if (cb < 15 && ce < 15) {
            syms[n++] = (uint8_t)(cb | ce << 4);
        } else {
            syms[n++] = 0xff;
            syms[n++] = (uint8_t)cb;
            syms[n++] = (uint8_t)ce;
        }
    }
    for (int version = TC_V1; version <= TC_V3; version++) {
        tc_model *em = tc_model_new(version), *dm = tc_model_new(version);
        CHECK(em && dm && tc_model_version(dm) == version);
        if (!em || !dm) return;
        /* two blocks, split at a record boundary, the model carried over */
        size_t half = 0;
        for (int k = 0; k < RECS / 2; k++) half += cbs[k] < 15 && ces[k] < 15 ? 1 : 3;
        size_t c1 = tc_encode_block(em, syms, half, sites, out);
        size_t c2 = tc_encode_block(em, syms + half, n - half, sites + RECS / 2, out + c1);
        CHECK(c1 <= tc_bound(half) && c2 <= tc_bound(n - half));
        int ok = 1;
        tc_decoder d;
        tc_decoder_start(&d, dm, out, out + c1);
        for (int k = 0; k < RECS; k++) {
            if (k == RECS / 2) tc_decoder_start(&d, dm, out + c1, out + c1 + c2);
            unsigned cb, ce;
            tc_decode_times(&d, sites[k], &cb, &ce);
            ok &= cb == cbs[k] && ce == ces[k] && !d.overrun;
        }
        CHECK(ok);
        printf("time coder v%d: %d records, %zu raw bytes coded in %zu\n", version, RECS, n, c1 + c2);
        tc_model_free(em);
        tc_model_free(dm);
    }
    CHECK(tc_model_new(TC_V3 + 1) == NULL);
    free(syms);
    free(out);
    free(sites);
    free(cbs);
    free(ces);
}

/* A communication phase repeated many times stores as one pattern plus references. */
static void test_repetition(void)
{
    mpirr_ev_writer *w = open_writer(4, 0, 0);
    CHECK(w != NULL);
    if (!w) return;
    enum { PHASE = 18, STEPS = 20000 };
    uint64_t ev = 0, t = 1000;
    for (int s = 0; s < STEPS; s++)
        for (int k = 0; k < PHASE; k++) {
            mpirr_event e = {.kind = k % 3 == 0 ? MPIRR_ID_MPI_Isend
                                     : k % 3 == 1 ? MPIRR_ID_MPI_Irecv : MPIRR_ID_MPI_Wait,
                             .event = ++ev, .site = (uint32_t)k,
                             .fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES,
                             .peer = k < 9 ? 1 : 3, .tag = 5, .bytes = 8192};
            t += 1 << 14; /* steady phases: identical time codes */
            e.x_begin = t;
            t += 1 << 10;
            e.x_end = t;
            CHECK(mpirr_evw_append(w, &e) == 0);
        }
    CHECK(mpirr_evw_close(w, 1) == 0);
    char err[512];
    mpirr_ev_reader *r = mpirr_evr_open(dir, 4, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    mpirr_event e;
    uint64_t n = 0;
    while (mpirr_evr_next(r, &e) == 1) n++;
    const mpirr_ev_info *info = mpirr_evr_info(r);
    double per = (double)info->compressed_bytes / (double)n;
    printf("repetition: %llu events, %llu raw bytes, %llu compressed: %.4f bytes/event\n",
           (unsigned long long)n, (unsigned long long)info->raw_bytes,
           (unsigned long long)info->compressed_bytes, per);
    CHECK(n == (uint64_t)PHASE * STEPS);
    CHECK(per < 0.05);
    mpirr_evr_close(r);
}

/* Received sizes equal to their prediction (the posted size, a blocking receive's own
 * bytes) are stored as 0 when the header says so (flag 2); a history without the flag stores
 * and reads every size as it is, as older writers did. With a size column (flag 4) the bytes
 * fields leave the records for the column, as move-to-front codes: a size seen among the
 * last MPIRR_EV_RECENT_SIZES distinct ones is one byte. */
static void test_size_codes(void)
{
    mpirr_ev_item items[2] = {{0, MPIRR_EVI_RECV, 1, 0, 70000}, {1, MPIRR_EVI_RECV, 1, 0, 123}};
    mpirr_event calls[4] = {
        {.kind = MPIRR_ID_MPI_Irecv, .event = 1, .fields = MPIRR_EVF_BYTES | MPIRR_EVF_REQ,
         .bytes = 70000, .req = 0},
        {.kind = MPIRR_ID_MPI_Waitall, .event = 2, .fields = MPIRR_EVF_DONE, .nitems = 2,
         .items = items},
        {.kind = MPIRR_ID_MPI_Recv, .event = 3, .fields = MPIRR_EVF_BYTES | MPIRR_EVF_MATCH,
         .bytes = 40000, .src = 1, .got = 40000},
        {.kind = MPIRR_ID_MPI_Send, .event = 4, .fields = MPIRR_EVF_BYTES, .bytes = 70000},
    };
    size_t len[3] = {0, 0, 0}, column[3] = {0, 0, 0};
    for (int mode = 0; mode < 3; mode++) {
        mpirr_ev_codec *wc = calloc(1, sizeof *wc), *rc = calloc(1, sizeof *rc);
        wc->size_codes = rc->size_codes = mode >= 1;
        wc->size_column = rc->size_column = mode == 2;
        mpirr_ev_scratch scratch = {0};
        for (int i = 0; i < 4; i++) {
            uint8_t out[256], times[MPIRR_EV_TIMES_MAX], sizes[MPIRR_EV_SIZES_MAX];
            size_t nt, ns;
            mpirr_event e = calls[i], d;
            size_t n = mpirr_ev_encode(wc, &e, 0, out, times, &nt, sizes, &ns);
            CHECK(mode == 2 ? ns == ((calls[i].fields & MPIRR_EVF_BYTES) != 0) * (i == 3 ? 1u : 3u)
                            : ns == 0);
            len[mode] += n;
            column[mode] += ns;
            const char *why = NULL;
            const uint8_t *sp = sizes;
            if (ns) /* the size is part of the record: without it the record is incomplete */
                CHECK(mpirr_ev_decode(rc, out, out + n, one_time, times, &sp, sizes + ns - 1, &d,
                                      &scratch, &why) == 0 && sp == sizes);
            CHECK(mpirr_ev_decode(rc, out, out + n, one_time, times, &sp, sizes + ns, &d, &scratch,
                                  &why) == (long)n);
            CHECK(sp == sizes + ns);
            CHECK(same_call(&calls[i], &d));
        }
        mpirr_ev_scratch_free(&scratch);
        free(wc);
        free(rc);
    }
    /* the first item's 70000 (3 varint bytes) and the Recv's 40000 (3) became one byte each */
    CHECK(len[1] + 4 == len[0]);
    /* the three sizes moved to the column: 70000 and 40000 new (3 bytes), 70000 again (1) */
    CHECK(len[2] + 9 == len[1] && column[2] == 7);
}

/* One-sided fields (MPIRR_EVF_RMA) survive the round trip, a post's group with them; a reader
 * whose header lacks flag 16 refuses them, and every reader refuses a field bit it does not
 * know, in words, instead of reading the next fields out of place. */
static void test_rma_fields(void)
{
    int32_t group[2] = {1, 3};
    mpirr_event calls[2] = {
        {.kind = MPIRR_ID_MPI_Accumulate, .event = 1, .fields = MPIRR_EVF_PEER | MPIRR_EVF_BYTES | MPIRR_EVF_RMA,
         .peer = 2, .bytes = 16, .win = 3, .rma = MPIRR_RMA_ACC, .target = 5, .disp = 1u << 20, .span = 28,
         .rma_op = MPIRR_RMA_OP_SUM, .rma_type = MPIRR_RMA_TYPE_INT, .x_begin = 2000, .x_end = 3000},
        {.kind = MPIRR_ID_MPI_Win_post, .event = 2, .fields = MPIRR_EVF_RMA, .win = 3, .rma = MPIRR_RMA_POST,
         .target = MPIRR_EV_PROC_NULL, .nranks = 2, .ranks = group, .x_begin = 4000, .x_end = 5000},
    };
    mpirr_ev_writer *w = open_writer(8, 4096, 0);
    CHECK(w != NULL);
    if (!w) return;
    for (int i = 0; i < 2; i++) {
        mpirr_event e = calls[i];
        CHECK(mpirr_evw_append(w, &e) == 0);
    }
    CHECK(mpirr_evw_close(w, 1) == 0);
    char err[700] = "", path[600];
    mpirr_ev_reader *r = mpirr_evr_open(dir, 8, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    mpirr_event d;
    for (int i = 0; i < 2; i++) {
        CHECK(mpirr_evr_next(r, &d) == 1 && same_call(&calls[i], &d));
        CHECK(d.win == 3 && d.rma == calls[i].rma && d.target == calls[i].target && d.disp == calls[i].disp &&
              d.span == calls[i].span && d.rma_op == calls[i].rma_op && d.rma_type == calls[i].rma_type &&
              d.lock == 0 && d.nranks == calls[i].nranks &&
              (!d.nranks || !memcmp(d.ranks, group, sizeof group)));
    }
    mpirr_evr_close(r);
    /* the same records in a history without flag 16: refused in words at the first */
    uint32_t flags = 0;
    mpirr_ev_path(path, sizeof path, dir, 8, 0);
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && pread(fd, &flags, 4, 24) == 4 && (flags & 16));
    close(fd);
    set_flags(path, flags & ~16u);
    r = mpirr_evr_open(dir, 8, err, sizeof err);
    CHECK(r && mpirr_evr_next(r, &d) == -1 && strstr(mpirr_evr_error(r), "unknown record fields"));
    if (r) mpirr_evr_close(r);
    /* a Barrier with field bit 16 (mask byte 0x80, then 1 << 9 as a varint), site 0 */
    uint8_t future[] = {MPIRR_ID_MPI_Barrier, 0x80, 0x80, 0x04, 0}, time0 = 0;
    mpirr_ev_codec *rc = calloc(1, sizeof *rc);
    mpirr_ev_scratch scratch = {0};
    const uint8_t *sp = NULL;
    const char *why = NULL;
    rc->rma_fields = 1;
    CHECK(mpirr_ev_decode(rc, future, future + sizeof future, one_time, &time0, &sp, NULL, &d, &scratch, &why) ==
              -1 && why && strstr(why, "unknown record fields"));
    mpirr_ev_scratch_free(&scratch);
    free(rc);
}

/* Call ids from 256 (the generated rows) are the byte 249 and a varint; ids below stay one
 * byte, so older histories read as before; 249 with an id below 256 or past the table is
 * malformed, not a call. */
static void test_long_call_ids(void)
{
    mpirr_event calls[3] = {
        {.kind = MPIRR_ID_MPI_Send, .event = 1},
        {.kind = MPIRR_ID_MPI_Neighbor_alltoall, .event = 2, .fields = MPIRR_EVF_COMM, .comm = 1},
        {.kind = MPIRR_CALL_ID_LIMIT - 1, .event = 3},
    };
    CHECK(MPIRR_ID_MPI_Neighbor_alltoall >= 256 && mpirr_ev_is_call(MPIRR_ID_MPI_Neighbor_alltoall));
    CHECK(!mpirr_ev_is_call(MPIRR_EVK_COMM) && mpirr_ev_is_call(MPIRR_ID_MPI_Send));
    mpirr_ev_codec *wc = calloc(1, sizeof *wc), *rc = calloc(1, sizeof *rc);
    mpirr_ev_scratch scratch = {0};
    uint8_t out[256], times[MPIRR_EV_TIMES_MAX], sizes[MPIRR_EV_SIZES_MAX];
    size_t nt, ns;
    const char *why = NULL;
    const uint8_t *sp = sizes;
    for (int i = 0; i < 2; i++) {
        mpirr_event e = calls[i], d;
        size_t n = mpirr_ev_encode(wc, &e, 0, out, times, &nt, sizes, &ns);
        CHECK(out[0] == (i == 0 ? MPIRR_ID_MPI_Send : MPIRR_EVK_LONG_CALL));
        CHECK(mpirr_ev_decode(rc, out, out + n, one_time, times, &sp, sizes + ns, &d, &scratch,
                              &why) == (long)n);
        CHECK(same_call(&calls[i], &d));
    }
    /* no row has the last id: an unknown call; a long form of a short id: malformed */
    mpirr_event e = calls[2], d;
    size_t n = mpirr_ev_encode(wc, &e, 0, out, times, &nt, sizes, &ns);
    CHECK(mpirr_ev_decode(rc, out, out + n, one_time, times, &sp, sizes + ns, &d, &scratch,
                          &why) == -1 && why && strstr(why, "unknown call id"));
    uint8_t bad[] = {MPIRR_EVK_LONG_CALL, MPIRR_ID_MPI_Send, 0, 0};
    why = NULL;
    CHECK(mpirr_ev_decode(rc, bad, bad + sizeof bad, one_time, times, &sp, sizes, &d, &scratch,
                          &why) == -1 && why && strstr(why, "below 256"));
    mpirr_ev_scratch_free(&scratch);
    free(wc);
    free(rc);
}

/* A record larger than the stage (a Waitall over many requests) goes straight through. */
static void test_big_record(void)
{
    mpirr_ev_writer *w = open_writer(5, 4096, 0);
    CHECK(w != NULL);
    if (!w) return;
    enum { ITEMS = 50000 };
    mpirr_ev_item *items = calloc(ITEMS, sizeof *items);
    for (uint32_t i = 0; i < ITEMS; i++) items[i] = (mpirr_ev_item){i, MPIRR_EVI_RECV, (int32_t)(i % 7), 1, i};
    mpirr_event e = {.kind = MPIRR_ID_MPI_Waitall, .event = 1, .fields = MPIRR_EVF_DONE,
                     .nitems = ITEMS, .items = items, .x_begin = 2000, .x_end = 3000};
    CHECK(mpirr_evw_append(w, &e) == 0);
    mpirr_event s = {.kind = MPIRR_ID_MPI_Barrier, .event = 2, .x_begin = 4000, .x_end = 5000};
    CHECK(mpirr_evw_append(w, &s) == 0);
    CHECK(mpirr_evw_close(w, 1) == 0);
    char err[512];
    mpirr_ev_reader *r = mpirr_evr_open(dir, 5, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        mpirr_event got;
        CHECK(mpirr_evr_next(r, &got) == 1 && got.nitems == ITEMS && got.items[ITEMS - 1].got == ITEMS - 1 &&
              got.items[12].src == 5);
        CHECK(mpirr_evr_next(r, &got) == 1 && got.kind == MPIRR_ID_MPI_Barrier && got.event == 2);
        CHECK(mpirr_evr_next(r, &got) == 0 && mpirr_evr_clean(r));
        mpirr_evr_close(r);
    }
    free(items);
}

int main(void)
{
    test_long_call_ids();
    if (!mkdtemp(dir)) return 1;
    test_round_trip();
    test_killed_writer();
    test_growing();
    test_truncated();
    test_corrupted();
    test_time_bound();
    test_time_slack();
    test_time_coder();
    test_repetition();
    test_size_codes();
    test_big_record();
    test_rma_fields();
    test_header_flags();
    test_run_ids();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) return 1;
    return CHECK_DONE();
}
