/* rank_memory.c: the memory one rank holds just before MPI_Finalize, for bench/scale/
 * rank_memory.sh, which runs it natively and under mpirr so that the difference is mpirr's.
 * The program: a barrier and a ring exchange (wildcard receives, so races mode has verdicts to
 * keep) on MPI_COMM_WORLD, then on COMMS communicators made by MPI_Comm_dup and MPI_Comm_split
 * (halves, quarters, odd/even ranks: the kinds a real code makes), each kept until the end.
 * Rank 0 prints one line:
 *   rank_memory ranks P comms C heap_kib MED MAX hwm_kib MED MAX rss_kib MED MAX
 * heap: bytes malloc'd and not freed (mallinfo2: arenas plus mmapped chunks), which is what the
 * runtime's data structures cost exactly; hwm and rss: VmHWM and VmRSS of /proc/self/status
 * (the whole process: MPI's shared-memory segments and libraries included). MED is the median
 * over the ranks, MAX the largest. */
#define _GNU_SOURCE
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long status_kib(const char *field)
{
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':') v = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return v;
}

/* A token around comm's ring, received from any source. */
static void ring(MPI_Comm comm)
{
    int me, n, token = 0;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Barrier(comm);
    if (n < 2) return;
    MPI_Request r;
    MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 7, comm, &r);
    MPI_Send(&me, 1, MPI_INT, (me + 1) % n, 7, comm);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, p, ncomms = argc > 1 ? atoi(argv[1]) : 8;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm *comms = calloc((size_t)(ncomms > 0 ? ncomms : 1), sizeof *comms);
    ring(MPI_COMM_WORLD);
    for (int i = 0; i < ncomms; i++) {
        switch (i % 4) {
        case 0: MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]); break;
        case 1: MPI_Comm_split(MPI_COMM_WORLD, me < p / 2, me, &comms[i]); break;
        case 2: MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &comms[i]); break;
        default: MPI_Comm_split(MPI_COMM_WORLD, me / (p / 4 > 0 ? p / 4 : 1), p - me, &comms[i]);
        }
        ring(comms[i]);
    }
    ring(MPI_COMM_WORLD);
    struct mallinfo2 mi = mallinfo2();
    long mine[3] = {(long)((mi.uordblks + mi.hblkhd) / 1024), status_kib("VmHWM"), status_kib("VmRSS")};
    long *all = me == 0 ? malloc(3 * (size_t)p * sizeof *all) : NULL;
    MPI_Gather(mine, 3, MPI_LONG, all, 3, MPI_LONG, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("rank_memory ranks %d comms %d", p, ncomms);
        const char *names[3] = {"heap_kib", "hwm_kib", "rss_kib"};
        long *col = malloc((size_t)p * sizeof *col);
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < p; r++) col[r] = all[3 * r + k];
            qsort(col, (size_t)p, sizeof *col, cmp_long);
            printf(" %s %ld %ld", names[k], col[p / 2], col[p - 1]);
        }
        printf("\n");
        free(col);
        free(all);
    }
    for (int i = 0; i < ncomms; i++) MPI_Comm_free(&comms[i]);
    free(comms);
    MPI_Finalize();
    return 0;
}
