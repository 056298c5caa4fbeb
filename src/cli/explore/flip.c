/* flip.c: `mpirr replay DIR --flip R:E=SRC -o NEWDIR`: replays a recording up to a racing
 * receive, makes it take another message the race analysis proved could have arrived there,
 * and records the rest of the run freely into NEWDIR. */
#include "flip.h"
