/* recdir.h: the recording directory on disk: its default name, making it ready for a new
 * recording, finding an existing one, and counting the rank logs in it. */
#ifndef MPIRR_CLI_RECDIR_H
#define MPIRR_CLI_RECDIR_H

#include <stddef.h>

/* "mpirr-YYYYmmdd-HHMMSS" (local time), relative to the current directory. */
void recdir_default_name(char *out, size_t n);

/* Creates dir (and missing parents) or reuses it: an existing non-empty directory is refused
 * unless force, which removes the files of an earlier recording in it (rank-*.log,
 * rank-*.tail, manifest) and leaves anything else alone. abs receives the absolute path.
 * 0, or an exit status after a message. */
int recdir_prepare(const char *dir, int force, char *abs, size_t n);

/* For replay and stat: abs receives the absolute path of an existing directory. 0, or an exit
 * status after "DIR: no such recording directory". */
int recdir_find(const char *dir, char *abs, size_t n);

/* Number of rank-*.log files in dir, loose or packed (0 if it cannot be read). */
int recdir_count_logs(const char *dir);

#endif
