/* large_count.c: the MPI-4 large-count point-to-point calls (MPI_Send_c, MPI_Recv_c, ...), and
 * the one-sided ones that create windows (MPI_Win_create_c, ...).
 * They must not bypass the message layer: races mode sends a header with every message and its
 * receives expect one (piggyback.c), and replay forces the source of wildcard receives. So a
 * call whose counts fit in an int takes its int call's own path (mpirr_MPI_Send: recorded and
 * replayed; its rank-log records carry the int call's id). Beyond INT_MAX elements the call
 * goes to PMPI_<name>_c unchanged and is counted like an UNREPLAYED row, so the replay's
 * verdict names it: its match is not replayed, and in races mode its message carries no header
 * (docs/runtime.md). Built only against an MPI-4 library (Open MPI 4.1 has no such call).
 * Cost: none on the int calls' own wrappers: their implementations, which now have a second
 * caller here, are MPIRR_ALSO_FORWARDED (special_calls.h), so link-time optimisation still
 * inlines them there (without it MPICH's ping-pong took 47 more libmpirr instructions per round
 * trip, 434 -> 481; with it 435, bench/races_callgrind.sh). */
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
/* exchanges: MPI_Sendrecv(_replace) end with a status, MPI_Isendrecv(_replace) a request */
#define SENDRECV(name, last_param, last)                                                       \
    LARGE(name, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,    \
                 int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,       \
                 int source, int recvtag, MPI_Comm comm, last_param),                          \
          FITS(sendcount) && FITS(recvcount),                                                  \
          (sendbuf, (int)sendcount, sendtype, dest, sendtag, recvbuf, (int)recvcount,          \
           recvtype, source, recvtag, comm, last),                                             \
          (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,  \
           recvtag, comm, last))
#define SENDRECV_REPLACE(name, last_param, last)                                               \
    LARGE(name, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,     \
                 int source, int recvtag, MPI_Comm comm, last_param),                          \
          FITS(count), (buf, (int)count, datatype, dest, sendtag, source, recvtag, comm, last), \
          (buf, count, datatype, dest, sendtag, source, recvtag, comm, last))
SENDRECV(MPI_Sendrecv, MPI_Status *status, status)
SENDRECV_REPLACE(MPI_Sendrecv_replace, MPI_Status *status, status)
SENDRECV(MPI_Isendrecv, MPI_Request *request, request)
SENDRECV_REPLACE(MPI_Isendrecv_replace, MPI_Request *request, request)

/* one-sided: a window whose displacement unit fits gets its turn windows and event-history id
 * on the int call's path (src/runtime/rma/); the large-count accesses and accumulates take
 * their turns with any count there (accesses.c, atomics.c) */
#define NEW_WINDOW(name, params, int_args, args) \
    LARGE(name, params, FITS(disp_unit), int_args, args)
NEW_WINDOW(MPI_Win_create, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                            MPI_Comm comm, MPI_Win *win),
           (base, size, (int)disp_unit, info, comm, win), (base, size, disp_unit, info, comm, win))
NEW_WINDOW(MPI_Win_allocate, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              void *baseptr, MPI_Win *win),
           (size, (int)disp_unit, info, comm, baseptr, win),
           (size, disp_unit, info, comm, baseptr, win))
NEW_WINDOW(MPI_Win_allocate_shared, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                                     MPI_Comm comm, void *baseptr, MPI_Win *win),
           (size, (int)disp_unit, info, comm, baseptr, win),
           (size, disp_unit, info, comm, baseptr, win))

#else
typedef int mpirr_no_large_count_calls; /* an MPI-3 library: nothing to wrap */
#endif
