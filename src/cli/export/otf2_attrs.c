/* otf2_attrs.c: what the OTF2 export adds to each call's Enter and Leave as attributes, the
 * things the Perfetto export carries in its args: the call site (its source line as text,
 * and as a SourceCodeLocation when the line is known), the racing receive flag (the number
 * of messages that could have arrived), and, when the history's times are rounded, the range
 * the exact duration lies in. Strings and SourceCodeLocations are collected as the walk meets
 * call sites and defined first among the global definitions (refs 0..). */
#include <stdlib.h>
#include <string.h>

#include "otf2_export.h"

enum { ATTR_SOURCE, ATTR_LOCATION, ATTR_RACE, ATTR_DUR_MIN, ATTR_DUR_MAX };

static uint32_t add_string(struct otf2_attrs *t, const char *s, size_t len)
{
    if (t->nstrings == t->capstrings) {
        uint32_t cap = t->capstrings ? 2 * t->capstrings : 64;
        char **p = realloc(t->strings, cap * sizeof *p);
        if (!p) return UINT32_MAX;
        t->strings = p;
        t->capstrings = cap;
    }
    char *c = malloc(len + 1);
    if (!c) return UINT32_MAX;
    memcpy(c, s, len);
    c[len] = 0;
    t->strings[t->nstrings] = c;
    return t->nstrings++;
}

/* "file.c:LINE (function)" (analysis_site) as file and line; 0 if it is not of that form
 * (no debug information: "object+0xOFFSET", "?"). */
static int file_line(const char *s, size_t *file_len, uint32_t *line)
{
    const char *end = strstr(s, " (");
    if (!end) end = s + strlen(s);
    const char *colon = end;
    while (colon > s && colon[-1] >= '0' && colon[-1] <= '9') colon--;
    if (colon == end || colon == s || colon[-1] != ':') return 0;
    *file_len = (size_t)(colon - 1 - s);
    *line = (uint32_t)strtoul(colon, NULL, 10);
    return *file_len > 0;
}

/* The site's entry, made on first use in this rank: NULL out of memory. */
static const struct otf2_site *site_of(struct otf2_export *x, int rank, uint32_t site)
{
    struct otf2_attrs *t = &x->attrs;
    if (site >= t->nrank_site) return NULL;
    if (t->rank_site[site]) return &t->sites[t->rank_site[site] - 1];
    if (t->nsites == t->capsites) {
        uint32_t cap = t->capsites ? 2 * t->capsites : 64;
        struct otf2_site *p = realloc(t->sites, cap * sizeof *p);
        if (!p) return NULL;
        t->sites = p;
        t->capsites = cap;
    }
    char buf[600];
    analysis_site(x->a, rank, site, buf, sizeof buf);
    struct otf2_site *s = &t->sites[t->nsites];
    size_t flen;
    s->file = UINT32_MAX;
    if ((s->text = add_string(t, buf, strlen(buf))) == UINT32_MAX) return NULL;
    if (file_line(buf, &flen, &s->line) && (s->file = add_string(t, buf, flen)) == UINT32_MAX)
        return NULL;
    t->rank_site[site] = ++t->nsites;
    return s;
}

int otf2_attrs_rank(struct otf2_export *x, int rank)
{
    struct otf2_attrs *t = &x->attrs;
    free(t->rank_site);
    uint32_t n = x->a->run->ranks[rank].nsites;
    t->rank_site = calloc(n ? n : 1, sizeof *t->rank_site);
    t->nrank_site = n;
    return t->rank_site ? 0 : -1;
}

OTF2_AttributeList *otf2_attrs_enter(struct otf2_export *x, const struct export_call *c)
{
    struct otf2_attrs *t = &x->attrs;
    const struct otf2_site *s = site_of(x, c->rank, c->e->site);
    if (s) {
        otf2_note(x, OTF2_AttributeList_AddStringRef(t->list, ATTR_SOURCE, s->text));
        if (s->file != UINT32_MAX) /* SourceCodeLocation i is sites[i] */
            otf2_note(x, OTF2_AttributeList_AddSourceCodeLocationRef(t->list, ATTR_LOCATION,
                                                                   (uint32_t)(s - t->sites)));
    }
    const an_run *run = x->a->run;
    for (uint32_t i = 0; i < c->nposted + c->ndone; i++) {
        uint32_t op = i < c->nposted ? c->first_posted + i : c->done[i - c->nposted];
        const an_race *r = export_race_at(&t->races, run, c, op);
        if (r) {
            otf2_note(x, OTF2_AttributeList_AddUint32(t->list, ATTR_RACE, r->n));
            break;
        }
    }
    return t->list;
}

OTF2_AttributeList *otf2_attrs_leave(struct otf2_export *x, const struct export_call *c)
{
    if (c->exact) return NULL;
    otf2_note(x, OTF2_AttributeList_AddUint64(x->attrs.list, ATTR_DUR_MIN, c->dur_min_ns));
    otf2_note(x, OTF2_AttributeList_AddUint64(x->attrs.list, ATTR_DUR_MAX, c->dur_max_ns));
    return x->attrs.list;
}

OTF2_ErrorCode otf2_attrs_strings(struct otf2_export *x, OTF2_GlobalDefWriter *g)
{
    const struct otf2_attrs *t = &x->attrs;
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint32_t i = 0; rc == OTF2_SUCCESS && i < t->nstrings; i++)
        rc = OTF2_GlobalDefWriter_WriteString(g, i, t->strings[i]);
    return rc;
}

OTF2_ErrorCode otf2_attrs_defs(struct otf2_export *x, OTF2_GlobalDefWriter *g,
                               OTF2_StringRef (*str)(void *arg, const char *s), void *arg)
{
    const struct otf2_attrs *t = &x->attrs;
    static const struct {
        const char *name, *what;
        OTF2_Type type;
    } attrs[] = {
        [ATTR_SOURCE] = {"mpirr::source", "the call's source line", OTF2_TYPE_STRING},
        [ATTR_LOCATION] = {"mpirr::source_location", "the call's source file and line",
                           OTF2_TYPE_SOURCE_CODE_LOCATION},
        [ATTR_RACE] = {"mpirr::racing_receive", "a racing receive ended in this call: the "
                       "number of messages that could have matched it", OTF2_TYPE_UINT32},
        [ATTR_DUR_MIN] = {"mpirr::duration_min_ns", NULL, OTF2_TYPE_UINT64},
        [ATTR_DUR_MAX] = {"mpirr::duration_max_ns", NULL, OTF2_TYPE_UINT64},
    };
    const char *note = export_time_note(x->clk);
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint32_t a = 0; rc == OTF2_SUCCESS && a < sizeof attrs / sizeof *attrs; a++)
        rc = OTF2_GlobalDefWriter_WriteAttribute(g, a, str(arg, attrs[a].name),
                                                 str(arg, attrs[a].what ? attrs[a].what : note),
                                                 attrs[a].type);
    for (uint32_t i = 0; rc == OTF2_SUCCESS && i < t->nsites; i++)
        if (t->sites[i].file != UINT32_MAX)
            rc = OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, i, t->sites[i].file, t->sites[i].line);
    return rc;
}

int otf2_attrs_init(struct otf2_export *x)
{
    struct otf2_attrs *t = &x->attrs;
    memset(t, 0, sizeof *t);
    t->list = OTF2_AttributeList_New();
    return t->list && !an_find_races(x->a->run, &t->races) ? 0 : -1;
}

void otf2_attrs_free(struct otf2_export *x)
{
    struct otf2_attrs *t = &x->attrs;
    if (t->list) OTF2_AttributeList_Delete(t->list);
    an_races_free(&t->races);
    for (uint32_t i = 0; i < t->nstrings; i++) free(t->strings[i]);
    free(t->strings);
    free(t->sites);
    free(t->rank_site);
    memset(t, 0, sizeof *t);
}
