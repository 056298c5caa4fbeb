/* control_channel.c: a replayed rank's connection to the mpirr that steers it (MPIRR_CONTROL =
 * HOST:PORT:TOKEN; messages: control_wire.h). At MPI_Init the rank connects, says who it is and
 * waits for its first stop; then one thread of the runtime, "mpirr-control", owns the socket:
 * it applies what mpirr sends (stops, flags, the abort view) to the rank's private slot and
 * header copy (stopline.c's), and sends the slot back when the rank asks and every so often
 * while the rank moves, so that `where` and the stall detection see running ranks too.
 *
 * The hot path never gets here: a call loads its stop word and stores its progress word, in
 * the rank's own memory. A rank that holds or ends asks for the slot to go out and waits until
 * mpirr acknowledged it (a launcher killing the job right after must not lose it); lines for
 * mpirr go the same way. Both are async-signal-safe (an eventfd write, then polling atomics
 * with nanosleep): the fatal-signal handler uses them. Every wait is bounded, and ends at once
 * when mpirr is gone (its end of the socket closed). */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "control_wire.h"
#include "runtime.h"
#include "settings.h"

enum {
    FLUSH_WAIT_MS = 2000, /* for mpirr's acknowledgement of a slot or a line */
    SEND_WAIT_MS = 2000,  /* for room in the socket */
    LINE_BOXES = 8,
};

/* A line on its way to mpirr. state: free, being filled, ready to send, sent. */
enum { BOX_FREE, BOX_FILLING, BOX_READY, BOX_SENT };
struct line_box {
    unsigned state, acked, taken;
    mpirr_cw_line line;
    uint32_t length; /* of the payload */
};

static struct {
    int fd, evfd;
    pthread_t thread;
    int up, stopping, gone;
    pid_t pid; /* a child the program forked has the memory, not the thread: it stays out */
    mpirr_ctl_slot *slot;
    mpirr_ctl_header *header;
    uint64_t want_seq, sent_seq, acked_seq, line_seq;
    int32_t view_running, view_first;
    uint64_t view_sum;
    long period_ms;
    struct line_box boxes[LINE_BOXES];
} ch = {.fd = -1, .evfd = -1, .view_running = -1};

/* ---- connecting ---- */

/* Splits HOST:PORT:TOKEN (HOST may be [v6]); 0 or -1. */
static int parse_addr(const char *addr, char *host, size_t hn, char *port, size_t pn, char *token)
{
    const char *t = strrchr(addr, ':');
    if (!t || strlen(t + 1) != MPIRR_CW_TOKEN_HEX) return -1;
    const char *p = t;
    while (p > addr && p[-1] != ':') p--;
    if (p == addr || (size_t)(t - p) >= pn || t == p) return -1;
    size_t hl = (size_t)(p - 1 - addr);
    const char *h = addr;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') h++, hl -= 2;
    if (hl == 0 || hl >= hn) return -1;
    memcpy(host, h, hl);
    host[hl] = 0;
    memcpy(port, p, (size_t)(t - p));
    port[t - p] = 0;
    memcpy(token, t + 1, MPIRR_CW_TOKEN_HEX);
    return 0;
}

/* A connected nonblocking socket to host:port within timeout_ms, or -1 with err. */
static int connect_to(const char *host, const char *port, int timeout_ms, char *err, size_t n)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *list;
    int rc = getaddrinfo(host, port, &hints, &list);
    if (rc) {
        snprintf(err, n, "%s", gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    snprintf(err, n, "no address");
    for (struct addrinfo *a = list; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            snprintf(err, n, "%s", strerror(errno));
            continue;
        }
        int e = 0;
        if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            e = errno;
            if (e == EINPROGRESS) {
                struct pollfd p = {.fd = fd, .events = POLLOUT};
                int got;
                while ((got = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR) {
                }
                socklen_t len = sizeof e;
                if (got == 0) e = ETIMEDOUT;
                else if (got < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len)) e = errno;
            }
        }
        if (e) {
            snprintf(err, n, "%s", strerror(e));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(list);
    if (fd >= 0) {
        int one = 1; /* small messages a rank waits on: no Nagle delay */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fd;
}

/* ---- what mpirr sends ---- */

static void apply(const mpirr_cw_inbox *in)
{
    const void *p = mpirr_cw_payload(in);
    switch (in->u.h.type) {
    case MPIRR_CW_SET: {
        mpirr_cw_set s;
        memcpy(&s, p, sizeof s);
        __atomic_store_n(&ch.header->flags, s.flags, __ATOMIC_RELAXED);
        __atomic_store_n(&ch.slot->ends_itself, s.ends_itself, __ATOMIC_RELAXED);
        /* the generation before the stop, as mpirr orders them (hold_here reads both) */
        __atomic_store_n(&ch.header->generation, s.generation, __ATOMIC_RELEASE);
        __atomic_store_n(&ch.slot->stop, s.stop, __ATOMIC_RELEASE);
        mpirr_control_stop_changed();
        break;
    }
    case MPIRR_CW_ABORT_VIEW: {
        mpirr_cw_abort_view v;
        memcpy(&v, p, sizeof v);
        __atomic_store_n(&ch.view_sum, v.progress_sum, __ATOMIC_RELAXED);
        __atomic_store_n(&ch.view_first, v.first, __ATOMIC_RELAXED);
        __atomic_store_n(&ch.view_running, v.running, __ATOMIC_RELEASE);
        break;
    }
    case MPIRR_CW_ACK: {
        mpirr_cw_ack a;
        memcpy(&a, p, sizeof a);
        if (a.of == MPIRR_CW_SLOT) {
            if (a.seq > __atomic_load_n(&ch.acked_seq, __ATOMIC_RELAXED))
                __atomic_store_n(&ch.acked_seq, a.seq, __ATOMIC_RELEASE);
            break;
        }
        for (int i = 0; i < LINE_BOXES; i++) {
            struct line_box *b = &ch.boxes[i];
            if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BOX_SENT || b->line.seq != a.seq)
                continue;
            b->taken = a.taken;
            __atomic_store_n(&b->acked, 1, __ATOMIC_RELEASE);
        }
        break;
    }
    default: break; /* nothing else comes from mpirr */
    }
}

/* ---- what the rank sends ---- */

static int send_slot(uint64_t seq, mpirr_cw_slot *last)
{
    mpirr_cw_slot m = {.seq = seq};
    /* the state first: what the rank stored before it is then in the copy */
    uint32_t state = __atomic_load_n(&ch.slot->state, __ATOMIC_ACQUIRE);
    memcpy(m.part, (const char *)ch.slot + MPIRR_CTL_RANK_PART, sizeof m.part);
    memcpy(m.part + offsetof(mpirr_ctl_slot, state) - MPIRR_CTL_RANK_PART, &state, sizeof state);
    if (!seq && !memcmp(m.part, last->part, sizeof m.part)) return 0; /* nothing new */
    memcpy(last->part, m.part, sizeof m.part);
    return mpirr_cw_send(ch.fd, MPIRR_CW_SLOT, &m, sizeof m, SEND_WAIT_MS);
}

static int send_lines(void)
{
    for (int i = 0; i < LINE_BOXES; i++) {
        struct line_box *b = &ch.boxes[i];
        if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BOX_READY) continue;
        __atomic_store_n(&b->state, BOX_SENT, __ATOMIC_RELEASE);
        if (mpirr_cw_send(ch.fd, MPIRR_CW_LINE, &b->line, b->length, SEND_WAIT_MS)) return -1;
    }
    return 0;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *channel_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "mpirr-control");
    static mpirr_cw_inbox in;
    static mpirr_cw_slot last;
    struct pollfd p[2] = {{.fd = ch.fd, .events = POLLIN}, {.fd = ch.evfd, .events = POLLIN}};
    long last_sent = now_ms();
    while (!__atomic_load_n(&ch.stopping, __ATOMIC_ACQUIRE)) {
        int rc = poll(p, 2, (int)ch.period_ms);
        if (rc < 0 && errno != EINTR) break;
        uint64_t drain;
        if (p[1].revents & POLLIN && read(ch.evfd, &drain, sizeof drain) < 0) {
        }
        if (__atomic_load_n(&ch.gone, __ATOMIC_ACQUIRE)) continue;
        int failed = 0;
        if (p[0].revents) {
            char err[200];
            int got;
            while ((got = mpirr_cw_read(ch.fd, &in, err, sizeof err)) == 1) apply(&in);
            failed = got < 0;
        }
        if (!failed) failed = send_lines() != 0;
        uint64_t want = __atomic_load_n(&ch.want_seq, __ATOMIC_ACQUIRE);
        long t = now_ms();
        if (!failed && want > ch.sent_seq) {
            failed = send_slot(want, &last) != 0;
            ch.sent_seq = want;
            last_sent = t;
        } else if (!failed && t - last_sent >= ch.period_ms) {
            failed = send_slot(0, &last) != 0;
            last_sent = t;
        }
        if (failed) { /* mpirr closed its end, or the connection broke: nobody steers us */
            __atomic_store_n(&ch.gone, 1, __ATOMIC_RELEASE);
            p[0].fd = -1;
        }
    }
    return NULL;
}

/* ---- the rank's side ---- */

/* The process's own pid, past any interposed getpid (a replay may return the recorded one);
 * async-signal-safe. */
static pid_t own_pid(void) { return (pid_t)syscall(SYS_getpid); }

/* The channel is up, in this process. */
static int channel_up(void)
{
    return __atomic_load_n(&ch.up, __ATOMIC_ACQUIRE) && own_pid() == ch.pid;
}

static void poke(void)
{
    uint64_t one = 1;
    if (write(ch.evfd, &one, sizeof one) < 0) {
    } /* a full counter still wakes the thread */
}

/* Polls *word until it is at least want, mpirr is gone, or FLUSH_WAIT_MS passed; 1 if it got
 * there. nanosleep and atomics only: async-signal-safe. */
static int wait_for(const uint64_t *word, uint64_t want)
{
    struct timespec ts = {0, 200 * 1000};
    for (long waited_us = 0; waited_us < FLUSH_WAIT_MS * 1000L; waited_us += 200) {
        if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= want) return 1;
        if (__atomic_load_n(&ch.gone, __ATOMIC_ACQUIRE)) return 0;
        nanosleep(&ts, NULL);
    }
    return 0;
}

void mpirr_channel_flush(void)
{
    if (!channel_up()) return;
    uint64_t seq = __atomic_add_fetch(&ch.want_seq, 1, __ATOMIC_ACQ_REL);
    poke();
    wait_for(&ch.acked_seq, seq);
}

int mpirr_channel_line(unsigned which, const char *text, size_t n)
{
    if (!channel_up() || __atomic_load_n(&ch.gone, __ATOMIC_ACQUIRE)) return -1;
    struct line_box *b = NULL;
    for (int i = 0; i < LINE_BOXES && !b; i++) {
        unsigned free_state = BOX_FREE;
        if (__atomic_compare_exchange_n(&ch.boxes[i].state, &free_state, BOX_FILLING, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            b = &ch.boxes[i];
    }
    if (!b) return -1; /* lines still unacknowledged in every box: mpirr is not answering */
    if (n > sizeof b->line.text) n = sizeof b->line.text;
    if (n == 0) text = "\n", n = 1;
    b->line.seq = __atomic_add_fetch(&ch.line_seq, 1, __ATOMIC_RELAXED);
    b->line.which = which;
    memcpy(b->line.text, text, n);
    b->length = (uint32_t)(MPIRR_CW_LINE_HEAD + n);
    b->acked = 0;
    __atomic_store_n(&b->state, BOX_READY, __ATOMIC_RELEASE);
    poke();
    struct timespec ts = {0, 200 * 1000};
    for (long waited_us = 0; waited_us < FLUSH_WAIT_MS * 1000L; waited_us += 200) {
        if (__atomic_load_n(&b->acked, __ATOMIC_ACQUIRE)) {
            int taken = (int)b->taken;
            __atomic_store_n(&b->state, BOX_FREE, __ATOMIC_RELEASE);
            return taken;
        }
        if (__atomic_load_n(&ch.gone, __ATOMIC_ACQUIRE)) break;
        nanosleep(&ts, NULL);
    }
    return -1; /* the box stays taken: the thread may still be sending it */
}

int mpirr_channel_abort_view(int *first, uint64_t *progress_sum)
{
    int running = __atomic_load_n(&ch.view_running, __ATOMIC_ACQUIRE);
    *first = __atomic_load_n(&ch.view_first, __ATOMIC_RELAXED);
    *progress_sum = __atomic_load_n(&ch.view_sum, __ATOMIC_RELAXED);
    return running;
}

int mpirr_channel_gone(void)
{
    return channel_up() && __atomic_load_n(&ch.gone, __ATOMIC_ACQUIRE);
}

/* Reads messages until the first SET (mpirr answers HELLO with it) or timeout_ms; 0 or -1. */
static int await_first_set(int timeout_ms, char *err, size_t n)
{
    static mpirr_cw_inbox in;
    long until = now_ms() + timeout_ms;
    for (;;) {
        int got = mpirr_cw_read(ch.fd, &in, err, n);
        if (got == 1) {
            apply(&in);
            if (in.u.h.type == MPIRR_CW_SET) return 0;
            continue;
        }
        if (got < 0) {
            if (!err[0]) snprintf(err, n, "it closed the connection without accepting this "
                                          "rank (its own line says why)");
            return -1;
        }
        long left = until - now_ms();
        struct pollfd p = {.fd = ch.fd, .events = POLLIN};
        if (left <= 0 || (poll(&p, 1, (int)left) == 0)) {
            snprintf(err, n, "no answer from mpirr within %d s", timeout_ms / 1000);
            return -1;
        }
    }
}

static void close_at_exit(void) { mpirr_channel_close(); }

void mpirr_channel_open(const char *addr, mpirr_ctl_slot *slot, mpirr_ctl_header *header)
{
    char host[256], port[32], token[MPIRR_CW_TOKEN_HEX], err[300];
    long stall = (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS);
    int timeout_ms = (int)(stall > 0 && stall < 60 ? stall : 60) * 1000;
    if (parse_addr(addr, host, sizeof host, port, sizeof port, token))
        mpirr_fatal("replay of rank %d on %s: MPIRR_CONTROL is not HOST:PORT:TOKEN (a %d-digit "
                    "token)", mpirr_rt.rank, slot->host, MPIRR_CW_TOKEN_HEX);
    ch.slot = slot;
    ch.header = header;
    ch.fd = connect_to(host, port, timeout_ms, err, sizeof err);
    if (ch.fd < 0)
        mpirr_fatal("replay of rank %d on %s cannot reach mpirr at %s:%s: %s (MPIRR_CONTROL_HOST "
                    "names mpirr's host as the ranks can reach it)", mpirr_rt.rank, slot->host,
                    host, port, err);
    mpirr_cw_hello h = {.version = MPIRR_CTL_VERSION, .rank = mpirr_rt.rank,
                          .nranks = mpirr_rt.nranks, .pid = slot->pid};
    memcpy(h.token, token, sizeof h.token);
    memcpy(h.host, slot->host, sizeof h.host);
    h.host[sizeof h.host - 1] = 0;
    if (mpirr_cw_send(ch.fd, MPIRR_CW_HELLO, &h, sizeof h, timeout_ms)) {
        snprintf(err, sizeof err, "%s", strerror(errno));
    } else if (!await_first_set(timeout_ms, err, sizeof err)) {
        err[0] = 0;
    }
    if (err[0]) {
        close(ch.fd);
        ch.fd = -1;
        mpirr_fatal("replay of rank %d on %s: mpirr at %s:%s: %s", mpirr_rt.rank, slot->host,
                    host, port, err);
    }
    ch.evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    /* how often a moving rank reports: 20 times a second, less in large jobs (at most about
     * 20000 reports a second reach mpirr) */
    ch.period_ms = mpirr_rt.nranks / 20 > 50 ? mpirr_rt.nranks / 20 : 50;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* the program's signals are not the thread's */
    int rc = ch.evfd < 0 ? errno : pthread_create(&ch.thread, NULL, channel_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        close(ch.fd);
        ch.fd = -1;
        mpirr_fatal("replay of rank %d: cannot start the thread that talks to mpirr: %s",
                    mpirr_rt.rank, strerror(rc));
    }
    ch.pid = own_pid();
    __atomic_store_n(&ch.up, 1, __ATOMIC_RELEASE);
    static int registered;
    if (!registered++) atexit(close_at_exit);
}

void mpirr_channel_close(void)
{
    if (own_pid() != ch.pid || !__atomic_exchange_n(&ch.up, 0, __ATOMIC_ACQ_REL)) return;
    __atomic_store_n(&ch.stopping, 1, __ATOMIC_RELEASE);
    poke();
    pthread_join(ch.thread, NULL);
    close(ch.fd);
    close(ch.evfd);
    ch.fd = ch.evfd = -1;
    ch.stopping = 0;
}
