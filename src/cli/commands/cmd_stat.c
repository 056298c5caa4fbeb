/* cmd_stat.c: `mpirr stat [--json] [--analysis] DIR`: what a recording holds, per rank; with
 * --analysis also the race analysis of its event history. */
#include <stddef.h>

#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "stat_collect.h"
#include "stat_print.h"
#include "stat_races.h"

enum { OPT_JSON, OPT_ANALYSIS };

static const struct cli_opt stat_opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"analysis", 0, 0, OPT_ANALYSIS},
    {NULL, 0, 0, 0},
};

int cmd_stat(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "stat", argc, argv);
    int json = 0, operands = 0;
    const char *v, *dir = NULL;
    /* the directory may come before or after the options */
    for (int id; (id = opt_next_mixed(&s, stat_opts, &v)) != OPT_DONE;) {
        if (id == OPT_HELP)
            return help_for("stat");
        if (id == OPT_BAD)
            return CLI_EXIT_USAGE;
        if (id == OPT_OPERAND) {
            dir = v;
            operands++;
        } else if (id == OPT_ANALYSIS) {
            stat_want_analysis(1);
        } else {
            json = 1;
        }
    }
    if (operands != 1) {
        cli_error(!operands ? "stat needs a recording directory (mpirr stat [--json] [--analysis] DIR)"
                            : "stat takes one recording directory (mpirr stat [--json] [--analysis] DIR)");
        return CLI_EXIT_USAGE;
    }
    struct rec_stats st;
    int rc = stat_collect(dir, &st);
    if (rc == 0) {
        if (json)
            stat_print_json(&st);
        else
            stat_print_text(&st);
        /* The figures above cover what could be read; the damage was reported on stderr. */
        rc = st.damaged || st.ev.damaged || st.sync_total.damaged ? CLI_EXIT_FAIL : 0;
    }
    stat_free(&st);
    return rc;
}
