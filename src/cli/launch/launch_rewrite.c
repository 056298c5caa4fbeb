/* launch_rewrite.c: inserting -x / -genv variables into a launcher command line. */
#include "launch_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How one variable is spelled on a launcher's command line. */
static int words_per_var(enum mpi_impl launcher)
{
    switch (launcher) {
    case IMPL_OPENMPI: return 2; /* -x NAME=VALUE */
    case IMPL_MPICH: return 3;   /* -genv NAME VALUE */
    default: return 0;
    }
}

static char *join_assignment(const struct env_var *v)
{
    size_t n = strlen(v->name) + 1 + strlen(v->value) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s=%s", v->name, v->value);
    return s;
}

/* Writes the words for v at out (words_per_var(launcher) of them). */
static void spell_var(char **out, enum mpi_impl launcher, const struct env_var *v)
{
    if (launcher == IMPL_OPENMPI) {
        out[0] = strdup("-x");
        out[1] = join_assignment(v);
    } else {
        out[0] = strdup("-genv");
        out[1] = strdup(v->name);
        out[2] = strdup(v->value);
    }
}

void launch_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}

char **launch_rewrite(int argc, char *const *argv, enum mpi_impl launcher,
                      const struct env_var *vars, int nvars)
{
    int per = argc > 0 ? words_per_var(launcher) : 0;
    int total = argc + per * nvars;
    /* calloc: a failed strdup leaves NULL, which the final check finds, and frees stop at. */
    char **out = calloc((size_t)total + 1, sizeof *out);
    if (!out)
        return NULL;
    int k = 0;
    if (argc > 0)
        out[k++] = strdup(argv[0]);
    for (int i = 0; per && i < nvars; i++, k += per)
        spell_var(out + k, launcher, &vars[i]);
    for (int i = 1; i < argc; i++)
        out[k++] = strdup(argv[i]);
    for (int i = 0; i < total; i++)
        if (!out[i]) {
            for (int j = 0; j < total; j++)
                free(out[j]);
            free(out);
            return NULL;
        }
    return out;
}
