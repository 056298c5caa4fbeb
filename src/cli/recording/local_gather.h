/* local_gather.h: the CLI's side of `mpirr record --local` (local_files.h): the recording's
 * folder of placement files, which ranks' files are still on their nodes, and fetching them
 * from there (`mpirr gather` on that node: in-process on this host, else over srun or ssh). */
#ifndef MPIRR_CLI_LOCAL_GATHER_H
#define MPIRR_CLI_LOCAL_GATHER_H

#include "manifest.h"

/* Before a run: makes OUT/local, emptied of an earlier recording's placement files. 0, or an
 * exit status after a message. */
int local_prepare(const char *out);
/* mpirr gather: moves this host's rank files of OUT's recording (m) from folder into OUT,
 * refusing (one line each) files of another run id, names that are not rank files and anything
 * but regular files; removes the placement files of the ranks it finished. The number of
 * problems reported. */
int local_gather_here(const char *folder, const char *out, const mpirr_manifest *m);
/* After the run: gathers every rank still placed on a node (this host in-process; another over
 * `srun --overlap` when srun is set and in a Slurm allocation, else or then over ssh), and says,
 * one line per host and folder, how to gather what is left. The number of ranks left. */
int local_gather_all(const char *out, const mpirr_manifest *m, int srun);
/* The ranks whose files are still on their nodes, with one line per host and folder saying
 * how to gather them (quiet: no lines). Removes an empty OUT/local. */
int local_pending_report(const char *out, const mpirr_manifest *m, int quiet);

#endif
