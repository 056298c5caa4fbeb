/* check.h: the unit tests' assertion macro: prints file:line and the failed condition. */
#ifndef MPIRR_TEST_CHECK_H
#define MPIRR_TEST_CHECK_H

#include <stdint.h>
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

/* xorshift64: reproducible pseudo-random test input; *state must start non-zero. */
static inline uint64_t test_rand(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d checks failed\n", check_failures), 1) : 0)

#endif
