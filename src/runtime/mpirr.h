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

#ifdef __cplusplus
}
#endif
#endif
