/* endless_storm: a nondeterministic program that runs until it is killed, for the tests that
 * kill a recorded run at a random moment (killed.sh). Every round each rank in turn receives
 * one message from every other rank with MPI_Recv(MPI_ANY_SOURCE), then posts a wildcard
 * MPI_Irecv that it polls with MPI_Test (20 us apart) while the others send; so sources mode
 * logs matches and successful tests, races mode the receives that raced, and every mode the
 * MPI_Wtime values of a few clock readings a round. Each rank writes "pid N" and then one
 * line per round (the round and the digest of the order it saw) to its own file ARGV1.RANK,
 * unbuffered, so the file holds exactly what the rank did before it was killed.
 * argv[1]: output prefix; argv[2]: rounds (default: until killed). */
#define _DEFAULT_SOURCE /* dprintf, syscall */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../programs/common.h"

enum { TAG_STORM = 21, TAG_POLL = 22 };

int main(int argc, char **argv)
{
    int rank, size;
    prog_init(&argc, &argv, &rank, &size, 2);
    if (argc < 2) fail("usage: endless_storm OUTPUT_PREFIX [ROUNDS]");
    long rounds = argc > 2 ? atol(argv[2]) : -1;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", argv[1], rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (fd < 0) fail("cannot create %s", path);
    /* one write a line: dprintf formats first. The pid is for the test to kill the rank by, not
     * a value of the program: read past mpirr's getpid(), which a replay (pid not recorded)
     * would report as a libc value it could not replay */
    dprintf(fd, "pid %d\n", (int)syscall(SYS_getpid));
    digest_t d;
    digest_init(&d);
    int counter = 0;
    for (long round = 0; rounds < 0 || round < rounds; round++) {
        for (int j = 0; j < size; j++) {
            if (rank == j) {
                for (int k = 0; k < size - 1; k++) {
                    int msg[2];
                    MPI_Status st;
                    MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_STORM, MPI_COMM_WORLD, &st);
                    digest_int(&d, st.MPI_SOURCE);
                    digest_int(&d, msg[1]);
                }
                for (int k = 0; k < size - 1; k++) {
                    int msg[2], done = 0, polls = 0;
                    MPI_Request req;
                    MPI_Status st;
                    MPI_Irecv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_POLL, MPI_COMM_WORLD, &req);
                    /* 20 us between polls: on a loaded machine a rank waiting for a
                     * descheduled sender otherwise polls hundreds of thousands of times, and
                     * a replay under --noise sleeps before every one of those calls again (a
                     * killed.all.mpich replay once took more than the test's 120 s) */
                    const struct timespec pause = {0, 20000};
                    while (!done) {
                        MPI_Test(&req, &done, &st);
                        polls++;
                        if (!done) nanosleep(&pause, NULL);
                    }
                    digest_int(&d, st.MPI_SOURCE);
                    digest_int(&d, polls > 1);
                }
            } else {
                (void)busy_work(mix32((uint32_t)round, (uint32_t)(rank * size + j)) % 2000);
                int msg[2] = {rank, counter++};
                MPI_Send(msg, 2, MPI_INT, j, TAG_STORM, MPI_COMM_WORLD);
                (void)busy_work(mix32((uint32_t)round + 7, (uint32_t)(rank + j)) % 2000);
                MPI_Send(msg, 2, MPI_INT, j, TAG_POLL, MPI_COMM_WORLD);
            }
        }
        /* a few clock readings a round: recorded values that do not compress away, so a
         * recording grows steadily (diskfull.sh fills a disk with them) */
        for (int k = 0; k < 8; k++) (void)MPI_Wtime();
        dprintf(fd, "round %ld digest %llx\n", round, (unsigned long long)d.h);
    }
    close(fd);
    MPI_Finalize();
    return 0;
}
