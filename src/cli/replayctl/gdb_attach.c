/* gdb_attach.c: see gdb_attach.h. (Being written.) */
#include "gdb_attach.h"

#include "session.h"

int gdb_attach(struct replay_session *s, int rank, const char *args_line, FILE *out)
{
    (void)s; (void)rank; (void)args_line;
    fprintf(out, "mpirr: gdb: not built yet\n");
    return -1;
}
