/* ui_state.c: see ui_state.h. The `where` line is where.c's own (the page shows what the prompt
 * shows); the call site is its " at FILE:LINE (FUNCTION)" part, and the source line is read from
 * FILE, relative to the recorded working directory. */
#include "ui_state.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "where.h"

enum { SOURCE_LINE_MAX = 400 };

static const char *view_name(enum rank_view v)
{
    switch (v) {
    case RANK_STARTING: return "starting";
    case RANK_RUNNING: return "running";
    case RANK_AT_STOP: return "held";
    case RANK_BLOCKED: return "blocked";
    default: return "ended";
    }
}

/* Line `line` of file (relative to dir), without its newline, into out; 0, or -1. */
static int source_line(const char *dir, const char *file, long line, char *out, size_t n)
{
    char path[PATH_MAX];
    if (file[0] == '/') snprintf(path, sizeof path, "%s", file);
    else snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char buf[SOURCE_LINE_MAX];
    long at = 1;
    int found = -1;
    while (fgets(buf, sizeof buf, f)) {
        int whole = strchr(buf, '\n') != NULL;
        if (at == line) {
            buf[strcspn(buf, "\n")] = 0;
            snprintf(out, n, "%s", buf);
            found = 0;
            break;
        }
        if (whole) at++;
    }
    fclose(f);
    return found;
}

/* The site of a `where` line (after its last " at ") and, when it names FILE:LINE, that line. */
static void write_site(struct json *j, const struct replay_session *s, const char *where)
{
    const char *at = NULL;
    for (const char *p = strstr(where, " at "); p; p = strstr(p + 1, " at ")) at = p + 4;
    if (!at) return;
    char site[512], file[512];
    snprintf(site, sizeof site, "%.*s", (int)strcspn(at, "\n"), at);
    json_string(j, "site", site);
    size_t fn = strcspn(site, " ");
    snprintf(file, sizeof file, "%.*s", (int)fn, site);
    char *colon = strrchr(file, ':');
    if (!colon) return;
    *colon = 0;
    char *end;
    long line = strtol(colon + 1, &end, 10);
    char text[SOURCE_LINE_MAX];
    if (line > 0 && *end == 0 && !source_line(s->rec->m.cwd, file, line, text, sizeof text)) {
        json_string(j, "file", file);
        json_int(j, "line", line);
        json_string(j, "source", text);
    }
}

static void write_rank(struct json *j, struct replay_session *s, int rank)
{
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    enum rank_view v = replay_control_view(&s->control, rank, s->stall_s);
    json_object_begin(j, NULL);
    json_int(j, "rank", rank);
    json_string(j, "state", view_name(v));
    json_string(j, "control", mpirr_ctl_state_name(sl.state));
    uint64_t event = 0;
    int in_call = 0, after = 0;
    if (sl.state == MPIRR_CTL_HELD) {
        event = mpirr_pos_event(sl.held_pos);
        after = mpirr_pos_is_after(sl.held_pos);
    } else {
        mpirr_pos_of_progress(sl.progress, &event, &in_call);
    }
    json_uint(j, "event", event);
    json_bool(j, "after", after);
    if (sl.state == MPIRR_CTL_CRASHED || sl.state == MPIRR_CTL_HELD_SIGNAL)
        json_int(j, "signal", sl.signal);
    char *where = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&where, &len);
    if (m) {
        where_print_rank(s, rank, m);
        fclose(m);
        where[strcspn(where, "\n")] = 0;
        json_string(j, "where", where);
        if (sl.state == MPIRR_CTL_HELD || v == RANK_BLOCKED) write_site(j, s, where);
        free(where);
    }
    json_object_end(j);
}

void ui_state_write(struct replay_session *s, int running, FILE *f)
{
    struct json j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_bool(&j, "running", running);
    json_int(&j, "nranks", s->nranks);
    json_string(&j, "stopline", s->how);
    json_int(&j, "undo", s->nundo);
    json_array_begin(&j, "stops"); /* each rank's stop: null, or {event, after} */
    for (int r = 0; r < s->nranks; r++) {
        if (s->stops[r] == MPIRR_POS_NONE) {
            json_null(&j, NULL);
            continue;
        }
        json_object_begin(&j, NULL);
        json_uint(&j, "event", mpirr_pos_event(s->stops[r]));
        json_bool(&j, "after", mpirr_pos_is_after(s->stops[r]));
        json_object_end(&j);
    }
    json_array_end(&j);
    json_array_begin(&j, "ranks");
    if (!running)
        for (int r = 0; r < s->nranks; r++) write_rank(&j, s, r);
    json_array_end(&j);
    json_object_end(&j);
}
