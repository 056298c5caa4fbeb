/* file_shared.c: a program whose MPI outcomes mpirr does not replay (the shared file pointer of
 * MPI-IO): every rank appends WRITES lines to one file (argv[1]) with MPI_File_write_shared, and
 * prints nothing of it. Calls nothing else nondeterministic. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define WRITES 2

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_File f;
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
    char line[32];
    snprintf(line, sizeof line, "rank %d\n", rank);
    for (int i = 0; i < WRITES; i++)
        MPI_File_write_shared(f, line, (int)strlen(line), MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&f);
    if (rank == 0) printf("wrote\n");
    MPI_Finalize();
    return 0;
}
