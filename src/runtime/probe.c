/* probe.c: probes. Blocking wildcard probes are recorded like wildcard receives (MATCH).
 * Nonblocking probes are nondeterministic even without wildcards (did a message arrive yet?):
 * only successful ones are recorded (TEST_OK, with the match when wildcard); replay answers
 * "nothing yet" at every other event, and at a recorded success blocks in the real probe for
 * the recorded message. Races mode logs probes as sources mode does (a probe consumes no
 * message, so its header is read only by the receive), and notes which communicator a matched
 * probe's message belongs to, for MPI_Mrecv/MPI_Imrecv. A nonblocking probe that replay --flip
 * forces to another source blocks until that message is there (docs/explore.md: it was sent
 * inside the cut, so the poll that finds it is one the program could have made). */
#include "piggyback.h"
#include "replay_cursor.h"
#include "runtime.h"
#include "special_calls.h"
#include "wildcard.h"

static int active(void) { return mpirr_recording() || mpirr_replaying(); }

int mpirr_MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Probe);
    int record;
    MPI_Status local, *st = mpirr_wild_prepare(&call_, &source, &tag, status, &local, &record);
    int rc = PMPI_Probe(source, tag, comm, st);
    if (rc == MPI_SUCCESS) mpirr_header_probed(comm, st);
    if (record) mpirr_record_match(&call_, st);
    return rc;
}

int mpirr_MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Mprobe);
    int record;
    MPI_Status local, *st = mpirr_wild_prepare(&call_, &source, &tag, status, &local, &record);
    int rc = PMPI_Mprobe(source, tag, comm, message, st);
    if (rc == MPI_SUCCESS) mpirr_header_probed(comm, st);
    if (record) mpirr_record_match(&call_, st);
    if (rc == MPI_SUCCESS && mpirr_piggybacking()) mpirr_message_probed(*message, comm);
    return rc;
}

/* Replay of a nonblocking probe: 1 if the recording saw a message here, with the recorded
 * match written into *source and *tag. */
static int replay_probe_found(const mpirr_call *c, int *source, int *tag)
{
    mpirr_record r;
    if (!mpirr_replay_take(c, &r)) return 0;
    if (r.kind != MPIRR_REC_TEST_OK)
        mpirr_diverged(c->event, "the recording has %s (%s) here, the program called %s",
                       mpirr_call_name(r.call), mpirr_record_kind_name(r.kind), mpirr_call_name(c->id));
    if (r.has_match) {
        *source = r.source;
        *tag = r.tag;
    }
    return 1;
}

int mpirr_MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Iprobe);
    if (!active()) return PMPI_Iprobe(source, tag, comm, flag, status);
    if (mpirr_replaying()) {
        if (!replay_probe_found(&call_, &source, &tag)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        *flag = 1;
        return mpirr_replay_probe(source, tag, comm, status);
    }
    int wild = mpirr_is_wildcard(source, tag);
    MPI_Status local, *st = mpirr_status_or(status, &local);
    int rc;
    if (mpirr_flip_steer(call_.event, &source)) {
        rc = PMPI_Probe(source, tag, comm, st);
        *flag = rc == MPI_SUCCESS;
    } else {
        rc = PMPI_Iprobe(source, tag, comm, flag, st);
    }
    if (rc == MPI_SUCCESS && *flag) {
        mpirr_header_probed(comm, st);
        mpirr_record_test_ok(&call_, st, wild, 0, NULL);
    }
    return rc;
}

int mpirr_MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                      MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Improbe);
    if (!active()) return PMPI_Improbe(source, tag, comm, flag, message, status);
    if (mpirr_replaying()) {
        if (!replay_probe_found(&call_, &source, &tag)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        *flag = 1;
        return mpirr_replay_mprobe(source, tag, comm, message, status);
    }
    int wild = mpirr_is_wildcard(source, tag);
    MPI_Status local, *st = mpirr_status_or(status, &local);
    int rc;
    if (mpirr_flip_steer(call_.event, &source)) {
        rc = PMPI_Mprobe(source, tag, comm, message, st);
        *flag = rc == MPI_SUCCESS;
    } else {
        rc = PMPI_Improbe(source, tag, comm, flag, message, st);
    }
    if (rc == MPI_SUCCESS && *flag) {
        mpirr_header_probed(comm, st);
        mpirr_record_test_ok(&call_, st, wild, 0, NULL);
        if (mpirr_piggybacking()) mpirr_message_probed(*message, comm);
    }
    return rc;
}
