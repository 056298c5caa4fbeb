/* modes.h: the recording modes (what `mpirr record --mode` records). Only "sources" exists;
 * a later mode is one more row in the table in modes.c. */
#ifndef MPIRR_CLI_MODES_H
#define MPIRR_CLI_MODES_H

struct rec_mode {
    const char *name; /* as given to --mode and stored in the manifest */
};

/* The default mode (the first row). */
const struct rec_mode *rec_mode_default(void);
/* NULL for a name that is not a mode. */
const struct rec_mode *rec_mode_find(const char *name);
/* "sources, ...": for the error message listing the valid modes. */
const char *rec_mode_valid_names(void);

#endif
