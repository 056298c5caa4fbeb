/* replay_control.c: creating and mapping the replay control file (replay_control.h). */
#include "replay_control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_io.h"

static size_t ctl_size(int nranks)
{
    return MPIRR_CTL_HEADER_SIZE + (size_t)nranks * MPIRR_CTL_SLOT_SIZE;
}

int mpirr_ctl_create(mpirr_ctl *c, const char *path, int nranks, char *err, size_t errlen)
{
    c->h = NULL;
    c->len = ctl_size(nranks > 0 ? nranks : 0);
    void *map = mpirr_map_create(path, c->len, err, errlen);
    if (!map) return -1;
    c->h = map;
    c->h->magic = MPIRR_CTL_MAGIC;
    c->h->version = MPIRR_CTL_VERSION;
    c->h->nranks = (uint32_t)nranks;
    c->h->slot_size = MPIRR_CTL_SLOT_SIZE;
    c->h->cli_pid = (int32_t)getpid();
    if (gethostname(c->h->cli_host, sizeof c->h->cli_host - 1) != 0) c->h->cli_host[0] = 0;
    for (int r = 0; r < nranks; r++) mpirr_ctl_slot_of(c, r)->stop = MPIRR_POS_NONE;
    return 0;
}

int mpirr_ctl_open(mpirr_ctl *c, const char *path, int nranks, char *err, size_t errlen)
{
    c->h = NULL;
    c->len = ctl_size(nranks);
    /* the CLI made it a moment ago; never follow a link planted at its name */
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || (size_t)st.st_size != c->len) {
        snprintf(err, errlen, "%s is not a control file for %d ranks (%lld bytes, expected %zu: "
                 "wrong number of ranks?)", path, nranks, (long long)st.st_size, c->len);
        close(fd);
        return -1;
    }
    void *map = mmap(NULL, c->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %s: %s", path, strerror(e));
        return -1;
    }
    c->h = map;
    if (c->h->magic != MPIRR_CTL_MAGIC || c->h->version != MPIRR_CTL_VERSION ||
        c->h->nranks != (uint32_t)nranks || c->h->slot_size != MPIRR_CTL_SLOT_SIZE) {
        snprintf(err, errlen, "%s is not a control file of this mpirr for %d ranks", path, nranks);
        mpirr_ctl_close(c);
        return -1;
    }
    return 0;
}

void mpirr_ctl_close(mpirr_ctl *c)
{
    if (c->h) munmap(c->h, c->len);
    c->h = NULL;
}

const char *mpirr_ctl_state_name(unsigned state)
{
    static const char *const names[] = {
        [MPIRR_CTL_NOT_STARTED] = "not started",
        [MPIRR_CTL_RUNNING] = "running",
        [MPIRR_CTL_HELD] = "held",
        [MPIRR_CTL_HELD_SIGNAL] = "held on a signal",
        [MPIRR_CTL_FINISHED] = "finished",
        [MPIRR_CTL_CRASHED] = "crashed",
        [MPIRR_CTL_ABORTED] = "aborted",
        [MPIRR_CTL_DIVERGED] = "diverged",
        [MPIRR_CTL_EXITED] = "exited",
        [MPIRR_CTL_END_OF_RECORDING] = "held at the end of its recording",
        [MPIRR_CTL_ABORTING] = "aborting",
    };
    return state < sizeof names / sizeof names[0] && names[state] ? names[state] : "unknown";
}
