/* check.h: the unit tests' assertion macro: prints file:line and the failed condition. */
#ifndef MPIRR_TEST_CHECK_H
#define MPIRR_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
            check_failures++;                                                                  \
        }                                                                                      \
    } while (0)

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d checks failed\n", check_failures), 1) : 0)

#endif
