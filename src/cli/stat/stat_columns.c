/* stat_columns.c: the text tables of `mpirr stat` (stat_columns.h). */
#include "stat_columns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stat_print_columns(char (*cells)[STAT_CELL], int ncols, int nrows)
{
    int *width = calloc((size_t)ncols, sizeof *width);
    char *line = malloc((size_t)ncols * (STAT_CELL + 2) + 1);
    for (int i = 0; width && line && i < nrows * ncols; i++) {
        int len = (int)strlen(cells[i]);
        if (len > width[i % ncols])
            width[i % ncols] = len;
    }
    for (int i = 0; width && line && i < nrows; i++) {
        size_t len = 0;
        for (int c = 0; c < ncols; c++)
            len += (size_t)sprintf(line + len, c + 1 < ncols ? "%*s  " : "%*s",
                                   c + 1 < ncols ? width[c] : 0, cells[i * ncols + c]);
        while (len > 0 && line[len - 1] == ' ') /* a total row has no ending */
            line[--len] = '\0';
        printf("%s\n", line);
    }
    free(width);
    free(line);
}
