/* flip.h: forcing one racing receive or probe to another message (mpirr replay --flip R:E=SRC -o NEWDIR):
 * the checks against the race analysis, the cut every rank replays up to, and the new
 * recording it makes. The runtime's half is src/runtime/flip.c. */
#ifndef MPIRR_CLI_FLIP_H
#define MPIRR_CLI_FLIP_H

#include <limits.h>
#include <stdint.h>

#include "analysis.h"
#include "manifest.h"
#include "recording.h"

struct flip {
    int rank, source;       /* the receive's rank and the source it is made to take */
    uint64_t event;         /* its event */
    uint64_t send_event;    /* the send of the message it takes (on rank source) */
    int taken;              /* the source it took in the parent recording */
    /* R:E=req:P: the Waitany/Testany/Waitsome/Testsome call at E returns the request posted
     * at rank R's event P (flip_request.c); 0 for a receive or probe flip */
    uint64_t req_post;
    uint64_t taken_req;     /* ... the request it returned in the parent (its post event) */
    unsigned call;          /* ... the call at E */
    char dir[PATH_MAX];     /* the new recording (absolute) */
    char file[PATH_MAX + 8]; /* dir/flip: MPIRR_FLIP */
    mpirr_manifest m;       /* the new recording's manifest */
    mpirr_run_id run_id;    /* the new recording's: in the flip file, for the ranks to write */
};

/* Why a flip cannot make racing receive or probe o (of the analysis) take or see candidate
 * message m, or NULL if it can. The runtime forces a receive where it is posted, by rewriting
 * its source: MPI_Recv, MPI_Irecv, MPI_Sendrecv(_replace), and the probes MPI_Probe,
 * MPI_Mprobe, and MPI_Iprobe and MPI_Improbe (a successful one: forced, it blocks until the
 * message is there); not persistent receives (MPI_Start). And the message must not be sent
 * after the post (a nonblocking receive can get a message sent between its post and its
 * completion, but not by being posted for it). explore asks the same before it tries a choice. */
const char *flip_unforceable(const an_op *o, const an_msg *m);

/* The cut of flip f (its rank's events before f->event) joined with the past of rank q0's
 * event e0, that event included, into cut (nranks entries; each rank's MPI_Finalize left
 * out). 0; -1 if that past holds f's event or later (nothing said); else an exit status after
 * a one-line message about spec. */
int flip_cut(an_run *run, const struct flip *f, int q0, uint64_t e0, const char *spec, uint64_t *cut);

/* ---- flip_request.c: R:E=req:P, which request a Waitany/Testany/Waitsome/Testsome returns ---- */
/* Whether call id is MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome. */
int flip_is_any_call(unsigned id);
/* Whether rank's event is such a call that completed a request (its call id, else 0). */
unsigned flip_any_call(const an_run *run, int rank, uint64_t event);
/* Why the any/some call at rank's event cannot be made to return rank's operation k (an index
 * into its ops), or NULL: k must be a point-to-point request pending at the event whose
 * message was sent (a receive) or whose receive was posted (a send) by a past that does not
 * hold the event (docs/explore.md); or, if the call returned ndone >= 2 requests (a
 * Waitsome), one of those, returned alone. *q0, *e0: that send's or receive's rank and event. */
const char *flip_request_unforceable(const an_run *run, int rank, uint64_t event, uint32_t k,
                                     int ndone, int *q0, uint64_t *e0);
/* Checks f (a req:P flip) against the analysis and fills the cut; 0 or an exit status after
 * a one-line message. */
int flip_request_check(an_run *run, const struct recording *parent, const char *spec,
                       struct flip *f, uint64_t *cut);

/* Checks SPEC ("R:E=SRC" or "R:E=req:P") against the race analysis of parent's event history, computes the
 * cut, makes the new recording directory out (force: as record --force) with its flip file
 * (which gives the new recording its own run id: the records copied from the parent are
 * written again under it).
 * 0, or an exit status after a one-line message. */
int flip_prepare(struct flip *f, const struct recording *parent, const char *spec,
                 const char *out, int force);
/* The new recording's manifest, for the command (argc, argv) run in cwd under MPI mpi. */
int flip_start_manifest(struct flip *f, const struct recording *parent, const char *mpi,
                        const char *cwd, int argc, char *const *argv);
/* After the run (its exit status): completes the new recording's manifest and says what was
 * done in one line on stderr. Returns status, or CLI_EXIT_FAIL if the manifest failed. */
int flip_finish(struct flip *f, int status);

#endif
