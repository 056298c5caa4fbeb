/* c_f08_detach: MPI_Buffer_detach through the MPI's mpi_f08 entry point, called from C with
 * the arguments a `use mpi_f08` program passes (TYPE(C_PTR) by reference, INTEGER size,
 * INTEGER ierror). gfortran 12 stops with an internal compiler error on any mpi_f08 call of
 * MPI_Buffer_detach against Debian's Open MPI modules, so the binding is driven from here.
 * Each rank attaches a buffer, MPI_Bsends to itself, receives it, detaches, and checks that
 * the address and size it gets back are the ones it attached (in races mode mpirr attaches a
 * larger buffer of its own in their place). Prints `detach ok` per rank; exit 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void mpi_buffer_detach_f08_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierror);

int main(int argc, char **argv)
{
    static char attached[4096];
    int rank, sent, got = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sent = 1000 + rank;
    if (MPI_Buffer_attach(attached, (int)sizeof attached) != MPI_SUCCESS ||
        MPI_Bsend(&sent, 1, MPI_INT, rank, 7, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Recv(&got, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        got != sent) {
        fprintf(stderr, "rank %d: the buffered message to itself failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    void *address = NULL;
    MPI_Fint size = -1, ierror = -1;
    mpi_buffer_detach_f08_(&address, &size, &ierror);
    if (ierror != MPI_SUCCESS || size != (MPI_Fint)sizeof attached || address != attached) {
        fprintf(stderr, "rank %d: mpi_f08 MPI_Buffer_detach gave ierror %d, size %d, %s address\n",
                rank, (int)ierror, (int)size, address == attached ? "the attached" : "another");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("rank %d: detach ok\n", rank);
    MPI_Finalize();
    return 0;
}
