/* status_fields.c: the check that the in-place status fields mean what PMPI says
 * (status_fields.h). */
#include "status_fields.h"

#include <string.h>

int mpirr_status_in_place;

/* Whether a status PMPI filled with count bytes and the cancel flag reads the same in place,
 * and one rewritten in place reads back through PMPI. */
static int agrees(MPI_Count count, int cancelled)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    if (PMPI_Status_set_elements_x(&st, MPI_BYTE, count) != MPI_SUCCESS ||
        PMPI_Status_set_cancelled(&st, cancelled) != MPI_SUCCESS)
        return 0;
    mpirr_status_in_place = 1;
    int ok = mpirr_status_bytes(&st) == count && mpirr_status_cancelled(&st) == cancelled;
    mpirr_status_set_bytes(&st, count + 32);
    mpirr_status_in_place = 0;
    MPI_Count back;
    int flag;
    return ok && PMPI_Get_elements_x(&st, MPI_BYTE, &back) == MPI_SUCCESS && back == count + 32 &&
           PMPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag == cancelled;
}

void mpirr_status_fields_check(void)
{
    static const MPI_Count counts[] = {0, 8, 4096, ((MPI_Count)1 << 31) + 7, (MPI_Count)5 << 33};
    mpirr_status_in_place = 0;
    if (!MPIRR_STATUS_KNOWN) return;
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        for (int cancelled = 0; cancelled <= 1; cancelled++)
            if (!agrees(counts[i], cancelled)) return;
    mpirr_status_in_place = 1;
}
