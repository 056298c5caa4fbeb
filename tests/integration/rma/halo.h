/* halo.h: what the two halo exchanges (fence_halo.c, pscw_halo.c) share: a rank's strip of
 * CELLS cells between a ghost cell on each side (u[0], u[CELLS + 1]), smoothed in
 * place from the ghosts its neighbours put there, for STEPS steps. */
#ifndef HALO_H
#define HALO_H

#define CELLS 8
#define STEPS 10

static void halo_smooth(long *u)
{
    long next[CELLS + 1];
    for (int i = 1; i <= CELLS; i++) next[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
    for (int i = 1; i <= CELLS; i++) u[i] = next[i];
}

#endif
