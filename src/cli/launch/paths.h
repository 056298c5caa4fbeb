/* paths.h: locating files: executables through PATH relative to a chosen directory (a replay
 * runs the recorded command in the recorded cwd, so "./app" must be resolved there), and the
 * directory of the mpirr binary itself. */
#ifndef MPIRR_CLI_PATHS_H
#define MPIRR_CLI_PATHS_H

#include <stddef.h>

/* out = rel if absolute (or base is NULL/empty), else base/rel. -1 if it does not fit. */
int path_join(char *out, size_t n, const char *base, const char *rel);
/* An existing regular file we may execute. */
int path_is_exec_file(const char *path);
/* Resolves a command word as execvp would (PATH search when it has no slash), with relative
 * names taken relative to base. 0 and the path in out, or -1 if there is no such executable. */
int path_find_exec(const char *word, const char *base, char *out, size_t n);
/* The part after the last slash. */
const char *path_basename(const char *path);
/* The current directory; -1 after a message if it cannot be had. */
int path_cwd(char *out, size_t n);
/* Directory holding the running mpirr executable (from /proc/self/exe). */
int path_self_dir(char *out, size_t n);

#endif
