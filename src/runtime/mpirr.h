/* mpirr.h: the public interface of the mpirr runtime for programs (and debuggers) that want to
 * talk to it directly. Nothing here is needed to record or replay: `mpirr record` and
 * `mpirr replay` work on unmodified binaries. Link with `pkg-config --libs mpirr-openmpi`
 * (or mpirr-mpich) to get the runtime without LD_PRELOAD. */
#ifndef MPIRR_H
#define MPIRR_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPIRR_VERSION_STRING "0.1.0"

/* Compresses everything recorded so far into the rank log and, with `mpirr record --events`,
 * the event history (recording survives anyway; this makes it compact and puts the history
 * in its chunks). Callable from a debugger in a stopped process. 0 on success. */
int mpirr_flush(void);

/* "off", "run", "record" or "replay". */
const char *mpirr_mode(void);

/* Events (intercepted MPI calls) this rank has made so far. */
unsigned long long mpirr_event_count(void);

/* The same as a plain variable: the number of the MPI call in progress (or of the latest one,
 * between calls), the event numbers of `mpirr events`, `where` and divergence messages. It is
 * safe in a debugger's breakpoint condition, which calling a function is not:
 *     break PMPI_Recv if mpirr_current_event == 231
 * stops rank's event 231 inside the MPI library (mpirr's own MPI_Recv runs first, when the
 * variable still holds 230). Read it only; the mpirr gdb extension offers $mpirr_event. */
extern unsigned long long mpirr_current_event;

#ifdef __cplusplus
}
#endif
#endif
