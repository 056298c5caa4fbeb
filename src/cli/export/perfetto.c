/* perfetto.c: the Chrome/Perfetto Trace Event Format writer of mpirr export. */
#include "diag.h"
#include "export.h"

int export_perfetto(struct analysis *a, const char *out)
{
    (void)a;
    cli_error("export: the perfetto format is not built yet (%s)", out);
    return CLI_EXIT_USAGE;
}
