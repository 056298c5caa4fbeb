/* stat_columns.h: the text tables of `mpirr stat` (ranks, threads). */
#ifndef MPIRR_CLI_STAT_COLUMNS_H
#define MPIRR_CLI_STAT_COLUMNS_H

/* A text table: nrows rows of ncols cells (row-major, header first), columns as wide as their
 * widest cell, two spaces apart, right-aligned except the last; trailing blanks trimmed. */
enum { STAT_CELL = 96 };
void stat_print_columns(char (*cells)[STAT_CELL], int ncols, int nrows);

#endif
