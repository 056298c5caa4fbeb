/* opts.h: the option scanner every command uses. Each command describes its options in a
 * table; the scanner accepts "--name value", "--name=value", "-x value", "-xvalue", stops at
 * "--" or at the first word that is not an option (the rest belongs to the command's operands
 * or to the program being launched), and always understands -h/--help. */
#ifndef MPIRR_CLI_OPTS_H
#define MPIRR_CLI_OPTS_H

#include <stdint.h>

struct cli_opt {
    const char *name; /* long name without "--"; NULL ends a table */
    char short_name;  /* 'o' for -o, or 0 */
    int has_value;
    int id;           /* what opt_next returns for it; >= 0 */
};

enum {
    OPT_DONE = -1, /* no more options: s->i is the first operand (or argc) */
    OPT_BAD = -2,  /* usage error, already reported */
    OPT_HELP = -3, /* -h or --help */
    OPT_OPERAND = -4, /* opt_next_mixed: a word that is not an option */
};

struct opt_scan {
    const char *cmd; /* command name for messages */
    int argc;
    char **argv;     /* the words after the command name */
    int i;           /* next word to look at */
    int dashdash;    /* the options ended with an explicit "--" */
};

/* -h or --help. */
int opt_is_help(const char *word);

void opt_init(struct opt_scan *s, const char *cmd, int argc, char **argv);
/* Next option's id (its value in *value, or NULL), or one of OPT_DONE, OPT_BAD, OPT_HELP. */
int opt_next(struct opt_scan *s, const struct cli_opt *table, const char **value);

/* Like opt_next for commands whose options may also follow their operands (mpirr stat DIR
 * --json): an operand comes back as OPT_OPERAND with the word in *value; after "--" every
 * word is an operand. OPT_DONE once the words run out. */
int opt_next_mixed(struct opt_scan *s, const struct cli_opt *table, const char **value);

/* For commands without options: the scan up to the first operand. OPT_DONE, OPT_HELP, or
 * OPT_BAD (reported). */
int opt_scan_none(struct opt_scan *s);

/* The command to launch: every word after the options. 0 and the words in *argc, *argv; or
 * OPT_BAD after "<cmd> needs a command to run" when there are none. */
int opt_command_words(struct opt_scan *s, int *argc, char ***argv);

/* A point of a run as the commands write it, RANK:EVENT (3:1207): a rank from 0 to 2^30 and
 * an unsigned event number (0 too: the caller says what it accepts), both plain digits that
 * fit (number_parse.h). 0, or -1 if word is not of that form. */
int opt_rank_event(const char *word, int *rank, uint64_t *event);

/* text as a whole number in [min, max] (number_parse.h): 0, or -1 after one line
 * "WHAT TEXT: expected an integer from MIN to MAX" (WHAT: "events: --rank"). */
int opt_number(const char *what, const char *text, int64_t min, int64_t max, int64_t *value);

/* "an integer from MIN to MAX" ("from MIN up" when max is INT64_MAX), for messages that
 * go elsewhere than stderr. Static storage: use it before the next call. */
const char *opt_number_expected(int64_t min, int64_t max);

#endif
