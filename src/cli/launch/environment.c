/* environment.c: mpirr's own MPIRR_* environment, checked against the table of variables
 * before a launch, so that a bad value is one line and no job rather than a hang, an abort in
 * every rank or a silently ignored setting. */
#include "environment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

/* A known variable whose name starts with the unknown one's or the other way round
 * (MPIRR_NOISE, MPIRR_EVENTS_STAGE), or NULL. */
static const char *near_name(const char *name, size_t len)
{
    for (int i = 0; i < MPIRR_SETTING_COUNT; i++) {
        const char *known = mpirr_settings[i].name;
        size_t kl = strlen(known), shorter = kl < len ? kl : len;
        if (shorter > strlen("MPIRR_") && !strncmp(known, name, shorter)) return known;
    }
    return NULL;
}

static int check_one(const char *entry)
{
    const char *eq = strchr(entry, '=');
    if (!eq) return 0;
    char name[128];
    size_t len = (size_t)(eq - entry);
    snprintf(name, sizeof name, "%.*s", (int)len, entry);
    const mpirr_setting *s = mpirr_setting_find(name);
    if (!s) {
        const char *near = near_name(entry, len);
        cli_error("warning: %s is not a variable mpirr reads (ignored%s%s%s)", name,
                  near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
        return 0;
    }
    int64_t value;
    if (!mpirr_setting_parse(s, eq + 1, &value)) return 0;
    char line[512];
    mpirr_setting_complaint(s, eq + 1, line, sizeof line);
    cli_error("%s", line);
    return -1;
}

int environment_check(void)
{
    int bad = 0;
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, "MPIRR_", strlen("MPIRR_")) && check_one(*e)) bad = 1;
    return bad ? CLI_EXIT_USAGE : 0;
}

int environment_passed(struct env_var *vars, int cap)
{
    int n = 0;
    for (int i = 0; i < MPIRR_SETTING_COUNT && n < cap; i++) {
        const mpirr_setting *s = &mpirr_settings[i];
        const char *text = getenv(s->name);
        if ((s->readers & MPIRR_SETTING_PASSED) && text)
            vars[n++] = (struct env_var){s->name, text};
    }
    return n;
}

int environment_check_option(const char *cmd, const char *option, mpirr_setting_id id,
                             const char *value)
{
    int64_t parsed;
    if (!mpirr_setting_parse(&mpirr_settings[id], value, &parsed)) return 0;
    char expected[256];
    mpirr_setting_expected(&mpirr_settings[id], expected, sizeof expected);
    cli_error("%s: --%s %s: expected %s", cmd, option, value, expected);
    return -1;
}
