/* flip.c: replay, then record - the runtime half of `mpirr replay --flip R:E=SRC -o NEWDIR`.
 * Every rank replays its recording up to its cut (the events the race analysis says must be as
 * recorded for rank SRC's message to reach rank R's receive at E: everything that happened
 * before that receive or that send), then records freely. Its new log in NEWDIR is the old
 * one's records of the cut (copied at the switch: the replay made exactly those outcomes)
 * followed by what recording adds, so NEWDIR replays like any recording. The one forced
 * outcome: rank R's wildcard receive or probe at E is posted with source SRC (mpirr_flip_steer),
 * or its Waitany/Testany/Waitsome/Testsome at E returns the request rank R posted at event P
 * (mpirr_flip_request). The file NEWDIR/flip, written by the CLI, says what to do: "force R E
 * SRC S" or "complete R E P", and "cut C0 C1 ...",
 * and "run-id ID", the new recording's (run_id.h): the records copied from the parent are
 * written again under it, so every file of NEWDIR is NEWDIR's. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_ids.h"
#include "replay_cursor.h"
#include "runtime.h"
#include "settings.h"

/* The cut of this rank: its events 1..cut are replayed. */
static uint64_t cut;

/* R:E=req:P: the post event P of the request the call at E returns. */
static uint64_t request_post;

/* Reads this rank's part of the flip file; one line and the job ends on anything amiss. */
static void read_flip(const char *path, int *force_rank, uint64_t *force_event, int *source)
{
    FILE *f = fopen(path, "r");
    if (!f) mpirr_fatal("replay --flip: cannot open %s: %s", path, strerror(errno));
    char word[16];
    int have_force = 0, have_cut = 0, have_id = 0;
    while (fscanf(f, "%15s", word) == 1) {
        if (!strcmp(word, "force")) {
            uint64_t send_event;
            have_force = fscanf(f, "%d %" SCNu64 " %d %" SCNu64, force_rank, force_event, source,
                                &send_event) == 4;
        } else if (!strcmp(word, "complete")) {
            have_force = fscanf(f, "%d %" SCNu64 " %" SCNu64, force_rank, force_event,
                                &request_post) == 3 && request_post > 0;
        } else if (!strcmp(word, "run-id")) {
            char id[MPIRR_RUN_ID_DIGITS + 2];
            have_id = fscanf(f, "%33s", id) == 1 && !mpirr_run_id_parse(id, &mpirr_rt.run_id);
        } else if (!strcmp(word, "cut")) {
            have_cut = 1;
            for (int r = 0; r < mpirr_rt.nranks && have_cut; r++) {
                uint64_t c;
                have_cut = fscanf(f, "%" SCNu64, &c) == 1;
                if (r == mpirr_rt.rank) cut = c;
            }
        }
        int ch; /* the rest of the line (a parent path may hold spaces) */
        while ((ch = fgetc(f)) != EOF && ch != '\n') {
        }
    }
    fclose(f);
    if (!have_force || !have_cut || !have_id || *force_event == 0)
        mpirr_fatal("replay --flip: %s is not a flip file for %d ranks (it needs a line 'force "
                    "RANK EVENT SOURCE SEND' or 'complete RANK EVENT POST', a line 'cut' with one "
                    "event per rank and a line 'run-id' with 32 hexadecimal digits)", path,
                    mpirr_rt.nranks);
}

void mpirr_flip_start(void)
{
    const char *path = mpirr_setting_text(MPIRR_SET_FLIP);
    int force_rank = -1, source = -1;
    uint64_t force_event = 0;
    read_flip(path, &force_rank, &force_event, &source);
    if (mpirr_rt.rec_mode == MPIRR_REC_RACES)
        mpirr_fatal("replay --flip: %s is a races-mode recording, whose replay does not log every "
                    "wildcard match; flip a recording made in sources or all mode", mpirr_rt.log_path);
    if (mpirr_rt.rank == force_rank) {
        if (cut + 1 != force_event)
            mpirr_fatal("replay --flip: the cut of rank %d in %s is event %" PRIu64 ", not the "
                        "event before the flipped one (%" PRIu64 ")", force_rank, path, cut, force_event);
        if (request_post) {
            mpirr_rt.steer_any_event = force_event;
            mpirr_rt.steer_any_post = request_post;
        } else {
            mpirr_rt.steer_event = force_event;
            mpirr_rt.steer_source = source;
        }
    }
    mpirr_rt.switch_event = cut + 1;
    /* the replay stops at the next record's key or here, whichever comes first */
    if (mpirr_rt.next_key > mpirr_rt.switch_event) mpirr_rt.next_key = mpirr_rt.switch_event;
    /* The new recording goes beside the flip file: the log, its tail and the event history. */
    char dir[sizeof mpirr_rt.dir];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    snprintf(mpirr_rt.dir, sizeof mpirr_rt.dir, "%s", dir);
    uint32_t flags = mpirr_cursor_header(mpirr_rt.cursor)->flags;
    mpirr_log_start(flags);
}

/* The rank reached its first free event: the records of events 1..cut, as the old log has
 * them (in the order written, all written by then), go to the new log, and the rank records
 * from here on. Called with the runtime lock held. */
void mpirr_flip_switch(void)
{
    uint64_t last = cut;
    mpirr_rt.switch_event = 0;
    if (mpirr_rt.writer) {
        char err[512];
        mpirr_log_reader *rd = mpirr_log_reader_open(mpirr_rt.log_path, err, sizeof err);
        if (!rd) mpirr_fatal("replay --flip: %s", err);
        mpirr_record r;
        int rc;
        while ((rc = mpirr_log_read(rd, &r)) > 0 && r.written <= last)
            if (r.kind != MPIRR_REC_END && mpirr_log_append(mpirr_rt.writer, &r))
                mpirr_fatal("replay --flip: rank %d: %s", mpirr_rt.rank,
                            mpirr_log_writer_error(mpirr_rt.writer));
        if (rc < 0) mpirr_fatal("replay --flip: %s", mpirr_log_reader_error(rd));
        mpirr_log_reader_close(rd);
    }
    mpirr_cursor_close(mpirr_rt.cursor);
    mpirr_rt.cursor = NULL;
    mpirr_rt.hold_event = 0;
    mpirr_rt.next_key = UINT64_MAX;
    mpirr_rt.mode = MPIRR_MODE_RECORD;
}

int mpirr_flip_request_index(int count, const MPI_Request reqs[])
{
    int k = mpirr_ev_req_made_at(count, reqs, mpirr_rt.steer_any_post);
    if (k < 0) /* the analysis could not see the array: the request was not in it */
        mpirr_warn("replay --flip: rank %d's call at event %" PRIu64 " was not passed the request "
                   "posted at event %" PRIu64 ": it ran unforced", mpirr_rt.rank,
                   mpirr_rt.steer_any_event, mpirr_rt.steer_any_post);
    return k;
}
