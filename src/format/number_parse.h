/* number_parse.h: the one checked reader of the numbers mpirr takes from a user (options,
 * session commands, stoplines) or from a file (manifests, recordings). Strict on purpose:
 * strtol and friends skip blanks, take a sign where none belongs ("-1" as 2^64-1) and clamp
 * an overflowing number to the largest one (ERANGE), which turns 99999999999999999999 into a
 * plausible value; here the whole text must be the number, in range, or it is refused. */
#ifndef MPIRR_NUMBER_PARSE_H
#define MPIRR_NUMBER_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Exactly the len characters at text are digits of base (10 or 16, either case) making a
 * number <= max. 0 and the number in *value, or -1 (nothing is stored). */
int mpirr_parse_digits(const char *text, size_t len, int base, uint64_t max, uint64_t *value);

/* The decimal digits text starts with, as a number <= max: a pointer to the first character
 * after them (the caller checks what follows: ':' in R:E, a unit), or NULL if there is no
 * digit or the number is too large. */
const char *mpirr_parse_leading(const char *text, uint64_t max, uint64_t *value);

/* The whole string is a decimal number in [min, max]: no blanks, no '+', a leading '-' only
 * when min < 0. 0 and the number in *value, or -1. */
int mpirr_parse_int(const char *text, int64_t min, int64_t max, int64_t *value);

/* The same for an unsigned number up to max (event numbers, counts of events). */
int mpirr_parse_uint(const char *text, uint64_t max, uint64_t *value);

#endif
