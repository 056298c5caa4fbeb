/* status_fields.h: a status's byte count and cancel flag, read and written in place where the
 * MPI library's status layout is known (Open MPI's _ucount and _cancelled, MPICH's count_lo and
 * count_hi_and_cancelled), through PMPI otherwise. Races mode reads and rewrites the count of
 * every message it receives (message_wire.h): the three PMPI calls cost about 150
 * instructions a message, the fields a few. Both libraries document the fields as internal,
 * so mpirr_status_fields_check (MPI_Init) tests the in-place form against PMPI on this very
 * library and keeps PMPI if they disagree. */
#ifndef MPIRR_STATUS_FIELDS_H
#define MPIRR_STATUS_FIELDS_H

#include <mpi.h>

#if defined(OPEN_MPI) || defined(MPICH)
#define MPIRR_STATUS_KNOWN 1
#else
#define MPIRR_STATUS_KNOWN 0
#endif

/* Whether the fields may be used (set by mpirr_status_fields_check). */
extern int mpirr_status_in_place;
void mpirr_status_fields_check(void);

/* The status's count in bytes; -1 if MPI cannot say. */
static inline MPI_Count mpirr_status_bytes(const MPI_Status *st)
{
#if defined(OPEN_MPI)
    if (mpirr_status_in_place) return (MPI_Count)st->_ucount;
#elif defined(MPICH)
    if (mpirr_status_in_place)
        return (MPI_Count)(((MPI_Count)(st->count_hi_and_cancelled >> 1) << 32) |
                           (MPI_Count)(unsigned)st->count_lo);
#endif
    MPI_Count n;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED) return -1;
    return n;
}

static inline void mpirr_status_set_bytes(MPI_Status *st, MPI_Count n)
{
#if defined(OPEN_MPI)
    if (mpirr_status_in_place) {
        st->_ucount = (size_t)n;
        return;
    }
#elif defined(MPICH)
    if (mpirr_status_in_place) {
        st->count_lo = (int)(unsigned)(n & 0xFFFFFFFF);
        st->count_hi_and_cancelled = (st->count_hi_and_cancelled & 1) | (int)((n >> 32) << 1);
        return;
    }
#endif
    PMPI_Status_set_elements_x(st, MPI_BYTE, n);
}

static inline int mpirr_status_cancelled(const MPI_Status *st)
{
#if defined(OPEN_MPI)
    if (mpirr_status_in_place) return st->_cancelled != 0;
#elif defined(MPICH)
    if (mpirr_status_in_place) return st->count_hi_and_cancelled & 1;
#endif
    int flag = 0;
    PMPI_Test_cancelled(st, &flag);
    return flag;
}

#endif
