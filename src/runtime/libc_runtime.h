/* libc_runtime.h: recording and replaying values the program gets from libc (time,
 * clock_gettime, getpid, getrandom...; the sources are libc_sources.def). The interposers
 * (libc_interpose.c) ask mpirr_libc_wanted whether a call is the application's and its group
 * is being recorded or replayed; only then do they go to the log (libc_values.c). Which calls
 * are the application's is decided by the caller's address (libc_callers.c). The design and
 * its limits: docs/runtime.md, "Nondeterminism outside MPI". */
#ifndef MPIRR_LIBC_RUNTIME_H
#define MPIRR_LIBC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "libc_sources.h"
#include "runtime.h"

/* ---- libc_switches.c ---- */
/* Nonzero only between MPI_Init and MPI_Finalize of a recording or replay: the one load the
 * interposers pay otherwise. */
extern int mpirr_libc_watch;
/* This thread called MPI_Init: without MPI_THREAD_MULTIPLE only its calls are recorded (the
 * log is not locked then). */
extern __thread int mpirr_libc_mpi_thread __attribute__((tls_model("initial-exec")));
/* Record: the groups to record (from MPIRR_LIBC_*), as log header flags. */
uint32_t mpirr_libc_record_flags(void);
/* Replay: the groups the recording holds, from its header flags. */
void mpirr_libc_replay_flags(uint32_t flags);
/* The slow half of mpirr_libc_wanted. */
int mpirr_libc_wanted_slow(unsigned source, const void *caller);
/* Appends to a divergence message the sources the program called that the recording does not
 * hold ("" if none). */
void mpirr_libc_divergence_note(char *buf, size_t n);

/* 1 if this call of source (from caller, a return address) is to be recorded or replayed. */
static inline int mpirr_libc_wanted(unsigned source, const void *caller)
{
    if (__builtin_expect(!mpirr_libc_watch, 1)) return 0;
    return mpirr_libc_wanted_slow(source, caller);
}

/* ---- libc_callers.c ---- */
/* 1 if the code at caller belongs to the application, 0 if to the MPI library, its
 * dependencies, libc or mpirr (whose own calls must not be recorded). Cached per call site. */
int mpirr_libc_caller_is_app(const void *caller);

/* ---- libc_values.c ---- */
/* Record: appends value (and n bytes) as source's. */
void mpirr_libc_record(unsigned source, uint64_t value, const void *bytes, uint32_t n);
/* Replay: the recorded value of this call, which must be source's (else the replay diverges,
 * naming both). Its bytes are copied to buf (at most cap), their number in *n. */
uint64_t mpirr_libc_replay(unsigned source, void *buf, size_t cap, uint32_t *n);

/* ---- replay_cursor.c ---- */
/* The next in-order record if it is a LIBC record keyed at the current event (consumed; its
 * bytes valid until the next take), passing a checkpoint keyed there first. 0 if not. */
int mpirr_replay_take_libc(mpirr_record *out);

#endif
