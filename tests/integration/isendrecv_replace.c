/* isendrecv_replace.c: isendrecv_race.c with MPI_Isendrecv_replace. */
#define REPLACE 1
#include "isendrecv_race.c"
