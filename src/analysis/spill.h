/* spill.h: the run model's big arrays (every rank's operations, the messages) in a file
 * instead of the heap, so that a history larger than memory can be analysed: a temp file
 * under $TMPDIR (unlinked at once: gone at exit, also on a crash), mapped shared into one
 * reserved range of addresses, whose pages a trimming thread drops from the process whenever
 * more than a budget of them is resident. The page cache keeps what fits, the disk the rest
 * (docs/analysis.md, "Memory"). */
#ifndef MPIRR_SPILL_H
#define MPIRR_SPILL_H

#include <stddef.h>

typedef struct an_spill an_spill;

/* A spill file, or NULL when none can be made (no file in $TMPDIR, else /tmp; no address
 * space): the arrays then live on the heap. The trimming thread keeps about 1 GiB of the
 * file resident in the process at most (what it maps in 20 ms more between two checks). */
an_spill *an_spill_open(void);
void an_spill_close(an_spill *s);
/* mpirr_reserve for an array that lives in s (on the heap when s is NULL): *p (of *cap elements
 * of size bytes) holds at least need elements afterwards, doubling; the array grown last
 * grows in place (a rank's operations while it loads), any other one moves to the file's
 * end. 0, or -1 (out of memory or of file space; *p unchanged). */
int an_spill_reserve(an_spill *s, void **p, size_t *cap, size_t need, size_t size);
/* n zeroed elements of size bytes in s (calloc when s is NULL; the file's space is never
 * reused, so it reads as zeros); NULL: out of memory or of file space. */
void *an_spill_calloc(an_spill *s, size_t n, size_t size);
/* Frees an array of an_spill_reserve or an_spill_calloc (its file space is not reused: arrays are freed at the
 * end, with the file). */
void an_spill_free(an_spill *s, void *p);

#endif
