/* event_print.h: one rank's event history as text, one event a line (`mpirr events`): keeps
 * what the definition records say (communicators, call sites, the load map) to print call
 * records with their call sites as source lines (the symbolizer races and stat use, symbols.h),
 * their times with a unit and no digit below the clock's tick. docs/cli/events.md describes
 * the lines. */
#ifndef MPIRR_CLI_EVENT_PRINT_H
#define MPIRR_CLI_EVENT_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "event_trace.h"
#include "symbols.h"

struct event_printer;

/* exact: print the exact times too (and every time to the ns); sym: the symbolizer to name
 * call sites with, shared by the ranks (NULL: object+0xOFFSET). */
struct event_printer *event_printer_new(int rank, const mpirr_ev_info *info, int exact, int defs,
                                        mpirr_symbolizer *sym);
/* Prints e (a call record as one line; a definition as a "#" line when defs or always for
 * communicators and modules) and remembers definitions. */
void event_printer_put(struct event_printer *p, const mpirr_event *e, FILE *out);
void event_printer_free(struct event_printer *p);
/* A call record's arguments and outcome as " key=value" pairs (comm, peer, tag, bytes, req,
 * src/mtag/got of a match, ...), as its `mpirr events` line shows them. */
void event_print_args(const mpirr_event *e, FILE *out);

#endif
