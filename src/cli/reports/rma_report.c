/* rma_report.c: `mpirr races`' one-sided conflicts as text and JSON (rma_report.h). Each
 * conflict is kept once per pair of call sites: its first pair of accesses names the place
 * (target, window, bytes) and both calls. */
#include "rma_report.h"

#include <stdio.h>

#include "rma_fields.h"
#include "text_escape.h"

static const an_access *access_of(struct analysis *a, int rank, uint32_t i)
{
    return &a->run->ranks[rank].acc[i];
}

/* One side of a conflict: rank R event E KIND (site). */
static void text_access(struct analysis *a, int rank, uint32_t i)
{
    const an_access *x = access_of(a, rank, i);
    char site[600];
    analysis_site(a, rank, x->site, site, sizeof site);
    text_escape_in_place(site, sizeof site);
    printf("rank %d event %llu %s (%s)", rank, (unsigned long long)x->post, mpirr_rma_kind_name(x->kind), site);
}

void rma_report_text(struct analysis *a, const an_rma_conflicts *c)
{
    printf("\n%llu RMA conflicts among %llu one-sided accesses\n", (unsigned long long)c->total,
           (unsigned long long)c->accesses);
    for (size_t k = 0; k < c->n; k++) {
        const an_rma_conflict *r = &c->list[k];
        const an_access *x = access_of(a, r->rank_a, r->acc_a);
        printf("  RMA conflict at rank %d bytes [%llu, %llu) of window %u: ", x->target,
               (unsigned long long)x->lo, (unsigned long long)x->hi, x->win);
        text_access(a, r->rank_a, r->acc_a);
        printf(" and ");
        text_access(a, r->rank_b, r->acc_b);
        printf(" (%llu times)\n", (unsigned long long)r->count);
    }
}

static void json_access(struct analysis *a, struct json *j, const char *key, int rank, uint32_t i)
{
    const an_access *x = access_of(a, rank, i);
    char site[600];
    analysis_site(a, rank, x->site, site, sizeof site);
    json_object_begin(j, key);
    json_int(j, "rank", rank);
    json_uint(j, "event", x->post);
    json_string(j, "rma", mpirr_rma_kind_name(x->kind));
    if (x->op) json_string(j, "op", mpirr_rma_op_name(x->op));
    json_uint(j, "lo", x->lo);
    json_uint(j, "hi", x->hi);
    json_bool(j, "exclusive", x->excl);
    json_string(j, "site", site);
    json_object_end(j);
}

void rma_report_json(struct analysis *a, const an_rma_conflicts *c, struct json *j, const char *key)
{
    json_object_begin(j, key);
    json_uint(j, "accesses", c->accesses);
    json_uint(j, "conflicts", c->total);
    json_array_begin(j, "pairs");
    for (size_t k = 0; k < c->n; k++) {
        const an_rma_conflict *r = &c->list[k];
        const an_access *x = access_of(a, r->rank_a, r->acc_a);
        json_object_begin(j, NULL);
        json_int(j, "target", x->target);
        json_uint(j, "window", x->win);
        json_uint(j, "count", r->count);
        json_access(a, j, "a", r->rank_a, r->acc_a);
        json_access(a, j, "b", r->rank_b, r->acc_b);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}
