/* replay_wait.c: how replay waits for an outcome the recording says has already happened. The
 * program polled (Test*, Iprobe) and must now see success, but in this run the recorded request
 * or message may not be there yet. Waiting by polling and yielding the core, rather than in a
 * blocking MPI call, matters when ranks outnumber cores: MPICH's blocking calls spin without
 * yielding and starve the very rank whose message is awaited (measured before this: replay of
 * a master-worker on 2 cores 17x slower than native): in a replay every wait is for one
 * particular message, so a rank that spins instead of yielding can hold up the whole job. The
 * same holds for the blocking MPI_Recv, MPI_Wait and MPI_Waitall of replayed ranks, which wait
 * here too (a Waitall only when it holds a wildcard receive replay forces: completion.c keeps
 * the program's own PMPI_Waitall for the rest, as MPICH 4.0's Testall fails on persistent
 * collectives its Waitall completes). On a dedicated core sched_yield returns at once.
 * Open MPI's blocking calls already yield when ranks outnumber cores, and its blocking receive
 * replays faster than a polling one (recv_bench: 1.0x vs 1.3x native), so the real blocking
 * call is kept there: mpirr_rt.poll_waits (MPIRR_REPLAY_WAIT=poll|block) chooses. */
#include <sched.h>

#include "runtime.h"

/* Polls before the first yield: a wait that ends within a few microseconds (the common case on
 * a dedicated core) should not pay for system calls. */
#define SPIN_POLLS 64

static void pause_poll(unsigned *polls)
{
    if (++*polls > SPIN_POLLS) sched_yield();
}

int mpirr_replay_wait(MPI_Request *req, MPI_Status *st)
{
    if (!mpirr_rt.poll_waits) return PMPI_Wait(req, st);
    int flag = 0, rc;
    unsigned polls = 0;
    while ((rc = PMPI_Test(req, &flag, st)) == MPI_SUCCESS && !flag) pause_poll(&polls);
    return rc;
}

int mpirr_replay_waitall(int count, MPI_Request reqs[], MPI_Status sts[])
{
    if (!mpirr_rt.poll_waits) return PMPI_Waitall(count, reqs, sts);
    int flag = 0, rc;
    unsigned polls = 0;
    while ((rc = PMPI_Testall(count, reqs, &flag, sts)) == MPI_SUCCESS && !flag) pause_poll(&polls);
    return rc;
}

int mpirr_replay_probe(int source, int tag, MPI_Comm comm, MPI_Status *st)
{
    if (!mpirr_rt.poll_waits) return PMPI_Probe(source, tag, comm, st);
    int flag = 0, rc;
    unsigned polls = 0;
    while ((rc = PMPI_Iprobe(source, tag, comm, &flag, st)) == MPI_SUCCESS && !flag) pause_poll(&polls);
    return rc;
}

int mpirr_replay_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *st)
{
    if (!mpirr_rt.poll_waits) return PMPI_Mprobe(source, tag, comm, msg, st);
    int flag = 0, rc;
    unsigned polls = 0;
    while ((rc = PMPI_Improbe(source, tag, comm, &flag, msg, st)) == MPI_SUCCESS && !flag)
        pause_poll(&polls);
    return rc;
}

int mpirr_replay_request_done(MPI_Request req, int *flag, MPI_Status *st)
{
    int rc;
    unsigned polls = 0;
    while ((rc = PMPI_Request_get_status(req, flag, st)) == MPI_SUCCESS && !*flag) pause_poll(&polls);
    return rc;
}
