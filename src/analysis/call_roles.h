/* call_roles.h: what each intercepted call means to the analyses, read off the event-shape
 * column of the one call table (src/format/mpi_calls.def), so a new row needs nothing here
 * unless it brings a new shape. Collectives add how data flows through them. */
#ifndef MPIRR_CALL_ROLES_H
#define MPIRR_CALL_ROLES_H

enum call_role {
    ROLE_NONE, ROLE_INIT, ROLE_ABORT, ROLE_COMM,
    ROLE_SEND, ROLE_ISEND, ROLE_PSEND, ROLE_RECV, ROLE_IRECV, ROLE_PRECV, ROLE_SENDRECV,
    ROLE_ISENDRECV,
    ROLE_PROBE, ROLE_IPROBE, ROLE_MRECV, ROLE_IMRECV,
    ROLE_WAIT, ROLE_TEST, ROLE_GETSTATUS, ROLE_WAITANY, ROLE_TESTANY, ROLE_WAITALL,
    ROLE_TESTALL, ROLE_WAITSOME, ROLE_START, ROLE_STARTALL, ROLE_FREE, ROLE_CANCEL,
    ROLE_COLL, ROLE_RCOLL, ROLE_ICOLL, ROLE_IRCOLL, ROLE_COMM_NEW, ROLE_COMM_IDUP,
    ROLE_COMM_FREE,
    /* one-sided calls: their record's RMA fields say what they do (rma_load.c) */
    ROLE_WIN_NEW, ROLE_WIN, ROLE_WIN_FREE, ROLE_WIN_TEST, ROLE_WIN_GROUP, ROLE_WIN_TARGET,
    ROLE_WIN_LOCK, ROLE_WIN_LOCK_ALL, ROLE_WIN_ACCESS,
};

enum call_role call_role(unsigned id);
/* Matched probes consume the message they match; plain probes do not. */
int call_consumes_on_probe(unsigned id);
/* enum an_flow of a collective. */
int call_flow(unsigned id);

#endif
