/* test_rank_log.c: the rank log writer and reader: round trips across many frames, recordings
 * left by a process that died (fatal signal, SIGKILL) without closing its log (with races mode's
 * pending verdicts and counters), and truncated or
 * corrupted files, which must yield exactly a prefix of the records and a message naming the
 * file, never a crash or a wrong record; every coding of MPI_Wtime values a reader meets; a
 * log, tail or pending file of another recording (run id) refused, naming it, and logs of
 * version 1 (no run id) still read. */
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call_count_slots.h"
#include "call_ids.h"
#include "check.h"
#include "log_layout.h"
#include "pending_slots.h"
#include "rank_log.h"
#include "record_codec.h"
#include "varint.h"

enum { NREC = 5000 };
static mpirr_record recs[NREC];
static int32_t idx_pool[NREC][4];
static char dir[] = "/tmp/mpirr-test-ranklog-XXXXXX";

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { return test_rand(&rng); }

/* A plausible mix of every record kind, events increasing, some deferred. */
static void make_records(void)
{
    uint64_t ev = 1;
    double t = 1.5e9;
    int64_t ns = 463145058998; /* MPICH's clock: since boot */
    for (int i = 0; i < NREC; i++) {
        mpirr_record *r = &recs[i];
        memset(r, 0, sizeof *r);
        ev += 1 + next() % 50;
        r->event = r->written = ev;
        switch (next() % 6) {
        case 0:
            r->kind = MPIRR_REC_MATCH, r->call = MPIRR_ID_MPI_Recv, r->has_match = 1;
            r->source = (int32_t)(next() % 64), r->tag = (int32_t)(next() % 5) - 1;
            break;
        case 1:
            r->kind = MPIRR_REC_TEST_OK, r->call = MPIRR_ID_MPI_Testsome;
            r->count = 1 + (int32_t)(next() % 4);
            for (int k = 0; k < r->count; k++) idx_pool[i][k] = (int32_t)(next() % 100);
            r->indices = idx_pool[i];
            break;
        case 2:
            r->kind = MPIRR_REC_CHOICE, r->call = MPIRR_ID_MPI_Waitany;
            r->count = (int32_t)(next() % 9) - 1; /* includes MPI_UNDEFINED (-1) */
            break;
        case 3:
            r->kind = MPIRR_REC_RECV_DONE, r->call = MPIRR_ID_MPI_Startall;
            r->event = ev - 1 - next() % 20;
            r->sub = (uint32_t)(next() % 3);
            r->cancelled = next() % 4 == 0;
            if (!r->cancelled) r->has_match = 1, r->source = 3, r->tag = 7;
            break;
        case 4: { /* MPI_Wtime values of every form the codec tells apart */
            r->kind = MPIRR_REC_WTIME, r->call = MPIRR_ID_MPI_Wtime;
            static const double odd[] = {1.5e9, -0.0, 0.0, -3.25, 1e300, 0.1 + 0.2};
            uint64_t form = next() % 8;
            double v;
            if (form < 4) { /* whole nanoseconds of a clock, as both MPIs return them */
                ns += (int64_t)(next() % 5000000);
                v = (double)ns / 1e9 + (form == 3 ? 1e-16 : 0.0); /* or an ulp or so off */
            } else if (form < 6) {
                t += (double)(next() % 1000) * 1e-6; /* beyond the nanosecond range */
                v = t;
            } else if (form == 6) {
                v = odd[next() % (sizeof odd / sizeof *odd)];
            } else {
                uint64_t nan = 0x7ff8000000000123ull;
                memcpy(&v, &nan, sizeof v);
            }
            memcpy(&r->value, &v, sizeof v);
            break;
        }
        default:
            r->kind = MPIRR_REC_TEST_OK, r->call = MPIRR_ID_MPI_Iprobe, r->has_match = 1;
            r->source = (int32_t)(next() % 8), r->tag = 0;
            break;
        }
    }
}

static int same(const mpirr_record *a, const mpirr_record *b)
{
    if (a->kind != b->kind || a->call != b->call || a->event != b->event ||
        a->written != b->written || a->sub != b->sub || a->has_match != b->has_match ||
        a->cancelled != b->cancelled || a->count != b->count || a->value != b->value ||
        a->total != b->total)
        return 0;
    if (a->has_match && (a->source != b->source || a->tag != b->tag)) return 0;
    int with_idx = a->call == MPIRR_ID_MPI_Testsome && a->count > 0;
    return !with_idx || !memcmp(a->indices, b->indices, (size_t)a->count * sizeof *a->indices);
}

/* The recordings the tests write (run_a) and one they must not mix with (run_b). */
static const mpirr_run_id run_a = {{0x81, 0xc0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}};
static const mpirr_run_id run_b = {{0x3f, 0x9a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}};

static mpirr_log_header header(void)
{
    mpirr_log_header h;
    memset(&h, 0, sizeof h);
    h.run_id = run_a;
    h.rank = 2, h.nranks = 4, h.pid = 42, h.flags = MPIRR_LOG_FLAG_WTIME;
    h.exe_fingerprint = 0xfeedull;
    snprintf(h.exe_path, sizeof h.exe_path, "/bin/app");
    snprintf(h.mpi_library, sizeof h.mpi_library, "Test MPI");
    return h;
}

/* Writers create their files new (O_EXCL): remove rank 2's files of the previous case. */
static mpirr_log_writer *open_fresh_as(const char *d, size_t stage, uint32_t flags,
                                       const mpirr_run_id *id)
{
    static const char *const suffixes[] = {"log", "tail", "pending"};
    char path[700], err[512];
    for (int i = 0; i < 3; i++) {
        mpirr_log_path(path, sizeof path, d, 2, suffixes[i]);
        unlink(path);
    }
    mpirr_log_header h = header();
    h.flags |= flags;
    h.run_id = *id;
    mpirr_log_writer *w = mpirr_log_writer_open(d, &h, stage, err, sizeof err);
    if (!w) fprintf(stderr, "%s\n", err);
    return w;
}

static mpirr_log_writer *open_fresh(const char *d, size_t stage, uint32_t flags)
{
    return open_fresh_as(d, stage, flags, &run_a);
}

/* Writes the first n records; close=0 leaves the writer open (the process then dies). */
static void write_log(const char *d, int n, size_t stage, int close)
{
    mpirr_log_writer *w = open_fresh(d, stage, 0);
    CHECK(w != NULL);
    if (!w) return;
    for (int i = 0; i < n; i++) CHECK(mpirr_log_append(w, &recs[i]) == 0);
    if (close) {
        mpirr_log_set_ending(w, MPIRR_END_FINALIZED, 0);
        CHECK(mpirr_log_close(w) == 0);
    }
}

/* Reads path; returns records read (all checked against recs), *rc the final read result. */
static int read_log(const char *path, int *rc, char *err, size_t errlen, int *ending)
{
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, errlen);
    if (!r) {
        *rc = -2;
        return 0;
    }
    const mpirr_log_header *h = mpirr_log_reader_header(r);
    CHECK(h->rank == 2 && h->nranks == 4 && h->exe_fingerprint == 0xfeedull);
    CHECK(!strcmp(h->exe_path, "/bin/app"));
    int n = 0;
    mpirr_record rec;
    while ((*rc = mpirr_log_read(r, &rec)) == 1) {
        CHECK(n < NREC && same(&rec, &recs[n]));
        n++;
    }
    if (*rc < 0) snprintf(err, errlen, "%s", mpirr_log_reader_error(r));
    if (ending) *ending = mpirr_log_reader_ending(r, NULL);
    mpirr_log_reader_close(r);
    return n;
}

static void copy_prefix(const char *from, const char *to, long len, long flip_at)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    for (long i = 0; i < len; i++) {
        int c = fgetc(a);
        if (c == EOF) break;
        if (i == flip_at) c ^= 0x20;
        fputc(c, b);
    }
    fclose(a);
    fclose(b);
}

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) ? -1 : (long)st.st_size;
}

/* Copies rank 2's file with this suffix from one directory to another, one byte flipped. */
static void copy_sibling(const char *from_dir, const char *to_dir, const char *suffix, long flip_at)
{
    char a[600], b[700];
    mpirr_log_path(a, sizeof a, from_dir, 2, suffix);
    mpirr_log_path(b, sizeof b, to_dir, 2, suffix);
    copy_prefix(a, b, file_size(a), flip_at);
}

/* What a reader makes of a recording: records, final result, ending, progress, hold point. */
struct outcome {
    int n, rc, ending;
    uint64_t events, hold, pending;
    char err[512];
};

static struct outcome read_outcome(const char *path)
{
    struct outcome o = {0};
    mpirr_log_reader *r = mpirr_log_reader_open(path, o.err, sizeof o.err);
    if (!r) {
        o.rc = -2;
        return o;
    }
    mpirr_record rec;
    while ((o.rc = mpirr_log_read(r, &rec)) == 1) o.n++;
    if (o.rc < 0) snprintf(o.err, sizeof o.err, "%s", mpirr_log_reader_error(r));
    o.ending = mpirr_log_reader_ending(r, NULL);
    o.events = mpirr_log_reader_events(r);
    o.hold = mpirr_log_reader_hold_event(r);
    o.pending = mpirr_log_reader_pending(r);
    mpirr_log_reader_close(r);
    return o;
}

static int same_outcome(const struct outcome *a, const struct outcome *b)
{
    return a->n == b->n && a->rc == b->rc && a->ending == b->ending && a->events == b->events &&
           a->hold == b->hold && a->pending == b->pending;
}

/* Tail bytes a reader relies on (docs/format.md): magic and version, the published stage
 * word, the ending, the progress, the pending-file word, the run id and its check. The
 * counters are statistics and the rest of the header page is unused. */
static int tail_byte_checked(long at, long staged)
{
    return at < 12 || (at >= 16 && at < 32) || (at >= 56 && at < 64) ||
           (at >= 1024 && at < 1056) || (at >= 4096 && at < 4096 + staged);
}

/* A rank killed (SIGKILL) in the middle of event 777 with staged records and pending slots,
 * then every byte of its tail and pending file flipped in turn: each flip is either reported,
 * naming the file, or changes nothing a reader returns; flips of checked bytes are reported. */
static void test_staged_damage(void)
{
    char src[600], cut[600], path[700], err[512];
    snprintf(src, sizeof src, "%s/killed", dir);
    snprintf(cut, sizeof cut, "%s/flipped", dir);
    mkdir(src, 0755);
    mkdir(cut, 0755);
    pid_t pid = fork();
    if (pid == 0) {
        mpirr_log_writer *w = open_fresh(src, 4096, MPIRR_LOG_FLAG_RACES);
        mpirr_pending_slots *p = mpirr_pending_open(src, 2, &run_a, 4, err, sizeof err);
        if (!w || !p) _exit(4);
        mpirr_log_note_pending(w, 1);
        for (int i = 0; i < 1500; i++) mpirr_log_append(w, &recs[i]);
        for (uint32_t i = 0; i < 3; i++) {
            mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = MPIRR_ID_MPI_Irecv,
                              .event = 700 + i, .has_match = 1, .source = 1, .tag = 2};
            mpirr_pending_set(p, i, &r);
        }
        mpirr_pending_clear(p, 1);
        *mpirr_log_progress(w) = mpirr_progress_word(777, 1);
        raise(SIGKILL);
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    mpirr_log_path(path, sizeof path, src, 2, "log");
    struct outcome good = read_outcome(path);
    CHECK(good.rc == 0 && good.n == 1502 && good.pending == 2);
    CHECK(good.ending == MPIRR_END_CUT && good.events == 777 && good.hold == 777);

    char tpath[700], ppath[700];
    mpirr_log_path(tpath, sizeof tpath, src, 2, "tail");
    mpirr_log_path(ppath, sizeof ppath, src, 2, "pending");
    FILE *t = fopen(tpath, "rb");
    uint8_t word[8];
    CHECK(t && fseek(t, 16, SEEK_SET) == 0 && fread(word, 1, 8, t) == 8);
    if (t) fclose(t);
    long staged = word[0] | word[1] << 8 | word[2] << 16 | (long)word[3] << 24;
    CHECK(staged > 20 && staged <= 4096 + 20);
    mpirr_log_path(path, sizeof path, cut, 2, "log");
    copy_sibling(src, cut, "log", -1);
    copy_sibling(src, cut, "pending", -1);
    int checked = 0, reported = 0;
    long tail_size = file_size(tpath);
    for (long at = 0; at < tail_size; at++) {
        if (!tail_byte_checked(at, staged) && at % 13) continue; /* unchecked bytes: a sample */
        copy_sibling(src, cut, "tail", at);
        struct outcome o = read_outcome(path);
        int bad = o.rc != 0;
        if (bad) CHECK(strstr(o.err, "rank-00002.tail") != NULL);
        else CHECK(same_outcome(&o, &good));
        if (tail_byte_checked(at, staged)) checked++, reported += bad;
    }
    CHECK(checked > 300 && reported == checked);
    copy_sibling(src, cut, "tail", -1);
    checked = reported = 0;
    for (long at = 0; at < file_size(ppath); at++) {
        copy_sibling(src, cut, "pending", at);
        struct outcome o = read_outcome(path);
        int bad = o.rc != 0;
        if (bad) CHECK(strstr(o.err, "rank-00002.pending") != NULL);
        else CHECK(same_outcome(&o, &good));
        /* the header and every slot's state word; the content of live slots (0 and 2) */
        long slot = (at - 64) / 32, in = (at - 64) % 32;
        if (at < 12 || (at >= 16 && at < 40) || (at >= 64 && (in >= 24 || slot == 0 || slot == 2)))
            checked++, reported += bad;
    }
    CHECK(checked == 12 + 24 + 4 * 8 + 2 * 24 && reported == checked);

    /* a missing tail, or a missing pending file the tail says exists: reported, not read as
     * a shorter recording */
    mpirr_log_path(ppath, sizeof ppath, cut, 2, "pending");
    unlink(ppath);
    struct outcome o = read_outcome(path);
    CHECK(o.rc == -1 && strstr(o.err, "rank-00002.pending") && strstr(o.err, "missing"));
    copy_sibling(src, cut, "pending", -1);
    mpirr_log_path(tpath, sizeof tpath, cut, 2, "tail");
    unlink(tpath);
    o = read_outcome(path);
    CHECK(o.rc == -1 && strstr(o.err, "rank-00002.tail") != NULL);
}

/* A races-mode rank of recording id killed with 3 records and a live pending slot in d. */
static void killed_with_pending(const char *d, const mpirr_run_id *id)
{
    mkdir(d, 0755);
    pid_t pid = fork();
    if (pid == 0) {
        char e[512];
        mpirr_log_writer *w = open_fresh_as(d, 4096, MPIRR_LOG_FLAG_RACES, id);
        mpirr_pending_slots *p = mpirr_pending_open(d, 2, id, 4, e, sizeof e);
        if (!w || !p) _exit(4);
        mpirr_log_note_pending(w, 1);
        for (int i = 0; i < 3; i++) mpirr_log_append(w, &recs[i]);
        mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = MPIRR_ID_MPI_Irecv, .event = 9,
                          .has_match = 1, .source = 1, .tag = 2};
        mpirr_pending_set(p, 0, &r);
        raise(SIGKILL);
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Opening d's rank 2 log: NULL with err naming d's rank 2 file `suffix` as another
 * recording's (want_refused), or a reader of 3 records and the pending one. */
static void expect_open(const char *d, const char *suffix, int want_refused)
{
    char path[700], named[700], err[1024];
    mpirr_log_path(path, sizeof path, d, 2, "log");
    mpirr_log_path(named, sizeof named, d, 2, suffix);
    unsigned refused = mpirr_run_id_refusals();
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, sizeof err);
    if (want_refused) {
        CHECK(r == NULL && mpirr_run_id_refusals() == refused + 1);
        CHECK(r == NULL && strstr(err, named) == err && strstr(err, " belongs to another recording (run id "));
    } else {
        CHECK(r != NULL && mpirr_run_id_refusals() == refused);
        if (!r) fprintf(stderr, "%s\n", err);
        struct outcome o = read_outcome(path);
        CHECK(o.rc == 0 && o.n == 4 && o.pending == 1);
    }
    mpirr_log_reader_close(r);
}

/* Rewrites d's rank 2 log and tail as version 1 and 2 wrote them (no run id anywhere). */
static void make_old(const char *d)
{
    char path[700];
    uint8_t h[FILE_HEADER_BYTES], t[12];
    mpirr_log_path(path, sizeof path, d, 2, "log");
    FILE *f = fopen(path, "r+b");
    CHECK(f && fread(h, 1, sizeof h, f) == sizeof h);
    mpirr_put_u32(h + FH_VERSION, 1);
    memset(h + FH_RUN_ID, 0, MPIRR_RUN_ID_BYTES);
    mpirr_put_u64(h + FH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, FH_CHECK));
    CHECK(f && fseek(f, 0, SEEK_SET) == 0 && fwrite(h, 1, sizeof h, f) == sizeof h);
    if (f) fclose(f);
    mpirr_log_path(path, sizeof path, d, 2, "tail");
    f = fopen(path, "r+b");
    memcpy(t, TAIL_MAGIC_V2, 8);
    mpirr_put_u32(t + TL_VERSION, 2);
    CHECK(f && fwrite(t, 1, sizeof t, f) == sizeof t);
    if (f) fclose(f);
}

/* Files of two recordings (run ids A and B): each reads on its own, against its own id; a
 * tail or pending file of B beside A's log is refused naming it, as is any file when the id
 * expected is another. Old files (log version 1, tail version 2) have none: they read in a
 * recording without an id and are refused in one with, and the reverse. */
static void test_run_ids(void)
{
    char a[600], b[600], c[600], path[700], err[1024];
    snprintf(a, sizeof a, "%s/run-a", dir);
    snprintf(b, sizeof b, "%s/run-b", dir);
    snprintf(c, sizeof c, "%s/spliced", dir);
    killed_with_pending(a, &run_a);
    killed_with_pending(b, &run_b);
    mkdir(c, 0755);
    expect_open(a, "log", 0);
    expect_open(b, "log", 0);
    mpirr_log_path(path, sizeof path, a, 2, "log");
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, sizeof err);
    CHECK(r && mpirr_run_id_equal(&mpirr_log_reader_header(r)->run_id, &run_a));
    mpirr_log_reader_close(r);

    mpirr_run_id_expect(&run_a);
    expect_open(a, "log", 0);
    expect_open(b, "log", 1);
    mpirr_log_path(path, sizeof path, b, 2, "log");
    CHECK(!mpirr_log_reader_open(path, err, sizeof err));
    CHECK(strstr(err, "run id 3f9a0102030405060708090a0b0c0d0e, this recording's is "
                      "81c00102030405060708090a0b0c0d0e)") != NULL);
    mpirr_run_id_expect(NULL);

    /* B's tail, then B's pending file beside A's log */
    copy_sibling(a, c, "log", -1);
    copy_sibling(b, c, "tail", -1);
    copy_sibling(a, c, "pending", -1);
    expect_open(c, "tail", 1);
    copy_sibling(a, c, "tail", -1);
    expect_open(c, "log", 0);
    copy_sibling(b, c, "pending", -1);
    expect_open(c, "pending", 1);
    mpirr_run_id_expect(&run_a);
    expect_open(c, "pending", 1);
    mpirr_run_id_expect(NULL);

    /* old files: no id; readable alone and in a recording without one, refused in A */
    copy_sibling(a, c, "pending", -1);
    make_old(c);
    mpirr_run_id_expect(&(mpirr_run_id){{0}});
    expect_open(c, "pending", 1); /* still A's */
    mpirr_log_path(path, sizeof path, c, 2, "pending");
    FILE *f = fopen(path, "r+b");
    CHECK(f && fwrite(MPIRR_PENDING_MAGIC_V2, 1, 8, f) == 8);
    if (f) fclose(f);
    expect_open(c, "log", 0);
    mpirr_run_id_expect(&run_a);
    expect_open(c, "log", 1);
    mpirr_run_id_expect(NULL);
    expect_open(c, "log", 0);
    /* an old log with A's (new) tail: the tail is another recording's */
    copy_sibling(a, c, "tail", -1);
    expect_open(c, "tail", 1);
}

/* Where a replay holds a rank: after the last call that returned when the run was stopped from
 * outside (SIGKILL: the call it was in is not made; SIGTERM between calls: the next one is not),
 * nowhere when the program's own course ended it. */
static void test_hold_point(void)
{
    static const struct {
        int ending, detail, in_call;
        uint64_t hold;
    } cases[] = {
        {MPIRR_END_CUT, 0, 1, 40},        {MPIRR_END_CUT, 0, 0, 41},
        {MPIRR_END_SIGNAL, SIGTERM, 0, 41}, {MPIRR_END_SIGNAL, SIGSEGV, 0, 0},
        {MPIRR_END_ABORT, 3, 1, 0},       {MPIRR_END_INCOMPLETE, 28, 1, 40},
        {MPIRR_END_FINALIZED, 0, 0, 0},
    };
    char path[600];
    mpirr_log_path(path, sizeof path, dir, 2, "log");
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpirr_log_writer *w = open_fresh(dir, 4096, 0);
        CHECK(w != NULL);
        if (!w) return;
        for (int k = 0; k < 5; k++) mpirr_log_append(w, &recs[k]);
        *mpirr_log_progress(w) = mpirr_progress_word(40, cases[i].in_call);
        mpirr_log_set_ending(w, cases[i].ending, cases[i].detail);
        CHECK(mpirr_log_close(w) == 0);
        struct outcome o = read_outcome(path);
        CHECK(o.rc == 0 && o.n == 5 && o.events == 40 && o.ending == cases[i].ending);
        CHECK(o.hold == cases[i].hold);
    }
}

/* Every MPI_Wtime coding readers meet (bit deltas, nanosecond deltas: older logs; bit length
 * and low bits inline: a stage; the low bits in a column: a frame) gives back every value of
 * every form, and a column cut short or padded with ones is refused. */
static void test_wtime_codings(void)
{
    static uint8_t buf[NREC * 40], colbuf[NREC * 8];
    for (int mode = 0; mode < 5; mode++) { /* 4: a column, steps in microseconds */
        mpirr_bit_column col = {.out = colbuf};
        mpirr_codec_state enc = {.wtime_ns = mode > 0, .wtime_split = mode > 1,
                                 .wtime_unit = mode == 4 ? 1000 : 0,
                                 .col = mode >= 3 ? &col : NULL};
        mpirr_codec_state dec = enc;
        size_t n = 0;
        int nw = 0;
        for (int i = 0; i < NREC; i++)
            if (recs[i].kind == MPIRR_REC_WTIME) {
                n += mpirr_record_encode(buf + n, &recs[i], &enc);
                nw++;
            }
        mpirr_bit_column in = {.in = colbuf, .len = (size_t)((col.pos + 7) / 8)};
        dec.col = mode >= 3 ? &in : NULL;
        const uint8_t *p = buf, *end = buf + n;
        int32_t *idx = NULL;
        size_t idx_cap = 0;
        int got = 0, bad = 0;
        for (int i = 0; i < NREC; i++)
            if (recs[i].kind == MPIRR_REC_WTIME) {
                mpirr_record r;
                const char *msg;
                if (mpirr_record_decode(&p, end, &r, &dec, &idx, &idx_cap, &msg) || !same(&r, &recs[i])) bad++;
                got++;
            }
        CHECK(nw > 500 && got == nw && bad == 0 && p == end);
        if (mode < 3) {
            free(idx);
            continue;
        }
        CHECK(col.pos > 0 && mpirr_bit_column_done(&in));
        /* the last byte's padding set, or the column a byte short */
        unsigned pad = (unsigned)(in.len * 8 - col.pos);
        if (pad) {
            colbuf[in.len - 1] |= 1;
            CHECK(!mpirr_bit_column_done(&in));
            colbuf[in.len - 1] &= (uint8_t)~1u;
        }
        mpirr_bit_column cut = {.in = colbuf, .len = in.len - 1};
        mpirr_codec_state again = {.wtime_ns = 1, .wtime_split = 1, .wtime_unit = enc.wtime_unit,
                                   .col = &cut};
        p = buf;
        int failed = 0;
        for (int i = 0; i < NREC && !failed; i++)
            if (recs[i].kind == MPIRR_REC_WTIME) {
                mpirr_record r;
                const char *msg;
                failed = mpirr_record_decode(&p, end, &r, &again, &idx, &idx_cap, &msg) != 0;
            }
        CHECK(failed || !mpirr_bit_column_done(&cut));
        free(idx);
    }
}

/* A recording at a resolution (record --wtime-resolution): the values the runtime rounds
 * down are whole units below the value, code in fewer bits than the same values in
 * nanoseconds, read back only with their unit, and the unit survives the header; a header
 * with the flag and an impossible unit is refused. */
static void test_wtime_unit(void)
{
    enum { N = 2000, UNIT = 1000 };
    static uint8_t buf[2][N * 16], colbuf[2][N * 8];
    static mpirr_record vals[N];
    int64_t ns = 463145058998;
    int below = 0;
    for (int i = 0; i < N; i++) {
        ns += (int64_t)(next() % 5000000);
        double v = (double)ns / 1e9, t = mpirr_wtime_round(v, UNIT);
        below += t <= v && t > v - UNIT * 1e-9 && (int64_t)(t * 1e9 + 0.5) % UNIT == 0;
        vals[i] = (mpirr_record){.kind = MPIRR_REC_WTIME, .call = MPIRR_ID_MPI_Wtime,
                                 .event = (uint64_t)i + 1, .written = (uint64_t)i + 1};
        memcpy(&vals[i].value, &t, sizeof t);
    }
    CHECK(below == N && mpirr_wtime_round(0.25, 1) == 0.25);
    size_t bits[2];
    for (int u = 0; u < 2; u++) { /* u 1: in units */
        mpirr_bit_column col = {.out = colbuf[u]};
        mpirr_codec_state enc = {.wtime_ns = 1, .wtime_split = 1, .wtime_unit = u ? UNIT : 1,
                                 .col = &col};
        size_t n = 0;
        for (int i = 0; i < N; i++) n += mpirr_record_encode(buf[u] + n, &vals[i], &enc);
        bits[u] = n * 8 + (size_t)col.pos;
        for (int as = 0; as < 2; as++) { /* read with the unit, and without it */
            mpirr_bit_column in = {.in = colbuf[u], .len = (size_t)((col.pos + 7) / 8)};
            mpirr_codec_state dec = {.wtime_ns = 1, .wtime_split = 1,
                                     .wtime_unit = as ? UNIT : 1, .col = &in};
            const uint8_t *p = buf[u], *end = buf[u] + n;
            int32_t *idx = NULL;
            size_t idx_cap = 0;
            int same_all = 1;
            for (int i = 0; i < N && same_all; i++) {
                mpirr_record r;
                const char *msg;
                same_all = !mpirr_record_decode(&p, end, &r, &dec, &idx, &idx_cap, &msg) &&
                           same(&r, &vals[i]);
            }
            free(idx);
            CHECK(same_all == (as == u));
        }
    }
    /* log2(1000) fewer bits a value, less what the bit lengths' code takes */
    CHECK(bits[1] + 8 * N < bits[0]);

    char path[600];
    mpirr_log_header h = header();
    h.rank = 3;
    h.wtime_unit_ns = UNIT;
    char err[512];
    mpirr_log_writer *w = mpirr_log_writer_open(dir, &h, 0, err, sizeof err);
    CHECK(w != NULL);
    for (int i = 0; i < N; i++) CHECK(mpirr_log_append(w, &vals[i]) == 0);
    CHECK(mpirr_log_close(w) == 0);
    mpirr_log_path(path, sizeof path, dir, h.rank, "log");
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    const mpirr_log_header *got = mpirr_log_reader_header(r);
    CHECK((got->flags & MPIRR_LOG_FLAG_WTIME_UNIT) && got->wtime_unit_ns == UNIT);
    mpirr_record rec;
    int n = 0, bad = 0;
    while (mpirr_log_read(r, &rec) == 1) bad += n < N && !same(&rec, &vals[n]), n++;
    CHECK(n == N && bad == 0);
    mpirr_log_reader_close(r);
    /* the unit 0 under the flag (the header's checksum made right again) */
    FILE *f = fopen(path, "r+b");
    uint8_t hd[MPIRR_LOG_HEADER_BYTES];
    CHECK(f && fread(hd, 1, sizeof hd, f) == sizeof hd);
    memset(hd + 752, 0, 4);
    mpirr_put_u64(hd + 760, mpirr_fnv64(MPIRR_FNV64_OFFSET, hd, 760));
    CHECK(fseek(f, 0, SEEK_SET) == 0 && fwrite(hd, 1, sizeof hd, f) == sizeof hd);
    fclose(f);
    r = mpirr_log_reader_open(path, err, sizeof err);
    CHECK(!r && strstr(err, "impossible MPI_Wtime resolution"));
    if (r) mpirr_log_reader_close(r);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    make_records();
    char path[512], err[512], sub[600], tpath[700];
    mpirr_log_path(path, sizeof path, dir, 2, "log");
    int rc, ending;

    /* 1. round trip through many small frames */
    write_log(dir, NREC, 1024, 1);
    CHECK(read_log(path, &rc, err, sizeof err, &ending) == NREC);
    CHECK(rc == 0 && ending == MPIRR_END_FINALIZED);
    long full = file_size(path);
    CHECK(full > 0 && full < NREC * 6); /* compact: a few bytes a record */

    /* 2. a process that dies by a fatal signal after noting it (crash.c does this) */
    pid_t pid = fork();
    if (pid == 0) {
        mpirr_log_writer *w = open_fresh(dir, 4096, 0);
        for (int i = 0; i < 3000; i++) mpirr_log_append(w, &recs[i]);
        mpirr_log_set_ending(w, MPIRR_END_SIGNAL, SIGSEGV);
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    CHECK(read_log(path, &rc, err, sizeof err, &ending) == 3000);
    CHECK(rc == 0 && ending == MPIRR_END_SIGNAL);

    /* 3. SIGKILL: nothing runs in the process, yet every appended record is kept */
    pid = fork();
    if (pid == 0) {
        mpirr_log_writer *w = open_fresh(dir, 4096, 0);
        for (int i = 0; i < 1234; i++) mpirr_log_append(w, &recs[i]);
        raise(SIGKILL);
        _exit(3);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    CHECK(read_log(path, &rc, err, sizeof err, &ending) == 1234);
    CHECK(rc == 0 && ending == MPIRR_END_CUT);

    /* 3b. races mode's pending verdicts survive SIGKILL and come back after the log's records
     * as RECV_DONE outcomes; cleared slots do not; a clean close removes the file */
    pid = fork();
    if (pid == 0) {
        char e[512];
        mpirr_log_writer *w = open_fresh(dir, 4096, 0);
        mpirr_pending_slots *p = mpirr_pending_open(dir, 2, &run_a, 8, e, sizeof e);
        if (!w || !p) _exit(4);
        mpirr_log_note_pending(w, 1);
        for (int i = 0; i < 10; i++) mpirr_log_append(w, &recs[i]);
        mpirr_log_counters(w)[MPIRR_CTR_MSGS_SENT] = 77;
        for (int i = 0; i < 6; i++) mpirr_call_count_add(mpirr_log_call_counts(w), MPIRR_ID_MPI_Fetch_and_op);
        for (int i = 0; i < 3; i++) mpirr_call_count_add(mpirr_log_call_counts(w), 700);
        for (uint32_t i = 0; i < 3; i++) {
            mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = MPIRR_ID_MPI_Irecv,
                              .event = 100 + i, .sub = i, .has_match = 1,
                              .source = (int32_t)i + 1, .tag = 9};
            mpirr_pending_set(p, i, &r);
        }
        mpirr_pending_clear(p, 1);
        raise(SIGKILL);
        _exit(3);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    {
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        CHECK(rd != NULL);
        mpirr_record r;
        int n = 0, pend = 0;
        while (mpirr_log_read(rd, &r) > 0)
            if (n++ >= 10) {
                CHECK(r.kind == MPIRR_REC_RECV_DONE && r.has_match && r.tag == 9);
                CHECK((r.event == 100 && r.source == 1 && r.sub == 0) ||
                      (r.event == 102 && r.source == 3 && r.sub == 2));
                pend++;
            }
        CHECK(pend == 2 && mpirr_log_reader_pending(rd) == 2);
        CHECK(mpirr_log_reader_counter(rd, MPIRR_CTR_MSGS_SENT) == 77);
        CHECK(mpirr_log_reader_call_count(rd, MPIRR_ID_MPI_Fetch_and_op) == 6);
        CHECK(mpirr_log_reader_call_count(rd, MPIRR_ID_MPI_Win_lock) == 0);
        CHECK(mpirr_log_reader_call_count(rd, 700) == 3); /* a long id, in the second slot */
        /* the generated rows: a large-count call names its int call, and each counted call
         * has its outcome phrase */
        CHECK(mpirr_call_int_variant(MPIRR_ID_MPI_Recv_c) == MPIRR_ID_MPI_Recv);
        CHECK(mpirr_call_int_variant(MPIRR_ID_MPI_Allreduce_c) == MPIRR_ID_MPI_Allreduce_c);
        CHECK(mpirr_call_unreplayed(MPIRR_ID_MPI_Send_c) && !mpirr_call_unreplayed(MPIRR_ID_MPI_Send));
        CHECK(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Isendrecv) == -1); /* isendrecv.c */
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Isendrecv_c)),
                      "the matches of messages of more than INT_MAX elements"));
        /* one-sided large-count calls are replayed on their int path; beyond INT_MAX a window
         * takes no turns; an atomic in a fence or PSCW epoch is counted where its order can
         * matter (src/runtime/rma/unordered_atomics.c) */
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Accumulate)),
                      "the order the accumulates applied in"));
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Compare_and_swap)),
                      "the values fetched"));
        CHECK(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Win_lock_all) == -1);
        CHECK(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Win_lock) == -1);
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Accumulate_c)),
                      "the order the accumulates applied in"));
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Get_accumulate_c)),
                      "the values fetched"));
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Win_create_c)),
                      "the order of the lock grants"));
        CHECK(!strcmp(mpirr_unreplayed_outcome_at(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Get_c)),
                      "the order of the lock grants")); /* beyond INT_MAX: no lock_all turn */
        CHECK(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_File_read_shared_c) ==
              mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_File_read_shared));
        CHECK(mpirr_call_unreplayed_outcome(MPIRR_ID_MPI_Neighbor_alltoall) == -1);
        CHECK(mpirr_log_reader_call_count(rd, MPIRR_CALL_ID_LIMIT) == 0);
        mpirr_log_reader_close(rd);
        /* a version 4 tail (a count per id below 256) still reads by id */
        char tpath3[600];
        uint8_t t[12], by_id[8 * 256] = {0};
        mpirr_log_path(tpath3, sizeof tpath3, dir, 2, "tail");
        FILE *f = fopen(tpath3, "r+b");
        memcpy(t, TAIL_MAGIC_V4, 8);
        mpirr_put_u32(t + TL_VERSION, 4);
        mpirr_put_u64(by_id + 8 * MPIRR_ID_MPI_Fetch_and_op, 5);
        CHECK(f && fwrite(t, 1, sizeof t, f) == sizeof t);
        CHECK(f && fseek(f, TL_CALL_COUNTS, SEEK_SET) == 0 && fwrite(by_id, 1, sizeof by_id, f) == sizeof by_id);
        if (f) fclose(f);
        rd = mpirr_log_reader_open(path, err, sizeof err);
        CHECK(rd && mpirr_log_reader_call_count(rd, MPIRR_ID_MPI_Fetch_and_op) == 5);
        CHECK(rd && mpirr_log_reader_call_count(rd, 700) == 0);
        mpirr_log_reader_close(rd);
        /* a version 3 tail (no call counts) still reads, with no counts */
        f = fopen(tpath3, "r+b");
        memcpy(t, TAIL_MAGIC_V3, 8);
        mpirr_put_u32(t + TL_VERSION, 3);
        CHECK(f && fwrite(t, 1, sizeof t, f) == sizeof t);
        if (f) fclose(f);
        rd = mpirr_log_reader_open(path, err, sizeof err);
        CHECK(rd && mpirr_log_reader_counter(rd, MPIRR_CTR_MSGS_SENT) == 77);
        CHECK(rd && mpirr_log_reader_call_count(rd, MPIRR_ID_MPI_Fetch_and_op) == 0);
        mpirr_log_reader_close(rd);
        char ppath[600];
        mpirr_log_path(ppath, sizeof ppath, dir, 2, "pending");
        unlink(ppath);
        mpirr_pending_slots *p = mpirr_pending_open(dir, 2, &run_a, 4, err, sizeof err);
        CHECK(p != NULL);
        mpirr_pending_close(p, 1);
        CHECK(access(ppath, F_OK) != 0);
    }

    /* 4. truncation at every length of a finished log: a prefix, then a clear error */
    write_log(dir, 600, 512, 1);
    full = file_size(path);
    snprintf(sub, sizeof sub, "%s/cut", dir);
    mkdir(sub, 0755);
    copy_sibling(dir, sub, "tail", -1);
    mpirr_log_path(tpath, sizeof tpath, sub, 2, "log");
    int prev = 0;
    for (long len = 0; len <= full; len++) {
        copy_prefix(path, tpath, len, -1);
        int n = read_log(tpath, &rc, err, sizeof err, NULL);
        if (len < 768) {
            CHECK(rc == -2 && strstr(err, tpath) && strstr(err, "truncated header"));
        } else if (len == full) {
            CHECK(rc == 0 && n == 600);
        } else {
            CHECK(n >= prev && n <= 600);
            if (rc == -1) CHECK(strstr(err, tpath) && strstr(err, "frame"));
        }
        if (rc != -2) prev = n;
    }

    /* 5. one corrupted byte anywhere: an error naming the file, or (never) a wrong record */
    int detected = 0, flips = 0;
    for (long at = 0; at < full; at += 7) {
        copy_prefix(path, tpath, full, at);
        int n = read_log(tpath, &rc, err, sizeof err, NULL);
        flips++;
        if (rc != 0) {
            detected++;
            CHECK(strstr(err, tpath) != NULL);
        } else {
            CHECK(n == 600);
        }
    }
    CHECK(detected == flips); /* headers and compressed frames are checksummed */

    test_staged_damage();
    test_run_ids();
    test_hold_point();
    test_wtime_codings();
    test_wtime_unit();

    /* 6. not a log at all */
    FILE *f = fopen(tpath, "wb");
    fputs("this is not a log but it is long enough to hold a header. ", f);
    for (int i = 0; i < 40; i++) fputs("padding padding padding ", f);
    fclose(f);
    read_log(tpath, &rc, err, sizeof err, NULL);
    CHECK(rc == -2 && strstr(err, "bad magic"));
    CHECK(mpirr_log_reader_open("/nonexistent/rank-00000.log", err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent/rank-00000.log") != NULL);

    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
