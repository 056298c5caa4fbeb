/* view_page_build.h: the view page of a recording, built for `mpirr view` (a file) and for
 * `mpirr replay --ui` (served live, replayui/): its data gathered once, then written around the
 * compiled-in page sources. */
#ifndef MPIRR_CLI_VIEW_PAGE_BUILD_H
#define MPIRR_CLI_VIEW_PAGE_BUILD_H

#include <stdio.h>

#include "analysis_load.h"
#include "view_data.h"

/* Opens the recording in dir and gathers the page's data. 0, or an exit status after one
 * line (nothing left open). */
int view_page_load(const char *dir, struct analysis *a, struct view_data *d);
void view_page_unload(struct analysis *a, struct view_data *d);
/* The whole page into f. live: the page of a replay session, allowed to talk to the server
 * that serves it (its Content-Security-Policy lets it reach its own origin, nothing else). */
void view_page_write(FILE *f, const struct view_data *d, const char *dir, int live);

#endif
