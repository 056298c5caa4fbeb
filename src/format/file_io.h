/* file_io.h: the two file primitives every writer needs: a write that finishes, and a
 * file-backed shared mapping (the tails and pending slots that outlive a killed process). */
#ifndef MPIRR_FILE_IO_H
#define MPIRR_FILE_IO_H

#include <stddef.h>

/* Writes all n bytes (retrying short writes and EINTR); 0 or -1 with errno. */
int mpirr_write_all(int fd, const void *buf, size_t n);
/* Creates (truncating) path with len bytes and maps it shared read-write; NULL with a
 * one-line message naming the file on failure. */
void *mpirr_map_create(const char *path, size_t len, char *err, size_t errlen);

#endif
