/* replay_ui.h: `mpirr replay DIR --stop R:E --ui`: the space-time page of the recording served
 * on 127.0.0.1 and connected to the live session (README.md): GET / the page, GET /api/state
 * the ranks and the stopline (?wait=1: answered once the ranks stand still), POST /api/command
 * {"cmd":"step 1"} a session command, run by the same code as a line typed at the prompt. */
#ifndef MPIRR_CLI_REPLAYUI_REPLAY_UI_H
#define MPIRR_CLI_REPLAYUI_REPLAY_UI_H

#include <stddef.h>

#include "http_server.h"
#include "replay_session.h"

struct replay_ui {
    struct replay_session *s;
    struct http_server http;
    char *page;       /* the page, built once */
    size_t page_len;
    int running;      /* the ranks were released: state requests with wait=1 are parked */
};

/* Builds the page of dir (it needs the event history: record with --events), listens, prints
 * the page's address on stderr and joins s's command loop. 0, or an exit status after one line. */
int replay_ui_start(struct replay_ui *u, struct replay_session *s, const char *dir);
void replay_ui_stop(struct replay_ui *u);

#endif
