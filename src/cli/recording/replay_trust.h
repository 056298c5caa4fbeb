/* replay_trust.h: whether `mpirr replay DIR` may run the command DIR's manifest names. A
 * recording is untrusted input (it may come from anyone, and its files are easy to edit), so
 * without an explicit `-- COMMAND` mpirr runs only what the recording can vouch for: an MPI
 * launcher from the user's PATH with harmless options (launch_allow.h), or no launcher, and
 * one program, the fingerprinted MPI executable. Each refusal is one line saying what was
 * found and how to replay anyway (give the command explicitly), exit status CLI_EXIT_USAGE. */
#ifndef MPIRR_CLI_REPLAY_TRUST_H
#define MPIRR_CLI_REPLAY_TRUST_H

#include "launch.h"
#include "recording.h"

/* Before the command is inspected (inspecting a launcher may run it with --version): there is
 * a command, and a launcher it starts with is the one the user's PATH finds. base is where
 * relative names resolve (the recorded directory). */
int replay_trust_launcher(const struct recording *r, const char *base);

/* After launch_inspect: the manifest has a fingerprint; every option before the program is
 * allowed (host files it names are within base, the recorded directory, or the recording:
 * launch_allow.h) and there is one program; the program is an ELF executable with that
 * fingerprint that links an MPI library itself (an interpreter's fingerprint says nothing of
 * its script). */
int replay_trust_program(const struct recording *r, const struct launch_info *li,
                         const char *base);

#endif
