/* stopline.h: turning what the user asks for (`--stop 3:1207`, `--stop crash`, `continue
 * 0:40`) into a stopline: one stop position per rank (replay_control.h). With an event history
 * the other ranks stop at the point's future frontier (as late as they can without having
 * seen anything of it; --past: its past frontier, as early as possible), as `mpirr frontier`
 * computes; without one they have no stop and run until they block or end. */
#ifndef MPIRR_CLI_REPLAYCTL_STOPLINE_H
#define MPIRR_CLI_REPLAYCTL_STOPLINE_H

#include <stddef.h>
#include <stdint.h>

#include "recording.h"
#include "replay_check.h"

struct analysis;

struct stop_point {
    int rank;
    uint64_t event;
    int after;     /* just after the event (else just before it) */
};

/* "R:E". 0, or -1 with a one-line reason in err. */
int stopline_parse(const char *spec, int nranks, struct stop_point *p, char *err, size_t n);
/* The recorded run's death: the rank whose own crash, abort or MPI_Abort ended it, just
 * before the call it died in, or just after the last call it made before dying in its own
 * code. 0, or -1 with a reason (it did not die) in err. */
int stopline_crash(const struct recording *r, const struct recorded_end *ends,
                   struct stop_point *p, char *err, size_t n);
/* Fills stops (nranks entries) for the point; an (may be NULL: no history) gives the other
 * ranks theirs. how receives a description for `where`. 0, or -1 with a reason in err (the
 * event is not one the history holds for that rank). */
int stopline_compute(struct analysis *an, int nranks, const struct stop_point *p, int past,
                     uint64_t *stops, char *how, size_t hown, char *err, size_t n);

#endif
