/* settings.c: parsing and checking the MPIRR_* environment variables from the one table,
 * settings.def. Strict on purpose: a value the code would misread (strtoul takes "abc" for 0
 * and "-1" for 2^64-1) is refused with one line instead of becoming a hang or an abort later. */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number_parse.h"

/* the table's READERS words */
enum {
    RUNTIME = MPIRR_SETTING_RUNTIME,
    CLI = MPIRR_SETTING_CLI,
    PASSED = MPIRR_SETTING_PASSED,
};

const mpirr_setting mpirr_settings[MPIRR_SETTING_COUNT] = {
#define MPIRR_SETTING(id, kind, min, max, values, unit, dflt, readers, meaning)               \
    {"MPIRR_" #id, MPIRR_SETTING_##kind, min, max, values, unit, dflt, readers, meaning},
#include "settings.def"
#undef MPIRR_SETTING
};

const mpirr_setting *mpirr_setting_find(const char *name)
{
    for (int i = 0; i < MPIRR_SETTING_COUNT; i++)
        if (!strcmp(mpirr_settings[i].name, name)) return &mpirr_settings[i];
    return NULL;
}

/* Index of word (len bytes) among "a|b|c", or -1. */
static int word_index(const char *words, const char *word, size_t len)
{
    int i = 0;
    for (const char *w = words;; i++) {
        size_t wl = strcspn(w, "|");
        if (wl == len && !memcmp(w, word, len)) return i;
        if (!w[wl]) return -1;
        w += wl + 1;
    }
}

int mpirr_setting_parse(const mpirr_setting *s, const char *text, int64_t *value)
{
    switch (s->kind) {
    case MPIRR_SETTING_INTEGER: return mpirr_parse_int(text, s->min, s->max, value);
    case MPIRR_SETTING_BOOL: return mpirr_parse_int(text, 0, 1, value);
    case MPIRR_SETTING_ENUM: {
        int i = word_index(s->values, text, strlen(text));
        if (i < 0) return -1;
        *value = i;
        return 0;
    }
    case MPIRR_SETTING_PATH:
    case MPIRR_SETTING_HEX: {
        size_t len = strlen(text);
        if ((int64_t)len < s->min || (int64_t)len > s->max) return -1;
        if (s->kind == MPIRR_SETTING_HEX && strspn(text, "0123456789abcdefABCDEF") != len) return -1;
        *value = (int64_t)len;
        return 0;
    }
    }
    return -1;
}

void mpirr_setting_expected(const mpirr_setting *s, char *buf, size_t n)
{
    switch (s->kind) {
    case MPIRR_SETTING_INTEGER:
        snprintf(buf, n, "an integer from %lld to %lld%s%s%s", (long long)s->min,
                 (long long)s->max, s->unit ? " (" : "", s->unit ? s->unit : "",
                 s->unit ? ")" : "");
        return;
    case MPIRR_SETTING_BOOL: snprintf(buf, n, "0 or 1"); return;
    case MPIRR_SETTING_PATH:
        snprintf(buf, n, "a path of %lld to %lld bytes", (long long)s->min, (long long)s->max);
        return;
    case MPIRR_SETTING_HEX:
        if (s->min == s->max) snprintf(buf, n, "%lld hexadecimal digits", (long long)s->min);
        else snprintf(buf, n, "%lld to %lld hexadecimal digits", (long long)s->min, (long long)s->max);
        return;
    case MPIRR_SETTING_ENUM: {
        char list[256];
        size_t k = 0;
        for (const char *w = s->values; *w && k + 3 < sizeof list; w++) {
            if (*w == '|') list[k++] = ',', list[k++] = ' ';
            else list[k++] = *w;
        }
        list[k] = 0;
        snprintf(buf, n, "one of %s", list);
        return;
    }
    }
}

void mpirr_setting_complaint(const mpirr_setting *s, const char *text, char *buf, size_t n)
{
    enum { SHOWN = 64 };
    char shown[SHOWN + 4];
    size_t len = strlen(text), k = 0;
    for (; k < len && k < SHOWN; k++)
        shown[k] = (unsigned char)text[k] < ' ' || text[k] == 0x7f ? '?' : text[k];
    if (k < len) memcpy(shown + k, "...", 3), k += 3;
    shown[k] = 0;
    char expected[256];
    mpirr_setting_expected(s, expected, sizeof expected);
    snprintf(buf, n, "%s=%s: expected %s", s->name, shown, expected);
}

int mpirr_settings_check_env(unsigned readers, char *err, size_t n)
{
    int64_t v;
    for (int i = 0; i < MPIRR_SETTING_COUNT; i++) {
        const mpirr_setting *s = &mpirr_settings[i];
        const char *text = getenv(s->name);
        if (!(s->readers & readers) || !text || !mpirr_setting_parse(s, text, &v)) continue;
        mpirr_setting_complaint(s, text, err, n);
        return -1;
    }
    return 0;
}

int64_t mpirr_setting_value(mpirr_setting_id id)
{
    const mpirr_setting *s = &mpirr_settings[id];
    const char *text = getenv(s->name);
    int64_t v;
    if (text && !mpirr_setting_parse(s, text, &v)) return v;
    if (*s->dflt && !mpirr_setting_parse(s, s->dflt, &v)) return v;
    return s->kind == MPIRR_SETTING_ENUM ? -1 : 0;
}

const char *mpirr_setting_text(mpirr_setting_id id)
{
    const mpirr_setting *s = &mpirr_settings[id];
    const char *text = getenv(s->name);
    int64_t v;
    if (text && !mpirr_setting_parse(s, text, &v)) return text;
    return *s->dflt ? s->dflt : NULL;
}
