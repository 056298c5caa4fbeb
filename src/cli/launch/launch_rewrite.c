/* launch_rewrite.c: inserting -x / -genv / --export variables into a launcher command line. */
#include "launch_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many words the variables take on a launcher's command line. */
static int words_for_vars(enum launcher_kind launcher, int nvars)
{
    switch (launcher) {
    case LAUNCH_OPENMPI: return 2 * nvars;    /* -x NAME=VALUE */
    case LAUNCH_HYDRA: return 3 * nvars;      /* -genv NAME VALUE */
    case LAUNCH_SRUN: return nvars ? 1 : 0;   /* --export=ALL,NAME=VALUE,... */
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

static char *srun_export(const struct env_var *vars, int nvars)
{
    static const char head[] = "--export=ALL";
    size_t n = sizeof head;
    for (int i = 0; i < nvars; i++)
        n += 1 + strlen(vars[i].name) + 1 + strlen(vars[i].value);
    char *s = malloc(n);
    if (!s)
        return NULL;
    size_t len = (size_t)snprintf(s, n, "%s", head);
    for (int i = 0; i < nvars; i++)
        len += (size_t)snprintf(s + len, n - len, ",%s=%s", vars[i].name, vars[i].value);
    return s;
}

/* Writes the words for the variables at out (words_for_vars of them). */
static void spell_vars(char **out, enum launcher_kind launcher, const struct env_var *vars,
                       int nvars)
{
    if (launcher == LAUNCH_SRUN) {
        if (nvars)
            out[0] = srun_export(vars, nvars);
        return;
    }
    for (int i = 0; i < nvars; i++) {
        if (launcher == LAUNCH_OPENMPI) {
            *out++ = strdup("-x");
            *out++ = join_assignment(&vars[i]);
        } else {
            *out++ = strdup("-genv");
            *out++ = strdup(vars[i].name);
            *out++ = strdup(vars[i].value);
        }
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

char **launch_rewrite(int argc, char *const *argv, enum launcher_kind launcher, int app,
                      const struct env_var *vars, int nvars)
{
    int added = argc > 0 ? words_for_vars(launcher, nvars) : 0;
    int total = argc + added;
    /* srun's options are read in order, and the last --export counts: ours goes last. */
    int at = launcher == LAUNCH_SRUN && app >= 1 && app < argc ? app : 1;
    /* calloc: a failed strdup leaves NULL, which the final check finds, and frees stop at. */
    char **out = calloc((size_t)total + 1, sizeof *out);
    if (!out)
        return NULL;
    int k = 0;
    for (int i = 0; i < argc; i++) {
        if (i == at && added) {
            spell_vars(out + k, launcher, vars, nvars);
            k += added;
        }
        out[k++] = strdup(argv[i]);
    }
    if (argc == 1 && added) /* a bare launcher */
        spell_vars(out + k, launcher, vars, nvars);
    for (int i = 0; i < total; i++)
        if (!out[i]) {
            for (int j = 0; j < total; j++)
                free(out[j]);
            free(out);
            return NULL;
        }
    return out;
}

int launch_rewrite_uncarried(enum launcher_kind launcher, const struct env_var *vars, int nvars)
{
    for (int i = 0; launcher == LAUNCH_SRUN && i < nvars; i++)
        if (strchr(vars[i].value, ','))
            return i;
    return -1;
}
