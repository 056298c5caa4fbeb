/* file_io.h: the file primitives of the format library: for writers, a write that finishes
 * and a file-backed shared mapping (the tails and pending slots that outlive a killed
 * process); for readers, an open that accepts only regular files. */
#ifndef MPIRR_FILE_IO_H
#define MPIRR_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes all n bytes (retrying short writes and EINTR); 0 or -1 with errno. */
int mpirr_write_all(int fd, const void *buf, size_t n);
/* Writers: creates path, which must not exist yet, for writing (flags: O_WRONLY or O_RDWR,
 * plus e.g. O_APPEND), with the mode the umask leaves of 0666. O_EXCL and O_NOFOLLOW: a file
 * or symlink already there (planted to make a rank overwrite something outside the
 * recording) fails with EEXIST or ELOOP instead of being written through. Nothing is
 * unlinked first: `mpirr record` empties the directory of recording files before a run, so
 * an existing file is another run's or someone else's, and refusing is the safe answer. A
 * descriptor (O_CLOEXEC), or -1 with errno. */
int mpirr_create_file(const char *path, int flags);
/* Creates path (new, as mpirr_create_file) with len bytes, every one allocated on disk
 * (posix_fallocate), and maps it shared read-write: stores to the mapping can never fault on
 * a full disk. NULL with errno (ENOSPC when the disk is full) and a one-line message naming
 * the file on failure; the file is removed then. */
void *mpirr_map_create(const char *path, size_t len, char *err, size_t errlen);
/* Extends the file at path, mapped at *map with len bytes, to new_len allocated bytes and
 * the mapping with it (it may move: *map is updated). 0, or -1 with errno, a one-line message,
 * and the old mapping intact (the file may have grown by zero bytes). */
int mpirr_map_grow(const char *path, void **map, size_t len, size_t new_len, char *err,
                   size_t errlen);

/* Moves the regular file at from to the path to: renamed on one file system; on another, as a
 * crash would leave either whole: copied to tmp (a name beside to; a stale one is removed first), fsync'ed,
 * renamed to to, and only then is from unlinked. O_NOFOLLOW both ways: a symlink is never
 * followed. Async-signal-safe (lstat, open, read, write, fsync, rename, unlink, close only), so a
 * dying rank's handler can call it. 0, or -1 with errno (from left as it was). */
int mpirr_file_move(const char *from, const char *tmp, const char *to);

/* Readers: opens path read-only only if it is a regular file. A FIFO, device or directory
 * put where a recording file belongs would block a reader forever or feed it endless bytes,
 * so the open itself does not block (O_NONBLOCK, cleared again afterwards) and fstat checks
 * the type. Returns the descriptor, or -1 with errno (ENOENT when missing, EINVAL when not a
 * regular file) and one line in err naming the file: "PATH: No such file or directory",
 * "PATH is not a regular file (a FIFO)". */
int mpirr_open_regular(const char *path, char *err, size_t errlen);
/* The same as a stdio stream ("rb"); NULL with errno and err set as above. A recording's rank
 * file (rank-N.*, sync-N-T.*) missing from its directory is opened in the directory's node
 * packs (rank_pack.h): a seekable stream over its bytes there, without a descriptor (use
 * mpirr_stream_size, not fstat); one present both loose and packed must equal its member.
 * Damaged packs: NULL, errno EINVAL, one line in err naming the pack. */
FILE *mpirr_fopen_regular(const char *path, char *err, size_t errlen);
/* The size of a stream of mpirr_fopen_regular (a file's or a pack member's): 0, or -1 with
 * errno. */
int mpirr_stream_size(FILE *f, uint64_t *size);
/* Whether a recording file is there, loose or packed (or DIR's packs are damaged, which opening
 * it reports): what access(path, F_OK) == 0 was before packs. */
int mpirr_file_present(const char *path);
/* Its size, loose or packed; 0 if it is not there. */
uint64_t mpirr_file_bytes(const char *path);

#endif
