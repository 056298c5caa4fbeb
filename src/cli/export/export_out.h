/* export_out.h: the output file of a single-file export format: opened for writing ("-" is
 * standard output), and closed with the exit status the rest of the export deserves. */
#ifndef MPIRR_CLI_EXPORT_OUT_H
#define MPIRR_CLI_EXPORT_OUT_H

#include <stdio.h>

/* NULL after one line saying OUT cannot be written. */
FILE *export_out_open(const char *out);
/* Flushes and closes f. rc: the export's status so far (0, or an exit status; negative means
 * out of memory, already reported). Returns 0, or the exit status (1 for an I/O failure,
 * reported in one line); a failed export's partial file is removed. */
int export_out_close(FILE *f, const char *out, int rc);

#endif
