/* gdb_attach.c: see gdb_attach.h. */
#include "gdb_attach.h"

#include "session.h"

int gdb_attach(struct replay_session *s, int rank, int argc, char **argv, FILE *out)
{
    (void)s; (void)rank; (void)argc; (void)argv;
    fprintf(out, "mpirr: gdb: not built yet\n");
    return -1;
}
