/* replay_ui.c: see replay_ui.h. The server lives in the session's own loop (session_side):
 * while the ranks stand still, the command loop waits in http_server_poll on the page's
 * sockets and mpirr's standard input together; while they run, the watch answers what is
 * pending each time it looks at them. A page command runs through replay_session_execute with
 * mpirr's standard output and error captured (a `gdb R` sent from the page writes to them), and
 * is echoed on the terminal as a typed one would be. The page's stacks and print are the
 * session's `bt`, `stacks` and `print` commands, in its kept gdbs (rank_gdbs.h). */
#include "replay_ui.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "gdb_link.h"
#include "json.h"
#include "ui_state.h"
#include "view_page_build.h"

static void reply_json(struct http_conn *c, int status, char *text, size_t len)
{
    http_reply(c, status, "application/json", text, len);
    free(text);
}

static void reply_state(struct replay_ui *u, struct http_conn *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return http_reply(c, 500, "text/plain", "mpirr: out of memory\n", 21);
    ui_state_write(u->s, u->running, m);
    fclose(m);
    reply_json(c, 200, text, len);
}

/* The string value of "cmd" in a JSON object (escapes \" \\ \/ \n \t and \u00XX), into out.
 * 0, or -1 if there is none. */
static int json_cmd(const char *body, char *out, size_t n)
{
    const char *p = strstr(body, "\"cmd\"");
    if (!p) return -1;
    p += 5;
    while (*p == ' ' || *p == ':') p++;
    if (*p++ != '"') return -1;
    size_t o = 0;
    for (; *p && *p != '"'; p++) {
        char ch = *p;
        if (ch == '\\') {
            ch = *++p;
            if (ch == 'n') ch = '\n';
            else if (ch == 't') ch = '\t';
            else if (ch == 'u') {
                unsigned v;
                if (sscanf(p + 1, "%4x", &v) != 1 || v > 0x7f) return -1;
                ch = (char)v;
                p += 4;
            } else if (ch != '"' && ch != '\\' && ch != '/') return -1;
        }
        if (o + 1 >= n || (unsigned char)ch < ' ') return -1; /* one line, bounded */
        out[o++] = ch;
    }
    if (*p != '"') return -1;
    out[o] = 0;
    return 0;
}

/* Runs line with stdout and stderr going to a temporary file; its text (malloc'd) to *text. */
static enum session_step run_captured(struct replay_ui *u, const char *line, char **text)
{
    *text = NULL;
    FILE *t = tmpfile();
    if (!t) return SESSION_STAY;
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2);
    dup2(fileno(t), 1);
    dup2(fileno(t), 2);
    enum session_step step = replay_session_execute(u->s, line, stdout);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    long len = ftell(t);
    if (len < 0) len = lseek(fileno(t), 0, SEEK_END);
    *text = calloc((size_t)(len > 0 ? len : 0) + 1, 1);
    rewind(t);
    if (*text && len > 0 && fread(*text, 1, (size_t)len, t) != (size_t)len) (*text)[0] = 0;
    fclose(t);
    printf("(mpirr page) %s\n%s", line, *text ? *text : "");
    fflush(stdout);
    return step;
}

/* POST /api/command: {"output": "...", "running": bool, "quit": bool}. The step is kept for
 * the command loop, which the wait returns it to. */
static void command(struct replay_ui *u, struct http_conn *c, enum session_step *step)
{
    char line[SESSION_LINE_MAX];
    if (json_cmd(c->req.body, line, sizeof line)) {
        const char *e = "mpirr: the body must be {\"cmd\":\"ONE SESSION COMMAND\"}\n";
        return http_reply(c, 400, "text/plain", e, strlen(e));
    }
    if (u->running) {
        const char *e = "mpirr: the ranks are running to the stopline: wait for them\n";
        return http_reply(c, 409, "text/plain", e, strlen(e));
    }
    char *output;
    *step = run_captured(u, line, &output);
    if (*step == SESSION_RUN) u->running = 1;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        free(output);
        return http_reply(c, 500, "text/plain", "mpirr: out of memory\n", 21);
    }
    struct json j;
    json_init(&j, m);
    json_object_begin(&j, NULL);
    json_string(&j, "output", output ? output : "");
    json_bool(&j, "running", *step == SESSION_RUN);
    json_bool(&j, "quit", *step == SESSION_QUIT);
    json_object_end(&j);
    fclose(m);
    free(output);
    reply_json(c, 200, text, len);
}

struct dispatch {
    struct replay_ui *u;
    enum session_step step; /* what a page command asked of the job */
};

static void handle(void *arg, struct http_server *h, struct http_conn *c)
{
    (void)h;
    struct dispatch *d = arg;
    struct replay_ui *u = d->u;
    const struct http_request *r = &c->req;
    if (!r->post && !strcmp(r->path, "/")) {
        http_reply(c, 200, "text/html; charset=utf-8", u->page, u->page_len);
    } else if (!r->post && !strcmp(r->path, "/api/state")) {
        if (u->running && strstr(r->query, "wait=1")) c->parked = 1; /* answered at the stopline */
        else reply_state(u, c);
    } else if (r->post && !strcmp(r->path, "/api/command")) {
        command(u, c, &d->step);
    } else {
        const char *e = "mpirr: no such page (/, /api/state, POST /api/command)\n";
        http_reply(c, 404, "text/plain", e, strlen(e));
    }
}

static struct dispatch dispatch; /* one --ui per process */

/* session_side.wait: the ranks stand still. */
static enum session_step ui_wait(void *arg, int fd)
{
    struct replay_ui *u = arg;
    u->running = 0;
    for (int i = 0; i < HTTP_MAX_CONNS; i++)
        if (u->http.conns[i].fd >= 0 && u->http.conns[i].parked) reply_state(u, &u->http.conns[i]);
    dispatch.step = SESSION_STAY;
    for (;;) {
        int got = http_server_poll(&u->http, fd, -1);
        if (got > 0) return SESSION_STAY; /* a typed command (or the end of them) */
        /* SIGTERM or ^C (mpirr's only handlers, child.c): the session ends, as a read of the
         * prompt it interrupts would */
        if (got < 0) return SESSION_QUIT;
        if (dispatch.step != SESSION_STAY) return dispatch.step;
    }
}

/* session_side.poll: the ranks run. */
static void ui_poll(void *arg)
{
    struct replay_ui *u = arg;
    u->running = 1;
    http_server_poll(&u->http, -1, 0);
}

int replay_ui_start(struct replay_ui *u, struct replay_session *s, const char *dir)
{
    memset(u, 0, sizeof *u);
    u->s = s;
    u->running = 1;
    struct analysis a;
    struct view_data d;
    int rc = view_page_load(dir, &a, &d);
    if (rc) return rc;
    FILE *m = open_memstream(&u->page, &u->page_len);
    if (m) {
        view_page_write(m, &d, dir, 1);
        fclose(m);
    }
    view_page_unload(&a, &d);
    if (!m) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    dispatch.u = u;
    if (http_server_open(&u->http, handle, &dispatch)) {
        free(u->page);
        u->page = NULL;
        return CLI_EXIT_FAIL;
    }
    /* the page's commands and typed ones interleave by line: nothing may wait in stdin's buffer
     * while poll says there is nothing to read */
    setvbuf(s->in, NULL, _IONBF, 0);
    s->side = (struct session_side){.wait = ui_wait, .poll = ui_poll, .arg = u};
    fprintf(stderr, "mpirr: the replay's page: http://127.0.0.1:%d/?token=%s\n", u->http.port,
            u->http.token);
    return 0;
}

void replay_ui_stop(struct replay_ui *u)
{
    if (u->s) memset(&u->s->side, 0, sizeof u->s->side);
    http_server_close(&u->http);
    free(u->page);
    memset(u, 0, sizeof *u);
}
