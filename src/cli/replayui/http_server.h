/* http_server.h: a minimal HTTP/1.1 server for the replay's page (`mpirr replay --ui`): it
 * listens on 127.0.0.1 only (a port the kernel picks), answers only requests that carry its
 * one-time token (in the query, ?token=T, or an X-Mpirr-Token header), only GET and POST, with
 * bounded request sizes, one request per connection. It never blocks on a client: connections
 * are read as poll says they are readable, and a complete request goes to the handler. */
#ifndef MPIRR_CLI_REPLAYUI_HTTP_SERVER_H
#define MPIRR_CLI_REPLAYUI_HTTP_SERVER_H

#include <stddef.h>

enum { HTTP_MAX_HEAD = 8192, HTTP_MAX_BODY = 8192, HTTP_MAX_CONNS = 16 };

struct http_request {
    int post;           /* POST (else GET) */
    char path[256];     /* without the query */
    char query[512];    /* after '?', without the token's own part */
    const char *body;   /* POST's body (NUL-terminated), "" for GET */
    size_t body_len;
};

struct http_conn {
    int fd;             /* -1: free */
    char *buf;          /* what has arrived of its request */
    size_t len;
    int parked;         /* its request waits for the handler to answer later */
    struct http_request req;
};

struct http_server;
/* Answers a complete, authorised request: http_reply on c now, or leave it parked (c->parked =
 * 1) to answer later (http_reply from anywhere). */
typedef void (*http_handler)(void *arg, struct http_server *h, struct http_conn *c);

struct http_server {
    int fd;                 /* the listening socket */
    int port;
    char token[33];         /* 32 hex digits from /dev/urandom */
    struct http_conn conns[HTTP_MAX_CONNS];
    http_handler handler;
    void *arg;
};

/* Listens on 127.0.0.1:0 with a fresh token. 0, or -1 after one line on stderr. */
int http_server_open(struct http_server *h, http_handler handler, void *arg);
void http_server_close(struct http_server *h);
/* Waits up to timeout_ms (-1: no limit; 0: only what is ready) for the server's sockets, or
 * for extra_fd to be readable (-1: none), and serves what arrived. 1 if extra_fd is
 * readable (or at its end), -1 if a signal interrupted the wait, else 0. */
int http_server_poll(struct http_server *h, int extra_fd, int timeout_ms);
/* Sends the response and closes the connection. type: its Content-Type. */
void http_reply(struct http_conn *c, int status, const char *type, const void *body, size_t len);

#endif
