/* run_id.h: the identity of a recording. `mpirr record` draws 128 random bits before the
 * launch (the manifest's `run-id`) and hands them to every rank (MPIRR_RUN_ID), which writes
 * them into the header of every file it makes; a flip's new recording gets its own. Readers
 * refuse a file whose id is not the recording's, naming it: a file spliced in from another
 * run would otherwise be read as this one's (docs/format.md, "Run id").
 *
 * The all-zero id is "none": files of mpirr versions before run ids, and of a runtime that
 * records without `mpirr record` (ranks cannot agree on a random value before MPI_Init; no
 * MPIRR_RUN_ID, no id). It matches only itself, so an old recording stays readable and a
 * recording never mixes files with and without an id. */
#ifndef MPIRR_RUN_ID_H
#define MPIRR_RUN_ID_H

#include <stddef.h>
#include <stdint.h>

#define MPIRR_RUN_ID_BYTES 16
#define MPIRR_RUN_ID_DIGITS (2 * MPIRR_RUN_ID_BYTES)
/* The id with its own check, where no header checksum covers it (mapped tails, the pending
 * file): 16 bytes, then FNV-1a 64 of them. */
#define MPIRR_RUN_ID_CHECKED_BYTES (MPIRR_RUN_ID_BYTES + 8)

typedef struct mpirr_run_id {
    uint8_t b[MPIRR_RUN_ID_BYTES];
} mpirr_run_id;

int mpirr_run_id_is_none(const mpirr_run_id *id);
int mpirr_run_id_equal(const mpirr_run_id *a, const mpirr_run_id *b);
/* 32 lowercase hexadecimal digits, or "none". */
void mpirr_run_id_text(const mpirr_run_id *id, char out[MPIRR_RUN_ID_DIGITS + 1]);
/* Exactly 32 hexadecimal digits (either case): 0, else -1 and *id untouched. */
int mpirr_run_id_parse(const char *text, mpirr_run_id *id);

/* The checked form (MPIRR_RUN_ID_CHECKED_BYTES at p): 0, or -1 if its check fails. */
void mpirr_run_id_put_checked(uint8_t *p, const mpirr_run_id *id);
int mpirr_run_id_get_checked(const uint8_t *p, mpirr_run_id *id);

/* The id every file read from now on must carry: the tools set it from the manifest of the
 * recording they open (recording.c); NULL stops the check. Not thread-safe: set it before
 * reading. */
void mpirr_run_id_expect(const mpirr_run_id *id);
/* How many files mpirr_run_id_check has refused so far: a caller tells a file of another
 * recording from a damaged one by comparing the count before and after opening it. */
unsigned mpirr_run_id_refusals(void);
/* Whether the file at path, carrying id, belongs to the recording being read: the expected id
 * if one is set, else `sibling` (the id of the file it belongs with, e.g. a tail's log; NULL:
 * nothing to compare). 0, or -1 with "PATH belongs to another recording (run id X, this
 * recording's is Y)" in err. */
int mpirr_run_id_check(const char *path, const mpirr_run_id *id, const mpirr_run_id *sibling,
                       char *err, size_t errlen);

#endif
