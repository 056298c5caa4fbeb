/* runs_dir.h: the directory a command keeps the runs it makes in (`mpirr explore -o DIR`,
 * `mpirr races --outcomes -o DIR`): new, or an existing empty directory, never one with
 * anything in it (a run's recording must not land among another's files). */
#ifndef MPIRR_CLI_RUNS_DIR_H
#define MPIRR_CLI_RUNS_DIR_H

#include <stddef.h>

/* Makes dir (with missing parents) or finds it empty; abs receives its absolute path. cmd
 * names the command in the message ("explore"). 0, or CLI_EXIT_USAGE after one line (not
 * empty, not a directory, cannot be created or read). */
int runs_dir_prepare(const char *dir, const char *cmd, char *abs, size_t n);

#endif
