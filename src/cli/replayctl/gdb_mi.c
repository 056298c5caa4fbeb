/* gdb_mi.c: see gdb_mi.h. The parser follows the GDB/MI output grammar: a record is a prefix
 * character, a class ("done", "stopped", ...) and comma-separated results name=value, where a
 * value is a c-string, a tuple {results} or a list [values or results]. */
#include "gdb_mi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mono_clock.h"

/* ---- the parser ---- */

/* A c-string at *p (after its opening quote): its unescaped text; *p moves past the quote. */
static char *parse_cstring(const char **p)
{
    const char *s = *p;
    size_t cap = strlen(s) + 1, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\' && *s) {
            c = *s++;
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c == 'r') c = '\r';
            else if (c >= '0' && c <= '7') { /* \NNN: a byte gdb would not print as is */
                int v = c - '0';
                for (int i = 0; i < 2 && *s >= '0' && *s <= '7'; i++) v = v * 8 + (*s++ - '0');
                c = (char)v;
            }
        }
        out[len++] = c;
    }
    out[len] = 0;
    *p = *s == '"' ? s + 1 : s;
    return out;
}

static struct mi_value *parse_value(const char **p);

/* name=value or, in a list, a bare value. */
static struct mi_value *parse_member(const char **p)
{
    const char *s = *p, *eq = s;
    while (*eq && *eq != '=' && *eq != ',' && *eq != '}' && *eq != ']' && *eq != '"' &&
           *eq != '{' && *eq != '[')
        eq++;
    char *name = NULL;
    if (*eq == '=') {
        name = strndup(s, (size_t)(eq - s));
        s = eq + 1;
    }
    *p = s;
    struct mi_value *v = parse_value(p);
    if (v) v->name = name;
    else free(name);
    return v;
}

/* Members up to the closing character close (0: the end of the text). */
static struct mi_value *parse_members(const char **p, char close)
{
    struct mi_value *first = NULL, **tail = &first;
    while (**p && **p != close) {
        struct mi_value *v = parse_member(p);
        if (!v) break;
        *tail = v;
        tail = &v->next;
        if (**p == ',') (*p)++;
        else break;
    }
    if (close && **p == close) (*p)++;
    return first;
}

static struct mi_value *parse_value(const char **p)
{
    struct mi_value *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    char c = **p;
    if (c == '"') {
        (*p)++;
        v->kind = MI_CONST;
        v->text = parse_cstring(p);
    } else if (c == '{' || c == '[') {
        (*p)++;
        v->kind = c == '{' ? MI_TUPLE : MI_LIST;
        v->child = parse_members(p, c == '{' ? '}' : ']');
    } else {
        free(v);
        return NULL;
    }
    return v;
}

struct mi_value *mi_parse_results(const char *text)
{
    return parse_members(&text, 0);
}

const struct mi_value *mi_find(const struct mi_value *results, const char *path)
{
    const struct mi_value *v = results;
    while (*path) {
        size_t len = strcspn(path, ".");
        while (v && !(v->name && strlen(v->name) == len && !strncmp(v->name, path, len)))
            v = v->next;
        if (!v) return NULL;
        path += len;
        if (*path == '.') {
            path++;
            v = v->child;
        }
    }
    return v;
}

void mi_free(struct mi_value *v)
{
    while (v) {
        struct mi_value *next = v->next;
        mi_free(v->child);
        free(v->name);
        free(v->text);
        free(v);
        v = next;
    }
}

static const char *find_text(const struct mi_value *results, const char *path)
{
    const struct mi_value *v = mi_find(results, path);
    return v && v->kind == MI_CONST ? v->text : NULL;
}

int gdb_mi_quote(const char *s, char *out, size_t n)
{
    size_t o = 0;
    if (n < 3) return -1;
    out[o++] = '"';
    for (; *s; s++) {
        if (o + 4 >= n) return -1;
        if (*s == '"' || *s == '\\') out[o++] = '\\';
        if (*s == '\n') { /* one command is one line */
            out[o++] = ' ';
            continue;
        }
        out[o++] = *s;
    }
    out[o++] = '"';
    out[o] = 0;
    return 0;
}

/* ---- the process ---- */

/* Writes all of buf to gdb. A gdb that died makes the write fail with EPIPE: SIGPIPE is
 * blocked meanwhile and a pending one taken, so mpirr's own disposition stays as it is. */
static int write_all(int fd, const char *buf, size_t len)
{
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    int rc = 0;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, buf + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    if (rc != 0 && errno == EPIPE) {
        struct timespec none = {0, 0};
        sigtimedwait(&pipe_only, NULL, &none);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int gdb_mi_argv(const char *gdb, const char *extension, char **argv)
{
    int argc = 0;
    argv[argc++] = (char *)gdb;
    argv[argc++] = "--interpreter=mi3";
    argv[argc++] = "-q";
    argv[argc++] = "-nx";
    if (extension) {
        argv[argc++] = "-x";
        argv[argc++] = (char *)extension;
    }
    argv[argc] = NULL;
    return argc;
}

int gdb_mi_spawn(struct gdb_mi *g, char *const *argv, char *err, size_t n)
{
    memset(g, 0, sizeof *g);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, n, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, n, "cannot make a pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* ^C at the terminal is the session's, not gdb's */
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, STDERR_FILENO); /* its stderr would interleave */
        signal(SIGINT, SIG_DFL);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        snprintf(err, n, "cannot start gdb: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        return -1;
    }
    setpgid(pid, pid);
    g->pid = pid;
    g->to_gdb = in[1];
    g->from_gdb = out[0];
    fcntl(g->from_gdb, F_SETFL, fcntl(g->from_gdb, F_GETFL) | O_NONBLOCK);
    static const char *const setup =
        "-gdb-set mi-async on\n"
        "-gdb-set pagination off\n"
        "-gdb-set confirm off\n"
        "-gdb-set width 0\n"
        "-interpreter-exec console \"handle all nostop noprint pass\"\n";
    if (write_all(g->to_gdb, setup, strlen(setup))) {
        snprintf(err, n, "cannot talk to gdb: %s", strerror(errno));
        gdb_mi_close(g);
        return -1;
    }
    g->want_result = 5; /* the setup's five results */
    return 0;
}

static void clear_command(struct gdb_mi *g)
{
    mi_free(g->result);
    g->result = NULL;
    free(g->message);
    g->message = NULL;
    g->error = 0;
    g->console_len = 0;
    if (g->console) g->console[0] = 0;
}

int gdb_mi_busy(const struct gdb_mi *g)
{
    return g->pid > 0 && (g->want_result > 0 || g->want_stop);
}

int gdb_mi_start(struct gdb_mi *g, int stops, const char *fmt, ...)
{
    if (g->pid <= 0) return -1;
    if (g->want_result > 0 && gdb_mi_wait_all(&g, 1, 60) != 0) return -1;
    clear_command(g);
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (len < 0 || len >= (int)sizeof line - 1) return -1;
    line[len++] = '\n';
    if (write_all(g->to_gdb, line, (size_t)len)) return -1;
    g->want_result = 1;
    g->want_stop = stops;
    return 0;
}

static void append_console(struct gdb_mi *g, const char *text)
{
    size_t add = strlen(text);
    char *c = realloc(g->console, g->console_len + add + 1);
    if (!c) return;
    g->console = c;
    memcpy(c + g->console_len, text, add + 1);
    g->console_len += add;
}

static void take_stopped(struct gdb_mi *g, const char *results)
{
    struct mi_value *r = mi_parse_results(results);
    struct mi_stop *s = &g->stop;
    memset(s, 0, sizeof *s);
    const char *t;
    if ((t = find_text(r, "reason"))) snprintf(s->reason, sizeof s->reason, "%s", t);
    if ((t = find_text(r, "bkptno")) || (t = find_text(r, "wpt.number")) ||
        (t = find_text(r, "hw-awpt.number")) || (t = find_text(r, "hw-rwpt.number")))
        s->number = atoi(t);
    if ((t = find_text(r, "frame.func"))) snprintf(s->func, sizeof s->func, "%s", t);
    if ((t = find_text(r, "frame.file"))) {
        const char *base = strrchr(t, '/');
        snprintf(s->file, sizeof s->file, "%s", base ? base + 1 : t);
    }
    if ((t = find_text(r, "frame.line"))) s->line = atoi(t);
    if ((t = find_text(r, "signal-name"))) snprintf(s->signal, sizeof s->signal, "%s", t);
    if (!strncmp(s->reason, "exited", 6)) g->exited = 1;
    mi_free(r);
    g->running = 0;
    g->stop_new = 1;
    g->want_stop = 0;
}

/* One complete output line. */
static void take_line(struct gdb_mi *g, char *line)
{
    const char *p = line;
    while (*p >= '0' && *p <= '9') p++; /* a token: none are sent, but gdb may echo one */
    char kind = *p++;
    const char *comma = strchr(p, ',');
    size_t cls = comma ? (size_t)(comma - p) : strlen(p);
    const char *rest = comma ? comma + 1 : "";
    if (kind == '~') {
        if (*p == '"') {
            p++;
            char *text = parse_cstring(&p);
            if (text) append_console(g, text);
            free(text);
        }
    } else if (kind == '^') {
        if (g->want_result > 0) g->want_result--;
        if (!strncmp(p, "error", cls)) {
            g->error = 1;
            struct mi_value *r = mi_parse_results(rest);
            const char *m = find_text(r, "msg");
            free(g->message);
            g->message = strdup(m ? m : "gdb said error");
            mi_free(r);
            g->want_stop = 0; /* an error never stops the inferior */
        } else {
            mi_free(g->result);
            g->result = mi_parse_results(rest);
            if (!strncmp(p, "running", cls)) g->running = 1;
        }
    } else if (kind == '*') {
        if (!strncmp(p, "stopped", cls) && cls == 7) take_stopped(g, rest);
        else if (!strncmp(p, "running", cls)) g->running = 1;
    } else if (kind == '=') {
        if (!strncmp(p, "thread-group-exited", cls)) {
            g->exited = 1;
            g->running = 0;
        } else if (!strncmp(p, "thread-group-started", cls)) {
            g->exited = 0;
        }
    }
}

int gdb_mi_pump(struct gdb_mi *g, int timeout_ms)
{
    if (g->pid <= 0) return -1;
    struct pollfd pfd = {.fd = g->from_gdb, .events = POLLIN};
    if (timeout_ms > 0 && poll(&pfd, 1, timeout_ms) <= 0) return 0;
    for (;;) {
        if (g->cap - g->len < 4096) {
            size_t cap = g->cap ? 2 * g->cap : 16384;
            char *b = realloc(g->buf, cap);
            if (!b) return -1;
            g->buf = b;
            g->cap = cap;
        }
        ssize_t got = read(g->from_gdb, g->buf + g->len, g->cap - g->len - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (got <= 0) { /* gdb is gone */
            g->want_result = 0;
            g->want_stop = 0;
            return -1;
        }
        g->len += (size_t)got;
        g->buf[g->len] = 0;
        char *start = g->buf, *nl;
        while ((nl = memchr(start, '\n', g->len - (size_t)(start - g->buf)))) {
            *nl = 0;
            if (nl > start && nl[-1] == '\r') nl[-1] = 0;
            take_line(g, start);
            start = nl + 1;
        }
        g->len -= (size_t)(start - g->buf);
        memmove(g->buf, start, g->len);
    }
    return 0;
}

int gdb_mi_wait_all(struct gdb_mi **gs, int n, double timeout_s)
{
    double until = mono_seconds() + timeout_s;
    struct pollfd *pfd = calloc((size_t)n + 1, sizeof *pfd);
    int *which = calloc((size_t)n + 1, sizeof *which);
    int busy = 0;
    for (;;) {
        busy = 0;
        for (int i = 0; i < n; i++) {
            if (!gs[i] || !gdb_mi_busy(gs[i])) continue;
            if (gdb_mi_pump(gs[i], 0) != 0 || !gdb_mi_busy(gs[i])) continue;
            if (pfd) {
                pfd[busy].fd = gs[i]->from_gdb;
                pfd[busy].events = POLLIN;
                which[busy] = i;
            }
            busy++;
        }
        double left = until - mono_seconds();
        if (busy == 0 || left <= 0 || !pfd || !which) break;
        poll(pfd, (nfds_t)busy, left > 0.2 ? 200 : (int)(left * 1000) + 1);
    }
    free(pfd);
    free(which);
    return busy;
}

int gdb_mi_run(struct gdb_mi *g, int stops, double timeout_s, const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (len < 0 || len >= (int)sizeof line) return -1;
    if (gdb_mi_start(g, stops, "%s", line) != 0) return -1;
    if (gdb_mi_wait_all(&g, 1, timeout_s) != 0) return -1;
    return g->error ? 1 : 0;
}

int gdb_mi_take_stop(struct gdb_mi *g, struct mi_stop *stop)
{
    if (!g->stop_new) return 0;
    g->stop_new = 0;
    *stop = g->stop;
    return 1;
}

const char *gdb_mi_result_text(const struct gdb_mi *g, const char *path)
{
    return find_text(g->result, path);
}

void gdb_mi_close(struct gdb_mi *g)
{
    if (g->pid > 0) {
        static const char quit[] = "-gdb-exit\n";
        write_all(g->to_gdb, quit, sizeof quit - 1); /* gone already: reaped below */
        close(g->to_gdb);
        double until = mono_seconds() + (g->close_wait_s > 0 ? g->close_wait_s : 1.0);
        int st;
        pid_t got;
        struct timespec tick = {0, 10 * 1000 * 1000};
        /* polled: waitpid has no timeout, and a gdb stuck in ptrace must not hang mpirr */
        while ((got = waitpid(g->pid, &st, WNOHANG)) == 0 && mono_seconds() < until)
            nanosleep(&tick, NULL);
        if (got == 0) {
            kill(-g->pid, SIGKILL);
            waitpid(g->pid, &st, 0);
        }
        close(g->from_gdb);
    }
    clear_command(g);
    free(g->console);
    free(g->buf);
    memset(g, 0, sizeof *g);
}
