/* replay_hold.c: see replay_hold.h. */
#include "replay_hold.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "file_io.h"
#include "number_parse.h"
#include "rank_log.h"
#include "run_scratch.h"
#include "settings.h"

int replay_hold_load(const struct recording *r, const struct recorded_end *ends,
                     struct replay_hold *h)
{
    memset(h, 0, sizeof *h);
    h->nranks = r->m.nranks > 0 ? r->m.nranks : 0;
    h->hold = calloc((size_t)h->nranks + 1, sizeof *h->hold);
    h->arrived = calloc((size_t)h->nranks + 1, 1);
    if (!h->hold || !h->arrived) {
        cli_error("out of memory");
        replay_hold_finish(h);
        return CLI_EXIT_FAIL;
    }
    for (int rank = 0; rank < h->nranks; rank++) {
        const struct recorded_end *e = &ends[rank];
        h->hold[rank] = e->hold_event;
        h->expected += h->hold[rank] != 0;
        h->self_ending += e->ending != MPIRR_END_FINALIZED &&
                          !mpirr_ending_is_external(e->ending, e->detail);
    }
    h->stall_seconds = (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS);
    return 0;
}

int replay_hold_start(struct replay_hold *h)
{
    if (run_scratch_path(MPIRR_HOLDLOG_NAME, h->path, sizeof h->path)) return -1;
    unlink(h->path); /* an earlier run's of this mpirr */
    int fd = mpirr_create_file(h->path, O_WRONLY);
    if (fd < 0) {
        cli_error("cannot create %s: %s", h->path, strerror(errno));
        return -1;
    }
    close(fd);
    h->last_arrival = time(NULL);
    return 0;
}

/* Reads the lines ranks appended since the last look: "RANK EVENT CALL HOW...". */
static void read_arrivals(struct replay_hold *h)
{
    if (h->nranks <= 0) return;
    FILE *f = fopen(h->path, "r");
    if (!f) return;
    char line[512], call[64];
    if (fseek(f, h->read_offset, SEEK_SET) == 0)
        while (fgets(line, sizeof line, f) && strchr(line, '\n')) {
            h->read_offset = ftell(f);
            /* as src/runtime/replay_cursor.c writes it: "%d %llu %s %s\n" */
            uint64_t rank, event;
            const char *p = mpirr_parse_leading(line, (uint64_t)h->nranks - 1, &rank);
            if (!p || *p != ' ' || !(p = mpirr_parse_leading(p + 1, UINT64_MAX, &event)) ||
                *p != ' ' || h->arrived[rank])
                continue;
            size_t call_len = strcspn(++p, " \n");
            if (call_len == 0 || call_len >= sizeof call)
                continue;
            memcpy(call, p, call_len);
            call[call_len] = 0;
            p += call_len;
            int at = (int)(p + strspn(p, " ") - line);
            h->arrived[rank] = 1;
            h->last_arrival = time(NULL);
            if (h->held == 0) {
                line[strcspn(line, "\n")] = 0;
                snprintf(h->how, sizeof h->how, "%s", line + at);
            }
            if (h->held < 4)
                snprintf(h->first[h->held], sizeof h->first[h->held],
                         "rank %d before event %" PRIu64 " (%s)", (int)rank, event, call);
            h->held++;
        }
    fclose(f);
}

static void say_where(const struct replay_hold *h)
{
    char list[800] = "";
    for (int k = 0; k < h->held && k < 4; k++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", h->first[k]);
    }
    if (h->held > 4) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, " and %d more ranks", h->held - 4);
    }
    fprintf(stderr, "mpirr: replay stopped where the recording ends: the recorded run %s there "
                    "(%s)\n", h->how, list);
}

int replay_hold_watch(void *arg)
{
    struct replay_hold *h = arg;
    read_arrivals(h);
    /* When a rank crashed by itself and the launcher then stopped the others (their endings are
     * signals sent to them), the replayed crash ends the job as it did: wait for it, and end
     * the job here only if it does not come. */
    int all_held = h->held == h->expected;
    if (all_held && (!h->self_ending || time(NULL) - h->last_arrival >= h->stall_seconds)) {
        say_where(h);
        h->ended = 1;
        return 1;
    }
    if (h->held > 0 && time(NULL) - h->last_arrival >= h->stall_seconds) {
        say_where(h);
        char missing[256] = "";
        int shown = 0;
        for (int r = 0; r < h->nranks && shown < 8; r++)
            if (h->hold[r] && !h->arrived[r]) {
                size_t n = strlen(missing);
                snprintf(missing + n, sizeof missing - n, "%s%d (event %" PRIu64 ")",
                         shown++ ? ", " : "", r, h->hold[r]);
            }
        cli_error("replay: rank %s did not reach the end of its recording within %lds "
                  "(blocked before it on a rank already held?); ending the job", missing,
                  h->stall_seconds);
        h->ended = 1;
        return 1;
    }
    return 0;
}

void replay_hold_finish(struct replay_hold *h)
{
    if (h->path[0]) unlink(h->path);
    free(h->hold);
    free(h->arrived);
    h->hold = NULL;
    h->arrived = NULL;
}
