/* libc_unrecorded.h: the application's libc calls whose values a recording does not hold (their
 * group was recorded off: getpid() by default), summed over the ranks, and the lines that name
 * them: at the end of `mpirr record` (from the ranks' tail counters) and after a replay's
 * verdict (from the ranks' replay control slots), where the program got live values for them. */
#ifndef MPIRR_CLI_RECORDING_LIBC_UNRECORDED_H
#define MPIRR_CLI_RECORDING_LIBC_UNRECORDED_H

#include <stdint.h>
#include <stdio.h>

#include "libc_sources.h"

struct libc_unrecorded {
    uint64_t sources;                       /* bit s: source s (libc_sources.def) was called */
    uint64_t calls[MPIRR_LIBC_GROUP_COUNT]; /* calls per group */
    int any;                                /* some call at all */
};

/* Adds one rank's calls: its sources' bits and its calls per group. */
void libc_unrecorded_add(struct libc_unrecorded *u, uint64_t sources, const uint64_t *calls);
/* Adds the counters of the rank logs of dir (ranks 0..nranks-1; a rank without a readable log
 * adds nothing). */
void libc_unrecorded_from_logs(struct libc_unrecorded *u, const char *dir, int nranks);
/* One line per group called: "mpirr: the program called getpid() 4 times; its values were not
 * recorded (record with --libc-pid)" (docs/cli/replay.md). */
void libc_unrecorded_print(const struct libc_unrecorded *u, FILE *out);

#endif
