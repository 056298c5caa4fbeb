/* settings.h: the MPIRR_* environment variables (the table is settings.def): strict parsing,
 * the one-line complaint about a bad value, and reading a checked value. Shared by the runtime
 * (which checks its variables at MPI_Init) and the CLI (which checks its whole environment
 * before launching anything). */
#ifndef MPIRR_SETTINGS_H
#define MPIRR_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

enum mpirr_setting_kind {
    MPIRR_SETTING_INTEGER,
    MPIRR_SETTING_ENUM,
    MPIRR_SETTING_BOOL,
    MPIRR_SETTING_PATH,
    MPIRR_SETTING_HEX,
};

/* Who reads a variable (settings.def READERS). */
enum {
    MPIRR_SETTING_RUNTIME = 1, /* the ranks */
    MPIRR_SETTING_CLI = 2,     /* mpirr itself */
    MPIRR_SETTING_PASSED = 4,  /* mpirr hands it from its environment to the ranks */
};

typedef enum {
#define MPIRR_SETTING(id, ...) MPIRR_SET_##id,
#include "settings.def"
#undef MPIRR_SETTING
    MPIRR_SETTING_COUNT
} mpirr_setting_id;

typedef struct {
    const char *name; /* "MPIRR_NOISE_US" */
    enum mpirr_setting_kind kind;
    int64_t min, max;   /* INTEGER: the range; PATH: the length in bytes */
    const char *values; /* ENUM: the words, "|"-separated */
    const char *unit;   /* INTEGER: the unit, or NULL */
    const char *dflt;   /* what unset means, as a value; "" for nothing */
    unsigned readers;   /* MPIRR_SETTING_RUNTIME | ... */
    const char *meaning;
} mpirr_setting;

extern const mpirr_setting mpirr_settings[MPIRR_SETTING_COUNT];

/* The row named name (the whole variable name), or NULL. */
const mpirr_setting *mpirr_setting_find(const char *name);

/* Parses text strictly: INTEGER the whole string a decimal number within the range (a leading
 * '-' only), ENUM one of the words (*value: its index), BOOL "0" or "1", PATH a length within
 * the range (*value: the length), HEX as many hexadecimal digits as the range allows (*value:
 * the count). 0, or -1 if text is not acceptable. */
int mpirr_setting_parse(const mpirr_setting *s, const char *text, int64_t *value);

/* What the setting accepts: "an integer from 0 to 1000000 (microseconds)", "one of sources,
 * races, all", "0 or 1", "a path of 1 to 4095 bytes". */
void mpirr_setting_expected(const mpirr_setting *s, char *buf, size_t n);

/* The one line about a bad value, without the "mpirr: " of whoever prints it:
 * "MPIRR_NOISE_US=abc: expected an integer from 0 to 1000000 (microseconds)". The value is
 * shortened and its control characters replaced, so that the line stays one line. */
void mpirr_setting_complaint(const mpirr_setting *s, const char *text, char *buf, size_t n);

/* Checks every variable set in the environment that one of readers reads: 0, or -1 with the
 * complaint about the first bad one in err. */
int mpirr_settings_check_env(unsigned readers, char *err, size_t n);

/* A setting as the environment gives it, for code that runs after the check: the value if the
 * variable is set and acceptable, else the default (INTEGER, BOOL; ENUM: the word's index, -1
 * if there is no default). */
int64_t mpirr_setting_value(mpirr_setting_id id);
/* The same as text (ENUM: the word; PATH: the path): the variable if set and acceptable, else
 * the default, NULL if there is none. */
const char *mpirr_setting_text(mpirr_setting_id id);

#endif
