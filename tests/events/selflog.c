/* selflog: an MPI program that logs its own MPI calls, for the event-history round trip
 * (tests/events/roundtrip.sh). Usage: selflog DIR [ITERATIONS]; run with 4 ranks (any p >= 2
 * works).
 *
 * Every MPI call it makes goes through one of the X_* helpers below, which make the call and
 * then append one line to DIR/self-<rank>.txt with plain stdio:
 *   NAME [peer=N|any|null] [rpeer=..] [tag=N|any] [rtag=..] [bytes=N] [src=N|null]
 *        [ndone=K] [dsrc=a,b,...]
 * peer/tag as given (Sendrecv: peer/tag the send side, rpeer/rtag the receive side); bytes =
 * count * type size as given (for receives the buffer's capacity; Sendrecv uses the same count
 * and type on both sides, so the two agree); src = status.MPI_SOURCE of what a blocking
 * receive, Sendrecv, Probe, Mprobe, Mrecv, or successful Iprobe matched; ndone = requests a
 * Wait or Test call completed, dsrc = status.MPI_SOURCE of the completed receives among
 * them (Wait, Waitany, Test, Testany: the one; Waitall, Testall: array order; Waitsome,
 * Testsome: the order of the returned indices). MPI_Init is logged once it returned,
 * MPI_Finalize before it is called. The polling loops (Test, Testany, Testall, Testsome,
 * Iprobe) make the number of calls nondeterministic: this log is the only record of them
 * besides mpirr's. Each polling
 * phase starts with one test or probe that cannot succeed (the senders wait at a barrier the
 * poller enters after it), so unsuccessful ones are always in the log.
 *
 * Per iteration (tags keep the phases apart; the ANY_TAG receive and probe run on a private
 * duplicate of MPI_COMM_WORLD, fenced by barriers, so they can only see their own messages):
 *   ring Send/Recv; wildcard Recv(ANY_SOURCE, ANY_TAG) at rank 0 (+ Get_count); Isend/Irecv +
 *   Wait; Waitall; Waitany, Waitsome, Test polling, Testany/Testall/Testsome polling at a
 *   rotating root; persistent requests (Startall + Waitall, Start + Wait, Request_free);
 *   Sendrecv; Probe + Recv; Iprobe polling + Recv; Mprobe + Mrecv; Barrier, Bcast, Reduce,
 *   Allreduce, Gather, Alltoall, Ibarrier + Wait; Comm_split + Send/Recv on it + Comm_free;
 *   Wtime. Iteration 0 also sends one zero-byte message and one send to and one receive from
 *   MPI_PROC_NULL. Payloads carry (sender, iteration, tag) and are checked. */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
    TAG_RING = 11, TAG_WILD = 100, /* + sender's rank */
    TAG_NB = 21, TAG_ALL = 22, TAG_ANY = 23, TAG_SOME = 24, TAG_TEST = 25, TAG_TANY = 26,
    TAG_TALL = 27, TAG_TSOME = 28, TAG_PERS = 29, TAG_SR = 30, TAG_PROBE = 31, TAG_IPROBE = 32,
    TAG_MPROBE = 33, TAG_SPLIT = 34, TAG_ZERO = 35, TAG_NULL = 36,
};
enum { MSG_INTS = 3, MAX_RANKS = 64 };
/* request and buffer arrays hold three sets of size - 1 */
enum { MAX_REQS = 3 * MAX_RANKS };

static FILE *lg;
static int me = -1;
static int iter_no;

/* ---- the log ---- */

static char line[1024];
static size_t len;

static void lg_begin(const char *name)
{
    len = (size_t)snprintf(line, sizeof line, "%s", name);
}

__attribute__((format(printf, 1, 2))) static void lg_add(const char *fmt, ...)
{
    va_list ap;
    if (len >= sizeof line - 1) return;
    va_start(ap, fmt);
    int n = vsnprintf(line + len, sizeof line - len, fmt, ap);
    va_end(ap);
    if (n > 0) len += (size_t)n;
    if (len > sizeof line - 1) len = sizeof line - 1;
}

static void lg_end(void)
{
    if (lg) fprintf(lg, "%s\n", line);
}

static void lg_name(const char *name)
{
    lg_begin(name);
    lg_end();
}

static const char *fmt_peer(int p, char *buf)
{
    if (p == MPI_ANY_SOURCE) return "any";
    if (p == MPI_PROC_NULL) return "null";
    sprintf(buf, "%d", p);
    return buf;
}

static const char *fmt_tag(int t, char *buf)
{
    if (t == MPI_ANY_TAG) return "any";
    sprintf(buf, "%d", t);
    return buf;
}

static void lg_peer(const char *key, int p)
{
    char b[16];
    lg_add(" %s=%s", key, fmt_peer(p, b));
}

static void lg_tag(const char *key, int t)
{
    char b[16];
    lg_add(" %s=%s", key, fmt_tag(t, b));
}

/* The size of the few types used here, known without asking MPI (which would be a call). */
static long type_size(MPI_Datatype t)
{
    if (t == MPI_INT) return (long)sizeof(int);
    if (t == MPI_BYTE || t == MPI_CHAR) return 1;
    if (t == MPI_DOUBLE) return (long)sizeof(double);
    return -1;
}

static void lg_bytes(int count, MPI_Datatype t)
{
    lg_add(" bytes=%ld", (long)count * type_size(t));
}

static void lg_src(const MPI_Status *st) { lg_peer("src", st->MPI_SOURCE); }

/* ndone=K, and dsrc= the sources of the receives among the completed, in the order given. */
static void lg_done(int k, const int *idx, const int *isrecv, const MPI_Status *sts, int sts_by_idx)
{
    lg_add(" ndone=%d", k);
    int first = 1;
    for (int j = 0; j < k; j++) {
        int i = idx ? idx[j] : j;
        if (!isrecv[i]) continue;
        char b[16];
        lg_add("%s%s", first ? " dsrc=" : ",", fmt_peer(sts[sts_by_idx ? i : j].MPI_SOURCE, b));
        first = 0;
    }
}

/* ---- the calls: each makes one MPI call and logs it ---- */

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "selflog rank %d iteration %d: ", me, iter_no);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    lg_name("MPI_Abort");
    if (lg) fflush(lg);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* calls logged by name only */
#define PLAIN(name, ...)         \
    do {                         \
        name(__VA_ARGS__);       \
        lg_name(#name);          \
    } while (0)

static double X_Wtime(void)
{
    double t = MPI_Wtime();
    lg_name("MPI_Wtime");
    return t;
}

static void X_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MPI_Send(buf, n, t, dest, tag, c);
    lg_begin("MPI_Send");
    lg_peer("peer", dest);
    lg_tag("tag", tag);
    lg_bytes(n, t);
    lg_end();
}

static void X_Recv(void *buf, int n, MPI_Datatype t, int source, int tag, MPI_Comm c, MPI_Status *st)
{
    MPI_Recv(buf, n, t, source, tag, c, st);
    lg_begin("MPI_Recv");
    lg_peer("peer", source);
    lg_tag("tag", tag);
    lg_bytes(n, t);
    lg_src(st);
    lg_end();
}

static void p2p_start(const char *name, int n, MPI_Datatype t, int peer, int tag)
{
    lg_begin(name);
    lg_peer("peer", peer);
    lg_tag("tag", tag);
    lg_bytes(n, t);
    lg_end();
}

static void X_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    MPI_Isend(buf, n, t, dest, tag, c, r);
    p2p_start("MPI_Isend", n, t, dest, tag);
}

static void X_Irecv(void *buf, int n, MPI_Datatype t, int source, int tag, MPI_Comm c, MPI_Request *r)
{
    MPI_Irecv(buf, n, t, source, tag, c, r);
    p2p_start("MPI_Irecv", n, t, source, tag);
}

static void X_Send_init(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    MPI_Send_init(buf, n, t, dest, tag, c, r);
    p2p_start("MPI_Send_init", n, t, dest, tag);
}

static void X_Recv_init(void *buf, int n, MPI_Datatype t, int source, int tag, MPI_Comm c, MPI_Request *r)
{
    MPI_Recv_init(buf, n, t, source, tag, c, r);
    p2p_start("MPI_Recv_init", n, t, source, tag);
}

static void X_Sendrecv(const void *sbuf, void *rbuf, int n, MPI_Datatype t, int dest, int stag, int source,
                       int rtag, MPI_Comm c, MPI_Status *st)
{
    MPI_Sendrecv(sbuf, n, t, dest, stag, rbuf, n, t, source, rtag, c, st);
    lg_begin("MPI_Sendrecv");
    lg_peer("peer", dest);
    lg_peer("rpeer", source);
    lg_tag("tag", stag);
    lg_tag("rtag", rtag);
    lg_bytes(n, t);
    lg_src(st);
    lg_end();
}

static void X_Probe(int source, int tag, MPI_Comm c, MPI_Status *st)
{
    MPI_Probe(source, tag, c, st);
    lg_begin("MPI_Probe");
    lg_peer("peer", source);
    lg_tag("tag", tag);
    lg_src(st);
    lg_end();
}

static int X_Iprobe(int source, int tag, MPI_Comm c, MPI_Status *st)
{
    int flag = 0;
    MPI_Iprobe(source, tag, c, &flag, st);
    lg_begin("MPI_Iprobe");
    lg_peer("peer", source);
    lg_tag("tag", tag);
    if (flag) lg_src(st);
    lg_end();
    return flag;
}

static void X_Mprobe(int source, int tag, MPI_Comm c, MPI_Message *m, MPI_Status *st)
{
    MPI_Mprobe(source, tag, c, m, st);
    lg_begin("MPI_Mprobe");
    lg_peer("peer", source);
    lg_tag("tag", tag);
    lg_src(st);
    lg_end();
}

static void X_Mrecv(void *buf, int n, MPI_Datatype t, MPI_Message *m, MPI_Status *st)
{
    MPI_Mrecv(buf, n, t, m, st);
    lg_begin("MPI_Mrecv");
    lg_bytes(n, t);
    lg_src(st);
    lg_end();
}

static int X_Get_count(const MPI_Status *st, MPI_Datatype t)
{
    int n = -1;
    MPI_Get_count(st, t, &n);
    lg_name("MPI_Get_count");
    return n;
}

/* completion: isrecv[i] says whether request i is a receive */
static void X_Wait(MPI_Request *r, int isrecv, MPI_Status *st)
{
    MPI_Wait(r, st);
    lg_begin("MPI_Wait");
    lg_done(1, NULL, &isrecv, st, 0);
    lg_end();
}

static int X_Test(MPI_Request *r, int isrecv, MPI_Status *st)
{
    int flag = 0;
    MPI_Test(r, &flag, st);
    lg_begin("MPI_Test");
    lg_done(flag ? 1 : 0, NULL, &isrecv, st, 0);
    lg_end();
    return flag;
}

static void X_Waitall(int n, MPI_Request *r, const int *isrecv, MPI_Status *sts)
{
    MPI_Waitall(n, r, sts);
    lg_begin("MPI_Waitall");
    lg_done(n, NULL, isrecv, sts, 1);
    lg_end();
}

static int X_Testall(int n, MPI_Request *r, const int *isrecv, MPI_Status *sts)
{
    int flag = 0;
    MPI_Testall(n, r, &flag, sts);
    lg_begin("MPI_Testall");
    lg_done(flag ? n : 0, NULL, isrecv, sts, 1);
    lg_end();
    return flag;
}

static int X_Waitany(int n, MPI_Request *r, const int *isrecv, MPI_Status *st)
{
    int index = MPI_UNDEFINED;
    MPI_Waitany(n, r, &index, st);
    if (index == MPI_UNDEFINED) die("Waitany: no active request");
    lg_begin("MPI_Waitany");
    lg_done(1, &index, isrecv, st, 0);
    lg_end();
    return index;
}

/* returns the index completed, or -1 */
static int X_Testany(int n, MPI_Request *r, const int *isrecv, MPI_Status *st)
{
    int index = MPI_UNDEFINED, flag = 0;
    MPI_Testany(n, r, &index, &flag, st);
    if (flag && index == MPI_UNDEFINED) die("Testany: no active request");
    lg_begin("MPI_Testany");
    lg_done(flag ? 1 : 0, &index, isrecv, st, 0);
    lg_end();
    return flag ? index : -1;
}

static int X_Waitsome(int n, MPI_Request *r, const int *isrecv, int *idx, MPI_Status *sts)
{
    int out = MPI_UNDEFINED;
    MPI_Waitsome(n, r, &out, idx, sts);
    if (out == MPI_UNDEFINED || out < 1) die("Waitsome: outcount %d", out);
    lg_begin("MPI_Waitsome");
    lg_done(out, idx, isrecv, sts, 0);
    lg_end();
    return out;
}

static int X_Testsome(int n, MPI_Request *r, const int *isrecv, int *idx, MPI_Status *sts)
{
    int out = MPI_UNDEFINED;
    MPI_Testsome(n, r, &out, idx, sts);
    if (out == MPI_UNDEFINED || out < 0) die("Testsome: outcount %d", out);
    lg_begin("MPI_Testsome");
    lg_done(out, idx, isrecv, sts, 0);
    lg_end();
    return out;
}

/* n wildcard-source receives of one message each, with one tag */
static void post_wild(int n, int (*bufs)[MSG_INTS], int tag, MPI_Request *reqs)
{
    for (int i = 0; i < n; i++) X_Irecv(bufs[i], MSG_INTS, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &reqs[i]);
}

/* ---- the program ---- */

/* Deterministic CPU work; the amount varies with (iteration, rank, salt) so arrival orders
 * vary from run to run. */
static void spin(unsigned salt)
{
    uint32_t h = (uint32_t)iter_no * 0x9e3779b1u ^ (uint32_t)me * 0x85ebca6bu ^ salt * 0xc2b2ae35u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 13;
    volatile uint64_t x = 1;
    for (uint32_t i = 0; i < h % 60000u; i++) x = x * 6364136223846793005u + i;
}

/* After an unsuccessful test or probe: give the core away for a moment (4 ranks share 2
 * cores), so that the polling counts stay in the tens, not thousands. */
static void pause_poll(void)
{
    struct timespec ts = {0, 20000};
    sched_yield();
    nanosleep(&ts, NULL);
}

static void fill(int *m, int tag)
{
    m[0] = me;
    m[1] = iter_no;
    m[2] = tag;
}

/* The message received from `from` with `tag` in this iteration. */
static void check(const int *m, const MPI_Status *st, int from, int tag)
{
    if (st->MPI_SOURCE != from && from != MPI_ANY_SOURCE)
        die("tag %d: message from %d, expected %d", tag, st->MPI_SOURCE, from);
    if (m[0] != st->MPI_SOURCE || m[1] != iter_no || m[2] != tag || st->MPI_TAG != tag)
        die("tag %d: message (%d,%d,%d) tagged %d from %d", tag, m[0], m[1], m[2], st->MPI_TAG, st->MPI_SOURCE);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: selflog DIR [ITERATIONS]\n");
        return 2;
    }
    const char *dir = argv[1];
    const int iters = argc > 2 ? atoi(argv[2]) : 3;

    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* the log exists from here on: the two calls so far go first */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        perror(dir);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/self-%d.txt", dir, me);
    lg = fopen(path, "w");
    if (!lg) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    lg_name("MPI_Init");
    lg_name("MPI_Comm_rank");
    PLAIN(MPI_Comm_size, MPI_COMM_WORLD, &size);
    if (size < 2 || size > MAX_RANKS) die("needs 2..%d ranks, got %d", MAX_RANKS, size);
    (void)X_Wtime();

    MPI_Comm dup;
    PLAIN(MPI_Comm_dup, MPI_COMM_WORLD, &dup);

    const int right = (me + 1) % size, left = (me + size - 1) % size, n = size - 1;
    int out[MSG_INTS], in[MSG_INTS], in2[MSG_INTS];
    int bufs[MAX_REQS][MSG_INTS];
    MPI_Request reqs[MAX_REQS];
    int isrecv[MAX_REQS], idx[MAX_REQS];
    MPI_Status st, sts[MAX_REQS];
    for (int i = 0; i < MAX_REQS; i++) isrecv[i] = 1;

    for (iter_no = 0; iter_no < iters; iter_no++) {
        const int root = iter_no % size;
        int rank_now;
        PLAIN(MPI_Comm_rank, MPI_COMM_WORLD, &rank_now);
        if (rank_now != me) die("rank changed to %d", rank_now);

        /* ring Send/Recv from a specific source (odd ranks receive first) */
        fill(out, TAG_RING);
        if (me % 2 == 0) {
            X_Send(out, MSG_INTS, MPI_INT, right, TAG_RING, MPI_COMM_WORLD);
            X_Recv(in, MSG_INTS, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &st);
        } else {
            X_Recv(in, MSG_INTS, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &st);
            X_Send(out, MSG_INTS, MPI_INT, right, TAG_RING, MPI_COMM_WORLD);
        }
        check(in, &st, left, TAG_RING);

        /* zero bytes and MPI_PROC_NULL, once */
        if (iter_no == 0) {
            X_Send(out, 0, MPI_INT, right, TAG_ZERO, MPI_COMM_WORLD);
            X_Recv(in, 0, MPI_INT, left, TAG_ZERO, MPI_COMM_WORLD, &st);
            if (st.MPI_SOURCE != left || X_Get_count(&st, MPI_INT) != 0) die("zero-byte message");
            X_Send(out, MSG_INTS, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD);
            X_Recv(in, MSG_INTS, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, &st);
            if (st.MPI_SOURCE != MPI_PROC_NULL) die("receive from MPI_PROC_NULL matched %d", st.MPI_SOURCE);
        }

        /* wildcard source and tag: everyone sends rank 0 one message of 1..3 ints on dup */
        if (me == 0) {
            for (int k = 0; k < n; k++) {
                int m[4];
                X_Recv(m, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st);
                int cnt = X_Get_count(&st, MPI_INT);
                if (st.MPI_TAG != TAG_WILD + st.MPI_SOURCE || cnt != 1 + st.MPI_SOURCE % 3 ||
                    m[0] != st.MPI_SOURCE)
                    die("wildcard: tag %d count %d from %d", st.MPI_TAG, cnt, st.MPI_SOURCE);
            }
        } else {
            spin(1);
            int m[4] = {me, me, me, me};
            X_Send(m, 1 + me % 3, MPI_INT, 0, TAG_WILD + me, dup);
        }
        /* fence: dup holds no message when the Iprobe below runs */
        PLAIN(MPI_Barrier, MPI_COMM_WORLD);

        /* Isend/Irecv + Wait */
        X_Irecv(in, MSG_INTS, MPI_INT, left, TAG_NB, MPI_COMM_WORLD, &reqs[0]);
        fill(out, TAG_NB);
        X_Isend(out, MSG_INTS, MPI_INT, right, TAG_NB, MPI_COMM_WORLD, &reqs[1]);
        X_Wait(&reqs[0], 1, &st);
        check(in, &st, left, TAG_NB);
        X_Wait(&reqs[1], 0, &st);

        /* Waitall over two receives and two sends, receives and sends interleaved */
        {
            int ra[MSG_INTS], rb[MSG_INTS], sa[MSG_INTS], sb[MSG_INTS];
            const int kinds[4] = {1, 0, 1, 0};
            fill(sa, TAG_ALL);
            fill(sb, TAG_ALL);
            X_Irecv(ra, MSG_INTS, MPI_INT, left, TAG_ALL, MPI_COMM_WORLD, &reqs[0]);
            X_Isend(sa, MSG_INTS, MPI_INT, right, TAG_ALL, MPI_COMM_WORLD, &reqs[1]);
            X_Irecv(rb, MSG_INTS, MPI_INT, right, TAG_ALL, MPI_COMM_WORLD, &reqs[2]);
            X_Isend(sb, MSG_INTS, MPI_INT, left, TAG_ALL, MPI_COMM_WORLD, &reqs[3]);
            X_Waitall(4, reqs, kinds, sts);
            check(ra, &sts[0], left, TAG_ALL);
            check(rb, &sts[2], right, TAG_ALL);
        }

        /* Waitany at the root over n wildcard receives */
        if (me == root) {
            post_wild(n, bufs, TAG_ANY, reqs);
            for (int k = 0; k < n; k++) {
                int i = X_Waitany(n, reqs, isrecv, &st);
                check(bufs[i], &st, MPI_ANY_SOURCE, TAG_ANY);
            }
        } else {
            spin(2);
            fill(out, TAG_ANY);
            X_Send(out, MSG_INTS, MPI_INT, root, TAG_ANY, MPI_COMM_WORLD);
        }

        /* Waitsome at the root over n wildcard receives */
        if (me == root) {
            post_wild(n, bufs, TAG_SOME, reqs);
            for (int done = 0; done < n;) {
                int k = X_Waitsome(n, reqs, isrecv, idx, sts);
                for (int j = 0; j < k; j++) check(bufs[idx[j]], &sts[j], MPI_ANY_SOURCE, TAG_SOME);
                done += k;
            }
        } else {
            spin(3);
            fill(out, TAG_SOME);
            X_Send(out, MSG_INTS, MPI_INT, root, TAG_SOME, MPI_COMM_WORLD);
        }

        /* MPI_Test polling: the root on one wildcard receive at a time, the others on a send */
        if (me == root) {
            for (int k = 0; k < n; k++) {
                X_Irecv(in, MSG_INTS, MPI_INT, MPI_ANY_SOURCE, TAG_TEST, MPI_COMM_WORLD, &reqs[0]);
                if (k == 0) {
                    /* nothing is sent before the root reaches the barrier: a sure failure */
                    if (X_Test(&reqs[0], 1, &st)) die("Test succeeded before anything was sent");
                    PLAIN(MPI_Barrier, MPI_COMM_WORLD);
                }
                while (!X_Test(&reqs[0], 1, &st)) pause_poll();
                check(in, &st, MPI_ANY_SOURCE, TAG_TEST);
            }
        } else {
            PLAIN(MPI_Barrier, MPI_COMM_WORLD);
            spin(4);
            fill(out, TAG_TEST);
            X_Isend(out, MSG_INTS, MPI_INT, root, TAG_TEST, MPI_COMM_WORLD, &reqs[0]);
            while (!X_Test(&reqs[0], 0, &st)) pause_poll();
        }

        /* Testany, Testall, Testsome polling at the root */
        if (me == root) {
            MPI_Request *rany = reqs, *rall = reqs + n, *rsome = reqs + 2 * n;
            int (*bany)[MSG_INTS] = bufs, (*ball)[MSG_INTS] = bufs + n, (*bsome)[MSG_INTS] = bufs + 2 * n;
            post_wild(n, bany, TAG_TANY, rany);
            post_wild(n, ball, TAG_TALL, rall);
            post_wild(n, bsome, TAG_TSOME, rsome);
            /* nothing is sent before the root reaches the barrier: sure failures */
            if (X_Testany(n, rany, isrecv, &st) >= 0 || X_Testall(n, rall, isrecv, sts) ||
                X_Testsome(n, rsome, isrecv, idx, sts) != 0)
                die("a test succeeded before anything was sent");
            PLAIN(MPI_Barrier, MPI_COMM_WORLD);
            for (int k = 0; k < n;) {
                int i = X_Testany(n, rany, isrecv, &st);
                if (i < 0) {
                    pause_poll();
                    continue;
                }
                check(bany[i], &st, MPI_ANY_SOURCE, TAG_TANY);
                k++;
            }
            while (!X_Testall(n, rall, isrecv, sts)) pause_poll();
            for (int i = 0; i < n; i++) check(ball[i], &sts[i], MPI_ANY_SOURCE, TAG_TALL);
            for (int done = 0; done < n;) {
                int k = X_Testsome(n, rsome, isrecv, idx, sts);
                if (k == 0) pause_poll();
                for (int j = 0; j < k; j++) check(bsome[idx[j]], &sts[j], MPI_ANY_SOURCE, TAG_TSOME);
                done += k;
            }
        } else {
            const int tags[3] = {TAG_TANY, TAG_TALL, TAG_TSOME};
            PLAIN(MPI_Barrier, MPI_COMM_WORLD);
            for (int t = 0; t < 3; t++) {
                spin(5 + (unsigned)t);
                fill(out, tags[t]);
                X_Send(out, MSG_INTS, MPI_INT, root, tags[t], MPI_COMM_WORLD);
            }
        }

        /* persistent requests around the ring: Startall + Waitall, Start + Wait, Request_free */
        {
            MPI_Request p[2];
            const int kinds[2] = {1, 0};
            X_Recv_init(in, MSG_INTS, MPI_INT, left, TAG_PERS, MPI_COMM_WORLD, &p[0]);
            X_Send_init(out, MSG_INTS, MPI_INT, right, TAG_PERS, MPI_COMM_WORLD, &p[1]);
            fill(out, TAG_PERS);
            PLAIN(MPI_Startall, 2, p);
            X_Waitall(2, p, kinds, sts);
            check(in, &sts[0], left, TAG_PERS);
            PLAIN(MPI_Start, &p[0]);
            PLAIN(MPI_Start, &p[1]);
            X_Wait(&p[1], 0, &st);
            X_Wait(&p[0], 1, &st);
            check(in, &st, left, TAG_PERS);
            PLAIN(MPI_Request_free, &p[0]);
            PLAIN(MPI_Request_free, &p[1]);
        }

        /* Sendrecv around the ring, the receive side a wildcard source every other iteration */
        fill(out, TAG_SR);
        X_Sendrecv(out, in, MSG_INTS, MPI_INT, right, TAG_SR, iter_no % 2 ? MPI_ANY_SOURCE : left, TAG_SR,
                   MPI_COMM_WORLD, &st);
        check(in, &st, left, TAG_SR);

        /* Probe + Get_count + Recv */
        fill(out, TAG_PROBE);
        X_Isend(out, MSG_INTS, MPI_INT, right, TAG_PROBE, MPI_COMM_WORLD, &reqs[0]);
        X_Probe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &st);
        if (st.MPI_SOURCE != left || X_Get_count(&st, MPI_INT) != MSG_INTS) die("Probe matched %d", st.MPI_SOURCE);
        X_Recv(in, MSG_INTS, MPI_INT, st.MPI_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &st);
        check(in, &st, left, TAG_PROBE);
        X_Wait(&reqs[0], 0, &st);

        /* Iprobe polling with both wildcards on dup, then Recv what it found */
        fill(out, TAG_IPROBE);
        spin(8);
        /* nothing is sent on dup before everyone reached the barrier: a sure failure */
        if (X_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st)) die("Iprobe succeeded before anything was sent");
        PLAIN(MPI_Barrier, MPI_COMM_WORLD);
        X_Isend(out, MSG_INTS, MPI_INT, right, TAG_IPROBE, dup, &reqs[0]);
        while (!X_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st)) pause_poll();
        if (st.MPI_SOURCE != left || st.MPI_TAG != TAG_IPROBE) die("Iprobe found %d/%d", st.MPI_SOURCE, st.MPI_TAG);
        X_Recv(in, MSG_INTS, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, dup, &st);
        check(in, &st, left, TAG_IPROBE);
        X_Wait(&reqs[0], 0, &st);

        /* Mprobe + Mrecv */
        {
            MPI_Message msg;
            fill(out, TAG_MPROBE);
            X_Isend(out, MSG_INTS, MPI_INT, right, TAG_MPROBE, MPI_COMM_WORLD, &reqs[0]);
            X_Mprobe(MPI_ANY_SOURCE, TAG_MPROBE, MPI_COMM_WORLD, &msg, &st);
            X_Mrecv(in2, MSG_INTS, MPI_INT, &msg, &st);
            check(in2, &st, left, TAG_MPROBE);
            X_Wait(&reqs[0], 0, &st);
        }

        /* collectives */
        {
            int v[4] = {root, iter_no, 7, 9}, sum = 0, all = 0, one = me + iter_no;
            int gathered[MAX_RANKS], sendv[MAX_RANKS], recvv[MAX_RANKS];
            PLAIN(MPI_Bcast, v, 4, MPI_INT, root, MPI_COMM_WORLD);
            if (v[0] != root || v[1] != iter_no) die("Bcast gave %d,%d", v[0], v[1]);
            PLAIN(MPI_Reduce, &one, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
            PLAIN(MPI_Allreduce, &one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (all != size * (size - 1) / 2 + size * iter_no || (me == root && sum != all))
                die("Reduce gave %d, Allreduce %d", sum, all);
            PLAIN(MPI_Gather, &one, 1, MPI_INT, gathered, 1, MPI_INT, root, MPI_COMM_WORLD);
            if (me == root)
                for (int i = 0; i < size; i++)
                    if (gathered[i] != i + iter_no) die("Gather gave %d from %d", gathered[i], i);
            for (int i = 0; i < size; i++) sendv[i] = me * 1000 + i;
            PLAIN(MPI_Alltoall, sendv, 1, MPI_INT, recvv, 1, MPI_INT, MPI_COMM_WORLD);
            for (int i = 0; i < size; i++)
                if (recvv[i] != i * 1000 + me) die("Alltoall gave %d from %d", recvv[i], i);
            spin(9);
            PLAIN(MPI_Ibarrier, MPI_COMM_WORLD, &reqs[0]);
            X_Wait(&reqs[0], 0, &st);
        }

        /* Comm_split by parity; a ring Send/Recv on the half; Comm_free */
        {
            MPI_Comm half;
            int hr, hs;
            PLAIN(MPI_Comm_split, MPI_COMM_WORLD, me % 2, me, &half);
            PLAIN(MPI_Comm_rank, half, &hr);
            PLAIN(MPI_Comm_size, half, &hs);
            if (hs >= 2) {
                const int hright = (hr + 1) % hs, hleft = (hr + hs - 1) % hs;
                fill(out, TAG_SPLIT);
                if (hr % 2 == 0) {
                    X_Send(out, MSG_INTS, MPI_INT, hright, TAG_SPLIT, half);
                    X_Recv(in, MSG_INTS, MPI_INT, hleft, TAG_SPLIT, half, &st);
                } else {
                    X_Recv(in, MSG_INTS, MPI_INT, hleft, TAG_SPLIT, half, &st);
                    X_Send(out, MSG_INTS, MPI_INT, hright, TAG_SPLIT, half);
                }
                /* the payload names the sender's world rank */
                if (st.MPI_SOURCE != hleft || in[0] % 2 != me % 2 || in[1] != iter_no || in[2] != TAG_SPLIT)
                    die("split: message (%d,%d,%d) from %d", in[0], in[1], in[2], st.MPI_SOURCE);
            }
            PLAIN(MPI_Comm_free, &half);
        }

        (void)X_Wtime();
        /* fence: the next iteration's wildcards see only their own messages */
        PLAIN(MPI_Barrier, MPI_COMM_WORLD);
    }

    PLAIN(MPI_Comm_free, &dup);
    lg_name("MPI_Finalize");
    if (fclose(lg) != 0) {
        perror(path);
        return 1;
    }
    lg = NULL;
    MPI_Finalize();
    return 0;
}
