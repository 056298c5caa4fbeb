/* ui_state.h: the replay session as JSON for the --ui page (GET /api/state): each rank's state
 * (held, blocked, running, ended, starting), its event, its `where` line, its call site and
 * that source line's text; the stopline in force and how it was chosen. */
#ifndef MPIRR_CLI_REPLAYUI_UI_STATE_H
#define MPIRR_CLI_REPLAYUI_UI_STATE_H

#include <stdio.h>

#include "replay_session.h"

void ui_state_write(struct replay_session *s, int running, FILE *f);

#endif
