/* handle_key.h: an MPI handle as a u64_map key. Handles are pointers in Open MPI and ints in
 * MPICH, so their bits are copied (zero-extended) rather than cast. */
#ifndef MPIRR_HANDLE_KEY_H
#define MPIRR_HANDLE_KEY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t mpirr_handle_bits(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

/* h: an lvalue of any handle type (MPI_Comm, MPI_Request, MPI_Win...). */
#define MPIRR_HANDLE_KEY(h) mpirr_handle_bits(&(h), sizeof(h))

#endif
