/* perfetto.c: the Chrome/Perfetto Trace Event Format writer of mpirr export: one process per
 * rank, one complete ("X") slice per MPI call with its fields in args, one flow ("s" at the
 * send, "f" bound to the enclosing slice at the call that completed the receive) per matched
 * message, racing receives flagged with their candidate messages, each slice's times marked
 * exact or rounded with the range of its exact duration. Streamed: each event is
 * printed as the walk (walk.h) reaches it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "diag.h"
#include "export.h"
#include "json.h"
#include "out_file.h"
#include "walk.h"

struct perfetto {
    FILE *f;
    struct analysis *a;
    an_races races;
    char **site;  /* the current rank's call sites as text, made on first use */
    uint32_t nsite;
    int list_open;
    uint64_t flows, flagged;
};

/* ns as microseconds with three decimals, exactly (the format's ts and dur are µs). */
static void put_us(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%llu.%03u", key, (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

static void put_peer(FILE *f, const char *key, int32_t v)
{
    if (v == MPIRR_EV_ANY) fprintf(f, ",\"%s\":\"any\"", key);
    else if (v == MPIRR_EV_PROC_NULL) fprintf(f, ",\"%s\":\"null\"", key);
    else if (v == MPIRR_EV_ROOT) fprintf(f, ",\"%s\":\"root\"", key);
    else fprintf(f, ",\"%s\":%d", key, v);
}

/* "RANK:EVENT" of the call that posted op i of rank r */
static void put_point(FILE *f, const an_run *run, uint32_t r, uint32_t op)
{
    fprintf(f, "\"%u:%llu\"", r, (unsigned long long)run->ranks[r].ops[op].post);
}

/* The call site's source line, made once per site of the rank. */
static const char *site_text(struct perfetto *p, int rank, uint32_t site)
{
    if (site >= p->nsite) return NULL;
    if (!p->site[site]) {
        char buf[600];
        analysis_site(p->a, rank, site, buf, sizeof buf);
        p->site[site] = strdup(buf);
    }
    return p->site[site];
}

/* The message's receive completed (its flow can end): both sides are in the history. */
static int flows(const an_run *run, const an_msg *m)
{
    return m->send_op != AN_NIL && m->recv_op != AN_NIL && run->ranks[m->receiver].ops[m->recv_op].done;
}

/* Calls op_fn(p, c, op) for every op the call posted, then every op it completed. */
static void each_op(struct perfetto *p, const struct export_call *c,
                    void (*op_fn)(struct perfetto *, const struct export_call *, uint32_t))
{
    for (uint32_t i = 0; i < c->nposted; i++) op_fn(p, c, c->first_posted + i);
    for (uint32_t i = 0; i < c->ndone; i++) op_fn(p, c, c->done[i]);
}

/* One of args' lists ("sends", "receives", "races"): opened at its first item, if any. */
static void list_item(struct perfetto *p, const char *key)
{
    if (!p->list_open) fprintf(p->f, ",\"%s\":[", key);
    else fputc(',', p->f);
    p->list_open = 1;
}

static void list_close(struct perfetto *p)
{
    if (p->list_open) fputc(']', p->f);
    p->list_open = 0;
}

/* args.sends: the receive of each message this call sent, as RANK:EVENT of its post */
static void arg_send(struct perfetto *p, const struct export_call *c, uint32_t i)
{
    const an_run *run = p->a->run;
    const an_op *o = &run->ranks[c->rank].ops[i];
    if (o->kind != AN_SEND || o->post != c->e->event || o->msg == AN_NIL) return;
    const an_msg *m = &run->msgs[o->msg];
    if (m->recv_op == AN_NIL) return;
    list_item(p, "sends");
    put_point(p->f, run, m->receiver, m->recv_op);
}

/* args.receives: the send of each message whose receive ended at this call */
static void arg_recv(struct perfetto *p, const struct export_call *c, uint32_t i)
{
    const an_run *run = p->a->run;
    const an_op *o = &run->ranks[c->rank].ops[i];
    if (!export_recv_ends(o, c->e->event) || o->msg == AN_NIL) return;
    const an_msg *m = &run->msgs[o->msg];
    if (m->send_op == AN_NIL) return;
    list_item(p, "receives");
    put_point(p->f, run, m->sender, m->send_op);
}

/* args.races: each racing receive that ended here, the message it got and every candidate */
static void arg_race(struct perfetto *p, const struct export_call *c, uint32_t i)
{
    const an_run *run = p->a->run;
    const an_race *r = export_race_at(&p->races, run, c, i);
    if (!r) return;
    list_item(p, "races");
    fprintf(p->f, "{\"receive\":");
    put_point(p->f, run, (uint32_t)c->rank, i);
    fprintf(p->f, ",\"candidates\":[");
    const uint32_t *cands = an_race_list(&p->races, r);
    for (uint32_t k = 0; k < r->n; k++) {
        const an_msg *m = &run->msgs[cands[k]];
        if (k) fputc(',', p->f);
        put_point(p->f, run, m->sender, m->send_op);
    }
    fprintf(p->f, "]}");
    p->flagged++;
}

/* The flow events of the call: starts of the messages it sent, ends of those it received. */
static void flow(struct perfetto *p, const struct export_call *c, uint32_t i)
{
    const an_run *run = p->a->run;
    const an_op *o = &run->ranks[c->rank].ops[i];
    if (o->msg == AN_NIL || (o->kind != AN_SEND && o->kind != AN_RECV)) return;
    const an_msg *m = &run->msgs[o->msg];
    if (!flows(run, m)) return;
    int start = o->kind == AN_SEND && o->post == c->e->event;
    if (!start && !(o->kind == AN_RECV && o->done == c->e->event)) return;
    fprintf(p->f, ",\n{\"ph\":\"%s\",\"cat\":\"message\",\"name\":\"message\",\"id\":%u,\"pid\":%d,"
            "\"tid\":%d", start ? "s" : "f\",\"bp\":\"e", o->msg, c->rank + 1, c->rank + 1);
    put_us(p->f, "ts", c->begin_ns + (c->end_ns - c->begin_ns) / 2); /* inside the slice */
    fputc('}', p->f);
    p->flows += !start;
}

static void put_args(struct perfetto *p, const struct export_call *c)
{
    const mpirr_event *e = c->e;
    FILE *f = p->f;
    uint32_t fl = e->fields;
    fprintf(f, ",\"args\":{\"event\":%llu", (unsigned long long)e->event);
    if (fl & MPIRR_EVF_COMM) fprintf(f, ",\"comm\":%u", e->comm);
    if (fl & MPIRR_EVF_PEER) put_peer(f, "peer", e->peer);
    if (fl & MPIRR_EVF_TAG) put_peer(f, "tag", e->tag);
    if (fl & MPIRR_EVF_RPEER) {
        put_peer(f, "recv_peer", e->rpeer);
        put_peer(f, "recv_tag", e->rtag);
    }
    if (fl & MPIRR_EVF_ROOT) put_peer(f, "root", e->root);
    if (fl & MPIRR_EVF_BYTES) fprintf(f, ",\"bytes\":%llu", (unsigned long long)e->bytes);
    if (fl & MPIRR_EVF_REQ) fprintf(f, ",\"request\":%u", e->req);
    if (fl & MPIRR_EVF_MATCH) {
        put_peer(f, "source", e->src);
        put_peer(f, "matched_tag", e->mtag);
        fprintf(f, ",\"got\":%llu", (unsigned long long)e->got);
    }
    if (fl & MPIRR_EVF_NEWCOMM) fprintf(f, ",\"newcomm\":%u", e->newcomm);
    if (fl & MPIRR_EVF_RC) fprintf(f, ",\"rc\":%d", e->rc);
    /* a rounded duration says so on the slice itself, with what the exact one may be */
    fprintf(f, ",\"time\":\"%s\"", c->exact ? "exact" : "rounded (log2 time code)");
    put_us(f, "duration_min_us", c->dur_min_ns);
    put_us(f, "duration_max_us", c->dur_max_ns);
    const char *site = site_text(p, c->rank, e->site);
    if (site) {
        fputs(",\"site\":", f);
        json_write_string(f, site, 0);
    }
    each_op(p, c, arg_send);
    list_close(p);
    each_op(p, c, arg_recv);
    list_close(p);
    each_op(p, c, arg_race);
    list_close(p);
    fputc('}', f);
}

static int call(void *arg, const struct export_call *c)
{
    struct perfetto *p = arg;
    const char *name = mpirr_call_name(c->e->kind);
    fprintf(p->f, ",\n{\"ph\":\"X\",\"cat\":\"mpi\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d",
            name ? name : "MPI_?", c->rank + 1, c->rank + 1);
    put_us(p->f, "ts", c->begin_ns);
    put_us(p->f, "dur", c->end_ns - c->begin_ns);
    put_args(p, c);
    fputc('}', p->f);
    each_op(p, c, flow);
    return ferror(p->f) ? CLI_EXIT_FAIL : 0;
}

/* pid and tid are rank + 1: Perfetto gives pid and tid 0 a meaning of their own (the idle
 * task). Metadata names each rank's process and thread and keeps them in rank order. */
static int rank_begin(void *arg, int rank)
{
    struct perfetto *p = arg;
    const an_rank *rk = &p->a->run->ranks[rank];
    p->site = calloc(rk->nsites ? rk->nsites : 1, sizeof *p->site);
    if (!p->site) return -1;
    p->nsite = rk->nsites;
    int id = rank + 1;
    fprintf(p->f, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"name\":\"rank %d\"}},\n", rank ? ",\n" : "", id, id, rank);
    fprintf(p->f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"sort_index\":%d}},\n", id, id, rank);
    fprintf(p->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"name\":\"rank %d MPI calls\"}}", id, id, rank);
    return 0;
}

static int rank_end(void *arg, int rank, uint64_t calls)
{
    struct perfetto *p = arg;
    (void)rank;
    (void)calls;
    for (uint32_t i = 0; i < p->nsite; i++) free(p->site[i]);
    free(p->site);
    p->site = NULL;
    p->nsite = 0;
    return 0;
}

static int write_trace(struct perfetto *p, const struct export_clock *clk)
{
    const an_run *run = p->a->run;
    fprintf(p->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    struct export_sink s = {p, rank_begin, call, rank_end};
    int rc = export_walk(p->a, clk, &s);
    rank_end(p, 0, 0);
    if (rc) return rc;
    fprintf(p->f, "\n],\"otherData\":{\"recording\":");
    json_write_string(p->f, run->dir, 0);
    fprintf(p->f, ",\"ranks\":%d,\"realtime_ns\":%llu,\"messages\":%llu,\"racing_receives\":%llu",
            run->nranks, (unsigned long long)clk->realtime_ns, (unsigned long long)p->flows,
            (unsigned long long)p->flagged);
    fputs(",\"times\":", p->f);
    json_write_string(p->f, export_time_note(clk), 0);
    fputs("}}\n", p->f);
    return 0;
}

int export_perfetto(struct analysis *a, const char *out)
{
    struct perfetto p = {.a = a};
    if (an_find_races(a->run, &p.races)) {
        cli_error("export: out of memory finding the races of %s", a->rec.dir);
        return CLI_EXIT_FAIL;
    }
    struct export_clock clk = {0};
    int rc = export_clock_init(&clk, a->run);
    struct out_file of;
    if (!rc && !(rc = out_file_open(&of, "export", out, OUT_FILE_STDOUT))) {
        p.f = of.f;
        rc = write_trace(&p, &clk);
        if (rc < 0) cli_error("export: out of memory writing %s", out);
        rc = out_file_close(&of, rc);
    } else if (rc < 0) {
        cli_error("export: out of memory");
        rc = CLI_EXIT_FAIL;
    }
    export_clock_free(&clk);
    an_races_free(&p.races);
    return rc;
}
