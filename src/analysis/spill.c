/* spill.c: the run model's big arrays in an unlinked temp file mapped into one reserved range
 * of addresses (spill.h). Arrays are placed one after the other; the one placed last grows in
 * place (ranks load one at a time, so each rank's operations are one block).
 *
 * Trimming: a thread checks every 20 ms how many file pages the process has mapped
 * (/proc/self/statm). Past the budget it looks at which of the file's pages are mapped
 * (/proc/self/pagemap, 1 MiB segments) and drops the coldest segments (spill_cold.c: the
 * segments whose mapped pages have not grown for the most trims) until half the budget is
 * left (madvise DONTNEED: shared pages stay in the page cache, written back to the file when
 * the kernel needs the memory). So the peak RSS stays bounded whatever the trace's size, and
 * what a sweep is using (each rank's position in its operations and steps, each channel's
 * in the messages) stays mapped rather than faulted in again after every trim (issue 35;
 * docs/benchmarks.md: on the synthetic traces that cost was small next to the file's first
 * touch). Without a readable pagemap the trimmer drops every page at each trim. */
#include "spill.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "reserve.h"
#include "spill_cold.h"

#define SPILL_CHUNK ((size_t)64 << 20) /* the file and its mapping grow by this much */
#define SPILL_TRIM_NS 20000000L        /* how often the resident pages are checked */
#define SPILL_RESIDENT ((size_t)1 << 30) /* the file's bytes the process may keep mapped */
#define SPILL_SCAN_SEGS 64               /* segments whose pagemap entries one read takes */

struct an_spill {
    int fd;
    char *base;       /* the reserved range */
    size_t reserved;  /* its bytes */
    size_t mapped;    /* bytes mapped at base: the file's, then anonymous memory's */
    size_t file_end;  /* the file's part of them (what the trimmer may drop) */
    size_t used;      /* end of the last array */
    char *last;       /* the array placed last (grows in place) */
    size_t budget;    /* resident file bytes the trimmer allows */
    long page;
    int pagemap;      /* /proc/self/pagemap, or -1: every trim drops every page */
    spill_seg *segs;  /* the file's segments (spill_cold.h), as far as the trimmer has seen */
    uint64_t *order;  /* spill_cold_pick's scratch, nsegs entries */
    uint32_t *pick;   /* and its answer, nsegs entries */
    size_t nsegs;
    uint32_t epoch;   /* trims so far */
    size_t other;     /* file bytes mapped that are not the spill's (the program, libraries) */
    uint64_t *scan;   /* pagemap entries of SPILL_SCAN_SEGS segments */
    struct spill_block { size_t off, bytes; } *blocks; /* the arrays, in file order */
    size_t nblocks, capblocks;
    pthread_t trimmer;
    pthread_mutex_t mu; /* mapped and the mapping vs. the trimmer's madvise */
    pthread_cond_t cv;
    int stop;
};

/* Resident shared (file-backed) bytes of this process: statm's third field. */
static size_t resident_file_bytes(long page)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size, rss, shared = 0;
    if (!f) return 0;
    if (fscanf(f, "%lu %lu %lu", &size, &rss, &shared) != 3) shared = 0;
    fclose(f);
    return (size_t)shared * (size_t)page;
}

/* Makes the trimmer's tables cover the file's segments. 0 or -1 (no memory). */
static int segs_cover(an_spill *s, size_t n)
{
    if (n <= s->nsegs) return 0;
    spill_seg *g = realloc(s->segs, n * sizeof *g);
    if (g) s->segs = g;
    uint64_t *o = g ? realloc(s->order, n * sizeof *o) : NULL;
    if (o) s->order = o;
    uint32_t *k = o ? realloc(s->pick, n * sizeof *k) : NULL;
    if (!k) return -1;
    s->pick = k;
    memset(s->segs + s->nsegs, 0, (n - s->nsegs) * sizeof *s->segs);
    s->nsegs = n;
    return 0;
}

/* Reads which of the file's pages are mapped into the segments' counts (a new look at trim
 * s->epoch); the spill's mapped pages, or -1 (no pagemap to read). */
static long long scan_segments(an_spill *s)
{
    const size_t per = SPILL_SEG / (size_t)s->page;
    long long total = 0;
    for (size_t i = 0; i < s->nsegs; i += SPILL_SCAN_SEGS) {
        size_t n = s->nsegs - i < SPILL_SCAN_SEGS ? s->nsegs - i : SPILL_SCAN_SEGS;
        size_t bytes = n * per * sizeof *s->scan;
        off_t at = (off_t)((uintptr_t)(s->base + i * SPILL_SEG) / (uintptr_t)s->page * sizeof *s->scan);
        if (pread(s->pagemap, s->scan, bytes, at) != (ssize_t)bytes) return -1;
        for (size_t j = 0; j < n; j++) {
            uint32_t present = 0;
            for (size_t e = j * per; e < (j + 1) * per; e++) present += (uint32_t)(s->scan[e] >> 63);
            spill_cold_observe(&s->segs[i + j], present, s->epoch);
            total += present;
        }
    }
    return total;
}

/* Drops the coldest segments until half the budget is mapped (every page when the pagemap
 * cannot tell which are mapped). */
static void trim(an_spill *s, size_t file_bytes)
{
    s->epoch++;
    long long mapped = -1;
    if (s->pagemap >= 0 && !segs_cover(s, s->file_end / SPILL_SEG)) mapped = scan_segments(s);
    if (mapped < 0) {
        madvise(s->base, s->file_end, MADV_DONTNEED);
        return;
    }
    size_t spill_bytes = (size_t)mapped * (size_t)s->page;
    s->other = file_bytes > spill_bytes ? file_bytes - spill_bytes : 0;
    size_t keep = s->budget / 2 / (size_t)s->page;
    if ((size_t)mapped <= keep) return;
    size_t k = spill_cold_pick(s->segs, s->nsegs, (size_t)mapped - keep, s->order, s->pick);
    for (size_t i = 0; i < k;) { /* runs of adjacent segments: one madvise each */
        size_t j = i + 1;
        while (j < k && s->pick[j] == s->pick[j - 1] + 1) j++;
        madvise(s->base + (size_t)s->pick[i] * SPILL_SEG, (j - i) * SPILL_SEG, MADV_DONTNEED);
        for (; i < j; i++) s->segs[s->pick[i]].present = 0;
    }
}

static void *trim_loop(void *arg)
{
    an_spill *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += SPILL_TRIM_NS;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->cv, &s->mu, &t);
        if (s->stop || !s->file_end) continue;
        size_t file_bytes = resident_file_bytes(s->page);
        if (file_bytes > s->budget + s->other) trim(s, file_bytes);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

an_spill *an_spill_open(void)
{
    an_spill *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/mpirr-analysis-XXXXXX", dir && *dir ? dir : "/tmp");
    s->fd = mkostemp(path, O_CLOEXEC);
    if (s->fd < 0) {
        free(s);
        return NULL;
    }
    unlink(path); /* nobody else needs its name: it goes with the process, however it ends */
    /* as much address space as the machine gives, from 1 TiB down */
    for (s->reserved = (size_t)1 << 40; s->reserved >= ((size_t)1 << 32); s->reserved /= 2) {
        void *b = mmap(NULL, s->reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (b != MAP_FAILED) {
            s->base = b;
            break;
        }
    }
    s->page = sysconf(_SC_PAGESIZE);
    s->budget = SPILL_RESIDENT;
    /* a knob for measurements (docs/analysis.md, "Memory"): another budget, in MiB */
    const char *mb = getenv("MPIRR_SPILL_RESIDENT_MB");
    if (mb && *mb >= '1' && *mb <= '9') s->budget = (size_t)strtoull(mb, NULL, 10) << 20;
    s->pagemap = -1;
    if ((size_t)s->page <= SPILL_SEG &&
        (s->scan = malloc(SPILL_SCAN_SEGS * (SPILL_SEG / (size_t)s->page) * sizeof *s->scan)))
        s->pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    /* the trimmer takes no signal: they stay the CLI's, delivered where it expects them
     * (a thread with a signal unblocked would take one the main thread blocks for signalfd) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = s->base && !pthread_create(&s->trimmer, NULL, trim_loop, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) {
        if (s->base) munmap(s->base, s->reserved);
        if (s->pagemap >= 0) close(s->pagemap);
        free(s->scan);
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        close(s->fd);
        free(s);
        return NULL;
    }
    return s;
}

void an_spill_close(an_spill *s)
{
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->trimmer, NULL);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    munmap(s->base, s->reserved);
    close(s->fd);
    if (s->pagemap >= 0) close(s->pagemap);
    free(s->scan);
    free(s->segs);
    free(s->order);
    free(s->pick);
    free(s->blocks);
    free(s);
}

/* Makes the mapping reach end (bytes from base): the file's, or, once the file cannot grow
 * (a full disk, a file size limit), anonymous memory, as without the spill (never trimmed:
 * its pages are the only copy). 0 or -1 (no memory either). */
static int spill_extend(an_spill *s, size_t end)
{
    if (end <= s->mapped) return 0;
    size_t to = (end + SPILL_CHUNK - 1) / SPILL_CHUNK * SPILL_CHUNK;
    if (to > s->reserved || to < end) return -1;
    int rc = -1;
    if (s->file_end == s->mapped) { /* the file still grows */
        /* blocks allocated now: a full disk is an error here, not a SIGBUS at some store later */
        rc = fallocate(s->fd, 0, (off_t)s->mapped, (off_t)(to - s->mapped));
        if (rc && (errno == EOPNOTSUPP || errno == ENOSYS)) rc = ftruncate(s->fd, (off_t)to);
    }
    pthread_mutex_lock(&s->mu);
    void *m = rc ? MAP_FAILED
                 : mmap(s->base + s->mapped, to - s->mapped, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_FIXED, s->fd, (off_t)s->mapped);
    if (m != MAP_FAILED) s->file_end = to;
    else
        m = mmap(s->base + s->mapped, to - s->mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (m != MAP_FAILED) s->mapped = to;
    pthread_mutex_unlock(&s->mu);
    return m == MAP_FAILED ? -1 : 0;
}

static int owns(const an_spill *s, const void *p)
{
    return s && (const char *)p >= s->base && (const char *)p < s->base + s->reserved;
}

int an_spill_reserve(an_spill *s, void **p, size_t *cap, size_t need, size_t size)
{
    if (!s) return mpirr_reserve(p, cap, need, size);
    if (need <= *cap) return 0;
    if (*p && *p == s->last) { /* in place: no copy, so grow by a little only */
        size_t c = need + need / 16 + 1024;
        size_t off = (size_t)(s->last - s->base);
        if (c > (SIZE_MAX - off) / size || spill_extend(s, off + c * size)) return -1;
        s->used = off + c * size;
        s->blocks[s->nblocks - 1].bytes = c * size;
        *cap = c;
        return 0;
    }
    size_t c = *cap ? *cap * 2 : need + need / 16 + 1024;
    while (c < need) c *= 2;
    size_t off = (s->used + 63) & ~(size_t)63;
    if (c > (SIZE_MAX - off) / size || spill_extend(s, off + c * size) ||
        mpirr_reserve((void **)&s->blocks, &s->capblocks, s->nblocks + 1, sizeof *s->blocks))
        return -1;
    s->blocks[s->nblocks++] = (struct spill_block){off, c * size};
    if (*p) {
        memcpy(s->base + off, *p, *cap * size);
        an_spill_free(s, *p);
    }
    s->last = s->base + off;
    s->used = off + c * size;
    *p = s->last;
    *cap = c;
    return 0;
}

void *an_spill_calloc(an_spill *s, size_t n, size_t size)
{
    if (!s) return calloc(n, size);
    void *p = NULL;
    size_t cap = 0;
    return an_spill_reserve(s, &p, &cap, n, size) ? NULL : p;
}

void an_spill_free(an_spill *s, void *p)
{
    if (!owns(s, p)) {
        free(p);
        return;
    }
    size_t off = (size_t)((char *)p - s->base), lo = 0, hi = s->nblocks;
    while (lo < hi) { /* blocks are in file order */
        size_t mid = lo + (hi - lo) / 2;
        if (s->blocks[mid].off < off) lo = mid + 1;
        else hi = mid;
    }
    if (lo == s->nblocks || s->blocks[lo].off != off) return;
    /* its whole pages leave the process, the page cache and the disk (never reused: the
     * file's unused space reads as zeros, which an_spill_calloc relies on) */
    size_t pg = (size_t)s->page, from = (off + pg - 1) / pg * pg;
    size_t to = (off + s->blocks[lo].bytes) / pg * pg;
    if (to > from) {
        madvise(s->base + from, to - from, MADV_DONTNEED);
        fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(to - from));
    }
    s->blocks[lo].bytes = 0;
}
