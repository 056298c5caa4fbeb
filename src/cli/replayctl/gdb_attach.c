/* gdb_attach.c: the session's `gdb R` (see gdb_attach.h): finding gdb and the extension,
 * checking the rank, running gdb in its own process group (the terminal's foreground one while
 * it runs, so that ^C reaches gdb and not the job), and serving the extension's socket until
 * gdb exits. A rank on another host gets its gdb there (gdb_remote.c). */
#include "gdb_attach.h"
#include "shell_quote.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mono_clock.h"
#include "paths.h"
#include "control.h"
#include "gdb_remote.h"
#include "rank_process.h"
#include "number_parse.h"

#define GDB_EXTENSION_REL "../share/mpirr/mpirr-gdb.py"

enum { MAX_GDB_ARGS = 256, POLL_MS = 100, REQUEST_TIMEOUT_S = 5 };

/* ---- finding what to run ---- */

int gdb_extension_path(char *out, size_t n)
{
    char self[PATH_MAX], path[PATH_MAX + 64];
    if (path_self_dir(self, sizeof self) != 0) {
        snprintf(out, n, "(cannot read /proc/self/exe)");
        return -1;
    }
    snprintf(path, sizeof path, "%s/" GDB_EXTENSION_REL, self);
    char real[PATH_MAX];
    if (access(path, R_OK) != 0 || !realpath(path, real) || strlen(real) >= n) {
        snprintf(out, n, "%s", path);
        return -1;
    }
    strcpy(out, real);
    return 0;
}

/* ---- the rank ---- */

enum rank_host { RANK_HERE = 1, RANK_REMOTE = 2 };

/* Where the rank can be attached to (enum rank_host), or -1 after a message. */
static int check_rank(const struct gdb_link *s, int rank, mpirr_ctl_slot *slot, FILE *out)
{
    if (rank < 0 || rank >= s->nranks) {
        fprintf(out, "mpirr: gdb: no rank %d (the job has ranks 0 to %d)\n", rank,
                s->nranks - 1);
        return -1;
    }
    replay_control_read(s->control, rank, slot);
    if (slot->state == MPIRR_CTL_NOT_STARTED || slot->pid <= 0) {
        fprintf(out, "mpirr: gdb: rank %d has not started (it has not reached the end of "
                "MPI_Init)\n", rank);
        return -1;
    }
    int here = rank_on_this_host(slot);
    if (here && !rank_pid_alive(slot->pid)) { /* (another host's pids are not ours to look at) */
        fprintf(out, "mpirr: gdb: rank %d is %s and its process %d is gone\n", rank,
                mpirr_ctl_state_name(slot->state), (int)slot->pid);
        return -1;
    }
    if (slot->state != MPIRR_CTL_HELD && slot->state != MPIRR_CTL_HELD_SIGNAL &&
        slot->state != MPIRR_CTL_END_OF_RECORDING)
        fprintf(out, "mpirr: gdb: rank %d is not held (%s); attaching to it anyway\n", rank,
                replay_control_view(s->control, rank, s->stall_s) == RANK_BLOCKED
                    ? "blocked" : mpirr_ctl_state_name(slot->state));
    return here ? RANK_HERE : RANK_REMOTE;
}

/* ---- the extension's socket ---- */

struct gdb_server {
    const struct gdb_link *s;
    int rank;
    int fd;            /* listening */
    pid_t gdb;         /* gdb, or the remote shell that runs it */
    int remote;        /* on another host: the extension cannot reach the socket */
    int released;      /* the last command released ranks (SESSION_RUN) */
    int wait_owed;     /* ranks were released and nobody waited for the stopline yet */
    int armed;         /* gdb continues the rank: interrupt it if it never reaches its stop */
    double ended_since;
};

/* Listens on a fresh abstract name, written (without the leading NUL) to name. */
static int server_listen(char *name, size_t n, int rank)
{
    static unsigned serial;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    snprintf(name, n, "mpirr-session-%d-%d-%u", (int)getpid(), rank, serial++);
    size_t len = strlen(name);
    if (len + 1 >= sizeof addr.sun_path) {
        close(fd);
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(addr.sun_path + 1, name, len);
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
    if (bind(fd, (struct sockaddr *)&addr, alen) != 0 || listen(fd, 4) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Reads one line (without its newline) into buf. 0; 1 if it does not fit in n bytes with
 * its NUL (a request is never cut into a shorter one: the rest of the line is read and
 * dropped, so that the extension gets the refusal rather than a reset connection); or -1
 * (nothing, or an error). */
static int read_request(int fd, char *buf, size_t n)
{
    size_t len = 0;
    int too_long = 0;
    for (;;) {
        char c;
        ssize_t got = read(fd, &c, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || c == '\n')
            break;
        if (len + 1 >= n) /* no room for c and the terminating NUL */
            too_long = 1;
        else
            buf[len++] = c;
    }
    buf[len] = 0;
    return too_long ? 1 : len > 0 ? 0 : -1;
}

/* "WORD R" with R a rank of the job: 1 and R in *rank; 0 if line is not "WORD ..." */
static int rank_request(const char *line, const char *word, int nranks, int *rank)
{
    size_t len = strlen(word);
    if (strncmp(line, word, len) || line[len] != ' ')
        return 0;
    int64_t r;
    *rank = mpirr_parse_int(line + len + 1, 0, nranks - 1, &r) ? -1 : (int)r;
    return 1;
}

/* "resume R": whether rank R moves now (see gdb_attach.h). */
static const char *resume_reply(struct gdb_server *g)
{
    if (!g->released)
        return "idle";
    mpirr_ctl_slot slot;
    replay_control_read(g->s->control, g->rank, &slot);
    if (slot.state == MPIRR_CTL_HELD && slot.stop <= slot.held_pos)
        return "stay";
    g->armed = 1;
    g->ended_since = 0;
    /* gdb kept it stopped: it has not stalled, whatever its progress word says */
    g->s->control->seen_since[g->rank] = 0;
    return "run";
}

static void serve_line(struct gdb_server *g, const char *line, FILE *f)
{
    const struct gdb_link *s = g->s;
    int r;
    if (!strcmp(line, "wait")) {
        g->armed = 0;
        g->wait_owed = 0;
        g->released = 0;
        s->wait(s->session, f); /* it says if the job is gone */
    } else if (rank_request(line, "pid", s->nranks, &r)) {
        mpirr_ctl_slot slot;
        if (r < 0)
            fprintf(f, "mpirr: pid: '%s' is not a rank: the job has ranks 0 to %d\n", line + 4,
                    s->nranks - 1);
        else {
            replay_control_read(s->control, r, &slot);
            fprintf(f, "%d\n", (int)slot.pid);
        }
    } else if (rank_request(line, "resume", s->nranks, &r)) {
        if (r == g->rank)
            fprintf(f, "%s\n", resume_reply(g));
        else
            fprintf(f, "mpirr: resume: gdb is attached to rank %d, not '%s'\n", g->rank,
                    line + 7);
    } else if (!strcmp(line, "disarm")) {
        g->armed = 0;
        fprintf(f, "ok\n");
    } else if (!strncmp(line, "gdb", 3) && (!line[3] || line[3] == ' ')) {
        fprintf(f, "mpirr: gdb: already in gdb\n");
    } else {
        g->armed = 0;
        g->released = s->command(s->session, line, f) != 0;
        if (g->released)
            g->wait_owed = 1;
    }
}

/* Answers one connection, if it comes from gdb itself. */
static void serve_one(struct gdb_server *g)
{
    int c = accept4(g->fd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0)
        return;
    struct ucred cred;
    socklen_t clen = sizeof cred;
    if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.pid != g->gdb ||
        cred.uid != getuid()) {
        close(c);
        return;
    }
    struct timeval tv = {REQUEST_TIMEOUT_S, 0};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char line[SESSION_LINE_MAX];
    FILE *f;
    int got = read_request(c, line, sizeof line);
    if (got < 0 || !(f = fdopen(c, "w"))) {
        close(c);
        return;
    }
    if (got == 0)
        serve_line(g, line, f);
    else
        fprintf(f, "mpirr: a session command is at most %d bytes: this one is longer and was "
                "ignored whole\n", SESSION_LINE_MAX - 1);
    fclose(f);
}

/* A rank that ended its recording exits within this unless it waits for a held rank (in
 * MPI_Finalize); more than the stall bound of a call, as exiting (the launcher's and MPI's
 * teardown) takes seconds on a loaded machine, where 1 s interrupted ranks on their way out. */
#define ENDED_EXIT_S 5.0

/* While gdb continues the rank: a rank that blocks, or ends without its process going away,
 * will never reach mpirr_stopline_held; interrupt it so that gdb gets the prompt back. */
static void watchdog(struct gdb_server *g)
{
    if (!g->armed || g->remote) /* slot.pid is a pid of another host */
        return;
    mpirr_ctl_slot slot;
    replay_control_read(g->s->control, g->rank, &slot);
    enum rank_view v = replay_control_view(g->s->control, g->rank, g->s->stall_s);
    if (v == RANK_ENDED && g->ended_since == 0)
        g->ended_since = mono_seconds();
    if (v == RANK_BLOCKED || (v == RANK_ENDED && mono_seconds() - g->ended_since >= ENDED_EXIT_S)) {
        g->armed = 0;
        if (rank_pid_alive(slot.pid))
            kill(slot.pid, SIGINT);
    }
}

/* Serves the socket until gdb exits; gdb's wait status. */
static int serve_until_exit(struct gdb_server *g)
{
    for (;;) {
        int st;
        pid_t got = waitpid(g->gdb, &st, WNOHANG);
        if (got == g->gdb)
            return st;
        if (got < 0 && errno != EINTR)
            return -1;
        watchdog(g);
        struct pollfd p = {.fd = g->fd, .events = POLLIN};
        if (poll(&p, 1, POLL_MS) > 0 && (p.revents & POLLIN))
            serve_one(g);
    }
}

/* ---- running gdb ---- */

/* In the child: never returns. */
static void exec_gdb(char **argv, const char *sock, int rank, int tty,
                     const struct sigaction *old_int)
{
    char rank_text[16];
    snprintf(rank_text, sizeof rank_text, "%d", rank);
    setenv("MPIRR_SESSION_SOCKET", sock, 1);
    setenv("MPIRR_SESSION_RANK", rank_text, 1);
    setpgid(0, 0);
    if (!tty) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull > 0) {
            dup2(devnull, STDIN_FILENO);
            close(devnull);
        }
    }
    sigaction(SIGINT, old_int, NULL); /* ignored only if mpirr was started so */
    execvp(argv[0], argv);
    fprintf(stderr, "mpirr: gdb: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Gives the terminal to process group pgrp (mpirr's own when done). */
static void give_terminal(pid_t pgrp)
{
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGTTOU, &ign, &old);
    tcsetpgrp(STDIN_FILENO, pgrp);
    sigaction(SIGTTOU, &old, NULL);
}

/* Whether gdb gets mpirr's terminal: stdin is one, and mpirr is in its foreground. */
static int on_terminal(void)
{
    return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
}

/* Runs argv (gdb, or the remote shell that runs it on remote_host, else NULL) and serves the
 * extension until it exits. */
static int run_gdb(const struct gdb_link *s, int rank, char **argv, const char *remote_host,
                   FILE *out)
{
    struct gdb_server g = {.s = s, .rank = rank, .fd = -1, .remote = remote_host != NULL};
    char sock[96];
    g.fd = server_listen(sock, sizeof sock, rank);
    if (g.fd < 0) {
        fprintf(out, "mpirr: gdb: cannot make the session socket: %s\n", strerror(errno));
        return -1;
    }
    int tty = on_terminal();
    /* gdb interrupts its inferior with SIGINT (^C); mpirr must not take it as its own */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_int;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    fflush(out);
    fflush(stdout);
    fflush(stderr);
    g.gdb = fork();
    if (g.gdb == 0)
        exec_gdb(argv, sock, rank, tty, &old_int);
    int rc = 0;
    if (g.gdb < 0) {
        fprintf(out, "mpirr: gdb: cannot start gdb: %s\n", strerror(errno));
        rc = -1;
    } else {
        setpgid(g.gdb, g.gdb);
        if (tty)
            give_terminal(g.gdb);
        int st = serve_until_exit(&g);
        if (tty)
            give_terminal(getpgrp());
        if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
            rc = -1; /* it said why */
        else if (remote_host && gdb_remote_ended(remote_host, rank, st, out) != 0)
            rc = -1;
    }
    close(g.fd);
    sigaction(SIGINT, &old_int, NULL);
    /* ranks the extension released: the session goes on once they are at the stopline */
    if (g.wait_owed && s->wait(s->session, out) != 0)
        rc = -1;
    return rc;
}

/* Whether gdb's own arguments make it run without a prompt. */
static int is_batch(int n, char **words)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(words[i], "-batch") || !strcmp(words[i], "--batch"))
            return 1;
    return 0;
}

int gdb_attach(const struct gdb_link *s, int rank, const char *args_line, FILE *out)
{
    mpirr_ctl_slot slot;
    int where = check_rank(s, rank, &slot, out);
    if (where < 0)
        return -1;
    char gdb[PATH_MAX] = "gdb"; /* on another host: its PATH's (gdb_remote_check) */
    if (where == RANK_HERE && path_find_exec("gdb", NULL, gdb, sizeof gdb) != 0) {
        fprintf(out, "mpirr: gdb: not found in PATH (apt-get install gdb)\n");
        return -1;
    }
    char ext[PATH_MAX];
    int have_ext = gdb_extension_path(ext, sizeof ext) == 0;
    if (!have_ext)
        fprintf(out, "mpirr: gdb: the mpirr extension is missing (%s): gdb runs without it, "
                "in the frame it stops in\n", ext);
    if (where == RANK_REMOTE &&
        gdb_remote_check(slot.host, rank, have_ext ? ext : NULL, &have_ext, out) != 0)
        return -1;

    enum { FIXED = 8 };
    char *argv[FIXED + MAX_GDB_ARGS + 1];
    char *words[MAX_GDB_ARGS];
    char err[128], pid_text[16];
    int nwords = shell_split_words(args_line ? args_line : "", words, MAX_GDB_ARGS, err, sizeof err);
    if (nwords < 0) {
        fprintf(out, "mpirr: gdb: %s in: %.*s\n", err, (int)strcspn(args_line, "\r\n"),
                args_line);
        return -1;
    }
    snprintf(pid_text, sizeof pid_text, "%d", (int)slot.pid);
    int argc = 0;
    argv[argc++] = gdb;
    argv[argc++] = "-q";
    argv[argc++] = "-p";
    argv[argc++] = pid_text;
    if (have_ext) {
        argv[argc++] = "-x";
        argv[argc++] = ext;
        argv[argc++] = "-ex";
        argv[argc++] = "mpirr frame";
    }
    for (int i = 0; i < nwords; i++)
        argv[argc++] = words[i];
    argv[argc] = NULL;
    int rc = -1;
    if (where == RANK_HERE) {
        rc = run_gdb(s, rank, argv, NULL, out);
    } else {
        char **rsh = gdb_remote_argv(slot.host, argc, argv,
                                     on_terminal() && !is_batch(nwords, words) ? GDB_REMOTE_TTY
                                                                               : GDB_REMOTE_NONE,
                                     out);
        if (rsh)
            rc = run_gdb(s, rank, rsh, slot.host, out);
        gdb_remote_free(rsh);
    }
    for (int i = 0; i < nwords; i++)
        free(words[i]);
    return rc;
}
