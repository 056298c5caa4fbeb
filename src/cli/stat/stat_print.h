/* stat_print.h: `mpirr stat`'s output, as text (stat_text.c) or as one JSON object
 * (stat_json.c). */
#ifndef MPIRR_CLI_STAT_PRINT_H
#define MPIRR_CLI_STAT_PRINT_H

#include "stat.h"

void stat_print_text(const struct rec_stats *st);
void stat_print_json(const struct rec_stats *st);

#endif
