/* callcost: the per-call cost of interception, isolated from scheduling noise. One rank, no
 * peer: (a) MPI_Comm_rank in a loop, a call MPI answers in a few ns, so any extra time is the
 * wrapper's; (b) a deterministic message to itself (MPI_Irecv naming the source, MPI_Send,
 * MPI_Wait), the fast path of point-to-point traffic; (c) the same message received with
 * MPI_Recv(MPI_ANY_SOURCE), a nondeterministic event that record mode logs. Prints the common
 * bench line plus `ns_per_call <a> ns_per_msg <b> ns_per_wild <c>`. argv[1]: iterations. */
#include "common.h"

#define DEFAULT_ITERS 4000000L

int main(int argc, char **argv)
{
    int rank, size;
    prog_init(&argc, &argv, &rank, &size, 1);
    const long iters = bench_iters(argc, argv, DEFAULT_ITERS);
    bench_counts_t bc = {0, 0};
    double seconds = 0, ns_call = 0, ns_msg = 0, ns_wild = 0;
    if (rank == 0) {
        int r = 0;
        long sum = 0;
        const double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
            BENCH_CALL(&bc, MPI_Comm_rank(MPI_COMM_SELF, &r));
            sum += r;
        }
        const double t1 = MPI_Wtime();
        const long msgs = iters / 8;
        for (long i = 0; i < msgs; i++) {
            int in = 0, out = (int)i;
            MPI_Request rq;
            BENCH_CALL(&bc, MPI_Irecv(&in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &rq));
            BENCH_CALL(&bc, MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
            BENCH_CALL(&bc, MPI_Wait(&rq, MPI_STATUS_IGNORE));
            if (in != out) fail("self message %d != %d", in, out);
        }
        const double t2 = MPI_Wtime();
        for (long i = 0; i < msgs; i++) {
            int in = 0, out = (int)i;
            MPI_Request rq;
            BENCH_CALL(&bc, MPI_Isend(&out, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &rq));
            BENCH_CALL(&bc, MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE));
            BENCH_CALL(&bc, MPI_Wait(&rq, MPI_STATUS_IGNORE));
            bc.nd_events++;
            if (in != out) fail("self message %d != %d", in, out);
        }
        const double t3 = MPI_Wtime();
        if (sum != 0) fail("MPI_Comm_rank(MPI_COMM_SELF) returned non-zero");
        seconds = t3 - t0;
        ns_wild = (t3 - t2) * 1e9 / (double)msgs;
        ns_call = (t1 - t0) * 1e9 / (double)iters;
        ns_msg = (t2 - t1) * 1e9 / (double)msgs;
    }
    char extra[128];
    snprintf(extra, sizeof extra, "ns_per_call %.2f ns_per_msg %.1f ns_per_wild %.1f", ns_call,
             ns_msg, ns_wild);
    bench_report("callcost", iters, seconds, &bc, extra);
    MPI_Finalize();
    return 0;
}
