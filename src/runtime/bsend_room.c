/* bsend_room.c: MPI_Buffer_attach and MPI_Buffer_detach. In races mode every buffered message
 * also carries its header's slot (message_wire.h), which the program did not size its buffer
 * for: mpirr attaches a larger buffer of its own in its place, with a slot's room more for
 * every message the program's buffer could hold, and hands the program's buffer back at
 * detach, or frees its own at MPI_Finalize when the program never detached. */
#include <limits.h>
#include <stdlib.h>

#include "message_wire.h"
#include "piggyback.h"
#include "runtime.h"
#include "special_calls.h"

static void *program_buffer, *own_buffer;
static int program_size;

int mpirr_MPI_Buffer_attach(void *buffer, int size)
{
    MPIRR_BEGIN(MPI_Buffer_attach);
    if (!mpirr_piggybacking() || size < 0) return PMPI_Buffer_attach(buffer, size);
    /* every buffered message takes MPI_BSEND_OVERHEAD bytes besides its data */
    long long room = (long long)size + ((long long)size / MPI_BSEND_OVERHEAD + 1) * MPIRR_WIRE_SLOT;
    if (room > INT_MAX) room = INT_MAX;
    void *own = malloc((size_t)room);
    if (!own) mpirr_fatal("out of memory for the MPI_Bsend buffer");
    int rc = PMPI_Buffer_attach(own, (int)room);
    if (rc != MPI_SUCCESS) { /* one is attached already: MPI said so */
        free(own);
        return rc;
    }
    mpirr_lock();
    own_buffer = own;
    program_buffer = buffer;
    program_size = size;
    mpirr_unlock();
    return rc;
}

int mpirr_MPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPIRR_BEGIN(MPI_Buffer_detach);
    void *got;
    int got_size;
    int rc = PMPI_Buffer_detach(&got, &got_size);
    if (rc != MPI_SUCCESS) return rc;
    mpirr_lock();
    if (own_buffer && got == own_buffer) {
        free(own_buffer);
        own_buffer = NULL;
        got = program_buffer;
        got_size = program_size;
    }
    mpirr_unlock();
    *(void **)buffer_addr = got;
    *size = got_size;
    return rc;
}

/* MPI_Finalize detaches a buffer still attached, waiting for its messages as MPI_Finalize
 * would; mpirr's own is then freed rather than left behind in the program. */
void mpirr_bsend_room_finish(void)
{
    if (!own_buffer) return;
    void *got;
    int got_size;
    if (PMPI_Buffer_detach(&got, &got_size) == MPI_SUCCESS && got == own_buffer) free(own_buffer);
    own_buffer = program_buffer = NULL;
    program_size = 0;
}
