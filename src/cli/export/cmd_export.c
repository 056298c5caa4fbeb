/* cmd_export.c: `mpirr export DIR --format perfetto|otf2 -o OUT`: parses the command line,
 * opens the recording's analysis and hands it to the format's writer (export.h). */
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "export.h"
#include "opts.h"

enum { OPT_FORMAT, OPT_OUTPUT };

static const struct cli_opt export_opts[] = {
    {"format", 0, 1, OPT_FORMAT},
    {"output", 'o', 1, OPT_OUTPUT},
    {NULL, 0, 0, 0},
};

static const struct {
    const char *name;
    int (*write)(struct analysis *a, const char *out);
} formats[] = {
    {"perfetto", export_perfetto},
    {"otf2", export_otf2},
};

int cmd_export(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "export", argc, argv);
    const char *v, *dir = NULL, *format = NULL, *out = NULL;
    int operands = 0;
    for (int id; (id = opt_next_mixed(&s, export_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_HELP: return help_for("export");
        case OPT_BAD: return CLI_EXIT_USAGE;
        case OPT_OPERAND: dir = v; operands++; break;
        case OPT_FORMAT: format = v; break;
        default: out = v; break;
        }
    }
    if (operands != 1 || !format || !out) {
        cli_error("export takes one recording directory, --format perfetto|otf2 and -o OUT");
        return CLI_EXIT_USAGE;
    }
    for (unsigned i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(formats[i].name, format)) continue;
        struct analysis a;
        int rc = analysis_open(dir, &a, 1, 0);
        if (rc) return rc;
        rc = formats[i].write(&a, out);
        analysis_close(&a);
        return rc;
    }
    cli_error("export: unknown format '%s' (perfetto or otf2)", format);
    return CLI_EXIT_USAGE;
}
