/* http_server.c: see http_server.h. The server is driven from the replay session's own loop
 * (no thread): http_server_poll is its only wait. A response is written with the socket
 * blocking under a send timeout, so a client that stops reading costs at most that long. */
#include "http_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "diag.h"

enum { SEND_TIMEOUT_S = 5 };

static int make_token(char *out)
{
    unsigned char raw[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t got = read(fd, raw, sizeof raw);
    close(fd);
    if (got != (ssize_t)sizeof raw) return -1;
    for (size_t i = 0; i < sizeof raw; i++) sprintf(out + 2 * i, "%02x", raw[i]);
    return 0;
}

int http_server_open(struct http_server *h, http_handler handler, void *arg)
{
    memset(h, 0, sizeof *h);
    h->handler = handler;
    h->arg = arg;
    for (int i = 0; i < HTTP_MAX_CONNS; i++) h->conns[i].fd = -1;
    if (make_token(h->token)) {
        cli_error("--ui: cannot read /dev/urandom for the page's token");
        return -1;
    }
    h->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never another address */
    socklen_t alen = sizeof a;
    if (h->fd < 0 || bind(h->fd, (struct sockaddr *)&a, sizeof a) || listen(h->fd, 16) ||
        getsockname(h->fd, (struct sockaddr *)&a, &alen)) {
        cli_error("--ui: cannot listen on 127.0.0.1: %s", strerror(errno));
        if (h->fd >= 0) close(h->fd);
        h->fd = -1;
        return -1;
    }
    h->port = ntohs(a.sin_port);
    return 0;
}

static void conn_free(struct http_conn *c)
{
    if (c->fd >= 0) close(c->fd);
    free(c->buf);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

void http_server_close(struct http_server *h)
{
    for (int i = 0; i < HTTP_MAX_CONNS; i++)
        if (h->conns[i].fd >= 0) conn_free(&h->conns[i]);
    if (h->fd >= 0) close(h->fd);
    h->fd = -1;
}

static const char *status_text(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
    }
}

void http_reply(struct http_conn *c, int status, const char *type, const void *body, size_t len)
{
    int fl = fcntl(c->fd, F_GETFL);
    if (fl >= 0) fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
    struct timeval tv = {SEND_TIMEOUT_S, 0};
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
                     "Connection: close\r\n\r\n",
                     status, status_text(status), type, len);
    const char *parts[2] = {head, body};
    size_t lens[2] = {(size_t)n, len};
    for (int k = 0; k < 2; k++)
        for (size_t off = 0; off < lens[k];) {
            ssize_t w = send(c->fd, parts[k] + off, lens[k] - off, MSG_NOSIGNAL);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) { k = 2; break; } /* the client went away: nothing to tell it */
            off += (size_t)w;
        }
    conn_free(c);
}

/* A one-line plain-text error. */
static void reply_error(struct http_conn *c, int status, const char *what)
{
    char line[256];
    int n = snprintf(line, sizeof line, "mpirr: %s\n", what);
    http_reply(c, status, "text/plain; charset=utf-8", line, (size_t)n);
}

/* Whether a equals the token, in time that does not depend on where they differ. */
static int token_is(const struct http_server *h, const char *a, size_t n)
{
    size_t tn = strlen(h->token);
    unsigned diff = n != tn;
    for (size_t i = 0; i < tn; i++) diff |= (unsigned char)(i < n ? a[i] : 0) ^ (unsigned char)h->token[i];
    return diff == 0;
}

/* The value of header name in head (lines after the first), or NULL; *n its length. */
static const char *header(const char *head, const char *name, size_t *n)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p && p[2] != '\r'; p = strstr(p + 2, "\r\n")) {
        const char *l = p + 2;
        if (strncasecmp(l, name, nl) || l[nl] != ':') continue;
        l += nl + 1;
        while (*l == ' ' || *l == '\t') l++;
        *n = strcspn(l, "\r\n");
        return l;
    }
    return NULL;
}

/* The query without its token=... part into r->query; whether the token was there. */
static int take_query(const struct http_server *h, const char *q, size_t qn, struct http_request *r)
{
    int ok = 0;
    size_t o = 0;
    for (size_t i = 0; i < qn;) {
        size_t j = i;
        while (j < qn && q[j] != '&') j++;
        if (j - i > 6 && !strncmp(q + i, "token=", 6)) ok |= token_is(h, q + i + 6, j - i - 6);
        else if (o + (j - i) + 2 < sizeof r->query) {
            if (o) r->query[o++] = '&';
            memcpy(r->query + o, q + i, j - i);
            o += j - i;
        }
        i = j + 1;
    }
    r->query[o] = 0;
    return ok;
}

/* Parses c's request once it is complete: 1 dispatched or answered, 0 incomplete. */
static int parse(struct http_server *h, struct http_conn *c)
{
    c->buf[c->len] = 0;
    char *end = strstr(c->buf, "\r\n\r\n");
    if (!end) {
        if (c->len >= HTTP_MAX_HEAD) reply_error(c, 431, "the request's head is too long");
        return c->fd < 0;
    }
    size_t head_len = (size_t)(end - c->buf) + 4;
    if (head_len > HTTP_MAX_HEAD) {
        reply_error(c, 431, "the request's head is too long");
        return 1;
    }
    struct http_request *r = &c->req;
    memset(r, 0, sizeof *r);
    char method[8], target[1024];
    if (sscanf(c->buf, "%7s %1023s HTTP/1.%*c", method, target) != 2 || target[0] != '/') {
        reply_error(c, 400, "not an HTTP request");
        return 1;
    }
    if (strcmp(method, "GET") && strcmp(method, "POST")) {
        reply_error(c, 405, "only GET and POST");
        return 1;
    }
    r->post = method[0] == 'P';
    size_t body = 0, n;
    const char *cl = header(c->buf, "Content-Length", &n);
    if (cl) body = strtoul(cl, NULL, 10);
    if (body > HTTP_MAX_BODY) {
        reply_error(c, 413, "the request's body is too long");
        return 1;
    }
    if (c->len < head_len + body) return 0;
    size_t pn = strcspn(target, "?");
    int authorised = 0;
    if (target[pn] == '?') authorised = take_query(h, target + pn + 1, strlen(target + pn + 1), r);
    const char *t = header(c->buf, "X-Mpirr-Token", &n);
    if (t && token_is(h, t, n)) authorised = 1;
    if (!authorised) {
        reply_error(c, 403, "this page needs the token mpirr printed with its address");
        return 1;
    }
    if (pn >= sizeof r->path) {
        reply_error(c, 404, "no such page");
        return 1;
    }
    memcpy(r->path, target, pn);
    r->path[pn] = 0;
    r->body = c->buf + head_len;
    c->buf[head_len + body] = 0;
    r->body_len = body;
    h->handler(h->arg, h, c);
    return 1;
}

static void accept_all(struct http_server *h)
{
    for (;;) {
        int fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        struct http_conn *c = NULL;
        for (int i = 0; i < HTTP_MAX_CONNS && !c; i++)
            if (h->conns[i].fd < 0) c = &h->conns[i];
        char *buf = c ? malloc(HTTP_MAX_HEAD + HTTP_MAX_BODY + 1) : NULL;
        if (!buf) { /* too many at once: this one is refused */
            close(fd);
            continue;
        }
        c->fd = fd;
        c->buf = buf;
        c->len = 0;
        c->parked = 0;
    }
}

static void read_conn(struct http_server *h, struct http_conn *c)
{
    size_t cap = HTTP_MAX_HEAD + HTTP_MAX_BODY;
    if (c->len == cap) {
        reply_error(c, 413, "the request is too long");
        return;
    }
    ssize_t got = recv(c->fd, c->buf + c->len, cap - c->len, 0);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
        conn_free(c);
        return;
    }
    if (got > 0) {
        c->len += (size_t)got;
        parse(h, c);
    }
}

int http_server_poll(struct http_server *h, int extra_fd, int timeout_ms)
{
    struct pollfd p[HTTP_MAX_CONNS + 2];
    int map[HTTP_MAX_CONNS + 2], n = 0;
    p[n] = (struct pollfd){.fd = h->fd, .events = POLLIN};
    map[n++] = -1;
    for (int i = 0; i < HTTP_MAX_CONNS; i++)
        if (h->conns[i].fd >= 0 && !h->conns[i].parked) {
            p[n] = (struct pollfd){.fd = h->conns[i].fd, .events = POLLIN};
            map[n++] = i;
        }
    int extra = -1;
    if (extra_fd >= 0) {
        extra = n;
        p[n] = (struct pollfd){.fd = extra_fd, .events = POLLIN};
        map[n++] = -2;
    }
    int ready = poll(p, (nfds_t)n, timeout_ms);
    if (ready < 0 && errno == EINTR) return -1;
    if (ready <= 0) return 0;
    for (int k = 1; k < n; k++)
        if (map[k] >= 0 && (p[k].revents & (POLLIN | POLLHUP | POLLERR)))
            read_conn(h, &h->conns[map[k]]);
    if (p[0].revents & POLLIN) accept_all(h);
    return extra >= 0 && (p[extra].revents & (POLLIN | POLLHUP | POLLERR));
}
