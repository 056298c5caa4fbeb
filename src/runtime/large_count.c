/* large_count.c: the MPI-4 large-count point-to-point calls (MPI_Send_c, MPI_Recv_c, ...).
 * They must not bypass the message layer: races mode sends a header with every message and its
 * receives expect one (piggyback.c), and replay forces the source of wildcard receives. So a
 * call whose counts fit in an int takes its int call's own path (mpirr_MPI_Send: recorded and
 * replayed; its rank-log records carry the int call's id). Beyond INT_MAX elements the call
 * goes to PMPI_<name>_c unchanged and is counted like an UNREPLAYED row, so the replay's
 * verdict names it: its match is not replayed, and in races mode its message carries no header
 * (docs/runtime.md). Built only against an MPI-4 library (Open MPI 4.1 has no such call).
 * Known cost: the second caller of mpirr_MPI_Send (and the other int calls) here keeps link-time
 * optimisation from inlining them into their own wrappers, as it did while they had one caller:
 * MPICH's ping-pong takes 47 more instructions per round trip in libmpirr (434 -> 481,
 * bench/races_callgrind.sh). __attribute__((flatten)) on those wrappers won them back (fewer
 * than before) but tripled the library's text; calling through an opaque pointer did not. */
#include <limits.h>

#include "call_count_slots.h"
#include "runtime.h"
#include "special_calls.h"

#if MPI_VERSION >= 4

#define FITS(n) ((n) >= INT_MIN && (n) <= INT_MAX)

/* A call beyond INT_MAX elements: its event, and its count for the verdict. */
static void beyond_int(unsigned id)
{
    mpirr_call c;
    mpirr_call_begin(&c, id);
    mpirr_call_count_add(mpirr_rt.call_counts, id);
}

#define LARGE(name, params, fits, int_args, args)                                              \
    int mpirr_##name##_c params                                                                \
    {                                                                                          \
        if (fits) return mpirr_##name int_args;                                                \
        beyond_int(MPIRR_ID_##name##_c);                                                       \
        return P##name##_c args;                                                               \
    }

/* sends (buf, count, datatype, dest, tag, comm) and with a request */
#define SEND(name)                                                                             \
    LARGE(name, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,   \
                 MPI_Comm comm),                                                               \
          FITS(count), (buf, (int)count, datatype, dest, tag, comm),                           \
          (buf, count, datatype, dest, tag, comm))
#define ISEND(name)                                                                            \
    LARGE(name, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,   \
                 MPI_Comm comm, MPI_Request *request),                                         \
          FITS(count), (buf, (int)count, datatype, dest, tag, comm, request),                  \
          (buf, count, datatype, dest, tag, comm, request))
#define IRECV(name)                                                                            \
    LARGE(name, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,       \
                 MPI_Comm comm, MPI_Request *request),                                         \
          FITS(count), (buf, (int)count, datatype, source, tag, comm, request),                \
          (buf, count, datatype, source, tag, comm, request))

SEND(MPI_Send)
SEND(MPI_Bsend)
SEND(MPI_Ssend)
SEND(MPI_Rsend)
ISEND(MPI_Isend)
ISEND(MPI_Ibsend)
ISEND(MPI_Issend)
ISEND(MPI_Irsend)
ISEND(MPI_Send_init)
ISEND(MPI_Bsend_init)
ISEND(MPI_Ssend_init)
ISEND(MPI_Rsend_init)
IRECV(MPI_Irecv)
IRECV(MPI_Recv_init)

LARGE(MPI_Recv, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Status *status),
      FITS(count), (buf, (int)count, datatype, source, tag, comm, status),
      (buf, count, datatype, source, tag, comm, status))
LARGE(MPI_Mrecv, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Status *status),
      FITS(count), (buf, (int)count, datatype, message, status),
      (buf, count, datatype, message, status))
LARGE(MPI_Imrecv, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                   MPI_Request *request),
      FITS(count), (buf, (int)count, datatype, message, request),
      (buf, count, datatype, message, request))
LARGE(MPI_Sendrecv, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Status *status),
      FITS(sendcount) && FITS(recvcount),
      (sendbuf, (int)sendcount, sendtype, dest, sendtag, recvbuf, (int)recvcount, recvtype,
       source, recvtag, comm, status),
      (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
       recvtag, comm, status))
LARGE(MPI_Sendrecv_replace, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Status *status),
      FITS(count), (buf, (int)count, datatype, dest, sendtag, source, recvtag, comm, status),
      (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))

#else
typedef int mpirr_no_large_count_calls; /* an MPI-3 library: nothing to wrap */
#endif
