/* stack_merge.c: see stack_merge.h. Frames are merged by their whole label (function and
 * source line): two ranks in one function at different lines branch there, which is what tells
 * a straggler from the pack. */
#include "stack_merge.h"

#include <stdlib.h>
#include <string.h>

#include "rank_set.h"

struct stack_node {
    char *label;                /* NULL for the root */
    unsigned char *ranks;       /* nranks bytes */
    struct stack_node *child, *next; /* children in order of their first rank */
};

struct stack_tree {
    int nranks;
    struct stack_node root;
};

static struct stack_node *node_new(const char *label, int nranks)
{
    struct stack_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->ranks = calloc((size_t)nranks, 1);
    n->label = label ? strdup(label) : NULL;
    if (!n->ranks || (label && !n->label)) {
        free(n->ranks);
        free(n->label);
        free(n);
        return NULL;
    }
    return n;
}

struct stack_tree *stack_tree_new(int nranks)
{
    struct stack_tree *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->nranks = nranks;
    t->root.ranks = calloc((size_t)nranks, 1);
    if (!t->root.ranks) {
        free(t);
        return NULL;
    }
    return t;
}

int stack_tree_add(struct stack_tree *t, int rank, const char *const *frames, int n)
{
    struct stack_node *at = &t->root;
    at->ranks[rank] = 1;
    for (int i = 0; i < n; i++) {
        struct stack_node **link = &at->child;
        while (*link && strcmp((*link)->label, frames[i])) link = &(*link)->next;
        if (!*link && !(*link = node_new(frames[i], t->nranks))) return -1;
        at = *link;
        at->ranks[rank] = 1;
    }
    return 0;
}

/* Prints n's branch (n and the single-child chain below it) at depth, then its branches. */
static void print_node(const struct stack_tree *t, const struct stack_node *n, int depth,
                       FILE *out)
{
    const struct stack_node *chain[512];
    int len = 0;
    chain[len++] = n;
    /* fold: n's ranks all go on into one child */
    while (len < 512 && n->child && !n->child->next &&
           !memcmp(n->child->ranks, n->ranks, (size_t)t->nranks))
        chain[len++] = n = n->child;
    char ranks[1024];
    rank_set_format(n->ranks, t->nranks, ranks, sizeof ranks);
    fprintf(out, "%*s%s  ", 2 * depth, "", ranks);
    for (int i = len - 1; i >= 0; i--)
        fprintf(out, "%s%s", chain[i]->label, i ? " <- " : "\n");
    for (const struct stack_node *c = n->child; c; c = c->next) print_node(t, c, depth + 1, out);
}

void stack_tree_print(const struct stack_tree *t, FILE *out)
{
    for (const struct stack_node *c = t->root.child; c; c = c->next) print_node(t, c, 0, out);
}

static void free_nodes(struct stack_node *n)
{
    while (n) {
        struct stack_node *next = n->next;
        free_nodes(n->child);
        free(n->label);
        free(n->ranks);
        free(n);
        n = next;
    }
}

void stack_tree_free(struct stack_tree *t)
{
    if (!t) return;
    free_nodes(t->root.child);
    free(t->root.ranks);
    free(t);
}
