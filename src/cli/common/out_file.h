/* out_file.h: every file a command writes because the user named it (-o FILE): opened so
 * that nothing but FILE itself can be touched, and so that a failed run leaves FILE as it was.
 *  - FILE absent or a regular file: written to a new temporary in FILE's directory (mkstemp:
 *    an unpredictable name, created O_EXCL, so a symlink planted beside FILE is never written
 *    through) and renamed over FILE on success, removed on failure. A symlink to a regular
 *    file is followed: its target is replaced, the link stays.
 *  - FILE an existing FIFO, character or block device (what `-o /dev/null` or a pipe reader
 *    mean): written through, never replaced or removed.
 *  - FILE a directory, or anything else: refused with one line.
 *  - "-" is standard output where the command allows it. */
#ifndef MPIRR_CLI_OUT_FILE_H
#define MPIRR_CLI_OUT_FILE_H

#include <limits.h>
#include <stdio.h>

struct out_file {
    FILE *f;                  /* write here */
    const char *cmd;          /* the command, first word of its messages */
    const char *path;         /* FILE as the user named it */
    char final[PATH_MAX];     /* what the temporary replaces: FILE, or a symlink's target */
    char tmp[PATH_MAX + 16];  /* the temporary; "" when written through or to stdout */
};

enum { OUT_FILE_STDOUT = 1 }; /* flags: "-" means standard output */

/* 0, or an exit status after one line "CMD: cannot write PATH: why". */
int out_file_open(struct out_file *o, const char *cmd, const char *path, int flags);
/* Flushes and closes. rc: the command's status so far (0, or an exit status; negative means
 * out of memory, already reported). Returns 0 with FILE in place, or the exit status (1 for
 * an I/O failure, reported in one line) with the temporary removed and FILE untouched. */
int out_file_close(struct out_file *o, int rc);

/* A file of a directory the command made or emptied itself (explore.tsv, a flip's record of
 * its parent): created new (O_EXCL, O_NOFOLLOW: a file or symlink someone put there since is
 * refused, never written through) and written in place, so that it can be read while it
 * grows. NULL with errno. */
FILE *out_file_new(const char *path);

#endif
