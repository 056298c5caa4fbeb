/* control_server.h: the TCP end of a replay's control state (control.h) in mpirr: one thread
 * that listens on every interface (an ephemeral port, IPv6 and IPv4) and polls the ranks'
 * connections (one per rank, however many ranks: no thread per rank). It takes a rank in when
 * its HELLO carries the current job's token, a rank number of the job and the job's size, and
 * sends it its stop (a rank with a replaced job's token is kept apart and ignored); it copies
 * the rank's SLOTs into the rank's slot, keeps the lines ranks send in the hold log and the
 * errors file in mpirr's private directory (run_scratch.h), and answers a rank in MPI_Abort
 * with the view of the ranks it waits for. Messages: control_wire.h. */
#ifndef MPIRR_CLI_CONTROL_SERVER_H
#define MPIRR_CLI_CONTROL_SERVER_H

struct replay_control;

/* Listens, fills c->address (MPIRR_CONTROL_HOST, else this host's name) and c->token, starts
 * the thread. 0, or -1 after a message. */
int control_server_start(struct replay_control *c);
/* A new job (c->epoch, bumped under c->lock): c->address names it from now on. */
void control_server_new_job(struct replay_control *c);
/* Something the ranks must be told changed (c->set_version, c->epoch): send it now. */
void control_server_wake(struct replay_control *c);
/* Stops the thread, closes every socket. Nothing if it never started. */
void control_server_stop(struct replay_control *c);

#endif
