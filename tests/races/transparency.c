/* transparency: what a program sees of its messages is untouched by mpirr's piggyback
 * (races mode carries a vector clock with every message) and by the other modes.
 * Not a race-count program: deterministic (every receive has a specific source, or is a
 * wildcard receive or probe made after a barrier when a single message can match), so a
 * native run and runs under mpirr (record in every mode, run, replay) must print the same
 * lines. Rank 0 prints one `observed <check> <values>` line per check, then `digest <hex>`.
 *
 * Checks: MPI_Get_count / MPI_Get_elements after receives of MPI_INT, MPI_DOUBLE, a vector
 * type (whole and partial elements, holes untouched); sizes reported by MPI_Probe,
 * MPI_Iprobe, MPI_Mprobe + MPI_Mrecv, MPI_Improbe; zero-byte messages; MPI_PROC_NULL as
 * destination and source (status source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0);
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE; Isend/Irecv/Waitall; Sendrecv and
 * Sendrecv_replace; Ssend, Bsend (MPI_Buffer_attach) and Rsend; persistent Send_init /
 * Recv_init with Start and Startall; messages to self; truncated receives (MPI_Recv, MPI_Irecv + MPI_Wait, a
 * wildcard MPI_Recv) under MPI_ERRORS_RETURN on a dup'd communicator: the error class, and
 * the messages after it arrive intact. MPI_Get_count after a truncation is printed for Open
 * MPI, which reports the full message size; the standard leaves it undefined, and MPICH 4.0
 * leaves whatever count the recycled request object last held (so it depends on which other
 * receives the process made, e.g. mpirr's own). Then the layouts races mode gives messages
 * (check_layouts). First of all, before any wildcard receive moves a clock, the short form
 * (check_short). Needs 3 ranks. */
#include "races.h"

#include <string.h>

static int rank, size;
static digest_t dg;

__attribute__((format(printf, 1, 2))) static void observed(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  digest_bytes(&dg, line, strlen(line));
  if (rank == 0) {
    printf("observed %s\n", line);
    fflush(stdout);
  }
}

/* "source S tag T count C elements E bytes B" of a status (count "undefined" when it is
 * MPI_UNDEFINED) */
static const char *st_str(const MPI_Status *st, MPI_Datatype type) {
  static char buf[4][160];
  static int next;
  char *s = buf[next++ % 4];
  int count, elements, bytes;
  char cs[24], es[24];
  MPI_Get_count(st, type, &count);
  MPI_Get_elements(st, type, &elements);
  MPI_Get_count(st, MPI_BYTE, &bytes);
  if (count == MPI_UNDEFINED) snprintf(cs, sizeof cs, "undefined");
  else snprintf(cs, sizeof cs, "%d", count);
  if (elements == MPI_UNDEFINED) snprintf(es, sizeof es, "undefined");
  else snprintf(es, sizeof es, "%d", elements);
  snprintf(s, 160, "source %d tag %d count %s elements %s bytes %d", st->MPI_SOURCE, st->MPI_TAG, cs, es, bytes);
  return s;
}

/* fills a status with a recognizable pattern before a call that must set its fields (hidden
 * fields included, so that what an implementation leaves unset reads the same every run) */
static void poison(MPI_Status *st) {
  memset(st, 0x4d, sizeof *st);
  st->MPI_SOURCE = 77;
  st->MPI_TAG = 77;
}

static long isum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += (long)v[i] * (i + 1);
  return s;
}

static void fill(int *v, int n, int seed) {
  for (int i = 0; i < n; i++) v[i] = seed * 100 + i;
}

static void check_fill(const int *v, int n, int seed, const char *what) {
  for (int i = 0; i < n; i++)
    if (v[i] != seed * 100 + i) fail("%s: element %d is %d, expected %d", what, i, v[i], seed * 100 + i);
}

static const MPI_Comm W = MPI_COMM_WORLD;

/* fill(v, n, seed), then a send of the n ints to rank 0 */
static void send_filled(int *v, int n, int seed, int tag, MPI_Comm comm) {
  fill(v, n, seed);
  MPI_Send(v, n, MPI_INT, 0, tag, comm);
}

static void check_basic_types(void) {
  int iv[16];
  double dv[8];
  MPI_Status st;
  if (rank == 1) {
    fill(iv, 7, 1);
    MPI_Send(iv, 7, MPI_INT, 0, 101, W);
    for (int i = 0; i < 5; i++) dv[i] = 0.5 * i + 1.25;
    MPI_Send(dv, 5, MPI_DOUBLE, 0, 102, W);
  } else if (rank == 0) {
    memset(iv, 0xff, sizeof iv);
    MPI_Recv(iv, 16, MPI_INT, 1, 101, W, &st);
    check_fill(iv, 7, 1, "int");
    observed("int %s sum %ld untouched %d", st_str(&st, MPI_INT), isum(iv, 7), iv[7] == -1);
    MPI_Recv(dv, 8, MPI_DOUBLE, 1, 102, W, &st);
    double s = 0;
    for (int i = 0; i < 5; i++) s += dv[i];
    observed("double %s sum %.3f", st_str(&st, MPI_DOUBLE), s);
  }
}

static void check_vector(void) {
  MPI_Datatype vt;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vt); /* 6 ints over an extent of 10 */
  MPI_Type_commit(&vt);
  int src[40], dst[40];
  MPI_Status st;
  if (rank == 1) {
    fill(src, 40, 3);
    MPI_Send(src, 2, vt, 0, 103, W);  /* 2 whole elements: 12 ints */
    MPI_Send(src, 8, MPI_INT, 0, 104, W); /* 8 ints: one element and a third */
    MPI_Send(src, 1, vt, 0, 105, W);  /* 6 ints, received contiguous */
  } else if (rank == 0) {
    for (int i = 0; i < 40; i++) dst[i] = -1;
    MPI_Recv(dst, 3, vt, 1, 103, W, &st);
    /* element e covers ints e*10 + {0,1,4,5,8,9}; two elements came: 12 ints, 28 holes */
    int holes = 0, bad = 0;
    for (int pos = 0; pos < 40; pos++) {
      const int in_type = pos < 20 && (pos % 10 == 0 || pos % 10 == 1 || pos % 10 == 4 || pos % 10 == 5 || pos % 10 == 8 ||
                                       pos % 10 == 9);
      if (in_type) bad += dst[pos] != 300 + pos;
      else holes += dst[pos] == -1;
    }
    observed("vector whole %s holes_untouched %d bad %d", st_str(&st, vt), holes, bad);
    for (int i = 0; i < 40; i++) dst[i] = -1;
    MPI_Recv(dst, 3, vt, 1, 104, W, &st);
    /* 8 ints: element 0 whole (positions 0,1,4,5,8,9), then positions 10 and 11 */
    observed("vector partial %s values %d %d %d %d %d %d %d %d hole %d", st_str(&st, vt), dst[0], dst[1], dst[4], dst[5],
             dst[8], dst[9], dst[10], dst[11], dst[14]);
    MPI_Recv(dst, 40, MPI_INT, 1, 105, W, &st);
    observed("vector to contiguous %s sum %ld", st_str(&st, MPI_INT), isum(dst, 6));
  }
  MPI_Type_free(&vt);
}

static void check_probes(void) {
  int v[32];
  MPI_Status st;
  MPI_Message m;
  if (rank == 1) {
    fill(v, 9, 4);
    MPI_Send(v, 9, MPI_INT, 0, 106, W);
    fill(v, 11, 5);
    MPI_Send(v, 11, MPI_INT, 0, 107, W);
    fill(v, 3, 6);
    MPI_Send(v, 3, MPI_INT, 0, 108, W);
  } else if (rank == 0) {
    MPI_Probe(1, 106, W, &st);
    observed("probe %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 32, MPI_INT, 1, 106, W, &st);
    check_fill(v, 9, 4, "probe");
    observed("probe recv %s", st_str(&st, MPI_INT));
    int flag = 0;
    while (MPI_Iprobe(1, 107, W, &flag, &st), !flag) poll_pause();
    observed("iprobe %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 32, MPI_INT, 1, 107, W, &st);
    check_fill(v, 11, 5, "iprobe");
    observed("iprobe recv %s", st_str(&st, MPI_INT));
    flag = 0;
    while (MPI_Improbe(1, 108, W, &flag, &m, &st), !flag) poll_pause();
    observed("improbe %s", st_str(&st, MPI_INT));
    MPI_Mrecv(v, 32, MPI_INT, &m, &st);
    check_fill(v, 3, 6, "improbe");
    observed("improbe mrecv %s nomsg %d", st_str(&st, MPI_INT), m == MPI_MESSAGE_NULL);
    /* nothing is ever sent with tag 999 */
    MPI_Iprobe(MPI_ANY_SOURCE, 999, W, &flag, &st);
    observed("iprobe nothing flag %d", flag);
  }
  /* wildcard probe with a single candidate: everything sent before is received before the
   * barrier, only rank 2 sends after it */
  MPI_Barrier(W);
  if (rank == 2) {
    fill(v, 13, 7);
    MPI_Send(v, 13, MPI_INT, 0, 109, W);
    fill(v, 2, 8);
    MPI_Send(v, 2, MPI_INT, 0, 110, W);
  } else if (rank == 0) {
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &m, &st);
    observed("mprobe any %s", st_str(&st, MPI_INT));
    MPI_Mrecv(v, 32, MPI_INT, &m, &st);
    check_fill(v, 13, 7, "mprobe");
    observed("mprobe mrecv %s", st_str(&st, MPI_INT));
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &st);
    observed("probe any %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 32, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, W, &st);
    check_fill(v, 2, 8, "probe any");
    observed("recv any %s", st_str(&st, MPI_INT));
  }
  MPI_Barrier(W);
}

static void check_zero_bytes(void) {
  int v[4] = {9, 9, 9, 9};
  MPI_Status st;
  MPI_Request r;
  MPI_Datatype vt;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vt);
  MPI_Type_commit(&vt);
  if (rank == 1) {
    MPI_Send(v, 0, MPI_INT, 0, 111, W);
    MPI_Send(NULL, 0, MPI_BYTE, 0, 112, W);
    MPI_Isend(v, 0, MPI_INT, 0, 113, W, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank == 0) {
    MPI_Probe(1, 111, W, &st);
    observed("zero probe %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 4, MPI_INT, 1, 111, W, &st);
    observed("zero recv %s untouched %d", st_str(&st, MPI_INT), v[0] == 9);
    MPI_Recv(v, 1, vt, 1, 112, W, &st);
    observed("zero recv vector %s", st_str(&st, vt));
    MPI_Irecv(v, 4, MPI_INT, 1, 113, W, &r);
    MPI_Wait(&r, &st);
    observed("zero irecv %s", st_str(&st, MPI_INT));
  }
  MPI_Type_free(&vt);
}

static void check_proc_null(void) {
  int v[4] = {5, 5, 5, 5}, flag;
  MPI_Status st;
  MPI_Request r;
  MPI_Message m;
  if (rank != 0) return;
  MPI_Send(v, 4, MPI_INT, MPI_PROC_NULL, 1, W);
  MPI_Ssend(v, 4, MPI_INT, MPI_PROC_NULL, 1, W);
  MPI_Isend(v, 4, MPI_INT, MPI_PROC_NULL, 1, W, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  observed("proc_null values proc_null %d any_tag %d", MPI_PROC_NULL, MPI_ANY_TAG);
#define PN(what)                                                                                                     \
  observed("proc_null %s %s is_proc_null %d is_any_tag %d untouched %d", what, st_str(&st, MPI_INT),                 \
           st.MPI_SOURCE == MPI_PROC_NULL, st.MPI_TAG == MPI_ANY_TAG, v[0] == 5)
  poison(&st);
  MPI_Recv(v, 4, MPI_INT, MPI_PROC_NULL, 3, W, &st);
  PN("recv");
  poison(&st);
  MPI_Irecv(v, 4, MPI_INT, MPI_PROC_NULL, 3, W, &r);
  MPI_Wait(&r, &st);
  PN("irecv");
  poison(&st);
  MPI_Sendrecv(v, 4, MPI_INT, MPI_PROC_NULL, 3, v, 4, MPI_INT, MPI_PROC_NULL, 3, W, &st);
  PN("sendrecv");
  poison(&st);
  MPI_Probe(MPI_PROC_NULL, 3, W, &st);
  PN("probe");
  poison(&st);
  flag = -1;
  MPI_Iprobe(MPI_PROC_NULL, 3, W, &flag, &st);
  observed("proc_null iprobe flag %d", flag);
  PN("iprobe");
  poison(&st);
  MPI_Mprobe(MPI_PROC_NULL, 3, W, &m, &st);
  observed("proc_null mprobe no_proc %d", m == MPI_MESSAGE_NO_PROC);
  PN("mprobe");
  poison(&st);
  MPI_Mrecv(v, 4, MPI_INT, &m, &st);
  PN("mrecv");
#undef PN
}

static void check_status_ignore(void) {
  int a[6], b[6], c[6];
  MPI_Request r[2];
  if (rank == 1) {
    fill(a, 4, 9);
    MPI_Send(a, 4, MPI_INT, 0, 114, W);
    fill(a, 5, 10);
    MPI_Send(a, 5, MPI_INT, 0, 115, W);
    fill(a, 6, 11);
    MPI_Send(a, 6, MPI_INT, 0, 116, W);
    fill(a, 2, 12);
    MPI_Send(a, 2, MPI_INT, 0, 117, W);
  } else if (rank == 2) {
    fill(a, 3, 13);
    MPI_Send(a, 3, MPI_INT, 0, 118, W);
  } else if (rank == 0) {
    MPI_Recv(a, 6, MPI_INT, 1, 114, W, MPI_STATUS_IGNORE);
    check_fill(a, 4, 9, "status_ignore recv");
    MPI_Irecv(b, 6, MPI_INT, 1, 115, W, &r[0]);
    MPI_Irecv(c, 6, MPI_INT, 2, 118, W, &r[1]);
/* gcc 12 flags MPICH's MPI_STATUSES_IGNORE ((MPI_Status *)1) as a zero-size array */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
    check_fill(b, 5, 10, "statuses_ignore 1");
    check_fill(c, 3, 13, "statuses_ignore 2");
    MPI_Irecv(a, 6, MPI_INT, 1, 116, W, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    check_fill(a, 6, 11, "wait status_ignore");
    MPI_Irecv(b, 6, MPI_INT, 1, 117, W, &r[0]);
    int flag = 0;
    while (MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE), !flag) poll_pause();
    check_fill(b, 2, 12, "test status_ignore");
    observed("status_ignore sums %ld %ld %ld request_null %d", isum(a, 6), isum(b, 2), isum(c, 3), r[0] == MPI_REQUEST_NULL);
  }
}

static void check_nonblocking(void) {
  int in[3][8], out[8];
  MPI_Request r[4];
  MPI_Status st[4];
  if (rank == 0) {
    MPI_Irecv(in[0], 8, MPI_INT, 1, 120, W, &r[0]);
    MPI_Irecv(in[1], 8, MPI_INT, 2, 121, W, &r[1]);
    MPI_Irecv(in[2], 8, MPI_INT, 1, 122, W, &r[2]);
    fill(out, 8, 14);
    MPI_Isend(out, 8, MPI_INT, 1, 123, W, &r[3]);
    MPI_Waitall(4, r, st);
    check_fill(in[0], 3, 15, "waitall 0");
    check_fill(in[1], 5, 16, "waitall 1");
    for (int i = 0; i < 3; i++) observed("waitall %d %s", i, st_str(&st[i], MPI_INT));
    observed("waitall sums %ld %ld", isum(in[0], 3), isum(in[1], 5));
  } else if (rank == 1) {
    int a[8], b[8] = {0};
    fill(a, 3, 15);
    MPI_Isend(a, 3, MPI_INT, 0, 120, W, &r[0]);
    MPI_Isend(b, 0, MPI_INT, 0, 122, W, &r[1]);
    MPI_Irecv(out, 8, MPI_INT, 0, 123, W, &r[2]);
    MPI_Waitall(3, r, st);
    check_fill(out, 8, 14, "isend to 1");
    if (status_count(&st[2], MPI_INT) != 8 || st[2].MPI_SOURCE != 0 || st[2].MPI_TAG != 123) fail("irecv on 1");
  } else if (rank == 2) {
    int a[8];
    fill(a, 5, 16);
    MPI_Isend(a, 5, MPI_INT, 0, 121, W, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  }
}

static void check_sendrecv(void) {
  int s[8], rv[8];
  MPI_Status st;
  if (rank == 0 || rank == 1) {
    const int peer = 1 - rank;
    fill(s, 3 + 3 * rank, 17 + rank);
    MPI_Sendrecv(s, 3 + 3 * rank, MPI_INT, peer, 124 + rank, rv, 8, MPI_INT, peer, 124 + peer, W, &st);
    check_fill(rv, 3 + 3 * peer, 17 + peer, "sendrecv");
    if (rank == 0) observed("sendrecv %s sum %ld", st_str(&st, MPI_INT), isum(rv, 6));
  }
  if (rank == 0 || rank == 2) {
    const int peer = 2 - rank;
    fill(s, 4, 19 + rank);
    MPI_Sendrecv_replace(s, 4, MPI_INT, peer, 126, peer, 126, W, &st);
    check_fill(s, 4, 19 + peer, "sendrecv_replace");
    if (rank == 0) observed("sendrecv_replace %s sum %ld", st_str(&st, MPI_INT), isum(s, 4));
  }
}

static void check_send_modes(void) {
  int v[16];
  double dv[4];
  MPI_Status st;
  MPI_Request r;
  if (rank == 1) {
    fill(v, 5, 21);
    MPI_Ssend(v, 5, MPI_INT, 0, 127, W);
    int s1, s2;
    MPI_Pack_size(6, MPI_INT, W, &s1);
    MPI_Pack_size(2, MPI_DOUBLE, W, &s2);
    int bsize = s1 + s2 + 2 * MPI_BSEND_OVERHEAD;
    char *bbuf = malloc((size_t)bsize);
    if (!bbuf) fail("out of memory");
    MPI_Buffer_attach(bbuf, bsize);
    fill(v, 6, 22);
    MPI_Bsend(v, 6, MPI_INT, 0, 128, W);
    dv[0] = 3.5, dv[1] = -1.0;
    MPI_Bsend(dv, 2, MPI_DOUBLE, 0, 129, W);
    void *det;
    int detsize;
    MPI_Buffer_detach(&det, &detsize);
    if (det != bbuf || detsize != bsize) fail("Buffer_detach gave %p %d", det, detsize);
    free(bbuf);
    int ready;
    MPI_Recv(&ready, 1, MPI_INT, 0, 130, W, MPI_STATUS_IGNORE);
    fill(v, 7, 23);
    MPI_Rsend(v, 7, MPI_INT, 0, 131, W);
  } else if (rank == 0) {
    MPI_Recv(v, 16, MPI_INT, 1, 127, W, &st);
    check_fill(v, 5, 21, "ssend");
    observed("ssend %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 16, MPI_INT, 1, 128, W, &st);
    check_fill(v, 6, 22, "bsend");
    observed("bsend %s", st_str(&st, MPI_INT));
    MPI_Recv(dv, 4, MPI_DOUBLE, 1, 129, W, &st);
    observed("bsend double %s values %.2f %.2f", st_str(&st, MPI_DOUBLE), dv[0], dv[1]);
    MPI_Irecv(v, 16, MPI_INT, 1, 131, W, &r);
    int ready = 1;
    MPI_Send(&ready, 1, MPI_INT, 1, 130, W);
    MPI_Wait(&r, &st);
    check_fill(v, 7, 23, "rsend");
    observed("rsend %s", st_str(&st, MPI_INT));
  }
}

static void check_persistent(void) {
  int v[8] = {0}; /* Send_init reads no data, but GCC cannot know */
  MPI_Request r[2];
  MPI_Status st[2];
  if (rank == 1) {
    MPI_Send_init(v, 4, MPI_INT, 0, 132, W, &r[0]);
    for (int it = 0; it < 3; it++) {
      fill(v, 4, 24 + it);
      MPI_Start(&r[0]);
      MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r[0]);
  } else if (rank == 0) {
    MPI_Recv_init(v, 8, MPI_INT, 1, 132, W, &r[0]);
    for (int it = 0; it < 3; it++) {
      MPI_Start(&r[0]);
      MPI_Wait(&r[0], &st[0]);
      check_fill(v, 4, 24 + it, "persistent");
      observed("persistent %d %s sum %ld", it, st_str(&st[0], MPI_INT), isum(v, 4));
    }
    MPI_Request_free(&r[0]);
  }
  /* Startall: rank 0 receives from 1 (3 ints) and 2 (5 ints), persistent on both sides */
  int a[8], b[8];
  if (rank == 0) {
    MPI_Recv_init(a, 8, MPI_INT, 1, 133, W, &r[0]);
    MPI_Recv_init(b, 8, MPI_INT, 2, 134, W, &r[1]);
    for (int it = 0; it < 2; it++) {
      MPI_Startall(2, r);
      MPI_Waitall(2, r, st);
      check_fill(a, 3, 27 + it, "startall 1");
      check_fill(b, 5, 29 + it, "startall 2");
      observed("startall %d %s / %s", it, st_str(&st[0], MPI_INT), st_str(&st[1], MPI_INT));
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
  } else if (rank == 1 || rank == 2) {
    const int n = rank == 1 ? 3 : 5;
    MPI_Send_init(a, n, MPI_INT, 0, 132 + rank, W, &r[0]);
    for (int it = 0; it < 2; it++) {
      fill(a, n, (rank == 1 ? 27 : 29) + it);
      MPI_Startall(1, r);
      MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r[0]);
  }
}

/* The count after a truncated receive, where it is defined by the implementation. */
static int truncated_count(int count) {
#ifdef OPEN_MPI
  return count;
#else
  (void)count;
  return -1;
#endif
}

/* "WHAT failed F is_err_truncate T source S tag G count C" of a receive that returned rc with
 * status st (count: truncated_count's) */
static void observe_truncation(const char *what, int rc, const MPI_Status *st) {
  int cls, count;
  MPI_Error_class(rc, &cls);
  MPI_Get_count(st, MPI_INT, &count);
  observed("%s failed %d is_err_truncate %d source %d tag %d count %d", what, rc != MPI_SUCCESS,
           cls == MPI_ERR_TRUNCATE, st->MPI_SOURCE, st->MPI_TAG, truncated_count(count));
}

/* Messages to self, blocking and nonblocking, on MPI_COMM_WORLD and MPI_COMM_SELF (MPICH
 * completes a send to self only once it is received: a header must never be waited for). */
static void check_self(void) {
  int out[3], in[3];
  MPI_Status st;
  MPI_Request rq, sq;
  MPI_Comm comms[2] = {W, MPI_COMM_SELF};
  for (int c = 0; c < 2; c++) {
    const int me = c == 0 ? rank : 0;
    fill(out, 3, 40 + c);
    MPI_Irecv(in, 3, MPI_INT, me, 150, comms[c], &rq);
    MPI_Send(out, 3, MPI_INT, me, 150, comms[c]);
    MPI_Wait(&rq, &st);
    check_fill(in, 3, 40 + c, "self send");
    observed("self blocking send %s", st_str(&st, MPI_INT));
    MPI_Isend(out, 2, MPI_INT, me, 151, comms[c], &sq);
    MPI_Recv(in, 3, MPI_INT, MPI_ANY_SOURCE, 151, comms[c], &st);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    observed("self isend wildcard recv %s", st_str(&st, MPI_INT));
  }
}

static void check_truncation(void) {
  MPI_Comm tc;
  MPI_Comm_dup(W, &tc);
  MPI_Comm_set_errhandler(tc, MPI_ERRORS_RETURN);
  int v[16];
  MPI_Status st;
  MPI_Request r;
  if (rank == 1) {
    static const int sizes[6] = {10, 2, 5, 0, 6, 4}, seeds[6] = {31, 32, 33, 0, 34, 35};
    for (int k = 0; k < 6; k++) send_filled(v, sizes[k], seeds[k], 140 + k, tc);
  } else if (rank == 0) {
    int rc;
    poison(&st);
    rc = MPI_Recv(v, 4, MPI_INT, 1, 140, tc, &st);
    observe_truncation("truncate recv", rc, &st);
    MPI_Recv(v, 16, MPI_INT, 1, 141, tc, &st);
    check_fill(v, 2, 32, "after truncate 1");
    observed("after truncate %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 16, MPI_INT, 1, 142, tc, &st);
    check_fill(v, 5, 33, "after truncate 2");
    observed("after truncate %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 16, MPI_INT, 1, 143, tc, &st);
    observed("after truncate %s", st_str(&st, MPI_INT));
    poison(&st);
    MPI_Irecv(v, 3, MPI_INT, 1, 144, tc, &r);
    /* MPICH 4.0 raises errors of MPI_Wait on MPI_COMM_WORLD's handler, not the request's
     * communicator's: make both return for this one call */
    MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN);
    rc = MPI_Wait(&r, &st);
    MPI_Comm_set_errhandler(W, MPI_ERRORS_ARE_FATAL);
    observe_truncation("truncate irecv", rc, &st);
    MPI_Recv(v, 16, MPI_INT, 1, 145, tc, &st);
    check_fill(v, 4, 35, "after truncate 3");
    observed("after truncate %s", st_str(&st, MPI_INT));
  }
  /* a truncated wildcard receive: a single candidate (after the barrier only rank 2 sends) */
  MPI_Barrier(W);
  if (rank == 2) {
    send_filled(v, 9, 36, 146, tc);
    send_filled(v, 3, 37, 147, tc);
  } else if (rank == 0) {
    int rc;
    poison(&st);
    rc = MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, tc, &st);
    observe_truncation("truncate wildcard", rc, &st);
    MPI_Recv(v, 16, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, tc, &st);
    check_fill(v, 3, 37, "after wildcard truncate");
    observed("after truncate wildcard %s", st_str(&st, MPI_INT));
  }
  MPI_Comm_free(&tc);
}

/* Small messages sent while every clock is still zero (no wildcard receive yet) go in races
 * mode's short form, one byte and the data (message_wire.h), whatever layout the receive
 * has: copied, a derived type in place (a partial element, holes untouched), a large
 * receive in place, MPI_Request_get_status before the wait, a zero-byte message, a
 * Sendrecv_replace. MPI cannot see a short message's truncation, mpirr reports it: MPI_Recv,
 * MPI_Wait, and MPI_Waitall (MPI_ERR_IN_STATUS, the status of the truncated one only). */
static void check_short(void) {
  static int big[300000];
  MPI_Comm tc;
  MPI_Comm_dup(W, &tc);
  MPI_Comm_set_errhandler(tc, MPI_ERRORS_RETURN);
  MPI_Datatype vt;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vt); /* 6 ints over an extent of 10 */
  MPI_Type_commit(&vt);
  int v[40], w[8];
  MPI_Status st, sts[2];
  MPI_Request r[2];
  if (rank == 1) {
    /* sizes: truncated into 3, into 2, a Waitall's good and truncated ones, a partial vector
     * element, into a large receive, through Request_get_status, zero bytes */
    static const int sizes[8] = {6, 5, 3, 4, 3, 5, 7, 0};
    for (int k = 0; k < 8; k++) send_filled(v, sizes[k], 50 + k, 160 + k, tc);
    fill(v, 2, 57);
    MPI_Sendrecv_replace(v, 2, MPI_INT, 0, 168, 0, 169, tc, &st);
    check_fill(v, 2, 58, "short sendrecv_replace");
    send_filled(v, 4, 59, 170, tc);
  } else if (rank == 0) {
    int rc, cls, cls0, cls1, flag = 0;
    poison(&st);
    rc = MPI_Recv(v, 3, MPI_INT, 1, 160, tc, &st);
    observe_truncation("short truncate recv", rc, &st);
    poison(&st);
    MPI_Irecv(v, 2, MPI_INT, 1, 161, tc, &r[0]);
    MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN); /* MPICH 4.0: see check_truncation */
    rc = MPI_Wait(&r[0], &st);
    observe_truncation("short truncate wait", rc, &st);
    MPI_Irecv(v, 4, MPI_INT, 1, 162, tc, &r[0]);
    MPI_Irecv(w, 1, MPI_INT, 1, 163, tc, &r[1]);
    rc = MPI_Waitall(2, r, sts);
    MPI_Comm_set_errhandler(W, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(rc, &cls);
    MPI_Error_class(sts[0].MPI_ERROR, &cls0);
    MPI_Error_class(sts[1].MPI_ERROR, &cls1);
    check_fill(v, 3, 52, "short waitall");
    observed("short truncate waitall in_status %d first ok %d second truncated %d first %s",
             cls == MPI_ERR_IN_STATUS, cls0 == MPI_SUCCESS, cls1 == MPI_ERR_TRUNCATE, st_str(&sts[0], MPI_INT));
    for (int i = 0; i < 40; i++) v[i] = -1;
    MPI_Recv(v, 2, vt, 1, 164, tc, &st); /* 3 ints: positions 0, 1 and 4 */
    observed("short into vector %s values %d %d %d holes %d %d %d", st_str(&st, vt), v[0], v[1], v[4], v[2], v[3],
             v[5]);
    big[5] = -1;
    MPI_Recv(big, 300000, MPI_INT, 1, 165, tc, &st);
    check_fill(big, 5, 55, "short into a large receive");
    observed("short into large %s untouched %d", st_str(&st, MPI_INT), big[5] == -1);
    MPI_Irecv(v, 8, MPI_INT, 1, 166, tc, &r[0]);
    while (MPI_Request_get_status(r[0], &flag, &st), !flag) poll_pause();
    observed("short get_status %s", st_str(&st, MPI_INT));
    MPI_Wait(&r[0], &st);
    check_fill(v, 7, 56, "short get_status");
    observed("short get_status wait %s", st_str(&st, MPI_INT));
    MPI_Recv(v, 8, MPI_INT, 1, 167, tc, &st);
    observed("short zero bytes %s", st_str(&st, MPI_INT));
    fill(v, 2, 58);
    MPI_Sendrecv_replace(v, 2, MPI_INT, 1, 169, 1, 168, tc, &st);
    check_fill(v, 2, 57, "short sendrecv_replace");
    observed("short sendrecv_replace %s", st_str(&st, MPI_INT));
    for (int i = 0; i < 40; i++) v[i] = -1;
    MPI_Irecv(v, 2, vt, 1, 170, tc, &r[0]); /* 4 ints: positions 0, 1, 4 and 5 */
    while (MPI_Request_get_status(r[0], &flag, &st), !flag) poll_pause();
    rc = MPI_Wait(&r[0], &st);
    observed("short get_status vector rc %d %s values %d %d %d %d hole %d", rc, st_str(&st, vt), v[0], v[1], v[4],
             v[5], v[2]);
  }
  MPI_Type_free(&vt);
  MPI_Comm_free(&tc);
}

/* Races mode lays a message out as a header slot then the data: copied through a buffer when
 * small and contiguous, in place with a struct datatype otherwise (message_wire.h). Each side
 * chooses on its own, so every pairing must read as natively: a large message, a small one
 * into a large receive, a non-contiguous Sendrecv_replace (packed), MPI_Request_get_status
 * before the completion, a large buffered send, and persistent sends whose data changes
 * between starts (small: copied again at every start; large: in place). */
enum { BIG = 300000 }; /* ints: 1.2 MB, above the copy limit, which is 4 KiB or 1 MiB */
static void check_layouts(void) {
  static int big[BIG], big2[BIG];
  MPI_Status st;
  MPI_Request r;
  MPI_Datatype vt;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vt); /* 3 ints over an extent of 5 */
  MPI_Type_commit(&vt);
  if (rank == 1) {
    fill(big, BIG, 41);
    MPI_Isend(big, BIG, MPI_INT, 0, 160, W, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    fill(big2, 3, 42);
    MPI_Send(big2, 3, MPI_INT, 0, 161, W);
    fill(big2, 5, 43);
    MPI_Send(big2, 5, MPI_INT, 0, 162, W);
    int bsize;
    MPI_Pack_size(BIG, MPI_INT, W, &bsize);
    bsize += MPI_BSEND_OVERHEAD;
    char *bbuf = malloc((size_t)bsize);
    if (!bbuf) fail("out of memory");
    MPI_Buffer_attach(bbuf, bsize);
    fill(big, BIG, 44);
    MPI_Bsend(big, BIG, MPI_INT, 0, 163, W);
    void *det;
    int detsize;
    MPI_Buffer_detach(&det, &detsize);
    if (det != bbuf || detsize != bsize) fail("Buffer_detach gave %p %d", det, detsize);
    free(bbuf);
    int small[4];
    MPI_Request ps[2];
    MPI_Status pst[2]; /* not MPI_STATUSES_IGNORE: GCC's access checks reject Open MPI's */
    MPI_Send_init(small, 4, MPI_INT, 0, 164, W, &ps[0]);
    MPI_Send_init(big, BIG, MPI_INT, 0, 165, W, &ps[1]);
    for (int round = 0; round < 2; round++) {
      fill(small, 4, 45 + round);
      fill(big, BIG, 47 + round);
      MPI_Startall(2, ps);
      MPI_Waitall(2, ps, pst);
    }
    MPI_Request_free(&ps[0]);
    MPI_Request_free(&ps[1]);
  } else if (rank == 0) {
    MPI_Irecv(big2, BIG, MPI_INT, 1, 160, W, &r);
    MPI_Wait(&r, &st);
    check_fill(big2, BIG, 41, "big irecv");
    observed("layout big %s", st_str(&st, MPI_INT));
    MPI_Recv(big2, BIG, MPI_INT, 1, 161, W, &st);
    check_fill(big2, 3, 42, "small into big");
    observed("layout small into big %s", st_str(&st, MPI_INT));
    int flag = 0, small[8];
    MPI_Irecv(small, 8, MPI_INT, 1, 162, W, &r);
    while (!flag) MPI_Request_get_status(r, &flag, &st);
    check_fill(small, 5, 43, "get_status before wait");
    observed("layout get_status %s", st_str(&st, MPI_INT));
    MPI_Wait(&r, &st);
    observed("layout get_status then wait %s", st_str(&st, MPI_INT));
    MPI_Recv(big2, BIG, MPI_INT, 1, 163, W, &st);
    check_fill(big2, BIG, 44, "big bsend");
    observed("layout big bsend %s", st_str(&st, MPI_INT));
    for (int round = 0; round < 2; round++) {
      MPI_Recv(small, 8, MPI_INT, 1, 164, W, &st);
      check_fill(small, 4, 45 + round, "persistent small");
      observed("layout persistent small %d %s", round, st_str(&st, MPI_INT));
      MPI_Recv(big2, BIG, MPI_INT, 1, 165, W, &st);
      check_fill(big2, BIG, 47 + round, "persistent big");
      observed("layout persistent big %d %s", round, st_str(&st, MPI_INT));
    }
  }
  if (rank == 0 || rank == 2) {
    const int peer = 2 - rank;
    int v[10];
    for (int i = 0; i < 10; i++) v[i] = -1;
    for (int i = 0; i < 5; i += 2) v[i] = 500 + 10 * rank + i;
    MPI_Sendrecv_replace(v, 1, vt, peer, 166, peer, 166, W, &st);
    if (rank == 0)
      observed("layout sendrecv_replace vector %s values %d %d %d holes %d %d", st_str(&st, vt), v[0], v[2], v[4],
               v[1], v[3]);
  }
  MPI_Type_free(&vt);
}

int main(int argc, char **argv) {
  prog_init(&argc, &argv, &rank, &size, 3);
  digest_init(&dg);
  check_short();
  check_basic_types();
  check_vector();
  check_probes();
  check_zero_bytes();
  check_proc_null();
  check_status_ignore();
  check_nonblocking();
  check_sendrecv();
  check_send_modes();
  check_persistent();
  check_self();
  check_truncation();
  check_layouts();
  return digest_finish(&dg);
}
