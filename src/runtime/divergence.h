/* divergence.h: how the runtime tells the user it cannot go on (divergence.c): a replay that
 * no longer follows its recording, bad input, I/O errors; warnings. A leaf: it needs nothing
 * else of the runtime, so every file can report through it (runtime.h includes it). */
#ifndef MPIRR_DIVERGENCE_H
#define MPIRR_DIVERGENCE_H

#include <stdint.h>

/* Prints "mpirr: replay of rank R diverged at event E (file): ..." and aborts the job. */
_Noreturn void mpirr_diverged(uint64_t event, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One-line fatal error (bad input, I/O), then abort. */
_Noreturn void mpirr_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fatal error every rank meets alike (its environment, the recording's rank count): rank 0
 * says it and its MPI_Abort ends the others, so the user reads one line rather than one per
 * rank. Another rank waits a few seconds to be ended so, and says it itself only if rank 0
 * did not end the job (its case differed). After MPI_Init only. */
_Noreturn void mpirr_fatal_shared(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warning line on stderr (at most once per message site). */
void mpirr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line "mpirr: ..." to the user (MPIRR_ERRLOG, else stderr), no prefix; usable in a
 * signal handler (no allocation). */
void mpirr_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the whole job (MPI_Abort while MPI is up, else _exit) after the line that said why. */
_Noreturn void mpirr_end_job(void);

#endif
