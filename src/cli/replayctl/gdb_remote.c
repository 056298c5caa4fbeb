/* gdb_remote.c: `gdb R` on a rank of another host (gdb_remote.h): the remote shell's command
 * line, the check before gdb that the host answers without a prompt, and what its failures
 * mean. */
#include "gdb_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdb_attach.h"
#include "mono_clock.h"
#include "remote_shell.h"
#include "settings.h"
#include "shell_quote.h"
#include "text_escape.h"

enum { NO_GDB = 3, NO_EXTENSION = 4 };
/* ConnectTimeout bounds the connection; this, a remote shell that connects and then stalls */
#define CHECK_LIMIT_S 60.0

/* MPIRR_RSH's words, its options, host and the one remote command word (remote_shell.h). */
static char **rsh_argv(const char *host, const char *remote, enum gdb_remote_stdin in, FILE *out)
{
    static const char *const flag[] = {[GDB_REMOTE_NONE] = "-n", [GDB_REMOTE_TTY] = "-t",
                                       [GDB_REMOTE_PIPE] = "-T"};
    char err[400];
    char **argv = remote_shell_argv(host, flag[in], remote, err, sizeof err);
    if (!argv) fprintf(out, "mpirr: gdb: %s\n", err);
    return argv;
}

void gdb_remote_free(char **argv) { remote_shell_free(argv); }

/* The words as one command line for the remote shell (which splits it again). */
static char *quoted_line(int argc, char *const *argv)
{
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    if (!m)
        return NULL;
    shell_print_command(m, argc, argv);
    if (fclose(m) != 0) {
        free(line);
        return NULL;
    }
    return line;
}

char **gdb_remote_argv(const char *host, int argc, char *const *gdb_argv,
                       enum gdb_remote_stdin in, FILE *out)
{
    char *remote = quoted_line(argc, gdb_argv);
    if (!remote) {
        fprintf(out, "mpirr: gdb: out of memory\n");
        return NULL;
    }
    char **argv = rsh_argv(host, remote, in, out);
    free(remote);
    return argv;
}

/* ---- the check ---- */

/* The stderr of the check: the last non-empty line it wrote, escaped. */
struct last_line {
    char buf[1024];
    size_t used;
    char *last;
    size_t n;
};

/* Reads what fd has; 0 at its end (or an error), else 1. */
static int take_lines(int fd, struct last_line *l)
{
    ssize_t r = read(fd, l->buf + l->used, sizeof l->buf - 1 - l->used);
    if (r <= 0)
        return r < 0 && errno == EINTR;
    l->used += (size_t)r;
    l->buf[l->used] = 0;
    char *nl;
    while ((nl = strchr(l->buf, '\n'))) {
        *nl = 0;
        if (nl > l->buf && nl[-1] == '\r') /* ssh ends some lines with CR LF */
            nl[-1] = 0;
        if (l->buf[0])
            text_escape(l->buf, l->last, l->n);
        l->used -= (size_t)(nl + 1 - l->buf);
        memmove(l->buf, nl + 1, l->used + 1);
    }
    if (l->used == sizeof l->buf - 1) { /* a line longer than the buffer: its start */
        text_escape(l->buf, l->last, l->n);
        l->used = 0;
    }
    return 1;
}

/* Runs argv with no input and no output but its stderr, whose last non-empty line (escaped)
 * lands in last; ended after CHECK_LIMIT_S. Its wait status, -1 if it could not start, or -2
 * if it was ended. A process it leaves behind holding its stderr does not delay the answer. */
static int run_quiet(char **argv, char *last, size_t n)
{
    struct last_line l = {.used = 0, .last = last, .n = n};
    int fds[2];
    last[0] = 0;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    int st = -1, reaped = 0, open_fd = 1;
    double deadline = mono_seconds() + CHECK_LIMIT_S;
    while (open_fd || !reaped) {
        if (!reaped && waitpid(pid, &st, WNOHANG) == pid) {
            reaped = 1;
        } else if (!reaped && mono_seconds() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            st = -2;
            reaped = 1;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int ready = poll(&p, open_fd ? 1 : 0, reaped ? 0 : 100);
        if (open_fd && (ready <= 0 ? reaped : !take_lines(fds[0], &l)))
            open_fd = 0; /* its end, or nothing more once the child is gone */
    }
    if (l.used > 0)
        text_escape(l.buf, last, n);
    close(fds[0]);
    return st;
}

static void say_unreachable(const char *host, int rank, const char *why, FILE *out)
{
    char esc[300];
    fprintf(out, "mpirr: cannot reach %s for rank %d's gdb: %s (mpirr runs `%s -o BatchMode=yes "
            "%s`: set up key-based ssh, or MPIRR_RSH)\n", host, rank, why,
            text_escape(remote_shell_setting(), esc, sizeof esc), host);
}

int gdb_remote_check(const char *host, int rank, const char *ext, int *ext_ok, FILE *out)
{
    char *quoted = ext ? quoted_line(1, (char *const *)&ext) : NULL, *script;
    int len = quoted ? asprintf(&script, "command -v gdb >/dev/null 2>&1 || exit %d; "
                                "test -r %s || exit %d; exit 0", NO_GDB, quoted, NO_EXTENSION)
                     : asprintf(&script, "command -v gdb >/dev/null 2>&1 || exit %d; exit 0",
                                NO_GDB);
    free(quoted);
    if (len < 0) {
        fprintf(out, "mpirr: gdb: out of memory\n");
        return -1;
    }
    char **argv = rsh_argv(host, script, GDB_REMOTE_NONE, out);
    free(script);
    if (!argv)
        return -1;
    char last[512];
    int st = run_quiet(argv, last, sizeof last);
    int code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    int rc = 0;
    *ext_ok = ext != NULL;
    if (st == -2) {
        say_unreachable(host, rank, "no answer within 60 s", out);
        rc = -1;
    } else if (code == REMOTE_SHELL_FAILED) {
        say_unreachable(host, rank, last[0] ? last : "the remote shell exited 255", out);
        rc = -1;
    } else if (code == NO_GDB) {
        fprintf(out, "mpirr: gdb: not found in PATH on %s, rank %d's host (install it there)\n",
                host, rank);
        rc = -1;
    } else if (code == NO_EXTENSION) {
        *ext_ok = 0;
        fprintf(out, "mpirr: gdb: the mpirr extension %s is not readable on %s: gdb runs "
                "without it, in the frame it stops in\n", ext, host);
    } else if (code != 0) {
        fprintf(out, "mpirr: gdb: %s on %s for rank %d %s%s%s\n", argv[0], host, rank,
                st == -1 ? "could not start" : "failed", last[0] ? ": " : "", last);
        rc = -1;
    }
    gdb_remote_free(argv);
    return rc;
}

int gdb_remote_ended(const char *host, int rank, int st, FILE *out)
{
    if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != REMOTE_SHELL_FAILED)
        return 0;
    say_unreachable(host, rank, "the connection failed while gdb ran (its exit status 255)",
                    out);
    return -1;
}
