/* otf2.c: the OTF2 archive writer of mpirr export (the OTF2 library, when built in). */
#include "diag.h"
#include "export.h"

int export_otf2(struct analysis *a, const char *out)
{
    (void)a;
    cli_error("export: the otf2 format is not built yet (%s)", out);
    return CLI_EXIT_USAGE;
}
