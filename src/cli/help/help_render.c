/* help_render.c: the help texts (Markdown, docs/cli and docs) as plain text for a terminal:
 * headings underlined, emphasis and code spans without their markers, code blocks indented,
 * links as "text (target)", tables as aligned columns (or, too wide for the terminal, a block
 * per row). Line by line; nothing is wrapped (the
 * docs are wrapped at 100 columns already). */
#include "help_render.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* The inline markup of one line (or table cell) s[0..n) stripped, appended to out (of size cap;
 * truncated to fit): `code` verbatim without backticks, **strong** and *emphasis* (a marker
 * next to a non-blank) without their stars, [text](target) as "text (target)", \X as X. */
static size_t inline_text(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
#define PUT(c) do { if (o + 1 < cap) out[o++] = (c); } while (0)
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
            PUT(s[i + 1]);
            i += 2;
        } else if (c == '`') {
            size_t ticks = 0;
            while (i + ticks < n && s[i + ticks] == '`')
                ticks++;
            const char *close = NULL;
            for (size_t j = i + ticks; j + ticks <= n; j++)
                if (strncmp(s + j, s + i, ticks) == 0) {
                    close = s + j;
                    break;
                }
            if (!close) { /* a lone backtick is a backtick */
                for (size_t k = 0; k < ticks; k++)
                    PUT('`');
                i += ticks;
                continue;
            }
            for (const char *p = s + i + ticks; p < close; p++)
                PUT(*p);
            i = (size_t)(close - s) + ticks;
        } else if (c == '*') {
            size_t stars = i + 1 < n && s[i + 1] == '*' ? 2 : 1;
            const char *close = NULL;
            if (i + stars < n && !isspace((unsigned char)s[i + stars]))
                for (size_t j = i + stars + 1; j + stars <= n; j++)
                    if (strncmp(s + j, stars == 2 ? "**" : "*", stars) == 0 &&
                        !isspace((unsigned char)s[j - 1])) {
                        close = s + j;
                        break;
                    }
            if (!close) {
                PUT('*');
                i++;
                continue;
            }
            o += inline_text(s + i + stars, (size_t)(close - s) - i - stars, out + o, cap - o);
            i = (size_t)(close - s) + stars;
        } else if (c == '[' || (c == '!' && i + 1 < n && s[i + 1] == '[')) {
            size_t t = i + (c == '!') + 1, end = t;
            while (end < n && s[end] != ']')
                end++;
            size_t target = end + 1, tend = target + 1;
            while (tend < n && s[tend] != ')')
                tend++;
            if (end >= n || target >= n || s[target] != '(' || tend >= n) {
                PUT(c);
                i++;
                continue;
            }
            o += inline_text(s + t, end - t, out + o, cap - o);
            if (tend - target - 1 != end - t || strncmp(s + target + 1, s + t, end - t) != 0) {
                const char *sep = " (";
                while (*sep)
                    PUT(*sep++);
                for (size_t k = target + 1; k < tend; k++)
                    PUT(s[k]);
                PUT(')');
            }
            i = tend + 1;
        } else {
            PUT(c);
            i++;
        }
    }
#undef PUT
    if (cap)
        out[o < cap ? o : cap - 1] = '\0';
    return o;
}

static int is_table_line(const char *s, size_t n)
{
    while (n && (*s == ' '))
        s++, n--;
    return n > 0 && *s == '|';
}

/* |---|:--:| */
static int is_separator(const char *s, size_t n)
{
    int dash = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            dash = 1;
        else if (!strchr("|: \t", s[i]))
            return 0;
    }
    return dash;
}

enum { MAX_COLS = 16, CELL = 512 };

struct table {
    char (*cells)[MAX_COLS][CELL];
    int rows, cap, cols, header; /* header: row 0 is a header (a separator followed it) */
};

/* Splits a row on the '|' outside code spans and escapes; each cell rendered. */
static void table_add(struct table *t, const char *s, size_t n)
{
    if (t->rows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        void *c = realloc(t->cells, (size_t)cap * sizeof *t->cells);
        if (!c)
            return;
        t->cells = c;
        t->cap = cap;
    }
    while (n && *s == ' ')
        s++, n--;
    if (n && *s == '|')
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n && s[n - 1] == '|' && !(n > 1 && s[n - 2] == '\\'))
        n--;
    int col = 0, code = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n && col < MAX_COLS; i++) {
        if (i < n && s[i] == '\\') {
            i++;
            continue;
        }
        if (i < n && s[i] == '`')
            code = !code;
        if (i < n && (s[i] != '|' || code))
            continue;
        size_t a = start, b = i;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        inline_text(s + a, b - a, t->cells[t->rows][col++], CELL);
        start = i + 1;
    }
    for (int c = col; c < MAX_COLS; c++)
        t->cells[t->rows][c][0] = '\0';
    if (col > t->cols)
        t->cols = col;
    t->rows++;
}

/* A table too wide for the terminal, one row as a block: its first cell, then each other cell
 * under its header's name. */
static void table_flush_blocks(const struct table *t, FILE *out)
{
    for (int r = t->header; r < t->rows; r++) {
        fprintf(out, "%s%s\n", r > t->header ? "\n" : "", t->cells[r][0]);
        for (int c = 1; c < t->cols; c++)
            if (t->cells[r][c][0])
                fprintf(out, "    %s%s%s\n", t->header ? t->cells[0][c] : "",
                        t->header ? ": " : "", t->cells[r][c]);
    }
}

static int terminal_columns(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    return 100;
}

static void table_flush(struct table *t, FILE *out)
{
    int width[MAX_COLS] = {0}, total = 0;
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols; c++) {
            int len = (int)strlen(t->cells[r][c]);
            if (len > width[c])
                width[c] = len;
        }
    for (int c = 0; c < t->cols; c++)
        total += width[c] + 2;
    if (total - 2 > terminal_columns(out)) {
        table_flush_blocks(t, out);
        t->rows = t->cols = t->header = 0;
        return;
    }
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols; c++)
            fprintf(out, c + 1 < t->cols ? "%-*s  " : "%-*s", c + 1 < t->cols ? width[c] : 0,
                    t->cells[r][c]);
        fputc('\n', out);
        if (r == 0 && t->header) {
            for (int c = 0; c < t->cols; c++) {
                for (int k = 0; k < width[c]; k++)
                    fputc('-', out);
                fputs(c + 1 < t->cols ? "  " : "\n", out);
            }
        }
    }
    t->rows = t->cols = t->header = 0;
}

void help_render_markdown(const char *text, FILE *out)
{
    struct table t = {0};
    int fence = 0, code = 0, blank = 1;
    char buf[4096];
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        const char *next = nl ? nl + 1 : line + n;
        if (t.rows && !is_table_line(line, n))
            table_flush(&t, out);
        if (n >= 3 && strncmp(line, "```", 3) == 0) { /* a fence line itself is not shown */
            fence = !fence;
        } else if (fence) {
            fprintf(out, "    %.*s\n", (int)n, line);
        } else if (is_table_line(line, n)) {
            if (t.rows == 1 && is_separator(line, n))
                t.header = 1;
            else
                table_add(&t, line, n);
        } else if (n >= 4 && strncmp(line, "    ", 4) == 0 && (blank || code)) {
            fprintf(out, "%.*s\n", (int)n, line); /* an indented code block, verbatim */
            code = 1;
        } else if (n && line[0] == '#') {
            size_t level = 0;
            while (level < n && line[level] == '#')
                level++;
            size_t skip = level;
            while (skip < n && line[skip] == ' ')
                skip++;
            size_t len = inline_text(line + skip, n - skip, buf, sizeof buf);
            if (len >= sizeof buf)
                len = sizeof buf - 1;
            fprintf(out, "%s\n", buf);
            if (level <= 2) {
                for (size_t k = 0; k < len; k++) /* one mark per character, not per byte */
                    if (((unsigned char)buf[k] & 0xC0) != 0x80)
                        fputc(level == 1 ? '=' : '-', out);
                fputc('\n', out);
            }
        } else {
            inline_text(line, n, buf, sizeof buf);
            fprintf(out, "%s\n", buf);
        }
        int is_blank = 1;
        for (size_t k = 0; k < n; k++)
            is_blank &= isspace((unsigned char)line[k]) != 0;
        if (!(n >= 4 && strncmp(line, "    ", 4) == 0))
            code = 0;
        if (is_blank)
            code = 0;
        blank = is_blank;
        line = next;
    }
    if (t.rows)
        table_flush(&t, out);
    free(t.cells);
}
