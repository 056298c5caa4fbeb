/* opts.c: table-driven option scanning shared by all commands (see opts.h). Hand-written
 * rather than getopt_long because getopt permutes arguments, and everything after the first
 * operand must reach the launched program untouched. */
#include "opts.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "number_parse.h"

int opt_is_help(const char *word)
{
    return strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0;
}

void opt_init(struct opt_scan *s, const char *cmd, int argc, char **argv)
{
    s->cmd = cmd;
    s->argc = argc;
    s->argv = argv;
    s->i = 0;
    s->dashdash = 0;
}

/* The option of the table named by word ("--name", "--name=v", "-x", "-xv"); *inline_value is
 * set when the value is part of the word. */
static const struct cli_opt *lookup(const struct cli_opt *table, const char *word,
                                    const char **inline_value)
{
    *inline_value = NULL;
    if (word[1] == '-') {
        const char *name = word + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (const struct cli_opt *o = table; o->name; o++)
            if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
                *inline_value = eq ? eq + 1 : NULL;
                return o;
            }
        return NULL;
    }
    for (const struct cli_opt *o = table; o->name; o++)
        if (o->short_name && o->short_name == word[1]) {
            *inline_value = word[2] ? word + 2 : NULL;
            if (*inline_value && !o->has_value)
                return NULL; /* "-fx": mpirr has no bundled short flags */
            return o;
        }
    return NULL;
}

/* Whether word is an option of mpirun or mpiexec that says how to start the ranks: given to
 * mpirr (`mpirr record -np 4 ./app`), it means the launcher is missing from the command. */
static int is_launcher_option(const char *word)
{
    static const char *const launcher_opts[] = {
        "-np", "--np", "-n", "-N", "-c", "-ppn", "-H", "-host", "--host", "-hosts",
        "-hostfile", "--hostfile", "-machinefile", "-f", "--oversubscribe", "--map-by",
        "--bind-to", "-genv", "-x",
    };
    for (size_t i = 0; i < sizeof launcher_opts / sizeof launcher_opts[0]; i++)
        if (strcmp(word, launcher_opts[i]) == 0)
            return 1;
    return 0;
}

int opt_next(struct opt_scan *s, const struct cli_opt *table, const char **value)
{
    *value = NULL;
    if (s->i >= s->argc)
        return OPT_DONE;
    const char *word = s->argv[s->i];
    if (strcmp(word, "--") == 0) {
        s->i++;
        s->dashdash = 1;
        return OPT_DONE;
    }
    if (word[0] != '-' || word[1] == '\0')
        return OPT_DONE;
    s->i++;
    if (opt_is_help(word))
        return OPT_HELP;

    const char *inline_value;
    const struct cli_opt *o = lookup(table, word, &inline_value);
    if (!o) {
        if (is_launcher_option(word))
            cli_error("%s: unknown option '%s': a launcher's option? The launcher is part of the "
                      "command: mpirr %s [options]%s -- mpirun -np N ./app", s->cmd, word, s->cmd,
                      strcmp(s->cmd, "replay") == 0 ? " DIR" : "");
        else
            cli_error("%s: unknown option '%s' (try 'mpirr help %s')", s->cmd, word, s->cmd);
        return OPT_BAD;
    }
    if (!o->has_value) {
        if (inline_value) {
            cli_error("%s: option --%s takes no value", s->cmd, o->name);
            return OPT_BAD;
        }
        return o->id;
    }
    if (inline_value) {
        *value = inline_value;
        return o->id;
    }
    if (s->i >= s->argc) {
        cli_error("%s: option %s needs a value", s->cmd, word);
        return OPT_BAD;
    }
    *value = s->argv[s->i++];
    return o->id;
}

int opt_scan_none(struct opt_scan *s)
{
    static const struct cli_opt none[] = {{NULL, 0, 0, 0}};
    const char *v;
    return opt_next(s, none, &v);
}

int opt_command_words(struct opt_scan *s, int *argc, char ***argv)
{
    *argc = s->argc - s->i;
    *argv = s->argv + s->i;
    if (*argc > 0)
        return 0;
    cli_error("%s needs a command to run (mpirr %s [options] -- COMMAND...)", s->cmd, s->cmd);
    return OPT_BAD;
}

int opt_next_mixed(struct opt_scan *s, const struct cli_opt *table, const char **value)
{
    int id = s->dashdash ? OPT_DONE : opt_next(s, table, value);
    if (id != OPT_DONE || s->i >= s->argc)
        return id;
    *value = s->argv[s->i++];
    return OPT_OPERAND;
}

int opt_rank_event(const char *word, int *rank, uint64_t *event)
{
    uint64_t r, ev;
    const char *colon = mpirr_parse_leading(word, 1 << 30, &r);
    if (!colon || *colon != ':' || mpirr_parse_uint(colon + 1, UINT64_MAX, &ev))
        return -1;
    *rank = (int)r;
    *event = ev;
    return 0;
}

int opt_number(const char *what, const char *text, int64_t min, int64_t max, int64_t *value)
{
    if (!mpirr_parse_int(text, min, max, value)) return 0;
    cli_error("%s %s: expected %s", what, text, opt_number_expected(min, max));
    return -1;
}

const char *opt_number_expected(int64_t min, int64_t max)
{
    static char text[96];
    if (max == INT64_MAX)
        snprintf(text, sizeof text, "an integer from %" PRId64 " up", min);
    else
        snprintf(text, sizeof text, "an integer from %" PRId64 " to %" PRId64, min, max);
    return text;
}
