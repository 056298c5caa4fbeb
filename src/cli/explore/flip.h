/* flip.h: forcing one racing receive to another message (mpirr replay --flip). */
#ifndef MPIRR_CLI_FLIP_H
#define MPIRR_CLI_FLIP_H

#endif
