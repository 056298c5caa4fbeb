/* cmd_gather.c: `mpirr gather FOLDER -o OUT`: on the node that holds it, moves the rank files a
 * `mpirr record --local` run left in FOLDER (DIR/mpirr-<run id>) into the recording OUT, and
 * completes OUT's manifest once no rank's files are missing; for a --local --pack recording it
 * writes the node's pack instead (node_gather.h). docs/cli/gather.md. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "diag.h"
#include "local_gather.h"
#include "manifest.h"
#include "opts.h"
#include "recdir.h"
#include "recording.h"

enum { OPT_OUTPUT, OPT_LEAVE_MANIFEST };

static const struct cli_opt gather_opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"leave-manifest", 0, 0, OPT_LEAVE_MANIFEST},
    {NULL, 0, 0, 0},
};

int cmd_gather(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "gather", argc, argv);
    const char *v, *folder_arg = NULL, *out_arg = NULL;
    int operands = 0, leave_manifest = 0;
    for (int id; (id = opt_next_mixed(&s, gather_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_HELP: return help_for("gather");
        case OPT_BAD: return CLI_EXIT_USAGE;
        case OPT_OPERAND: folder_arg = v; operands++; break;
        case OPT_LEAVE_MANIFEST: leave_manifest = 1; break;
        default: out_arg = v; break;
        }
    }
    if (operands != 1 || !out_arg) {
        cli_error("gather takes one node-local folder (DIR/mpirr-<run id>) and -o RECORDING");
        return CLI_EXIT_USAGE;
    }
    char out[PATH_MAX], folder[PATH_MAX], err[1024];
    int rc = recdir_find(out_arg, out, sizeof out);
    if (rc) return rc;
    if (!realpath(folder_arg, folder)) {
        cli_error("gather: %s: no such folder on this node", folder_arg);
        return CLI_EXIT_USAGE;
    }
    mpirr_manifest m;
    if (mpirr_manifest_read(out, &m, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_EXIT_USAGE;
    }
    rc = local_gather_here(folder, out, &m) ? CLI_EXIT_FAIL : 0;
    /* the last node gathered completes the recording as record would have */
    int left = local_pending_report(out, &m, 1);
    if (!leave_manifest && (!left || left != m.local_pending)) {
        m.local_pending = left;
        if (!left) recording_fill_from_logs(out, &m);
        if (recording_manifest_write(out, &m)) rc = CLI_EXIT_FAIL;
    }
    mpirr_manifest_free(&m);
    return rc;
}
