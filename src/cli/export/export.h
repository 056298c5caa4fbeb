/* export.h: `mpirr export DIR --format FORMAT -o OUT`: a recording's event history written in a
 * format other tools read. One writer per format; cmd_export.c picks it. */
#ifndef MPIRR_CLI_EXPORT_H
#define MPIRR_CLI_EXPORT_H

#include "analysis_load.h"

/* Each writer gets the opened analysis (messages matched, happened-before computed) and the
 * output path as the user gave it. 0, or an exit status after a one-line message. */
int export_perfetto(struct analysis *a, const char *out);
int export_otf2(struct analysis *a, const char *out);

#endif
