/* pack_recording.h: making a finished recording's node packs (rank_pack.h; `mpirr pack`,
 * `mpirr record --pack`): its rank files grouped by the node their rank ran on, one pack each,
 * then the loose files removed. */
#ifndef MPIRR_CLI_PACK_RECORDING_H
#define MPIRR_CLI_PACK_RECORDING_H

/* Packs the recording in dir (a path as the user gave it). A crash at any point leaves a
 * readable recording: every pack is whole under its name before any loose file goes, and a
 * second run finishes what a killed one left. Refuses a recording still being made (its
 * manifest has no exit status) or not gathered. Prints one line saying what it did, unless
 * quiet. 0, or an exit status after a one-line message. */
int pack_recording(const char *dir, int quiet);

/* The tests stop `mpirr pack` and `mpirr gather` with SIGKILL at a step, to show that a
 * recording left at that step replays or is completed by running them again:
 * MPIRR_PACK_TEST_KILL=packed (pack: every pack renamed into place, no loose file removed),
 * =unlinking (pack: after the first loose file removed), =gather-packed (gather --local --pack:
 * the node's pack in place, its placement file not yet removed), =gather-unplaced (gather: the
 * placement removed, the node's local files not yet). */
void pack_test_kill_point(const char *step);

#endif
