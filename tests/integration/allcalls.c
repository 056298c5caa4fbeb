/* allcalls.c FILE [unreplayed]: a broad sample of the generated rows of the call table
 * (src/format/mpi_calls_generated.def), around a wildcard race that makes native runs differ.
 * Every rank checks each result (exit 1 with a line on stderr if one is wrong):
 * MPI_Comm_idup_with_info (MPI_Comm_idup on an MPI-3 library), neighborhood collectives on a
 * periodic ring (blocking and nonblocking), nonblocking collectives the hand-written rows lack
 * (MPI_Ialltoallv, MPI_Iallgatherv, MPI_Ireduce_scatter), a persistent collective and an MPI-4
 * session (MPI-4 only), MPI-IO at explicit offsets on FILE. Then ranks 1.. each send ROUNDS
 * messages to rank 0, which receives them from MPI_ANY_SOURCE (MPI_Send_c / MPI_Recv_c on an
 * MPI-4 library) and prints the order of their sources: the line that differs between runs.
 * With "unreplayed", each rank also calls a generated UNREPLAYED function: MPI_File_write_shared_c
 * on an MPI-4 library, else MPI_Open_port (and MPI_Close_port). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 25 };

static int rank, size;

static void check(int ok, const char *what)
{
    if (ok) return;
    fprintf(stderr, "allcalls: rank %d: %s is wrong\n", rank, what);
    exit(1);
}

static void neighbors(MPI_Comm ring)
{
    int nb[2] = {-1, -1}, out[2] = {rank, rank}, in[2] = {-1, -1};
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, nb, 1, MPI_INT, ring);
    check(nb[0] == left && nb[1] == right, "MPI_Neighbor_allgather");
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    check(in[0] == left && in[1] == right, "MPI_Neighbor_alltoall");
    MPI_Request req;
    nb[0] = nb[1] = -1;
    MPI_Ineighbor_allgather(&rank, 1, MPI_INT, nb, 1, MPI_INT, ring, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(nb[0] == left && nb[1] == right, "MPI_Ineighbor_allgather");
}

static void nonblocking_collectives(void)
{
    int *one = malloc(sizeof(int) * (size_t)size), *got = malloc(sizeof(int) * (size_t)size);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int k = 0; k < size; k++) one[k] = rank * 100 + k, counts[k] = 1, displs[k] = k;
    MPI_Request reqs[3];
    int all[64], sum = -1;
    MPI_Ialltoallv(one, counts, displs, MPI_INT, got, counts, displs, MPI_INT, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iallgatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &reqs[1]);
    MPI_Ireduce_scatter(one, &sum, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]);
    MPI_Status sts[3];
    MPI_Waitall(3, reqs, sts);
    for (int k = 0; k < size; k++) {
        check(got[k] == k * 100 + rank, "MPI_Ialltoallv");
        check(all[k] == k, "MPI_Iallgatherv");
    }
    check(sum == 100 * size * (size - 1) / 2 + size * rank, "MPI_Ireduce_scatter");
    free(one), free(got), free(counts), free(displs);
}

static void mpi4_calls(void)
{
#if MPI_VERSION >= 4
    int in = rank, out = -1;
    MPI_Request req;
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        check(out == size * (size - 1) / 2, "MPI_Allreduce_init");
    }
    MPI_Request_free(&req);
    MPI_Session session;
    int npsets = 0;
    check(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session) == MPI_SUCCESS, "MPI_Session_init");
    check(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &npsets) == MPI_SUCCESS && npsets > 0,
          "MPI_Session_get_num_psets");
    check(MPI_Session_finalize(&session) == MPI_SUCCESS, "MPI_Session_finalize");
#endif
}

static void file_io(const char *path)
{
    MPI_File fh;
    check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "MPI_File_open");
    int mine = 1000 + rank, next = -1;
    MPI_File_write_at(fh, (MPI_Offset)(rank * (int)sizeof(int)), &mine, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_read_at_all(fh, (MPI_Offset)((rank + 1) % size * (int)sizeof(int)), &next, 1, MPI_INT,
                         MPI_STATUS_IGNORE);
    check(next == 1000 + (rank + 1) % size, "MPI_File_read_at_all");
    MPI_Offset bytes = 0;
    MPI_File_get_size(fh, &bytes);
    check(bytes == (MPI_Offset)(size * (int)sizeof(int)), "MPI_File_get_size");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

static void wildcard_race(MPI_Comm comm)
{
    int v = rank;
    if (rank) {
        for (int i = 0; i < ROUNDS; i++)
#if MPI_VERSION >= 4
            MPI_Send_c(&v, (MPI_Count)1, MPI_INT, 0, 7, comm);
#else
            MPI_Send(&v, 1, MPI_INT, 0, 7, comm);
#endif
        return;
    }
    char line[4096] = "order:";
    for (int i = 0; i < ROUNDS * (size - 1); i++) {
        MPI_Status st;
#if MPI_VERSION >= 4
        MPI_Count n = 0;
        MPI_Recv_c(&v, (MPI_Count)1, MPI_INT, MPI_ANY_SOURCE, 7, comm, &st);
        MPI_Get_count_c(&st, MPI_INT, &n);
#else
        int n = 0;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, comm, &st);
        MPI_Get_count(&st, MPI_INT, &n);
#endif
        check(n == 1 && v == st.MPI_SOURCE, "the wildcard receive");
        snprintf(line + strlen(line), sizeof line - strlen(line), " %d", v);
    }
    printf("%s\n", line);
}

static void unreplayed_call(const char *path)
{
#if MPI_VERSION >= 4 /* MPICH's MPI_Open_port fails without a name server */
    char shared[4096];
    MPI_File fh;
    snprintf(shared, sizeof shared, "%s.shared", path);
    check(MPI_File_open(MPI_COMM_WORLD, shared, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "MPI_File_open (shared)");
    check(MPI_File_write_shared_c(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS,
          "MPI_File_write_shared_c");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(shared, MPI_INFO_NULL);
#else
    char port[MPI_MAX_PORT_NAME];
    (void)path;
    check(MPI_Open_port(MPI_INFO_NULL, port) == MPI_SUCCESS, "MPI_Open_port");
    MPI_Close_port(port);
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || size < 2 || size > 64) {
        fprintf(stderr, "usage: allcalls FILE [unreplayed], 2 to 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm dup, ring;
    MPI_Request req;
#if MPI_VERSION >= 4
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &req);
#else
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
#endif
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(dup, 1, dims, periods, 0, &ring);
    neighbors(ring);
    nonblocking_collectives();
    mpi4_calls();
    file_io(argv[1]);
    wildcard_race(dup);
    if (argc > 2 && !strcmp(argv[2], "unreplayed")) unreplayed_call(argv[1]);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
