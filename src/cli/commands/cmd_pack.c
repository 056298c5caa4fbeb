/* cmd_pack.c: `mpirr pack DIR`: a finished recording's rank files, a few per rank, put into one
 * pack per node (pack_recording.h), so that the recording's file count grows with its nodes.
 * docs/cli/pack.md. */
#include <stddef.h>

#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "pack_recording.h"

int cmd_pack(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "pack", argc, argv);
    static const struct cli_opt pack_opts[] = {{NULL, 0, 0, 0}};
    const char *v, *dir = NULL;
    int operands = 0;
    for (int id; (id = opt_next_mixed(&s, pack_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_HELP: return help_for("pack");
        case OPT_BAD: return CLI_EXIT_USAGE;
        default: dir = v; operands++; break;
        }
    }
    if (operands != 1) {
        cli_error("pack takes one recording directory");
        return CLI_EXIT_USAGE;
    }
    return pack_recording(dir, 0);
}
