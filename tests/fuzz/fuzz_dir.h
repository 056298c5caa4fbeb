/* fuzz_dir.h: what the fuzz targets share: one scratch directory per process, and an input
 * unpacked into it as the files of a recording (see fuzz_dir.c for the input's layout). */
#ifndef MPIRR_FUZZ_DIR_H
#define MPIRR_FUZZ_DIR_H

#include <stddef.h>
#include <stdint.h>

/* The scratch directory, created on first use and emptied by every fuzz_dir_* call. */
const char *fuzz_dir(void);
/* Empties the scratch directory and writes data to <dir>/<name>. */
void fuzz_dir_put_one(const char *name, const uint8_t *data, size_t size);
/* Empties the scratch directory and unpacks a recording: entries of one byte naming the file
 * (fuzz_dir.c's table: the manifest, then log, tail, pending, events, events.tail of ranks 0-3),
 * two bytes of length (little-endian) and the file's bytes; a file named again takes the
 * later bytes. */
void fuzz_dir_unpack(const uint8_t *data, size_t size);

#endif
