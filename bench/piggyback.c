/* piggyback: what it costs, in plain MPI, to attach a small header (the piggyback: 16 or 64 bytes
 * of timestamps) invisibly to every point-to-point message, for the three mechanisms race mode
 * could use (issue 3), against the same ping-pong without a header:
 *  - datatype: an MPI_Type_create_struct of the header (absolute address) and the user's
 *    count x datatype, sent from and received into MPI_BOTTOM; built, committed and freed on
 *    every call, as an interposer without a type cache would. The receive rewrites the status
 *    (MPI_Status_set_elements) so that MPI_Get_count sees the user's count, not header + data;
 *  - pack: MPI_Pack of header and data into a bounce buffer (kept between calls), sent as
 *    MPI_PACKED, received as MPI_PACKED into the bounce buffer and MPI_Unpack'ed; the status is
 *    rewritten the same way;
 *  - shadow: the header as its own message on an MPI_Comm_dup of the user's communicator, same
 *    destination and tag, posted (MPI_Isend) before the data message; the receiver receives the
 *    data, then the header from the data's matched source and tag on the shadow communicator.
 * Ranks 0 and 1 ping-pong with blocking MPI_Send/MPI_Recv, every receive with MPI_ANY_SOURCE as
 * race mode's wildcard receives would be, for MPI_BYTE payloads of 8 B .. 4 MiB and a strided
 * 16 KiB MPI_Type_vector. Each (size, mechanism) is first checked once (payload, header, holes
 * of the strided type, MPI_Get_count/MPI_Get_elements), then calibrated to about argv[1] seconds
 * (default 0.3; the calibration doubles as warm-up), then timed argv[2] times (default 5),
 * repetitions interleaved across mechanisms; the median is reported. Rank 0 prints markdown: one
 * table per header size (ns per message = round trip / 2; +ns and x against the baseline), the
 * cost of building the struct type alone, and what the receive status holds with the datatype
 * mechanism before the fix-up and after a truncating receive. Does not use mpirr. Other ranks
 * (if any) only join the collectives. */
#include "common.h"

#include <math.h>
#include <string.h>

enum { TAG_PING = 7, NREPS_MAX = 50, MAX_HDR_WORDS = 8 };
enum { M_BASE, M_DTYPE, M_PACK, M_SHADOW, NMECH };
static const char *const mech_name[NMECH] = {"baseline", "datatype", "pack", "shadow-comm"};
static const int hdr_words_list[] = {2, 8}; /* 16 B and 64 B of uint64_t timestamps */
#define NHDR ((int)(sizeof hdr_words_list / sizeof hdr_words_list[0]))
#define NCFG (1 + 3 * NHDR) /* the baseline, then every mechanism for every header size */

/* a user message: count x type in a buffer of `span` bytes */
typedef struct {
  const char *label;
  MPI_Datatype type;
  int count;
  size_t span;  /* bytes the buffer must have (extent of the whole message) */
  int vector;   /* 1: strided doubles, data only in the first 8 bytes of every 16 */
  size_t bytes; /* payload bytes */
} msg_t;

/* per-rank state of one mechanism */
typedef struct {
  int mech, hdr_words;
  MPI_Comm comm, shadow;
  uint64_t shdr[MAX_HDR_WORDS], rhdr[MAX_HDR_WORDS];
  char *bounce;
  int bounce_cap;
} pb_t;

static char *xmalloc(size_t n) {
  char *p = (char *)malloc(n ? n : 1);
  if (!p) fail("out of memory (%zu bytes)", n);
  return p;
}

static void bounce_reserve(pb_t *pb, int n) {
  if (n <= pb->bounce_cap) return;
  free(pb->bounce);
  pb->bounce = xmalloc((size_t)n);
  pb->bounce_cap = n;
}

/* struct type {header words at rhdr/shdr, count x type at buf}, absolute addresses */
static MPI_Datatype hdr_struct(uint64_t *hdr, int hdr_words, const void *buf, int count, MPI_Datatype type) {
  int lens[2] = {hdr_words, count};
  MPI_Aint disp[2];
  MPI_Datatype types[2] = {MPI_UINT64_T, type}, t;
  MPI_Get_address(hdr, &disp[0]);
  MPI_Get_address(buf, &disp[1]);
  MPI_Type_create_struct(2, lens, disp, types, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Send count x type with the header {stamp, stamp+1, ...} piggybacked by pb->mech. */
static void pb_send(pb_t *pb, const void *buf, int count, MPI_Datatype type, int dest, int tag, uint64_t stamp) {
  if (pb->mech == M_BASE) {
    MPI_Send(buf, count, type, dest, tag, pb->comm);
    return;
  }
  for (int w = 0; w < pb->hdr_words; w++) pb->shdr[w] = stamp + (uint64_t)w;
  if (pb->mech == M_DTYPE) {
    MPI_Datatype t = hdr_struct(pb->shdr, pb->hdr_words, buf, count, type);
    MPI_Send(MPI_BOTTOM, 1, t, dest, tag, pb->comm);
    MPI_Type_free(&t);
  } else if (pb->mech == M_PACK) {
    int hsz, dsz, pos = 0;
    MPI_Pack_size(pb->hdr_words, MPI_UINT64_T, pb->comm, &hsz);
    MPI_Pack_size(count, type, pb->comm, &dsz);
    bounce_reserve(pb, hsz + dsz);
    MPI_Pack(pb->shdr, pb->hdr_words, MPI_UINT64_T, pb->bounce, pb->bounce_cap, &pos, pb->comm);
    MPI_Pack(buf, count, type, pb->bounce, pb->bounce_cap, &pos, pb->comm);
    MPI_Send(pb->bounce, pos, MPI_PACKED, dest, tag, pb->comm);
  } else {
    /* Isend, not Send: a blocking header send may legally wait for its receive, which the
     * receiver posts only after the data message has matched. */
    MPI_Request rq;
    MPI_Isend(pb->shdr, pb->hdr_words, MPI_UINT64_T, dest, tag, pb->shadow, &rq);
    MPI_Send(buf, count, type, dest, tag, pb->comm);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  }
}

/* Receive count x type, the header into pb->rhdr; leaves in *st what a plain MPI_Recv would
 * (source, tag, and the user's count). Returns the header's first word (0 for the baseline). */
static uint64_t pb_recv(pb_t *pb, void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Status *st) {
  if (pb->mech == M_BASE) {
    MPI_Recv(buf, count, type, source, tag, pb->comm, st);
    return 0;
  }
  if (pb->mech == M_DTYPE) {
    MPI_Datatype t = hdr_struct(pb->rhdr, pb->hdr_words, buf, count, type);
    int n;
    MPI_Recv(MPI_BOTTOM, 1, t, source, tag, pb->comm, st);
    MPI_Type_free(&t);
    /* the status counts header + data: give the user back the data's byte count */
    MPI_Get_count(st, MPI_BYTE, &n);
    MPI_Status_set_elements(st, MPI_BYTE, n - pb->hdr_words * (int)sizeof(uint64_t));
  } else if (pb->mech == M_PACK) {
    int hsz, dsz, n, pos = 0, tsize;
    MPI_Pack_size(pb->hdr_words, MPI_UINT64_T, pb->comm, &hsz);
    MPI_Pack_size(count, type, pb->comm, &dsz);
    bounce_reserve(pb, hsz + dsz);
    MPI_Recv(pb->bounce, hsz + dsz, MPI_PACKED, source, tag, pb->comm, st);
    MPI_Get_count(st, MPI_PACKED, &n);
    MPI_Unpack(pb->bounce, n, &pos, pb->rhdr, pb->hdr_words, MPI_UINT64_T, pb->comm);
    const int dbytes = n - pos; /* homogeneous: packed data bytes == type size x elements */
    MPI_Type_size(type, &tsize);
    if (tsize > 0) MPI_Unpack(pb->bounce, n, &pos, buf, dbytes / tsize, type, pb->comm);
    MPI_Status_set_elements(st, MPI_BYTE, dbytes);
  } else {
    MPI_Recv(buf, count, type, source, tag, pb->comm, st);
    MPI_Recv(pb->rhdr, pb->hdr_words, MPI_UINT64_T, st->MPI_SOURCE, st->MPI_TAG, pb->shadow, MPI_STATUS_IGNORE);
  }
  return pb->rhdr[0];
}

/* ---- checks ---- */

static unsigned char pattern(size_t off, unsigned seed) { return (unsigned char)mix32((uint32_t)off, seed); }

static int is_data(const msg_t *m, size_t off) { return m->vector ? (off % 16) < 8 : off < m->bytes; }

/* One message 0 -> 1 and one back, into buffers prefilled with 0xee; checks payload, holes,
 * header, source, tag, MPI_Get_count and MPI_Get_elements. */
static void check_once(pb_t *pb, const msg_t *m, char *buf, int rank, unsigned seed) {
  for (int dir = 0; dir < 2; dir++) {
    const int sender = dir, receiver = 1 - dir;
    const unsigned s = seed * 2u + (unsigned)dir;
    if (rank == sender) {
      for (size_t i = 0; i < m->span; i++) buf[i] = (char)pattern(i, s);
      pb_send(pb, buf, m->count, m->type, receiver, TAG_PING, 1000u * s);
    } else if (rank == receiver) {
      MPI_Status st;
      int cnt, elems, esize;
      memset(buf, 0xee, m->span);
      memset(pb->rhdr, 0, sizeof pb->rhdr);
      pb_recv(pb, buf, m->count, m->type, MPI_ANY_SOURCE, TAG_PING, &st);
      if (st.MPI_SOURCE != sender || st.MPI_TAG != TAG_PING)
        fail("%s %s: status source %d tag %d", mech_name[pb->mech], m->label, st.MPI_SOURCE, st.MPI_TAG);
      for (size_t i = 0; i < m->span; i++) {
        const unsigned char want = is_data(m, i) ? pattern(i, s) : 0xee;
        if ((unsigned char)buf[i] != want)
          fail("%s %s: byte %zu is %#x, want %#x", mech_name[pb->mech], m->label, i, (unsigned char)buf[i], want);
      }
      for (int w = 0; pb->mech != M_BASE && w < pb->hdr_words; w++)
        if (pb->rhdr[w] != 1000u * s + (uint64_t)w)
          fail("%s %s: header word %d is %" PRIu64, mech_name[pb->mech], m->label, w, pb->rhdr[w]);
      MPI_Get_count(&st, m->type, &cnt);
      MPI_Get_elements(&st, m->type, &elems);
      MPI_Type_size(m->vector ? MPI_DOUBLE : MPI_BYTE, &esize);
      if (cnt != m->count || (size_t)elems * (size_t)esize != m->bytes)
        fail("%s %s: MPI_Get_count %d (want %d), MPI_Get_elements %d (want %zu)", mech_name[pb->mech], m->label,
             cnt, m->count, elems, m->bytes / (size_t)esize);
    }
  }
}

/* ---- timing ---- */

/* n round trips; rank 0 returns the elapsed seconds (from after a barrier to its last receive). */
static double run(pb_t *pb, const msg_t *m, char *buf, int rank, long n) {
  MPI_Status st;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0) {
    for (long i = 0; i < n; i++) {
      pb_send(pb, buf, m->count, m->type, 1, TAG_PING, (uint64_t)i);
      const uint64_t back = pb_recv(pb, buf, m->count, m->type, MPI_ANY_SOURCE, TAG_PING, &st);
      if (pb->mech != M_BASE && back != (uint64_t)i + 1) fail("%s: stamp %" PRIu64 " in round %ld", mech_name[pb->mech], back, i);
    }
  } else if (rank == 1) {
    for (long i = 0; i < n; i++) {
      const uint64_t got = pb_recv(pb, buf, m->count, m->type, MPI_ANY_SOURCE, TAG_PING, &st);
      pb_send(pb, buf, m->count, m->type, 0, TAG_PING, got + 1);
    }
  }
  return MPI_Wtime() - t0;
}

/* Doubles n until a run takes target/5, then scales to about target seconds (decided by rank 0). */
static long calibrate(pb_t *pb, const msg_t *m, char *buf, int rank, double target) {
  long n = 2;
  for (;;) {
    const double t = run(pb, m, buf, rank, n);
    long next = 0;
    if (rank == 0) {
      if (t >= target / 5 || n >= (1L << 40))
        next = -(long)fmax(1.0, ceil((double)n * target / fmax(t, 1e-9)));
      else
        next = n * 2;
    }
    MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (next < 0) return -next;
    n = next;
  }
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ns of MPI_Type_create_struct + commit + free for one message (no communication). */
static double struct_cost(const msg_t *m, char *buf) {
  uint64_t hdr[MAX_HDR_WORDS];
  const long n = 20000;
  const double t0 = MPI_Wtime();
  for (long i = 0; i < n; i++) {
    MPI_Datatype t = hdr_struct(hdr, 2, buf, m->count, m->type);
    MPI_Type_free(&t);
  }
  return (MPI_Wtime() - t0) * 1e9 / (double)n;
}

/* What the datatype mechanism leaves in the status before the fix-up, and what a truncating
 * receive reports: rank 0 sends, rank 1 receives and describes it in out (rank 1 only). */
static void status_demo(MPI_Comm world, int rank, char *out, size_t outsz) {
  MPI_Comm c;
  uint64_t shdr[2] = {1, 2}, rhdr[2];
  char sbuf[1000], rbuf[1000];
  memset(sbuf, 1, sizeof sbuf);
  MPI_Comm_dup(world, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  if (rank == 0) {
    for (int k = 0; k < 2; k++) {
      MPI_Datatype t = hdr_struct(shdr, 2, sbuf, 1000, MPI_BYTE);
      MPI_Send(MPI_BOTTOM, 1, t, 1, 1, c);
      MPI_Type_free(&t);
    }
    MPI_Send(sbuf, 1000, MPI_BYTE, 1, 1, c);
  } else if (rank == 1) {
    MPI_Status st;
    int nb, ni, nd, ne, nb2, ni2, rc, cls, len, nb3, rc4, nb4;
    char err[MPI_MAX_ERROR_STRING];
    MPI_Datatype t = hdr_struct(rhdr, 2, rbuf, 1000, MPI_BYTE);
    MPI_Recv(MPI_BOTTOM, 1, t, 0, 1, c, &st);
    MPI_Type_free(&t);
    MPI_Get_count(&st, MPI_BYTE, &nb);
    MPI_Get_count(&st, MPI_INT, &ni);
    MPI_Get_count(&st, MPI_DOUBLE, &nd);
    MPI_Get_elements(&st, MPI_BYTE, &ne);
    MPI_Status_set_elements(&st, MPI_BYTE, nb - 16);
    MPI_Get_count(&st, MPI_BYTE, &nb2);
    MPI_Get_count(&st, MPI_INT, &ni2);
    t = hdr_struct(rhdr, 2, rbuf, 999, MPI_BYTE); /* the user posted 999 bytes for 1000 */
    MPI_Status_set_elements(&st, MPI_BYTE, 77777); /* a sentinel: is the status written? */
    rc = MPI_Recv(MPI_BOTTOM, 1, t, 0, 1, c, &st);
    MPI_Type_free(&t);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(cls, err, &len);
    MPI_Get_count(&st, MPI_BYTE, &nb3);
    MPI_Status_set_elements(&st, MPI_BYTE, 77777);
    rc4 = MPI_Recv(rbuf, 999, MPI_BYTE, 0, 1, c, &st); /* the same without a header */
    MPI_Error_class(rc4, &rc4);
    MPI_Get_count(&st, MPI_BYTE, &nb4);
    snprintf(out, outsz,
             "- 1000 B + 16 B header, raw status: MPI_Get_count(MPI_BYTE) %d, (MPI_INT) %d, (MPI_DOUBLE) %d, "
             "MPI_Get_elements(MPI_BYTE) %d\n"
             "- after MPI_Status_set_elements(st, MPI_BYTE, n - 16): MPI_Get_count(MPI_BYTE) %d, (MPI_INT) %d\n"
             "- 1000 B sent, 999 B posted (+ header), status count preset to 77777: error class %d (%s; MPI_ERR_TRUNCATE is %d), "
             "MPI_Get_count(MPI_BYTE) %d; the same receive without header: error class %d, "
             "MPI_Get_count(MPI_BYTE) %d\n",
             nb, ni, nd, ne, nb2, ni2, cls, err, MPI_ERR_TRUNCATE, nb3, rc4, nb4);
  }
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const double target = argc > 1 && strtod(argv[1], NULL) > 0 ? strtod(argv[1], NULL) : 0.3;
  const int reps = argc > 2 && atoi(argv[2]) > 0 && atoi(argv[2]) <= NREPS_MAX ? atoi(argv[2]) : 5;

  MPI_Datatype vec;
  MPI_Type_vector(2048, 1, 2, MPI_DOUBLE, &vec); /* 16 KiB of doubles over 32 KiB */
  MPI_Type_commit(&vec);
  const msg_t msgs[] = {
      {"8 B", MPI_BYTE, 8, 8, 0, 8},
      {"64 B", MPI_BYTE, 64, 64, 0, 64},
      {"1 KiB", MPI_BYTE, 1024, 1024, 0, 1024},
      {"16 KiB", MPI_BYTE, 16384, 16384, 0, 16384},
      {"16 KiB vector", vec, 1, 2048 * 16 - 8, 1, 16384},
      {"256 KiB", MPI_BYTE, 262144, 262144, 0, 262144},
      {"4 MiB", MPI_BYTE, 4194304, 4194304, 0, 4194304},
  };
  enum { NMSG = sizeof msgs / sizeof msgs[0] };

  /* configurations: 0 baseline, then (mechanism, header) pairs */
  pb_t pbs[NCFG];
  MPI_Comm shadow;
  MPI_Comm_dup(MPI_COMM_WORLD, &shadow);
  for (int c = 0; c < NCFG; c++) {
    memset(&pbs[c], 0, sizeof pbs[c]);
    pbs[c].mech = c == 0 ? M_BASE : M_DTYPE + (c - 1) % 3;
    pbs[c].hdr_words = c == 0 ? 0 : hdr_words_list[(c - 1) / 3];
    pbs[c].comm = MPI_COMM_WORLD;
    pbs[c].shadow = shadow;
  }
  char *buf = xmalloc(msgs[NMSG - 1].span);
  memset(buf, 0, msgs[NMSG - 1].span);
  static double ns[NMSG][NCFG], spread[NMSG][NCFG];

  for (int mi = 0; mi < NMSG; mi++) {
    const msg_t *m = &msgs[mi];
    long iters[NCFG];
    double samples[NCFG][NREPS_MAX];
    for (int c = 0; c < NCFG; c++) {
      check_once(&pbs[c], m, buf, rank, (unsigned)(mi * NCFG + c));
      iters[c] = calibrate(&pbs[c], m, buf, rank, target);
    }
    for (int r = 0; r < reps; r++)
      for (int c = 0; c < NCFG; c++)
        samples[c][r] = run(&pbs[c], m, buf, rank, iters[c]) * 1e9 / (2.0 * (double)iters[c]);
    for (int c = 0; c < NCFG; c++) {
      qsort(samples[c], (size_t)reps, sizeof(double), cmp_double);
      ns[mi][c] = samples[c][reps / 2];
      spread[mi][c] = (samples[c][reps - 1] - samples[c][0]) / ns[mi][c];
    }
    if (rank == 0) {
      fprintf(stderr, "piggyback: %s done (iterations:", m->label);
      for (int c = 0; c < NCFG; c++) fprintf(stderr, " %ld", iters[c]);
      fprintf(stderr, ")\n");
    }
  }

  if (rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    printf("## piggyback: %s, %d ranks, %.2f s per sample, median of %d\n", lib, size, target, reps);
    for (int h = 0; h < NHDR; h++) {
      printf("\n**Header %d B** (ns per message, one way = round trip / 2; +ns and x against baseline):\n\n",
             hdr_words_list[h] * 8);
      printf("| size | baseline ns/msg | datatype | pack | shadow-comm |\n|---|---|---|---|---|\n");
      for (int mi = 0; mi < NMSG; mi++) {
        printf("| %s | %.0f", msgs[mi].label, ns[mi][0]);
        for (int k = 0; k < 3; k++) {
          const double v = ns[mi][1 + 3 * h + k], b = ns[mi][0];
          printf(" | %.0f (%+.0f, %.2fx)", v, v - b, v / b);
        }
        printf(" |\n");
      }
    }
    double worst = 0;
    int wm = 0, wc = 0;
    for (int mi = 0; mi < NMSG; mi++)
      for (int c = 0; c < NCFG; c++)
        if (spread[mi][c] > worst) worst = spread[mi][c], wm = mi, wc = c;
    printf("\nLargest spread (max - min) / median over the %d samples: %.1f%% (%s, %s, header %d B)\n", reps,
           100 * worst, msgs[wm].label, mech_name[pbs[wc].mech], pbs[wc].hdr_words * 8);
    printf("\nMPI_Type_create_struct + commit + free alone: %.0f ns (8 B MPI_BYTE), %.0f ns (4 MiB MPI_BYTE), "
           "%.0f ns (16 KiB vector)\n",
           struct_cost(&msgs[0], buf), struct_cost(&msgs[NMSG - 1], buf), struct_cost(&msgs[4], buf));
  }
  char demo[1024] = "";
  status_demo(MPI_COMM_WORLD, rank, demo, sizeof demo);
  if (rank == 1) MPI_Send(demo, (int)strlen(demo) + 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(demo, (int)sizeof demo, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("\nDatatype mechanism, receive status without the fix-up pb_recv() applies:\n%s", demo);
    fflush(stdout);
  }

  for (int c = 0; c < NCFG; c++) free(pbs[c].bounce);
  free(buf);
  MPI_Comm_free(&shadow);
  MPI_Type_free(&vec);
  MPI_Finalize();
  return 0;
}
