/* local_gather.h: the CLI's side of `mpirr record --local` (local_files.h): the recording's
 * folder of placement files, which ranks' files are still on their nodes, and fetching them
 * from there (`mpirr gather` on that node: in-process on this host, else over srun or ssh).
 * With --local --pack, the node placement files and node packs: node_gather.h. */
#ifndef MPIRR_CLI_LOCAL_GATHER_H
#define MPIRR_CLI_LOCAL_GATHER_H

#include "manifest.h"

/* Before a run: makes OUT/local, emptied of an earlier recording's placement files. 0, or an
 * exit status after a message. */
int local_prepare(const char *out);
/* mpirr gather: with a node placement of this host naming folder (--local --pack), writes the
 * node's pack (node_gather_here); else moves this host's rank files of OUT's recording (m) from folder into OUT,
 * refusing (one line each) files of another run id, names that are not rank files and anything
 * but regular files; removes the placement files of the ranks it finished. The number of
 * problems reported. */
int local_gather_here(const char *folder, const char *out, const mpirr_manifest *m);
/* After the run: gathers every rank still placed on a node (this host in-process; another over
 * `srun --overlap` when srun is set and in a Slurm allocation, else or then over ssh), and says,
 * one line per host and folder, how to gather what is left. The number of ranks left. */
int local_gather_all(const char *out, const mpirr_manifest *m, int srun);
/* The ranks whose files are still on their nodes (placed per rank or per node), with one line
 * per host and folder saying
 * how to gather them (quiet: no lines). Removes an empty OUT/local. */
int local_pending_report(const char *out, const mpirr_manifest *m, int quiet);

/* For node_gather.c: mpirr's own path (for the command run on another node); the folder of
 * placement files; "RSH HOST MPIRR
 * gather FOLDER -o OUT" as a user would type it (RSH: MPIRR_RSH as set, else ssh); the check
 * that rank's log in folder carries m's run id (0, or -1 after one line); running "mpirr gather
 * FOLDER -o OUT" on host over the remote shell (whether it worked, the placements tell). */
const char *local_self_exe(void);
/* Calls each with the name and path of every entry of OUT/local until one returns non-zero:
 * that, or 0 (also when OUT/local is gone), or -1 if it cannot be listed. */
int local_placements_each(const char *out, int (*each)(const char *name, const char *file,
                                                      void *ctx), void *ctx);
void local_gather_command(char *buf, size_t n, const char *host, const char *folder,
                          const char *out);
int local_check_run_id(const char *folder, int rank, const mpirr_manifest *m);
void local_gather_ssh(const char *host, const char *folder, const char *out);

#endif
