/* test_did_you_mean.c: the "did you mean" of mistyped command names (src/cli/common/
 * did_you_mean.h): typos (a letter dropped, added, changed, two swapped) find the name; words
 * far from every name, too short to tell, or too long find none. */
#include <string.h>

#include "check.h"
#include "did_you_mean.h"

int main(void)
{
    const char *const names[] = {"where", "gdb", "continue", "step", "stop", "undo", "quit",
                                 "help", "replay", "record", "run"};
    const size_t n = sizeof names / sizeof names[0];
    const char *r;
    CHECK((r = did_you_mean("wehre", names, n)) && strcmp(r, "where") == 0);   /* swap */
    CHECK((r = did_you_mean("contnue", names, n)) && strcmp(r, "continue") == 0); /* drop */
    CHECK((r = did_you_mean("replya", names, n)) && strcmp(r, "replay") == 0);
    CHECK((r = did_you_mean("recrd", names, n)) && strcmp(r, "record") == 0);
    CHECK((r = did_you_mean("quitt", names, n)) && strcmp(r, "quit") == 0);    /* add */
    CHECK((r = did_you_mean("stpe", names, n)) && strcmp(r, "step") == 0);
    CHECK((r = did_you_mean("undo", names, n)) && strcmp(r, "undo") == 0);     /* exact */
    CHECK(did_you_mean("xyzzy", names, n) == NULL);
    CHECK(did_you_mean("", names, n) == NULL);
    CHECK(did_you_mean("x", names, n) == NULL);  /* one letter: half of it is no typo */
    CHECK(did_you_mean("frobnicate", names, n) == NULL);
    char longword[200];
    memset(longword, 'a', sizeof longword - 1);
    longword[sizeof longword - 1] = 0;
    CHECK(did_you_mean(longword, names, n) == NULL);
    CHECK(did_you_mean("where", names, 0) == NULL);
    return CHECK_DONE();
}
