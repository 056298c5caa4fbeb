/* env_settings.h: the runtime's MPIRR_* settings (src/format/settings.def): read when the
 * library is loaded, checked once MPI is up. */
#ifndef MPIRR_ENV_SETTINGS_H
#define MPIRR_ENV_SETTINGS_H

/* At MPI_Init, after the real one and before anything is opened: a bad value of any variable
 * the runtime reads ends the job with one line (mpirr_fatal). */
void mpirr_settings_verify(void);

#endif
