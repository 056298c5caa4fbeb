/* rma_report.h: `mpirr races`' one-sided conflicts (an_rma_conflicts_find, docs/races.md), as
 * text lines and as the JSON member "rma" (rma_report.c). */
#ifndef MPIRR_RMA_REPORT_H
#define MPIRR_RMA_REPORT_H

#include "analysis.h"
#include "analysis_load.h"
#include "json.h"

/* The count line, then one line per pair of call sites. */
void rma_report_text(struct analysis *a, const an_rma_conflicts *c);
/* {"accesses", "conflicts", "pairs": [{"target", "window", "count", "a", "b"}]}, a and b
 * each {"rank", "event", "rma", ["op"], "lo", "hi", "exclusive", "site"} */
void rma_report_json(struct analysis *a, const an_rma_conflicts *c, struct json *j, const char *key);

#endif
