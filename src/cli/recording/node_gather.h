/* node_gather.h: gathering a `mpirr record --local --pack` recording (local_files.h, node
 * placements): each node's folder written straight into the recording as that node's pack
 * (rank_pack.h), so that the recording's file creations grow with the nodes, not the ranks; and
 * after the run, every node gathered: this host in-process, the others with one srun over all of
 * them inside a Slurm allocation, and (else, or then) ssh per host. */
#ifndef MPIRR_CLI_NODE_GATHER_H
#define MPIRR_CLI_NODE_GATHER_H

#include "manifest.h"

/* mpirr gather FOLDER on this host: for each node placement naming this host and FOLDER, writes
 * node-K.pack into OUT from the node's rank files in FOLDER, then removes the placement file,
 * then the files (so a gather killed at any step is finished by running it again). A node with a
 * refused file (another run id, a rank not of that node, not a regular file) is not packed and
 * stays pending. -1 when no node placement names this host and FOLDER (not a --pack recording
 * here), else the number of problems (each said in one line). */
int node_gather_here(const char *folder, const char *out, const mpirr_manifest *m);
/* After the run: every node placement left gathered, as said above (srun: the command was an
 * srun). Whatever is left, local_pending_report says. */
void node_gather_all(const char *out, const mpirr_manifest *m, int srun);
/* The ranks of the node placements left, with one line per node (unless quiet) naming its
 * ranks, host and folder and the command that gathers it. */
int node_pending_report(const char *out, const mpirr_manifest *m, int quiet);

#endif
