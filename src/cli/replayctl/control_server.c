/* control_server.c: see control_server.h. The thread owns every socket; the session changes
 * the control state under c->lock and wakes it (an eventfd). A connection belongs to the epoch
 * it said HELLO in: replay_control_reset starts a new one, after which the older connections'
 * messages are dropped (a relaunch must not be undone by a late message of the job it
 * replaced), and a new HELLO for a rank replaces its connection. Each job's ranks get a token
 * of their own, the replay's secret and the job's epoch: a rank of a replaced job that says
 * HELLO only after the reset (slow to start, on a loaded host) is kept apart, ignored, rather
 * than taken for the new job's rank. */
#include "control_server.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control.h"
#include "diag.h"
#include "mono_clock.h"
#include "number_parse.h"
#include "recording.h"
#include "reserve.h"
#include "run_id.h"
#include "run_scratch.h"
#include "settings.h"

enum { SEND_WAIT_MS = 1000, VIEW_EVERY_MS = 10 };
/* a token: the secret's first CONTROL_SECRET_HEX hex digits (96 random bits), the epoch's 8 */
enum { CONTROL_EPOCH_HEX = 8, CONTROL_SECRET_HEX = MPIRR_CW_TOKEN_HEX - CONTROL_EPOCH_HEX };

struct conn {
    int fd;
    int rank;           /* -1 until its HELLO */
    unsigned epoch;
    uint64_t set_version; /* of the SET it got last */
    mpirr_cw_abort_view view; /* the one it got last */
    mpirr_cw_inbox *in;
    char peer[80];
};

struct control_server {
    struct replay_control *c;
    int listen_fd, wake_fd;
    pthread_t thread;
    int running, stopping;
    struct conn *conns;
    size_t nconns, conns_cap;
    struct pollfd *pfds;
    size_t pfds_cap;
    int *conn_of_rank; /* index in conns, or -1 */
    int view_dirty;
    double view_at;
    char holdlog[PATH_MAX + 32], errlog[PATH_MAX + 32];
};

/* ---- listening ---- */

static int listen_any(char *err, size_t n)
{
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd >= 0) { /* IPv6 and, through mapped addresses, IPv4 */
        int no = 0;
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any};
        if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, SOMAXCONN) == 0) return fd;
        close(fd);
    }
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, SOMAXCONN) == 0)
        return fd;
    snprintf(err, n, "%s", strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
}

static int port_of(int fd)
{
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &len)) return -1;
    if (a.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
    return ntohs(((struct sockaddr_in *)&a)->sin_port);
}

/* ---- connections ---- */

static void drop(struct control_server *sv, size_t i)
{
    struct conn *k = &sv->conns[i];
    if (k->rank >= 0 && sv->conn_of_rank[k->rank] == (int)i) sv->conn_of_rank[k->rank] = -1;
    close(k->fd);
    free(k->in);
    sv->conns[i] = sv->conns[--sv->nconns];
    if (i < sv->nconns && sv->conns[i].rank >= 0 &&
        sv->conn_of_rank[sv->conns[i].rank] == (int)sv->nconns)
        sv->conn_of_rank[sv->conns[i].rank] = (int)i;
}

static void accept_all(struct control_server *sv)
{
    for (;;) {
        struct sockaddr_storage a;
        socklen_t len = sizeof a;
        int fd = accept4(sv->listen_fd, (struct sockaddr *)&a, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return; /* EAGAIN, or out of descriptors: the rest wait in the backlog */
        mpirr_cw_inbox *in = calloc(1, sizeof *in);
        if (!in || mpirr_reserve((void **)&sv->conns, &sv->conns_cap, sv->nconns + 1,
                              sizeof *sv->conns)) {
            free(in);
            close(fd);
            return;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct conn *k = &sv->conns[sv->nconns++];
        memset(k, 0, sizeof *k);
        k->fd = fd;
        k->rank = -1;
        k->in = in;
        k->view.running = -1;
        char host[64] = "?", port[16] = "?";
        getnameinfo((struct sockaddr *)&a, len, host, sizeof host, port, sizeof port,
                    NI_NUMERICHOST | NI_NUMERICSERV);
        snprintf(k->peer, sizeof k->peer, "%s port %s", host, port);
    }
}

static int send_to(struct conn *k, unsigned type, const void *payload, uint32_t length)
{
    return mpirr_cw_send(k->fd, type, payload, length, SEND_WAIT_MS);
}

/* Sends rank's SET; the caller holds the lock. */
static int send_set(struct control_server *sv, struct conn *k)
{
    struct replay_control *c = sv->c;
    const mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, k->rank);
    mpirr_cw_set m = {.generation = c->ctl.h->generation, .stop = s->stop,
                      .flags = c->ctl.h->flags, .ends_itself = s->ends_itself};
    k->set_version = c->set_version;
    return send_to(k, MPIRR_CW_SET, &m, sizeof m);
}

/* The epoch of the job whose token a HELLO carries (the current job's or a replaced one's);
 * -1 if it is no token of this replay's. */
static long job_of_token(struct replay_control *c, const char *token)
{
    uint64_t epoch;
    if (memcmp(token, c->token, CONTROL_SECRET_HEX) ||
        mpirr_parse_digits(token + CONTROL_SECRET_HEX, CONTROL_EPOCH_HEX, 16, UINT32_MAX, &epoch))
        return -1;
    pthread_mutex_lock(&c->lock);
    int known = epoch <= c->epoch;
    pthread_mutex_unlock(&c->lock);
    return known ? (long)epoch : -1;
}

/* HELLO on a new connection: who it is. 0, or -1 (drop it) after a line naming the peer. */
static int hello(struct control_server *sv, size_t i, const mpirr_cw_hello *h)
{
    struct replay_control *c = sv->c;
    struct conn *k = &sv->conns[i];
    char host[sizeof h->host + 1];
    memcpy(host, h->host, sizeof h->host);
    host[sizeof h->host] = 0;
    const char *why = NULL;
    long job = job_of_token(c, h->token);
    if (job < 0) why = "wrong token";
    else if (h->version != MPIRR_CTL_VERSION) why = "another version of mpirr's runtime";
    else if (h->nranks != c->nranks) why = "a job of another size";
    else if (h->rank < 0 || h->rank >= c->nranks) why = "a rank out of range";
    if (why) {
        fprintf(stderr, "mpirr: refused a replay control connection from %s (says rank %d of %d, "
                        "pid %d on %s): %s (this replay has %d ranks)\n",
                k->peer, h->rank, h->nranks, h->pid, host, why, c->nranks);
        return -1;
    }
    int old = sv->conn_of_rank[h->rank];
    k->rank = h->rank;
    pthread_mutex_lock(&c->lock);
    k->epoch = (unsigned)job;
    if (k->epoch != c->epoch) {
        /* a replaced job's rank: ignored like its other ranks, kept open until they end */
        pthread_mutex_unlock(&c->lock);
        return 0;
    }
    /* whatever an earlier process of this rank said is not this one's */
    memset((char *)mpirr_ctl_slot_of(&c->ctl, k->rank) + MPIRR_CTL_RANK_PART, 0,
           MPIRR_CTL_RANK_PART_SIZE);
    int rc = send_set(sv, k);
    pthread_mutex_unlock(&c->lock);
    sv->conn_of_rank[h->rank] = (int)i;
    /* replaced: dropped below; but a replaced job's rank keeps its connection (ignored) until
     * its launcher ends it, since to the rank a closed one means that mpirr is gone */
    if (old >= 0 && sv->conns[old].epoch == k->epoch) sv->conns[old].fd = -sv->conns[old].fd - 1;
    sv->view_dirty = 1;
    return rc;
}

/* The view of a rank in MPI_Abort: the ranks whose recorded run ended by itself that are not
 * there yet (not started, or running); the caller holds the lock. */
static mpirr_cw_abort_view abort_view(const struct replay_control *c, int *aborting)
{
    mpirr_cw_abort_view v = {.running = 0, .first = -1};
    *aborting = 0;
    for (int k = 0; k < c->nranks; k++) {
        const mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, k);
        if (s->state == MPIRR_CTL_ABORTING) ++*aborting;
        if (!s->ends_itself || (s->state != MPIRR_CTL_NOT_STARTED && s->state != MPIRR_CTL_RUNNING))
            continue;
        if (!v.running++) v.first = k;
        v.progress_sum += s->progress;
    }
    return v;
}

/* Sends the view to every rank in MPI_Abort that has not got it yet (only to the connection
 * at index only, if only >= 0). */
static void send_views(struct control_server *sv, int only)
{
    struct replay_control *c = sv->c;
    int aborting;
    pthread_mutex_lock(&c->lock);
    mpirr_cw_abort_view v = abort_view(c, &aborting);
    for (int r = 0; r < c->nranks && aborting; r++) {
        int i = sv->conn_of_rank[r];
        if (i < 0 || (only >= 0 && i != only) || sv->conns[i].fd < 0) continue;
        struct conn *k = &sv->conns[i];
        if (mpirr_ctl_slot_of(&c->ctl, r)->state != MPIRR_CTL_ABORTING || k->epoch != c->epoch ||
            !memcmp(&k->view, &v, sizeof v))
            continue;
        k->view = v;
        if (send_to(k, MPIRR_CW_ABORT_VIEW, &v, sizeof v)) k->fd = -k->fd - 1;
    }
    pthread_mutex_unlock(&c->lock);
    sv->view_dirty = 0;
    sv->view_at = mono_seconds();
}

/* A SLOT: the rank's part of its slot (the state last, for readers that read it alone). */
static int slot(struct control_server *sv, size_t i, const mpirr_cw_slot *m)
{
    struct replay_control *c = sv->c;
    struct conn *k = &sv->conns[i];
    mpirr_ctl_slot part;
    memcpy((char *)&part + MPIRR_CTL_RANK_PART, m->part, sizeof m->part);
    unsigned state = part.state;
    pthread_mutex_lock(&c->lock);
    int current = k->epoch == c->epoch;
    if (current) {
        mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, k->rank);
        part.state = s->state;
        memcpy((char *)s + MPIRR_CTL_RANK_PART, (char *)&part + MPIRR_CTL_RANK_PART,
               MPIRR_CTL_RANK_PART_SIZE);
        __atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&c->lock);
    if (!current) return 0;
    sv->view_dirty = 1;
    /* a rank entering MPI_Abort has its view before the acknowledgement it waits for */
    if (state == MPIRR_CTL_ABORTING) send_views(sv, (int)i);
    if (!m->seq || k->fd < 0) return 0;
    /* a stop set before this report reaches the rank before the acknowledgement it waits for
     * (a rank that holds checks its stop again then: stopline.c) */
    pthread_mutex_lock(&c->lock);
    int stale = k->set_version != c->set_version && send_set(sv, k);
    pthread_mutex_unlock(&c->lock);
    if (stale) return -1;
    mpirr_cw_ack a = {.seq = m->seq, .of = MPIRR_CW_SLOT};
    return send_to(k, MPIRR_CW_ACK, &a, sizeof a);
}

/* Appends text to path in one write (O_APPEND: lines never interleave); 1 if it did. */
static int append(const char *path, int create, const char *text, size_t n)
{
    if (!path[0]) return 0;
    int flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0);
    int fd = open(path, flags, 0600);
    if (fd < 0) return 0;
    ssize_t w = write(fd, text, n);
    close(fd);
    return w == (ssize_t)n;
}

/* A LINE: into the hold log (only if the replay made one: replay_hold_start) or the errors
 * file (run_command.c prints it after the run), acknowledged once it is there; a replaced
 * job's, acknowledged and dropped. */
static int line(struct control_server *sv, size_t i, const mpirr_cw_line *m, uint32_t length)
{
    struct conn *k = &sv->conns[i];
    size_t n = length - MPIRR_CW_LINE_HEAD;
    pthread_mutex_lock(&sv->c->lock);
    int replaced = k->epoch != sv->c->epoch;
    pthread_mutex_unlock(&sv->c->lock);
    /* a replaced job's words are not the new job's: taken (the rank need not print it), dropped */
    int taken = replaced ? 1
                : m->which == MPIRR_CW_LINE_HOLD ? append(sv->holdlog, 0, m->text, n)
                                                 : append(sv->errlog, 1, m->text, n);
    if (m->which != MPIRR_CW_LINE_HOLD && !taken) fprintf(stderr, "%.*s", (int)n, m->text);
    mpirr_cw_ack a = {.seq = m->seq, .of = MPIRR_CW_LINE, .taken = (uint32_t)taken};
    return send_to(k, MPIRR_CW_ACK, &a, sizeof a);
}

/* One whole message from connection i; -1 drops it. */
static int handle(struct control_server *sv, size_t i)
{
    struct conn *k = &sv->conns[i];
    const mpirr_cw_header *h = &k->in->u.h;
    const void *p = mpirr_cw_payload(k->in);
    if (k->rank < 0) {
        if (h->type == MPIRR_CW_HELLO) return hello(sv, i, p);
        fprintf(stderr, "mpirr: refused a replay control connection from %s: it began with %s, "
                        "not HELLO\n", k->peer, mpirr_cw_type_name(h->type));
        return -1;
    }
    switch (h->type) {
    case MPIRR_CW_SLOT: return slot(sv, i, p);
    case MPIRR_CW_LINE: return line(sv, i, p, h->length);
    default:
        fprintf(stderr, "mpirr: rank %d sent an unexpected replay control message %s; closing its "
                        "connection\n", k->rank, mpirr_cw_type_name(h->type));
        return -1;
    }
}

static void read_conn(struct control_server *sv, size_t i)
{
    char err[200];
    int got;
    while (sv->conns[i].fd >= 0 && (got = mpirr_cw_read(sv->conns[i].fd, sv->conns[i].in, err,
                                                        sizeof err)) != 0) {
        struct conn *k = &sv->conns[i];
        if (got < 0) {
            if (err[0] && k->rank >= 0)
                fprintf(stderr, "mpirr: the replay control connection of rank %d (%s): %s\n",
                        k->rank, k->peer, err);
            else if (err[0])
                fprintf(stderr, "mpirr: refused a replay control connection from %s: %s\n",
                        k->peer, err);
            k->fd = -k->fd - 1;
            return;
        }
        if (handle(sv, i)) k->fd = -k->fd - 1;
    }
}

/* The SETs the ranks have not got. */
static void send_sets(struct control_server *sv)
{
    struct replay_control *c = sv->c;
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < sv->nconns; i++) {
        struct conn *k = &sv->conns[i];
        if (k->fd < 0 || k->rank < 0) continue;
        if (k->epoch != c->epoch) continue; /* its job was replaced: its launcher ends it */
        if (k->set_version != c->set_version && send_set(sv, k)) k->fd = -k->fd - 1;
    }
    pthread_mutex_unlock(&c->lock);
}

static void *serve(void *arg)
{
    struct control_server *sv = arg;
    while (!__atomic_load_n(&sv->stopping, __ATOMIC_ACQUIRE)) {
        if (mpirr_reserve((void **)&sv->pfds, &sv->pfds_cap, sv->nconns + 2, sizeof *sv->pfds)) {
            struct timespec ts = {0, 10 * 1000 * 1000}; /* out of memory: try again soon */
            nanosleep(&ts, NULL);
            continue;
        }
        sv->pfds[0] = (struct pollfd){.fd = sv->listen_fd, .events = POLLIN};
        sv->pfds[1] = (struct pollfd){.fd = sv->wake_fd, .events = POLLIN};
        for (size_t i = 0; i < sv->nconns; i++)
            sv->pfds[i + 2] = (struct pollfd){.fd = sv->conns[i].fd, .events = POLLIN};
        size_t polled = sv->nconns;
        if (poll(sv->pfds, polled + 2, VIEW_EVERY_MS * 10) < 0 && errno != EINTR) break;
        uint64_t drain;
        if (sv->pfds[1].revents && read(sv->wake_fd, &drain, sizeof drain) < 0) {
        }
        for (size_t i = 0; i < polled; i++)
            if (sv->pfds[i + 2].revents) read_conn(sv, i);
        send_sets(sv);
        if (sv->view_dirty && mono_seconds() - sv->view_at >= VIEW_EVERY_MS / 1000.0)
            send_views(sv, -1);
        for (size_t i = sv->nconns; i-- > 0;)
            if (sv->conns[i].fd < 0) {
                sv->conns[i].fd = -sv->conns[i].fd - 1;
                drop(sv, i);
            }
        if (sv->pfds[0].revents) accept_all(sv);
    }
    return NULL;
}

/* ---- the session's side ---- */

/* One descriptor per rank: raises the soft limit as far as the job needs (not to the hard
 * limit: launchers that close every descriptor up to it before a spawn would crawl). */
static void room_for(int nranks)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)nranks + 256;
    if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need) return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
}

/* HOST of the address the ranks get: MPIRR_CONTROL_HOST, else this host's name. */
static int control_host(char *host, size_t n)
{
    const char *set = mpirr_setting_text(MPIRR_SET_CONTROL_HOST);
    if (set) snprintf(host, n, strchr(set, ':') && set[0] != '[' ? "[%s]" : "%s", set);
    else if (gethostname(host, n - 1)) {
        cli_error("cannot name this host for the ranks (gethostname: %s): set MPIRR_CONTROL_HOST",
                  strerror(errno));
        return -1;
    }
    host[n - 1] = 0;
    return 0;
}

int control_server_start(struct replay_control *c)
{
    struct control_server *sv = calloc(1, sizeof *sv);
    char host[256], err[200];
    mpirr_run_id token;
    if (!sv || !(sv->conn_of_rank = malloc(((size_t)c->nranks + 1) * sizeof *sv->conn_of_rank))) {
        free(sv);
        cli_error("out of memory");
        return -1;
    }
    c->server = sv;
    sv->c = c;
    sv->listen_fd = sv->wake_fd = -1;
    for (int r = 0; r < c->nranks; r++) sv->conn_of_rank[r] = -1;
    /* a stray or hostile connection cannot steer or spoof a replay without the token */
    if (recording_new_run_id(&token) || control_host(host, sizeof host) ||
        run_scratch_path(MPIRR_HOLDLOG_NAME, sv->holdlog, sizeof sv->holdlog) ||
        run_scratch_path(MPIRR_ERRLOG_NAME, sv->errlog, sizeof sv->errlog))
        return -1;
    mpirr_run_id_text(&token, c->token);
    if ((sv->listen_fd = listen_any(err, sizeof err)) < 0) {
        cli_error("cannot listen for the replayed ranks: %s", err);
        return -1;
    }
    snprintf(c->address, sizeof c->address, "%s:%d:%s", host, port_of(sv->listen_fd), c->token);
    control_server_new_job(c);
    room_for(c->nranks);
    sv->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int rc = sv->wake_fd < 0 ? errno : pthread_create(&sv->thread, NULL, serve, sv);
    if (rc) {
        cli_error("cannot start the replay control thread: %s", strerror(rc));
        return -1;
    }
    sv->running = 1;
    return 0;
}

void control_server_new_job(struct replay_control *c)
{
    char *epoch = c->address + strlen(c->address) - CONTROL_EPOCH_HEX;
    char digits[CONTROL_EPOCH_HEX + 1];
    snprintf(digits, sizeof digits, "%08x", c->epoch);
    memcpy(epoch, digits, CONTROL_EPOCH_HEX);
}

void control_server_wake(struct replay_control *c)
{
    uint64_t one = 1;
    if (c->server && c->server->running && write(c->server->wake_fd, &one, sizeof one) < 0) {
    }
}

void control_server_stop(struct replay_control *c)
{
    struct control_server *sv = c->server;
    if (!sv) return;
    if (sv->running) {
        __atomic_store_n(&sv->stopping, 1, __ATOMIC_RELEASE);
        control_server_wake(c);
        pthread_join(sv->thread, NULL);
    }
    while (sv->nconns) {
        if (sv->conns[sv->nconns - 1].fd < 0)
            sv->conns[sv->nconns - 1].fd = -sv->conns[sv->nconns - 1].fd - 1;
        drop(sv, sv->nconns - 1);
    }
    if (sv->listen_fd >= 0) close(sv->listen_fd);
    if (sv->wake_fd >= 0) close(sv->wake_fd);
    free(sv->conns);
    free(sv->pfds);
    free(sv->conn_of_rank);
    free(sv);
    c->server = NULL;
}
