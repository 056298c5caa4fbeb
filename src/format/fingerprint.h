/* fingerprint.h: a 64-bit content fingerprint of a file (FNV-1a of its bytes), used to tell
 * whether a replay runs the executable that was recorded. */
#ifndef MPIRR_FINGERPRINT_H
#define MPIRR_FINGERPRINT_H

#include <stdint.h>

/* 0 when the file cannot be read. */
uint64_t mpirr_file_fingerprint(const char *path);

#endif
