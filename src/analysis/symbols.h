/* symbols.h: turns recorded call sites (an object's path and a return address relative to the
 * object's load bias) into "file.c:LINE (function)" with libdw, caching one Dwfl per object;
 * degrades to "object+0xOFFSET (function)" without debug info (a stripped library's dynamic
 * symbols still name its exported functions), "object+0xOFFSET" when nothing names it. The one
 * symbolizer of every command that shows call sites (events, races, frontier, stat, replay). */
#ifndef MPIRR_SYMBOLS_H
#define MPIRR_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mpirr_symbolizer mpirr_symbolizer;

/* NULL only when out of memory. The current directory is captured here: file names are
 * shortened relative to it. */
mpirr_symbolizer *mpirr_sym_open(void);

/* path: the object's file; offset: return address minus load bias (so the call itself is at
 * offset - 1). Writes into buf (always NUL-terminated when n > 0, truncated to fit) either
 * "FILE:LINE (FUNCTION)" and returns 1, where FILE is the DWARF file name (joined to its
 * unit's compilation directory when relative and that directory is absolute), made relative to
 * the current directory when it lies under it, else kept whole; " (FUNCTION)" is omitted when
 * unknown; or "BASENAME+0xOFFSET (FUNCTION)" and returns 0 when no line is known but the
 * object's symbol table (or, stripped, its dynamic symbol table) names the function; or
 * "BASENAME+0xOFFSET" and returns 0 when nothing is known (missing or unreadable object,
 * offset outside the object). Prints nothing. Results are cached per (path, offset). */
int mpirr_sym_lookup(mpirr_symbolizer *s, const char *path, uint64_t offset, char *buf, size_t n);

/* Frees every cached Dwfl and result; s may be NULL. */
void mpirr_sym_close(mpirr_symbolizer *s);

#endif
