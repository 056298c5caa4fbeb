/* help_render.h: Markdown help texts as plain text, for `mpirr help` on a terminal. */
#ifndef MPIRR_CLI_HELP_RENDER_H
#define MPIRR_CLI_HELP_RENDER_H

#include <stdio.h>

/* Writes text (Markdown) to out as plain text: headings underlined, code fences dropped and
 * their blocks indented, code spans and emphasis without markers, links as "text (target)",
 * tables as aligned columns with a rule under the header. */
void help_render_markdown(const char *text, FILE *out);

#endif
