/* test_settings.c: the MPIRR_* settings parser (src/format/settings.def): every kind at its
 * boundaries, garbage, overflow, the one-line complaint, reading from the environment; and
 * that docs/runtime.md's Environment table is the one the table renders.
 *   test_settings              the parser's tests (unit.test_settings)
 *   test_settings DOCS         and DOCS (docs/runtime.md) against the table (docs.environment)
 *   test_settings --markdown   print the rows docs/runtime.md must hold */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "settings.h"

static const mpirr_setting *row(mpirr_setting_id id) { return &mpirr_settings[id]; }

static int parses(mpirr_setting_id id, const char *text, int64_t want)
{
    int64_t v = -12345;
    return mpirr_setting_parse(row(id), text, &v) == 0 && v == want;
}

static int refused(mpirr_setting_id id, const char *text)
{
    int64_t v = -12345;
    return mpirr_setting_parse(row(id), text, &v) == -1 && v == -12345;
}

/* Integers at and beyond their ranges' ends, and the values found to hang or abort a job. */
static const struct {
    mpirr_setting_id id;
    const char *text;
    int ok;
    int64_t want;
} integer_cases[] = {
    {MPIRR_SET_NOISE_US, "0", 1, 0},
    {MPIRR_SET_NOISE_US, "1000000", 1, 1000000},
    {MPIRR_SET_NOISE_US, "007", 1, 7},
    {MPIRR_SET_NOISE_US, "1000001", 0, 0},
    {MPIRR_SET_NOISE_US, "99999999999", 0, 0},
    {MPIRR_SET_RACE_PENDING, "1", 1, 1},
    {MPIRR_SET_RACE_PENDING, "16777216", 1, 16777216},
    {MPIRR_SET_RACE_PENDING, "0", 0, 0},
    {MPIRR_SET_RACE_PENDING, "-0", 0, 0},
    {MPIRR_SET_RACE_PENDING, "-1", 0, 0},
    {MPIRR_SET_RACE_PENDING, "16777217", 0, 0},
    {MPIRR_SET_RACE_PENDING, "4294967295", 0, 0},
    {MPIRR_SET_RACE_PENDING, "4294967296", 0, 0},           /* 1 once cut to 32 bits */
    {MPIRR_SET_RACE_PENDING, "18446744073709551617", 0, 0}, /* 1 modulo 2^64 */
    {MPIRR_SET_RACE_PENDING, "99999999999999999999999999999999", 0, 0},
    {MPIRR_SET_EVENTS_STAGE_KB, "4", 1, 4},
    {MPIRR_SET_EVENTS_STAGE_KB, "16384", 1, 16384},
    {MPIRR_SET_EVENTS_STAGE_KB, "3", 0, 0},
    {MPIRR_SET_EVENTS_STAGE_KB, "-1", 0, 0},
    {MPIRR_SET_EVENTS_STAGE_KB, "16385", 0, 0},
};

static void test_integer(void)
{
    for (size_t i = 0; i < sizeof integer_cases / sizeof *integer_cases; i++) {
        const char *text = integer_cases[i].text;
        mpirr_setting_id id = integer_cases[i].id;
        if (integer_cases[i].ok ? !parses(id, text, integer_cases[i].want) : !refused(id, text)) {
            fprintf(stderr, "%s=%s: %s\n", mpirr_settings[id].name, text,
                    integer_cases[i].ok ? "not read right" : "not refused");
            check_failures++;
        }
    }
    const char *garbage[] = {"", "abc", " 5", "5 ", "+5", "0x10", "1e3", "5abc", "5.0", "-",
                             "--5", "5-", "\t5", "5\n", "٥"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++)
        CHECK(refused(MPIRR_SET_NOISE_US, garbage[i]));
    /* a negative range (none in the table yet): the sign is read, the bounds hold */
    mpirr_setting signed_row = {"MPIRR_T", MPIRR_SETTING_INTEGER, -5, 5, NULL, NULL, "0", 0, ""};
    int64_t v = 0;
    CHECK(mpirr_setting_parse(&signed_row, "-5", &v) == 0 && v == -5);
    CHECK(mpirr_setting_parse(&signed_row, "-6", &v) == -1);
    CHECK(mpirr_setting_parse(&signed_row, "-9223372036854775808", &v) == -1);
    mpirr_setting wide = {"MPIRR_T", MPIRR_SETTING_INTEGER, INT64_MIN, INT64_MAX, NULL, NULL, "0",
                          0, ""};
    CHECK(mpirr_setting_parse(&wide, "9223372036854775807", &v) == 0 && v == INT64_MAX);
    CHECK(mpirr_setting_parse(&wide, "-9223372036854775808", &v) == 0 && v == INT64_MIN);
    CHECK(mpirr_setting_parse(&wide, "9223372036854775808", &v) == -1);
    CHECK(mpirr_setting_parse(&wide, "-9223372036854775809", &v) == -1);
}

static void test_enum_bool_path(void)
{
    CHECK(parses(MPIRR_SET_RECORD_MODE, "sources", 0));
    CHECK(parses(MPIRR_SET_RECORD_MODE, "races", 1));
    CHECK(parses(MPIRR_SET_RECORD_MODE, "all", 2));
    const char *bad_words[] = {"", "bogus", "Races", "race", "races ", "racesx", "sources|races",
                               "|", "al"};
    for (size_t i = 0; i < sizeof bad_words / sizeof *bad_words; i++)
        CHECK(refused(MPIRR_SET_RECORD_MODE, bad_words[i]));
    CHECK(parses(MPIRR_SET_WTIME, "0", 0));
    CHECK(parses(MPIRR_SET_WTIME, "1", 1));
    const char *bad_bools[] = {"", "2", "-1", "true", "yes", "01x", " 1"};
    for (size_t i = 0; i < sizeof bad_bools / sizeof *bad_bools; i++)
        CHECK(refused(MPIRR_SET_WTIME, bad_bools[i]));
    char path[4097];
    memset(path, 'p', sizeof path - 1);
    path[4095] = 0;
    CHECK(parses(MPIRR_SET_DIR, path, 4095));
    path[4095] = 'p', path[4096] = 0;
    CHECK(refused(MPIRR_SET_DIR, path));
    CHECK(refused(MPIRR_SET_DIR, ""));
    CHECK(parses(MPIRR_SET_DIR, "/tmp/r", 6));
    /* a run id: exactly 32 hexadecimal digits, either case */
    CHECK(parses(MPIRR_SET_RUN_ID, "81c0ff00112233445566778899AABBCC", 32));
    const char *bad_ids[] = {"", "81c0", "81c0ff00112233445566778899aabbcc0",
                             "81c0ff00112233445566778899aabbcg", " 81c0ff00112233445566778899aabbc",
                             "0x81c0ff00112233445566778899aabb"};
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++)
        CHECK(refused(MPIRR_SET_RUN_ID, bad_ids[i]));
}

static void test_complaints(void)
{
    char line[512];
    mpirr_setting_complaint(row(MPIRR_SET_NOISE_US), "abc", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_NOISE_US=abc: expected an integer from 0 to 1000000 (microseconds)"));
    mpirr_setting_complaint(row(MPIRR_SET_RECORD_MODE), "bogus", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_RECORD_MODE=bogus: expected one of sources, races, all"));
    mpirr_setting_complaint(row(MPIRR_SET_EVENTS), "yes", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_EVENTS=yes: expected 0 or 1"));
    mpirr_setting_complaint(row(MPIRR_SET_EVENTS_LEVEL), "99", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_EVENTS_LEVEL=99: expected an integer from 1 to 19"));
    mpirr_setting_complaint(row(MPIRR_SET_DIR), "", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_DIR=: expected a path of 1 to 4095 bytes"));
    mpirr_setting_complaint(row(MPIRR_SET_RUN_ID), "81c0", line, sizeof line);
    CHECK(!strcmp(line, "MPIRR_RUN_ID=81c0: expected 32 hexadecimal digits"));
    /* one line whatever the value: control characters replaced, a long value shortened */
    mpirr_setting_complaint(row(MPIRR_SET_NOISE_US), "1\n2\r3", line, sizeof line);
    CHECK(!strncmp(line, "MPIRR_NOISE_US=1?2?3: ", 22));
    char longer[300];
    memset(longer, '9', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    mpirr_setting_complaint(row(MPIRR_SET_NOISE_US), longer, line, sizeof line);
    CHECK(strlen(line) < 160 && strstr(line, "9...: expected an integer"));
    /* a buffer too small truncates, never overruns */
    char tiny[8];
    mpirr_setting_complaint(row(MPIRR_SET_RECORD_MODE), "bogus", tiny, sizeof tiny);
    CHECK(!strcmp(tiny, "MPIRR_R"));
}

static void test_table(void)
{
    for (int i = 0; i < MPIRR_SETTING_COUNT; i++) {
        const mpirr_setting *s = row((mpirr_setting_id)i);
        int64_t v;
        CHECK(!strncmp(s->name, "MPIRR_", 6));
        CHECK(mpirr_setting_find(s->name) == s);
        CHECK(s->min <= s->max);
        CHECK(!*s->dflt || mpirr_setting_parse(s, s->dflt, &v) == 0); /* defaults are valid */
        CHECK(s->readers != 0 && s->meaning[0] && !strchr(s->meaning, '\n'));
        CHECK(s->kind != MPIRR_SETTING_ENUM || (s->values && s->values[0]));
        CHECK(!(s->readers & MPIRR_SETTING_PASSED) || (s->readers & MPIRR_SETTING_RUNTIME));
    }
    CHECK(mpirr_setting_find("MPIRR_NOISE") == NULL);
    CHECK(mpirr_setting_find("MPIRR_NOISE_USX") == NULL);
}

static void test_environment(void)
{
    char err[512] = "";
    unsetenv("MPIRR_RACE_PENDING");
    CHECK(mpirr_setting_value(MPIRR_SET_RACE_PENDING) == 65536);
    setenv("MPIRR_RACE_PENDING", "2", 1);
    CHECK(mpirr_setting_value(MPIRR_SET_RACE_PENDING) == 2);
    CHECK(mpirr_settings_check_env(MPIRR_SETTING_RUNTIME, err, sizeof err) == 0);
    setenv("MPIRR_RACE_PENDING", "4294967295", 1);
    CHECK(mpirr_setting_value(MPIRR_SET_RACE_PENDING) == 65536); /* bad reads as the default */
    CHECK(mpirr_settings_check_env(MPIRR_SETTING_RUNTIME, err, sizeof err) == -1);
    CHECK(!strcmp(err, "MPIRR_RACE_PENDING=4294967295: expected an integer from 1 to 16777216 "
                       "(receives)"));
    unsetenv("MPIRR_RACE_PENDING");
    /* a variable only the CLI reads is not the runtime's to refuse */
    setenv("MPIRR_RUNTIME_DIR", "", 1);
    CHECK(mpirr_settings_check_env(MPIRR_SETTING_RUNTIME, err, sizeof err) == 0);
    CHECK(mpirr_settings_check_env(MPIRR_SETTING_CLI, err, sizeof err) == -1);
    unsetenv("MPIRR_RUNTIME_DIR");
    unsetenv("MPIRR_RECORD_MODE");
    CHECK(!strcmp(mpirr_setting_text(MPIRR_SET_RECORD_MODE), "sources"));
    CHECK(mpirr_setting_value(MPIRR_SET_RECORD_MODE) == 0);
    setenv("MPIRR_RECORD_MODE", "all", 1);
    CHECK(!strcmp(mpirr_setting_text(MPIRR_SET_RECORD_MODE), "all"));
    CHECK(mpirr_setting_value(MPIRR_SET_RECORD_MODE) == 2);
    unsetenv("MPIRR_RECORD_MODE");
    unsetenv("MPIRR_MODE");
    CHECK(mpirr_setting_text(MPIRR_SET_MODE) == NULL); /* no default: inert */
    CHECK(mpirr_setting_value(MPIRR_SET_MODE) == -1);
    setenv("MPIRR_MODE", "recrod", 1);
    CHECK(mpirr_setting_text(MPIRR_SET_MODE) == NULL);
    unsetenv("MPIRR_MODE");
}

/* docs/runtime.md, "## Environment": one row per setting, in the table's order. */
static void render_row(const mpirr_setting *s, char *buf, size_t n)
{
    char expected[256];
    mpirr_setting_expected(s, expected, sizeof expected);
    const char *who = (s->readers & MPIRR_SETTING_PASSED) ? "ranks (passed on by mpirr)"
                      : (s->readers & MPIRR_SETTING_RUNTIME) ? "ranks"
                                                             : "mpirr";
    char dflt[64] = "none";
    if (*s->dflt) snprintf(dflt, sizeof dflt, "`%s`", s->dflt);
    snprintf(buf, n, "| `%s` | %s | %s | %s | %s |", s->name, expected, dflt, who, s->meaning);
}

static void check_docs(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[2048], want[2048];
    int in = 0, i = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "## ", 3)) in = !strcmp(line, "## Environment");
        if (!in || strncmp(line, "| `MPIRR_", 9)) continue;
        if (i >= MPIRR_SETTING_COUNT) {
            fprintf(stderr, "%s: a row the table lacks: %s\n", path, line);
            check_failures++;
            continue;
        }
        render_row(row((mpirr_setting_id)i++), want, sizeof want);
        if (strcmp(line, want)) {
            fprintf(stderr, "%s: Environment row\n  is:   %s\n  want: %s\n(test_settings "
                            "--markdown prints the rows)\n", path, line, want);
            check_failures++;
        }
    }
    fclose(f);
    if (i < MPIRR_SETTING_COUNT) {
        fprintf(stderr, "%s: the Environment table lacks %s and the rows after it\n", path,
                row((mpirr_setting_id)i)->name);
        check_failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--markdown")) {
        char line[2048];
        for (int i = 0; i < MPIRR_SETTING_COUNT; i++) {
            render_row(row((mpirr_setting_id)i), line, sizeof line);
            puts(line);
        }
        return 0;
    }
    test_integer();
    test_enum_bool_path();
    test_complaints();
    test_table();
    test_environment();
    if (argc > 1) check_docs(argv[1]);
    return CHECK_DONE();
}
